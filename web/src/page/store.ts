// The page's state (the parameter table's values, state/params.ts) and its URL: only non-default values, written
// once the controls rest, read back on load and on history navigation under the controls' own rules
// (state/link-load.ts). Every change goes through here, and `changed` tells the page what moved. The rules (a fixed
// chip count, degrees a chip can lay out, the nearest state that runs) are the engine's, asked at once on the page's
// own instance (`ask`); a link read before the engine is there waits for it.
import {
  cloneState,
  defaultState,
  hardwareFields,
  hardwarePreset,
  param,
  type State,
  type Value,
} from '../state/params';
import { decodeState, encodeState, type Decoded } from '../state/url';
import { loadLink } from '../state/link-load';
import { DEGREE_KEYS, balanced, chipsFixed, nearest, planMeshResult, type AskNow } from '../state/plan-mesh';
import { minifyConfig } from '../state/hf';
import { pinnedOf } from '../state/pin';
import { unusedProfileNotices } from '../state/profile';
import { planMeshScenario } from '../state/scenario';
import type { Applied } from '../state/apply';
import { fitResult, fitScenario, fitWords, stateOfFit } from '../state/fit';

/** Controls whose change makes an applied plan's exact layout meaningless: the page returns to its own layout. */
const LAYOUT_KEYS = new Set(['dp', 'fsdp', 'tp', 'pp', 'ep', 'cp', 'slices', 'dcn', 'hw', 'chips', 'mode']);
const DEGREE_KEY_SET: ReadonlySet<string> = new Set(Object.values(DEGREE_KEYS));
const MODEL_KEYS = ['size', 'layers', 'd_model', 'ff_ratio', 'heads', 'kv_heads', 'vocab', 'experts', 'active'];

export interface StoreEvents {
  /**
   * The state moved. `input`: a reader's input caused it (a control, with its event if there is one, or an applied
   * plan); null for a reset.
   */
  stateChanged: (input: { ev?: Event } | null) => void;
  /** Only what the page says about the state (notices, a refused degree) moved. */
  messagesChanged: () => void;
}

export class StateStore {
  state: State = defaultState();
  notices: string[] = [];
  /** Why the last degree or chip change was refused, or freed the chip count. */
  degreeProblem = '';
  /** Why the last pasted config.json was not used (not JSON, too long): said under the paste box, where it was typed. */
  hfProblem = '';
  /** What the last "nearest plan that fits" moved, or why nothing fits: said under the headline until the next change. */
  fitNotes: string[] = [];
  /** The notices of the loaded link that name a calibration profile this browser did not have. */
  private profileNotices: string[] = [];
  private urlTimer: ReturnType<typeof setTimeout> | null = null;
  private urlDue: number | null = null;
  /** A link decoded before the engine could check it (applyLinkRules checks it once the engine is there). */
  private unchecked: Decoded | null = null;

  constructor(
    private readonly on: StoreEvents,
    private readonly ask: AskNow,
  ) {}

  get query(): string {
    return encodeState(this.state);
  }

  /**
   * A state from a URL: decoded, then put under the controls' rules (state/link-load.ts) once the engine can answer
   * (now, or in applyLinkRules), the pinned comparison checked.
   */
  load(search: string): void {
    const d = decodeState(search);
    this.unchecked = d;
    this.state = d.state;
    this.fitNotes = [];
    this.degreeProblem = '';
    this.hfProblem = '';
    this.applyLinkRules();
  }

  /** A loaded link under the engine's rules, with a notice for each change; false while the engine cannot answer. */
  applyLinkRules(): boolean {
    const d = this.unchecked;
    if (!d) return true;
    const link = loadLink(d, this.ask);
    if (!link) return false;
    this.unchecked = null;
    this.state = link.state;
    const pinned = pinnedOf(link.state);
    this.profileNotices = unusedProfileNotices(link.state, pinned?.state ?? null);
    this.notices = [...d.notices, ...link.notices, ...(pinned?.notices ?? []), ...this.profileNotices];
    return true;
  }

  setValues(changes: Record<string, Value>, ev?: Event): void {
    const s = cloneState(this.state);
    for (const [key, value] of Object.entries(changes)) {
      s.values[key] = value;
      if (LAYOUT_KEYS.has(key)) s.values['layout'] = param('layout').default;
      if (key === 'hw' && value !== this.state.values['hw']) s.hw = {};
      if (key === 'model') for (const k of MODEL_KEYS) s.values[k] = param(k).default;
    }
    let rb = chipsFixed(s)
      ? balanced(s, planMeshResult(this.ask(planMeshScenario(s, undefined, { chips: true }))))
      : { state: s };
    this.degreeProblem = '';
    // A fixed chip count the degrees cannot split (3 chips under TP 8) never stays on screen beside a plan of another
    // size (issue 20): a change of the chips or a degree is refused, any other change (the mode) frees the count.
    if (rb.problem) {
      if (Object.keys(changes).some((k) => k === 'chips' || k === 'slices' || DEGREE_KEY_SET.has(k))) {
        this.degreeProblem = `${rb.problem}, so the change was not made.`;
        this.on.messagesChanged();
        return;
      }
      this.degreeProblem = `${rb.problem}, so the chip count is no longer fixed.`;
      s.values['chips'] = null;
      rb = { state: s };
    }
    // A new chip keeps the question answerable: the engine's nearest degrees that lay out on it, and why.
    if ('hw' in changes) {
      const n = nearest(rb.state, planMeshResult(this.ask(planMeshScenario(rb.state, undefined, { chips: true }))));
      if (n.notices.length) this.degreeProblem = n.notices.join(' ');
      rb = { state: n.state };
    }
    this.commit(rb.state, { ev });
  }

