// <ss-export>: take the result away — the scenario and the engine's answer as JSON, the answer as CSV, and the CLI
// command that prints the same numbers (charts have their own SVG / PNG buttons).
import { LitElement, html, type TemplateResult } from 'lit';
import type { Evaluation, Scenario } from '../engine/types';
import { download } from '../charts/export';
import { cliCommand, resultCsv, resultJson } from '../state/export';

export class SsExport extends LitElement {
  static override properties = { scenario: { attribute: false }, answer: { attribute: false } };
  scenario: Scenario | null = null;
  answer: Evaluation<unknown> | null = null;

  protected override createRenderRoot(): this {
    return this;
  }

  override render(): TemplateResult {
    const sc = this.scenario;
    const ev = this.answer;
    if (!sc || !ev) return html``;
    const kind = sc.query.kind;
    return html`<section class="panel" aria-labelledby="h-export" data-export>
      <h3 id="h-export">Take it with you</h3>
      <div class="plan-actions">
        <button type="button" data-download="json" @click=${() => download(new Blob([resultJson(sc, ev)], { type: 'application/json' }), `scalescope-${kind}.json`)}>Download JSON</button>
        <button type="button" data-download="csv" ?disabled=${!ev.result} @click=${() => download(new Blob([resultCsv(ev.result)], { type: 'text/csv' }), `scalescope-${kind}.csv`)}>Download CSV</button>
      </div>
      <p class="muted">The same numbers from the command line (after <code>scripts/run.sh</code> or a release build):</p>
      <pre class="cli" data-cli tabindex="0" aria-label="CLI command">${cliCommand(sc)}</pre>
      <p class="muted small">Swap <code>--summary</code> for <code>--table</code> to list every number, or drop it for the engine’s JSON.</p>
    </section>`;
  }
}

customElements.define('ss-export', SsExport);
