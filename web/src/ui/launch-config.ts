// <ss-launch-config>: a plan (a searched training plan, a serving deployment, the replica on screen) as a framework's
// launch configuration, written by the engine (docs/api.md "Framework launch configs"): a choice of the frameworks
// that write it, the text in a <pre> with what the framework cannot express and what is left to the reader listed
// under it, and a copy button. Its code, its worker and the launch engine (scalescope_launch.wasm) load when a reader
// first asks for a launch config: the panels import this module on that click, and the worker starts with the
// first request (src/engine/launch-client.ts). The list of frameworks is the engine's answer, not the page's rule:
// every framework is asked once per plan and those that answer are offered (state/launch.ts).
import { LitElement, css, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { Framework } from '../engine/types';
import { evaluateLaunch } from '../engine/launch-client';
import {
  FRAMEWORKS,
  chosenOption,
  launchChoices,
  launchScenario,
  runScenario,
  type LaunchChoices,
} from '../state/launch';
import type { State } from '../state/params';
import { diagnosticsList } from './diagnostics';

/** What to write a launch config for: the state whose plan it is (or why the page cannot hold the plan), and its name. */
export interface LaunchSource {
  /** Identifies the plan: a new key asks the engine again. */
  key: string;
  /** "plan #1 (FSDP 32 × TP 4)", "the replica on screen". */
  title: string;
  state: State | string;
}

/** The reader's framework, kept across plans and panels while the page is open. */
let preferred: Framework | null = null;

/**
 * The panel's rules, added to the page's own styles (the explorer's shadow root) when the panel first shows: they
 * load with this module, not with the page, and a constructed sheet is not inline style (the page's CSP, src/csp.ts).
 */
const STYLES = css`
  .launch-config { border-top: 1px solid #ddd; margin-top: 10px; padding-top: 8px; }
  .launch-config h4 { margin: 8px 0 4px; }
  .launch-config select { width: auto; }
  .launch-config pre { white-space: pre; overflow: auto; max-height: 28em; font: 12px/1.45 ui-monospace, monospace; background: #f4f4f0;
    border: 1px solid #ddd; border-radius: 4px; padding: 8px 10px; margin: 6px 0; }
  .launch-config ul { margin: 2px 0 6px; padding-left: 18px; }
  .launch-config code { font-size: 12px; }
`;

export class SsLaunchConfig extends LitElement {
  static override properties = {
    source: { attribute: false },
    choices: { state: true },
    framework: { state: true },
    busy: { state: true },
    problem: { state: true },
    said: { state: true },
  };

  source: LaunchSource | null = null;
  choices: LaunchChoices | null = null;
  framework: Framework | null = preferred;
  busy = false;
  problem = '';
  /** What the copy button did. */
  said = '';
  /** The source asked for last (answers to an older one are dropped). */
  private asked = '';

  protected override createRenderRoot(): this {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const root = this.getRootNode();
    const sheet = STYLES.styleSheet;
    if (sheet && root instanceof ShadowRoot && !root.adoptedStyleSheets.includes(sheet))
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('source') && this.source && this.source.key !== this.asked) void this.ask(this.source);
  }

  /** Every framework for this plan, in one batch to the launch engine; then the text is copied. */
  private async ask(src: LaunchSource): Promise<void> {
    this.asked = src.key;
    this.busy = true;
    this.problem = '';
    this.said = '';
    try {
      const sc = typeof src.state === 'string' ? src.state : await runScenario(src.state, evaluateLaunch);
      if (this.asked !== src.key || sc === null) return;
      if (typeof sc === 'string') {
        this.choices = null;
        this.problem = sc;
        return;
      }
      const answers = await evaluateLaunch(FRAMEWORKS.map((f) => launchScenario(sc, f)));
      if (this.asked !== src.key || !answers) return;
      this.choices = launchChoices(answers);
      this.busy = false;
      await this.updateComplete;
      await this.copy();
    } catch (e) {
      if (this.asked === src.key)
        this.problem = `The launch configs could not be written: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      if (this.asked === src.key) this.busy = false;
    }
  }

  /** The text to the clipboard; where the page may not write it, the text is selected for the reader to copy. */
  private async copy(): Promise<void> {
    const option = chosenOption(this.choices?.options ?? [], this.framework);
    const pre = this.querySelector<HTMLElement>('[data-launch-text]');
    if (!option || !pre) return;
    try {
      await navigator.clipboard.writeText(option.result.text);
      this.said = `Copied: ${option.result.title}.`;
    } catch {
      const range = document.createRange();
      range.selectNodeContents(pre);
      const selection =
        (this.getRootNode() as Document | (ShadowRoot & { getSelection?: () => Selection | null })).getSelection?.() ??
        document.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      pre.focus();
      this.said = 'The page may not write to the clipboard here: the text is selected, copy it with Ctrl+C (⌘C).';
    }
  }

  private choose(framework: Framework): void {
    this.framework = preferred = framework;
    this.said = '';
  }

  private close(): void {
    this.dispatchEvent(new CustomEvent('ss-launch-close', { bubbles: true }));
  }

  override render(): TemplateResult {
    const src = this.source;
    const choices = this.choices;
    const option = chosenOption(choices?.options ?? [], this.framework);
    const r = option?.result;
    return html`<div class="launch-config" data-launch-config role="region" aria-label="Launch config${src ? ` for ${src.title}` : ''}">
      <div class="plan-actions">
        <strong>Launch config${src ? `: ${src.title}` : ''}</strong>
        ${
          choices?.options.length
            ? html`<label>Framework <select data-launch-framework @change=${(e: Event) => this.choose((e.target as HTMLSelectElement).value as Framework)}>
          ${choices.options.map((o) => html`<option value=${o.framework} ?selected=${o === option}>${o.result.title}</option>`)}</select></label>
          <button type="button" data-launch-copy @click=${() => void this.copy()}>Copy launch config</button>`
            : nothing
        }
        <button type="button" data-launch-close @click=${() => this.close()}>Close</button>
        <span class="copied" role="status" aria-live="polite" data-launch-said>${this.busy ? 'Writing the launch configs…' : this.said}</span>
      </div>
      ${this.problem ? html`<div class="error" role="alert" data-launch-problem>${this.problem}</div>` : nothing}
      ${choices && !choices.options.length ? diagnosticsList(choices.diagnostics, 'launch_config') : nothing}
      ${
        r
          ? html`${option!.diagnostics.length ? diagnosticsList(option!.diagnostics, 'launch_config') : nothing}
        <pre data-launch-text data-format=${r.format} tabindex="0" aria-label="${r.title}, ${r.format === 'command_line' ? 'a command line' : r.format === 'yaml' ? 'YAML' : 'JSON'}">${r.text}</pre>
        ${
          r.unexpressed.length
            ? html`<h4>What ${r.title.replace(/ \(.*$/, '')} cannot express</h4>
          <ul data-launch-unexpressed>${r.unexpressed.map((u) => html`<li>${u.text} <code class="muted">${u.setting}</code></li>`)}</ul>`
            : nothing
        }
        ${
          r.undecided.length
            ? html`<h4>Not decided by the engine: set them for your cluster and data</h4>
          <ul data-launch-undecided>${r.undecided.map((u) => html`<li>${u}</li>`)}</ul>`
            : nothing
        }
        <p class="muted small">The plan the engine priced, as ${r.title} writes it; read back (<code>scalescope import --for ${r.framework}</code>), it gives the same plan but for what the framework cannot express.</p>`
          : nothing
      }
    </div>`;
  }
}

customElements.define('ss-launch-config', SsLaunchConfig);