  setHardwareField(path: string, value: number | boolean | null, ev?: Event): void {
    const s = cloneState(this.state);
    const preset = hardwareFields(hardwarePreset(String(s.values['hw']))).find((f) => f.path === path);
    if (value === null || (preset && preset.value === value)) delete s.hw[path];
    else s.hw[path] = value;
    this.commit(s, { ev });
  }

  /** A pasted config.json becomes the model (or, with null, the preset again). */
  setHf(text: string | null, extra: Record<string, Value>, ev?: Event): void {
    const presetModel = Object.fromEntries(MODEL_KEYS.map((k) => [k, param(k).default]));
    this.hfProblem = '';
    if (text === null) {
      this.setValues({ ...extra, hf: '', ...presetModel }, ev);
      return;
    }
    const m = minifyConfig(text);
    if (!m.ok) {
      this.hfProblem = m.problem;
      this.on.messagesChanged();
      return;
    }
    this.setValues({ hf: m.text, ...presetModel }, ev);
  }

  /** Sets the controls to an applied plan or deployment, as if the reader had moved them; its problems otherwise. */
  apply(a: Applied): void {
    if (!a.ok) this.say(a.problems);
    else this.commit(a.state, {});
  }

  reset(): void {
    const pin = this.state.values['pin'];
    const s = defaultState();
    s.values['pin'] = pin ?? ''; // a reset keeps the comparison: compare against the defaults
    this.notices = [];
    this.degreeProblem = '';
    this.commit(s, null);
  }

  say(notices: string[]): void {
    this.notices = notices;
    this.on.messagesChanged();
  }

  /**
   * The nearest plan that runs, fits in HBM and warns of nothing, as the engine finds it (nearest_fit: the degrees,
   * the recomputation, then the batch; the model stays), with each change in words; when none does, why.
   */
  fitNearest(ev?: Event): void {
    const answer = this.ask(fitScenario(this.state));
    if (!answer) return;
    const fit = fitResult(answer);
    const notes = fit?.fits
      ? fitWords(answer)
      : [
          fit
            ? 'No plan near this one fits, at any recomputation or smaller batch the engine tried: try more chips, or a smaller model.'
            : `The engine could not search: ${answer.diagnostics.map((d) => d.message).join(' ')}`,
        ];
    if (fit?.fits) this.commit(stateOfFit(this.state, answer), { ev });
    this.fitNotes = notes;
    if (!fit?.fits) this.on.messagesChanged();
  }

  private commit(s: State, input: { ev?: Event } | null): void {
    this.fitNotes = [];
    this.state = s;
    this.updateProfileNotices();
    this.scheduleUrl();
    this.on.stateChanged(input);
  }

  /** Why a profile the state names is not in use, kept current: a link's missing profile goes once it is loaded, and
   * one for the other kind of chip is said when that chip is chosen and goes when a chip of its kind is. */
  private updateProfileNotices(): void {
    const now = unusedProfileNotices(this.state, pinnedOf(this.state)?.state ?? null);
    const settled = this.profileNotices.filter((n) => !now.includes(n));
    const fresh = now.filter((n) => !this.profileNotices.includes(n));
    if (settled.length || fresh.length) this.notices = [...this.notices.filter((n) => !settled.includes(n)), ...fresh];
    this.profileNotices = now;
  }

  private scheduleUrl(): void {
    // history.replaceState costs about a millisecond in Chromium: write the URL once the controls rest for 150 ms
    // (never more than 1 s late while a slider keeps moving), so it does not compete with a move's paint.
    const now = performance.now();
    this.urlDue ??= now + 1000;
    if (this.urlTimer) clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(
      () => {
        this.urlTimer = null;
        this.urlDue = null;
        this.writeUrl();
      },
      Math.max(0, Math.min(150, this.urlDue - now)),
    );
  }

  writeUrl(): void {
    window.history.replaceState(null, '', `${window.location.pathname}?${this.query}${window.location.hash}`);
  }

  /** The URL lags slider moves by up to 150 ms; never lose the last change to a reload or a closed tab. */
  flushUrl = (): void => {
    if (!this.urlTimer) return;
    clearTimeout(this.urlTimer);
    this.urlTimer = null;
    this.urlDue = null;
    this.writeUrl();
  };
}
