// <ss-profile-loader>: a calibration profile of the reader's own (state/profile.ts), from a file or pasted: a profile
// in calibration_profiles/<id>.json's format, or a whole calibrate result, whose profile for the chip is taken. The
// page checks only that the text is JSON it can keep; the engine checks the rest, and its diagnostics under
// /query/calibration are listed here. A chosen file is used at once; pasted text waits for its button.
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import type { Calibration, Diagnostic } from '../engine/types';
import { hardwarePreset, type State } from '../state/params';
import {
  MAX_PROFILE_INPUT_CHARS,
  calibrationOf,
  keepProfile,
  profileFormatProblem,
  profileRefOf,
  profileTextOf,
  readProfile,
  type AskProfile,
} from '../state/profile';
import { fmtBytes } from '../charts/format';
import { diagnosticsList } from './diagnostics';
import { pasteBox } from './paste';
import type { SetDetail } from './controls';

/** The page's own word on the last text read, shown while the reference it was about is the state's. */
interface Message {
  problem: boolean;
  text: string;
  ref: string;
}

export class SsProfileLoader extends LitElement {
  static override properties = {
    state: { attribute: false },
    calibration: { attribute: false },
    diagnostics: { attribute: false },
    ask: { attribute: false },
    message: { state: true },
  };

  state!: State;
  /** What the engine says about the profile behind the numbers on screen (undefined: no calibrated answer). */
  calibration: Calibration | undefined;
  /** The engine's diagnostics about the loaded profile. */
  diagnostics: readonly Diagnostic[] = [];
  /** The engine at once, which chooses the chip's profile from a calibrate result. */
  ask: AskProfile = () => null;
  message: Message | null = null;
  private opened = false;

  protected override createRenderRoot(): this {
    return this; // inside the explorer's shadow root: its styles apply
  }

  private get ref(): string {
    return String(this.state.values['cal'] ?? '');
  }

  private setRef(cal: string, ev?: Event): void {
    this.dispatchEvent(new CustomEvent<SetDetail>('ss-set', { detail: { values: { cal }, ev }, bubbles: true }));
  }

  private say(problem: boolean, text: string, ref = this.ref): void {
    this.message = text ? { problem, text, ref } : null;
  }

  /** Reads the text (`from`: the file it came from) and, when the page can keep it, makes it the state's profile. */
  private use(text: string, ev?: Event, from = ''): void {
    const r = readProfile(text, hardwarePreset(String(this.state.values['hw'])), this.ask);
    if (!r.ok) return this.say(true, from ? `${from}: ${r.problem}` : r.problem);
    const kept = keepProfile(r.text);
    const lost = kept
      ? ''
      : 'This browser cannot keep it (storage is full or turned off): it lasts until this page closes, and the link will not find it elsewhere.';
    this.say(!kept, [from && `Read ${from}.`, r.note, lost].filter(Boolean).join(' '), r.ref);
    this.setRef(r.ref, ev);
  }

  private async onFile(e: Event): Promise<void> {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = ''; // choosing the same file again (edited) reads it again
    if (!file) return;
    if (file.size > MAX_PROFILE_INPUT_CHARS)
      return this.say(
        true,
        `${file.name} is ${fmtBytes(file.size)}; the page reads files up to ${fmtBytes(MAX_PROFILE_INPUT_CHARS)}.`,
      );
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
    } catch {
      return this.say(true, `${file.name} is not UTF-8 text.`);
    }
    this.use(text, undefined, file.name); // no input event to time: reading the file took its own while
  }

  /** Which profile the numbers use, in words. */
  private status(): TemplateResult {
    const ref = profileRefOf(this.state);
    const engine = this.calibration?.profile;
    if (!ref) {
      return engine
        ? html`In use: the shipped profile <b>${engine.id}</b>${engine.family_fallback ? ' (its family’s: this chip has no profile of its own)' : ''}.`
        : html`In use: the shipped profile of this chip.`;
    }
    if (!calibrationOf(this.state)) {
      return html`The link names profile <b>${ref.id}</b> (fingerprint ${ref.fp}), which this browser has not loaded: the numbers use the shipped profile${engine ? html` <b>${engine.id}</b>` : nothing}. Load that file to restore it.`;
    }
    if (engine)
      return html`In use: yours, <b>${engine.id}</b> (${engine.source}); kept in this browser, the link names it as <code>${ref.id}~${ref.fp}</code>.`;
    return profileFormatProblem(this.diagnostics)
      ? html`Yours, <b>${ref.id}</b>, is loaded, but it is in a format this engine no longer reads: the numbers cannot use it (below).`
      : html`Yours, <b>${ref.id}</b>, is loaded; the engine cannot use it as it is (below).`;
  }

  override render(): TemplateResult {
    const on = this.ref !== '';
    const mine = on && calibrationOf(this.state) !== undefined;
    const message = this.message?.ref === this.ref ? this.message : null;
    // A profile of a format the engine no longer reads: its message on its own, above the other diagnostics.
    const format = on ? profileFormatProblem(this.diagnostics) : null;
    return html`<details class="more profile" data-profile ?open=${on || this.opened || message !== null}
      @toggle=${(e: Event) => (this.opened = (e.target as HTMLDetailsElement).open)}>
      <summary>Calibration profile${mine ? html` <span class="badge">yours</span>` : on ? html` <span class="badge">not in this browser</span>` : nothing}</summary>
      <p class="help">The calibrated numbers use a profile: the efficiencies of this chip fitted on published, measured runs. To use your own cluster’s, fit one on a few of your measured runs with Scalescope’s calibrate command, then load the file it writes for this chip here, or paste it (a whole calibrate answer works too: the page takes this chip’s profile from it). A profile from before this version’s kernel models (format 1) must be fitted again. The engine checks it; this browser keeps it and the link names it.</p>
      <p class="profile-status" data-profile-status>${this.status()}</p>
      <div class="ctl"><label for="c-cal-file">Profile file (.json)</label>
        <input type="file" id="c-cal-file" accept=".json,application/json" @change=${(e: Event) => void this.onFile(e)} /></div>
      ${pasteBox({
        id: 'c-cal',
        label: 'calibration profile text',
        placeholder:
          '{"schema": "scalescope.calibration/2", "id": "my-cluster", "kind": "gpu", "hardware": ["h100-sxm"], "kernels": {…}, "parameters": {…}, …}',
        value: profileTextOf(this.state),
        useText: 'Use this profile',
        clearText: on ? 'Back to the shipped profile' : null,
        host: this,
        onUse: (text, ev) => this.use(text, ev),
        onClear: (ev) => this.setRef('', ev),
      })}
      ${message ? html`<p class=${message.problem ? 'notice-inline' : 'help'} role="status" data-profile-message>${message.text}</p>` : nothing}
      ${format ? html`<p class="notice-inline" role="alert" data-profile-format><strong>This profile’s format is too old for this engine.</strong> ${format}</p>` : nothing}
      ${diagnosticsList(format ? this.diagnostics.filter((d) => d.code !== 'unsupported_version') : this.diagnostics, 'calibration')}
    </details>`;
  }
}

customElements.define('ss-profile-loader', SsProfileLoader);
