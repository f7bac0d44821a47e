// <ss-export>: take the result away — the inputs, the scenario and the engine's answer as JSON, the inputs and the
// answer as CSV (state/export.ts), and the CLI command that prints the same numbers (charts have their own SVG /
// PNG buttons, the searches their own downloads).
import { LitElement, html, type TemplateResult } from 'lit';
import type { Evaluation, Scenario } from '../engine/types';
import type { State } from '../state/params';
import { cliCommand, resultCsv, resultJson } from '../state/export';
import { downloadButtons } from './downloads';

export class SsExport extends LitElement {
  static override properties = {
    state: { attribute: false },
    scenario: { attribute: false },
    answer: { attribute: false },
  };
  /** The state the answer was computed for. */
  state: State | null = null;
  scenario: Scenario | null = null;
  answer: Evaluation<unknown> | null = null;

  protected override createRenderRoot(): this {
    return this;
  }

  override render(): TemplateResult {
    const st = this.state;
    const sc = this.scenario;
    const ev = this.answer;
    if (!st || !sc || !ev) return html``;
    return html`<section class="panel" aria-labelledby="h-export" data-export>
      <h3 id="h-export">Take it with you</h3>
      <div class="plan-actions">
        ${downloadButtons({ name: `scalescope-${sc.query.kind}`, id: '', what: 'this result', json: () => resultJson(st, sc, ev), csv: ev.result ? () => resultCsv(st, sc, ev) : null })}
      </div>
      <p class="muted">Each file starts with the inputs: the chip, the model, the fidelity and calibration profile the engine used, and every setting that differs from its default.</p>
      <p class="muted">The same numbers from the command line (after <code>scripts/run.sh</code> or a release build):</p>
      <pre class="cli" data-cli tabindex="0" aria-label="CLI command">${cliCommand(sc)}</pre>
      <p class="muted small">Swap <code>--summary</code> for <code>--table</code> to list every number, or drop it for the engine’s JSON.</p>
    </section>`;
  }
}

customElements.define('ss-export', SsExport);
