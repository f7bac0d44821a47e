// <scalescope-explorer>: the one-page explorer. It owns the state (the parameter table's values, state/params.ts),
// the URL (only non-default values), and the engines: the numbers on screen are evaluated synchronously on the
// page's own wasm instance in the input handler, so they paint in the slider's own frame (engine/local.ts); charts
// and plan searches go to the worker. The panels are components with one job each (controls, headline, training and
// serving results, compare, plans, charts, model facts, export), in light DOM under this shadow root so they share
// its styles. All numbers come from the engine.
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { EngineClient, ResultCache, type BatchResult } from '../engine/client';
import { LocalEngine } from '../engine/local';
import type {
  ChipResult, Evaluation, MatmulResult, PlanSearchResult, RooflineResult, SearchedPlanCore, ServingDeployment, ServingResult, ServingSearchResult, TransformerResult,
} from '../engine/types';
import {
  FEATURES, PRESETS, cloneState, defaultState, hardwareFields, hardwarePreset, param, type State, type Value,
} from '../state/params';
import { decodeState, encodeState } from '../state/url';
import { loadLink } from '../state/link-load';
import { applyPlan } from '../state/plans';
import { WARM_UP_PLANS, chunkScenario, searchInChunks, type ChunkProgress, type EvaluateSearch } from '../state/search-driver';
import { applyDeployment } from '../state/serving-search';
import { DEGREE_KEYS, fitToChip, rebalance } from '../state/degrees';
import { hfAnswer, hfConfigOf, minifyConfig, rememberHfModel } from '../state/hf';
import { pinText, pinnedOf } from '../state/pin';
import { isProfileDiagnostic, missingProfileNotices } from '../state/profile';
import {
  atBookFidelity, chipScenario, mainMatmuls, mainScenario, meshFor, planSearchScenario, rooflineCurveScenarios, scalingScenarios, servingSearchScenario,
  transformerScenario, ROOFLINE_INTENSITIES,
} from '../state/scenario';
import { sig } from '../charts/format';
import { styles } from './styles';
import { diagnosticsList } from './diagnostics';
import { fidelityOf, metricsOf, planStatus, isServing, type Planned, type Results } from './results';
import type { SetEvent } from './controls';
import { checkPlans, listedPlans, type SearchRun } from './plan-list';
import type { ServingSearchRun } from './serving-search';
import './controls';
import './headline';
import './training-results';
import './serving-results';
import './charts';
import './facts';

type PlotsModule = typeof import('../charts/plots');

/** Controls whose change makes an applied plan's exact layout meaningless: the page returns to its own layout. */
const LAYOUT_KEYS = new Set(['dp', 'fsdp', 'tp', 'pp', 'ep', 'cp', 'slices', 'dcn', 'hw', 'chips', 'mode']);
const DEGREE_KEY_SET: ReadonlySet<string> = new Set(Object.values(DEGREE_KEYS));
const MODEL_KEYS = ['size', 'layers', 'd_model', 'ff_ratio', 'heads', 'kv_heads', 'vocab', 'experts', 'active'];

/** Test and measurement hooks (read by the browser test; harmless for readers). */
export interface ScalescopeHooks {
  renders: number;
  ready: boolean;
  /**
   * Per slider move, ms from the input event: `rendered` numbers in the DOM (engine + render), `painted` the end of
   * the frame that shows them (frame-aligned), `frameWait` the part of that spent waiting for the frame to begin;
   * `received` the answer back (synchronous on the page: the engine's own time), `engine` time in wasm, `update`
   * Lit's DOM update of the results; `trips` worker round trips (0 when the page's instance answered), `calls` wasm
   * calls, `cached` scenarios the page's cache answered; `inputFrame` the end of the first frame after the input
   * (the one that shows the moved slider itself); `local` whether the page's own instance answered.
   */
  latencies: { rendered: number; painted: number; frameWait: number; inputFrame: number; received: number; engine: number; update: number; trips: number; calls: number; cached: number; local: boolean }[];
  engineLoadMs?: number;
  interactiveMs?: number;
  /** The worker's warm-up chunk (explorer.warmUpSearch), ms from its request to its answer. */
  warmUpMs?: number;
  errors: string[];
  /** URL query of the state on screen now, and of the state the shown numbers were computed for. */
  stateQuery: string;
  resultQuery: string;
  /** URL query of the state the charts were last drawn for. */
  chartsQuery?: string;
  /** The last plan search: time in the engine (ms), plans listed and, of those, on the Pareto front. */
  search?: {
    engineMs: number; plans: number; evaluated: number; listed: number; paretoListed: number;
    /** Wall time from the click to this chunk (ms), chunks so far, complete or not, progress after each chunk, for which state. */
    wallMs: number; chunks: number; complete: boolean; fracs: number[]; query: string;
  };
  /** The last serving search: time in the engine (ms; 0 when the cache answered), deployments listed, and for which state. */
  servingSearch?: { engineMs: number; cached: boolean; deployments: number; evaluated: number; meeting: number; query: string };
  /** Worker restarts and page-instance renewals so far (each after a hang or a throw). */
  restarts?: number;
}

declare global {
  interface Window {
    __scalescope?: ScalescopeHooks;
  }
}

export class ScalescopeExplorer extends LitElement {
  static override styles = styles;
  static override properties = {
    state: { state: true },
    notices: { state: true },
    engineStatus: { state: true },
    engineError: { state: true },
    results: { state: true },
    copied: { state: true },
    search: { state: true },
    searching: { state: true },
    servingSearch: { state: true },
    degreeProblem: { state: true },
    plots: { state: true },
  };

  state: State = defaultState();
  notices: string[] = [];
  engineStatus: 'loading' | 'ready' | 'error' = 'loading';
  engineError = '';
  results: Results | null = null;
  copied = '';
  search: SearchRun | null = null;
  searching = false;
  servingSearch: ServingSearchRun | null = null;
  degreeProblem = '';
  plots: PlotsModule | null = null;

  private client: EngineClient | null = null;
  private local: LocalEngine | null = null;
  /** Answers by scenario text, shared by the page's instance and the worker client. */
  private readonly cache = new ResultCache();
  /** Stops the running plan search (its chunks check it between engine calls). */
  private searchControl: AbortController | null = null;
  private curveCache = new Map<string, { intensity: number; attainable: number }[]>();
  private urlTimer: ReturnType<typeof setTimeout> | null = null;
  private urlDue: number | null = null;
  private pendingInputTime: number | null = null;
  private receivedAt = 0;
  private secondaryTimer: ReturnType<typeof setTimeout> | null = null;
  private lastBatch = { trips: 0, calls: 0, cached: 0, local: false };
  private chartsAsked = false;
  /** The notices of the loaded link that name a calibration profile this browser did not have. */
  private profileNotices: string[] = [];
  private readonly hooks: ScalescopeHooks = { renders: 0, ready: false, latencies: [], errors: [], stateQuery: '', resultQuery: '' };

  override connectedCallback(): void {
    super.connectedCallback();
    window.__scalescope = this.hooks;
    this.load(window.location.search);
    if (this.notices.length) this.writeUrl();
    window.addEventListener('popstate', this.onPopState);
    // The URL lags slider moves by up to 150 ms; never lose the last change to a reload or a closed tab.
    window.addEventListener('pagehide', this.flushUrl);
    this.startEngine();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.onPopState);
    window.removeEventListener('pagehide', this.flushUrl);
  }

  /** A state from a URL: decoded under the controls' rules (state/link-load.ts), the pinned comparison checked. */
  private load(search: string): void {
    const d = decodeState(search);
    const link = loadLink(d);
    this.state = link.state;
    this.degreeProblem = '';
    const pinned = pinnedOf(link.state);
    this.profileNotices = missingProfileNotices(link.state, pinned?.state ?? null);
    this.notices = [...d.notices, ...link.notices, ...(pinned?.notices ?? []), ...this.profileNotices];
    this.hooks.stateQuery = encodeState(this.state);
  }

  private flushUrl = (): void => {
    if (this.urlTimer) {
      clearTimeout(this.urlTimer);
      this.urlTimer = null;
      this.urlDue = null;
      this.writeUrl();
    }
  };

  private onPopState = (): void => {
    this.load(window.location.search);
    this.request();
  };

  private startEngine(): void {
    const engineBase = new URL('engine/', document.baseURI).href;
    const t0 = performance.now();
    const ready = (): void => {
      if (this.engineStatus === 'ready') return;
      this.engineStatus = 'ready';
      this.hooks.engineLoadMs = performance.now() - t0;
      this.hooks.ready = true;
      this.request();
      void this.updateComplete.then(() => {
        this.hooks.interactiveMs = performance.now();
        this.loadAfterFirstLook();
      });
    };
    // The page's own instance answers the numbers on screen, so it loads first; the worker (charts, plan searches)
    // starts once it is there, not competing with it for the CPU. If the page's instance cannot start, the worker
    // answers the numbers too.
    LocalEngine.start(engineBase).then(
      (l) => {
        this.local = l;
        ready();
        this.startWorker(engineBase)?.ready.then(() => this.warmUpSearch(), () => undefined);
      },
      (e: unknown) => {
        this.hooks.errors.push(`page engine: ${e instanceof Error ? e.message : String(e)}`);
        this.startWorker(engineBase)?.ready.then(ready, (err: unknown) => this.fail(err));
      },
    );
  }

  /**
   * Plot (half of the page's script, gzipped) loads once the numbers are on screen, so that it does not compete with the
   * engine and the first render for the network and the main thread; the charts appear once it is there. So do the
   * panels a reader turns to after a first look.
   */
  private loadAfterFirstLook(): void {
    void import('../charts/plots').then(
      (m) => (this.plots = m),
      (e: unknown) => this.hooks.errors.push(`charts did not load: ${String(e)}`),
    );
    // The searches, the downloads, the comparison and the profile loader are asked for after a first look: their
    // elements upgrade in place when their code arrives (Lit keeps the properties set before), which keeps them out
    // of the first load.
    const panels = [import('./plans'), import('./serving-search'), import('./export'), import('./compare'), import('./profile-loader')];
    void Promise.all(panels).catch((e: unknown) => this.hooks.errors.push(`a panel did not load: ${String(e)}`));
  }

  private startWorker(engineBase: string): EngineClient | null {
    try {
      // Vite bundles the worker from this exact `new Worker(new URL(...))` form.
      this.client = new EngineClient(() => new Worker(new URL('../engine/worker.ts', import.meta.url), { type: 'module' }), engineBase, { cache: this.cache });
    } catch (e) {
      this.hooks.errors.push(`engine worker: ${e instanceof Error ? e.message : String(e)}`);
      if (!this.local) this.fail(e);
    }
    return this.client;
  }

  /**
   * Once the worker is up and the page idle, one small chunk of the plan search for the state on screen, its answer
   * dropped: the worker's wasm then reaches its optimising tier before a reader's first search. The page's default
   * search, clicked once the page had settled, took 625-673 ms without it and 517-584 ms with it (this machine, four
   * loads each). It costs 60-200 ms of the worker's time, once per page.
   */
  private warmUpSearch(): void {
    const client = this.client;
    const sc = planSearchScenario(this.state) ?? planSearchScenario(defaultState());
    if (!client || !sc) return;
    const text = JSON.stringify(chunkScenario(sc, WARM_UP_PLANS));
    const idle = window.requestIdleCallback ?? ((f: () => void) => setTimeout(f, 200));
    idle(() => {
      const t0 = performance.now();
      client.evaluate([text], 'warm-up').then(
        (b) => {
          this.cache.delete(text);
          this.hooks.warmUpMs = b ? performance.now() - t0 : undefined;
        },
        () => undefined, // a failed warm-up only leaves the first search cold
      );
    });
  }

  private fail(e: unknown): void {
    this.engineStatus = 'error';
    this.engineError = e instanceof Error ? e.message : String(e);
  }

  // ---------------------------------------------------------------------------------------------- state changes

  /** End of the first frame after the last input (see ScalescopeHooks.latencies). */
  private inputFrameAt = NaN;

  private markInput(ev?: Event): void {
    const t0 = ev ? ev.timeStamp : performance.now();
    this.pendingInputTime = t0;
    this.inputFrameAt = NaN;
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        if (this.pendingInputTime === t0 || this.pendingInputTime === null) this.inputFrameAt = performance.now();
      };
      ch.port2.postMessage(null);
    });
  }

  private onSet = (e: SetEvent): void => {
    const d = e.detail;
    if (d.hfText !== undefined) this.setHf(d.hfText, d.values ?? {}, d.ev);
    else if (d.hwField) this.setHardwareField(d.hwField.path, d.hwField.value, d.ev);
    else if (d.values) this.setValues(d.values, d.ev);
  };

  private setValues(changes: Record<string, Value>, ev?: Event): void {
    this.markInput(ev);
    const s = cloneState(this.state);
    for (const [key, value] of Object.entries(changes)) {
      s.values[key] = value;
      if (LAYOUT_KEYS.has(key)) s.values['layout'] = param('layout').default;
      if (key === 'hw' && value !== this.state.values['hw']) s.hw = {};
      if (key === 'model') for (const k of MODEL_KEYS) s.values[k] = param(k).default;
    }
    let rb = rebalance(s);
    this.degreeProblem = '';
    // A fixed chip count the degrees cannot split (3 chips under TP 8) never stays on screen beside a plan of another
    // size (issue 20): a change of the chips or a degree is refused, any other change (the mode) frees the count.
    if (rb.problem) {
      if (Object.keys(changes).some((k) => k === 'chips' || k === 'slices' || DEGREE_KEY_SET.has(k))) {
        this.degreeProblem = `${rb.problem}, so the change was not made.`;
        this.requestUpdate();
        return;
      }
      this.degreeProblem = `${rb.problem}, so the chip count is no longer fixed.`;
      s.values['chips'] = null;
      rb = { state: s };
    }
    // A new chip keeps the question answerable: degrees its slice cannot hold shrink until they fit.
    this.state = 'hw' in changes ? fitToChip(rb.state, (x) => meshFor(x).ok) : rb.state;
    this.afterChange();
  }

  private setHardwareField(path: string, value: number | boolean | null, ev?: Event): void {
    this.markInput(ev);
    const s = cloneState(this.state);
    const preset = hardwareFields(hardwarePreset(String(s.values['hw']))).find((f) => f.path === path);
    if (value === null || (preset && preset.value === value)) delete s.hw[path];
    else s.hw[path] = value;
    this.state = s;
    this.afterChange();
  }

  /** A pasted config.json becomes the model (or, with null, the preset again). */
  private setHf(text: string | null, extra: Record<string, Value>, ev?: Event): void {
    if (text === null) {
      this.setValues({ ...extra, hf: '', ...Object.fromEntries(MODEL_KEYS.map((k) => [k, param(k).default])) }, ev);
      return;
    }
    const m = minifyConfig(text);
    if (!m.ok) {
      this.notices = [m.problem];
      return;
    }
    this.setValues({ hf: m.text, ...Object.fromEntries(MODEL_KEYS.map((k) => [k, param(k).default])) }, ev);
  }

  private afterChange(): void {
    this.dropSettledProfileNotices();
    this.hooks.stateQuery = encodeState(this.state);
    this.restartSearchIfAsked();
    this.scheduleUrl();
    this.request();
  }

  /** A link's missing-profile notice goes once that profile is loaded, or the state no longer names it. */
  private dropSettledProfileNotices(): void {
    const now = missingProfileNotices(this.state, pinnedOf(this.state)?.state ?? null);
    const settled = this.profileNotices.filter((n) => !now.includes(n));
    if (settled.length) this.notices = this.notices.filter((n) => !settled.includes(n));
    this.profileNotices = this.profileNotices.filter((n) => now.includes(n));
  }

  private scheduleUrl(): void {
    // history.replaceState costs about a millisecond in Chromium: write the URL once the controls rest for 150 ms
    // (never more than 1 s late while a slider keeps moving), so it does not compete with a move's paint.
    const now = performance.now();
    this.urlDue ??= now + 1000;
    if (this.urlTimer) clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => {
      this.urlTimer = null;
      this.urlDue = null;
      this.writeUrl();
    }, Math.max(0, Math.min(150, this.urlDue - now)));
  }

  private writeUrl(): void {
    const q = encodeState(this.state);
    window.history.replaceState(null, '', `${window.location.pathname}?${q}${window.location.hash}`);
  }

  private resetAll(): void {
    const pin = this.state.values['pin'];
    this.state = defaultState();
    this.state.values['pin'] = pin ?? ''; // a reset keeps the comparison: compare against the defaults
    this.notices = [];
    this.degreeProblem = '';
    this.afterChange();
  }

  private async copyLink(): Promise<void> {
    this.writeUrl();
    try {
      await navigator.clipboard.writeText(window.location.href);
      this.copied = 'Link copied.';
    } catch {
      this.copied = 'Copy the address bar: it always holds this page’s link.';
    }
    setTimeout(() => (this.copied = ''), 2500);
  }

  private pin(): void {
    if (!this.results) return;
    this.setValues({ pin: pinText(this.results.state) });
  }

  private unpin(): void {
    this.setValues({ pin: '' });
    // The Unpin button goes away: keep the keyboard where it was, on the pin button.
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLButtonElement>('#pin')?.focus());
  }

  // ---------------------------------------------------------------------------------------------- engine

  /** Evaluates texts on the page's own instance when it is there (at once), else in the worker. */
  private evaluate(texts: string[], lane: string): Promise<(BatchResult & { local: boolean }) | null> {
    const now = this.local ? this.local.evaluate(texts, this.cache) : null;
    if (now) return Promise.resolve({ ...now, local: true });
    if (!this.client) return Promise.resolve(null);
    return this.client.evaluate(texts, lane).then((b) => (b ? { ...b, local: false } : null));
  }

  /** Asks the engine what a pasted config.json is, once per text (needed before any scenario with it is built). */
  private resolveHf(s: State): void {
    const config = hfConfigOf(s);
    if (!config || hfAnswer(s)) return;
    const answer = this.local?.modelJson({ hf_config: config });
    if (answer) rememberHfModel(String(s.values['hf']), answer);
  }

  /**
   * Two stages, both "latest only": first what the numbers and bars need (planner, model, chip, matmuls, and the
   * pinned plan), on the page's instance, painted at once; then the scaling points and (once per chip) the roofline
   * curve, for the charts, in the worker.
   */
  private request(): void {
    if (this.engineStatus !== 'ready') return;
    const state = this.state;
    this.resolveHf(state);
    const pinned = pinnedOf(state)?.state ?? null;
    if (pinned) this.resolveHf(pinned);
    const mesh = meshFor(state);
    const texts: string[] = [];
    const push = (x: unknown): number => texts.push(JSON.stringify(x)) - 1;
    const iMain = mesh.ok ? push(mainScenario(state, mesh.plan)) : -1;
    const iTransformer = push(transformerScenario(state));
    const iChip = push(chipScenario(state));
    const hardware = chipScenario(state).hardware;
    const ops = mainMatmuls(state, mesh.ok ? mesh.plan : null).map((op) => ({ op, i: push({ version: 1, hardware, query: op.query }) }));
    const pinMesh = pinned ? meshFor(pinned) : null;
    const iPin = pinned && pinMesh?.ok ? push(mainScenario(pinned, pinMesh.plan)) : -1;
    const iPinChip = pinned ? push(chipScenario(pinned)) : -1;
    void this.evaluate(texts, 'main').then(
      (batch) => {
        if (!batch || this.state !== state) return; // a newer request replaced this one
        this.receivedAt = performance.now();
        this.lastBatch = { trips: batch.trips, calls: batch.calls, cached: batch.cached, local: batch.local };
        const r = batch.results;
        const curveKey = JSON.stringify(rooflineCurveScenarios(state)[0]);
        const at = <T>(i: number): Evaluation<T> | null => (i >= 0 ? (r[i] as Evaluation<T>) : null);
        this.results = {
          state,
          mesh,
          main: at<Planned>(iMain),
          transformer: at<TransformerResult>(iTransformer),
          chip: at<ChipResult>(iChip),
          ops: ops.map(({ op, i }) => ({ op, ev: r[i] as Evaluation<MatmulResult> })),
          pinned: pinned && pinMesh ? { state: pinned, mesh: pinMesh, main: at<Planned>(iPin), chip: at<ChipResult>(iPinChip) } : null,
          scaling: this.results?.state === state ? this.results.scaling : [],
          curve: this.curveCache.get(curveKey) ?? [],
          engineMs: batch.engineMs,
          scenarios: texts.length,
          cached: batch.cached,
          stage: 'primary',
        };
        // The charts' batch waits until the controls rest (150 ms without a change), so it never delays the next
        // move's numbers; only the very first charts are asked for at once.
        if (this.secondaryTimer) clearTimeout(this.secondaryTimer);
        this.secondaryTimer = setTimeout(() => {
          this.secondaryTimer = null;
          if (this.state !== state) return;
          this.requestSecondary(state, curveKey);
          this.requestServingSearch(state);
        }, this.chartsAsked ? 150 : 0);
        this.chartsAsked = true;
      },
      (e: unknown) => this.fail(e),
    );
  }

  /** The charts' scenarios at the fidelity the toggle chooses (an engine without fidelities has one: the book's). */
  private chartScenario<T extends { query: object }>(sc: T, state: State): T {
    return FEATURES.fidelity && state.values['fid'] === 'book' ? atBookFidelity(sc) : sc;
  }

  private requestSecondary(state: State, curveKey: string): void {
    const client = this.client;
    if (!client) return;
    const texts: string[] = [];
    const scaling = scalingScenarios(state).map((point) => ({ point, i: texts.push(JSON.stringify(this.chartScenario(point.scenario, state))) - 1 }));
    // The frontier is the main replica's sweep: at the book's fidelity it needs that replica at it (issue 22: the
    // toggle moved the scaling chart alone).
    const mesh = this.results?.mesh;
    const iBook = FEATURES.fidelity && isServing(state) && state.values['fid'] === 'book' && mesh?.ok
      ? texts.push(JSON.stringify(this.chartScenario(mainScenario(state, mesh.plan), state))) - 1 : -1;
    const needCurve = !this.curveCache.has(curveKey);
    const curveStart = texts.length;
    if (needCurve) for (const c of rooflineCurveScenarios(state)) texts.push(JSON.stringify(c));
    client.evaluate(texts, 'charts').then(
      (batch) => {
        if (!batch || this.results?.state !== state) return;
        const r = batch.results;
        if (needCurve) {
          const curve = ROOFLINE_INTENSITIES.map((intensity, k) => ({ intensity, attainable: (r[curveStart + k]?.result as RooflineResult | undefined)?.attainable_flops_per_s ?? NaN }))
            .filter((p) => Number.isFinite(p.attainable));
          this.curveCache.set(curveKey, curve);
        }
        this.results = {
          ...this.results,
          scaling: scaling.map(({ point, i }) => ({ point, ev: r[i] as Evaluation<Planned> })),
          curve: this.curveCache.get(curveKey) ?? [],
          bookServing: iBook >= 0 && r[iBook]?.ok ? (r[iBook]!.result as ServingResult) : undefined,
          engineMs: this.results.engineMs + batch.engineMs,
          scenarios: this.results.scenarios + texts.length,
          cached: this.results.cached + batch.cached,
          stage: 'secondary',
        };
      },
      (e: unknown) => this.hooks.errors.push(`charts: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  // ---------------------------------------------------------------------------------------------- plan search

  /**
   * Asks the engine for the best training plans for the current chips, model, batch, precision and the search's
   * constraints, in chunks (state/search-driver.ts): after each chunk the progress bar and the best plans so far
   * repaint. A search already running is cancelled first.
   */
  private runSearch(): void {
    const client = this.client;
    const state = this.state;
    const sc = planSearchScenario(state);
    this.cancelSearch();
    if (!client || !sc?.mesh) return;
    const key = JSON.stringify(sc);
    const gpu = hardwarePreset(String(state.values['hw'])).kind === 'gpu';
    const mesh = { shape: sc.mesh.shape, axis_names: sc.mesh.axis_names ?? [] };
    const control = new AbortController();
    this.searchControl = control;
    this.searching = true;
    this.search = { key, state, mesh, gpu, ev: null, engineMs: 0, checked: [], complete: false, chunks: 0, wallMs: 0, progressFrac: 0 };
    const t0 = performance.now();
    const fracs: number[] = [];
    const show = (p: ChunkProgress, complete: boolean): void => {
      const res = p.ev.ok ? p.ev.result : undefined;
      const checked = res ? checkPlans(state, res, mesh) : [];
      const wallMs = performance.now() - t0;
      this.search = { key, state, mesh, gpu, ev: p.ev, engineMs: p.engineMs, checked, complete, chunks: p.chunks, wallMs, progressFrac: res?.progress_frac ?? 1 };
      fracs.push(res?.progress_frac ?? 1);
      const shown = listedPlans(this.search);
      this.hooks.search = {
        engineMs: p.engineMs, wallMs, chunks: p.chunks, complete, fracs: [...fracs], plans: res?.plans.length ?? 0, evaluated: res?.counts.evaluated ?? 0,
        listed: shown.length, paretoListed: shown.filter((c) => c.plan.pareto).length, query: encodeState(state),
      };
    };
    // Each chunk's answer (plans, front and cursor: ~90 kB of JSON) is left out of the cache: its cursor makes the
    // text unique, so it would only push the numbers' answers out.
    const evaluate: EvaluateSearch = (text) =>
      client.evaluate([text], 'search').then((b) => {
        this.cache.delete(text);
        return b ? { ev: b.results[0] as Evaluation<PlanSearchResult>, engineMs: b.engineMs } : null;
      });
    searchInChunks(sc, evaluate, { signal: control.signal, onChunk: (p) => show(p, false) }).then(
      (last) => {
        if (!last) return; // cancelled, or a newer search replaced this one
        this.searching = false;
        this.searchControl = null;
        show(last, true);
      },
      (e: unknown) => {
        if (control.signal.aborted) return;
        this.searching = false;
        this.searchControl = null;
        this.search = { key, state, mesh, gpu, ev: null, engineMs: 0, checked: [], complete: false, chunks: 0, wallMs: 0, progressFrac: 0, error: e instanceof Error ? e.message : String(e) };
      },
    );
  }

  /** Stops the running search; the plans found so far stay, marked as partial. */
  private cancelSearch(): void {
    this.searchControl?.abort();
    this.searchControl = null;
    if (this.searching && this.search) this.search = { ...this.search, cancelled: true };
    this.searching = false;
  }

  /** Controls that change the search's question while it runs cancel it and start it again for the new one. */
  private restartSearchIfAsked(): void {
    if (!this.searching || !this.search) return;
    const sc = planSearchScenario(this.state);
    if (!sc || JSON.stringify(sc) !== this.search.key) this.runSearch();
  }

  // ---------------------------------------------------------------------------------------------- serving search

  /**
   * The serving search for the state on screen, in the worker, once the controls rest: one search takes a few
   * milliseconds (measured by the browser test), so it needs no button; a search already answered is not sent again.
   */
  private requestServingSearch(state: State): void {
    const client = this.client;
    const sc = servingSearchScenario(state);
    if (!client || !sc) return;
    const key = JSON.stringify(sc);
    if (this.servingSearch?.key === key && !this.servingSearch.error) return;
    client.evaluate([key], 'serving-search').then(
      (batch) => {
        if (!batch) return; // a newer search replaced this one
        const ev = batch.results[0] as Evaluation<ServingSearchResult>;
        this.servingSearch = { key, state, ev, engineMs: batch.engineMs };
        const res = ev.ok ? ev.result : undefined;
        this.hooks.servingSearch = {
          engineMs: batch.engineMs, cached: batch.cached > 0, deployments: res?.deployments.length ?? 0, evaluated: res?.evaluated ?? 0, meeting: res?.meeting_targets ?? 0, query: encodeState(state),
        };
      },
      (e: unknown) => (this.servingSearch = { key, state, ev: null, engineMs: 0, error: e instanceof Error ? e.message : String(e) }),
    );
  }

  /** Sets the serving controls to a deployment's replica (src/state/serving-search.ts), as if the reader had moved them. */
  private applyDeployment(d: ServingDeployment): void {
    const a = applyDeployment(this.state, d);
    if (!a.ok) {
      this.notices = a.problems;
      return;
    }
    this.markInput();
    this.state = a.state;
    this.afterChange();
  }

  /** Sets the controls to a searched plan (src/state/plans.ts), as if the reader had moved them. */
  private applyPlan(plan: SearchedPlanCore): void {
    const run = this.search;
    if (!run) return;
    const a = applyPlan(this.state, plan, run.mesh);
    if (!a.ok) {
      this.notices = a.problems;
      return;
    }
    this.markInput();
    this.state = a.state; // a plan keeps the chip count, so a fixed count stays fixed
    this.afterChange();
  }

  // ---------------------------------------------------------------------------------------------- timing

  /** Time of Lit's last DOM update (for the timing breakdown). */
  private lastUpdateMs = 0;

  protected override update(changed: PropertyValues<this>): void {
    const t = performance.now();
    super.update(changed);
    this.lastUpdateMs = performance.now() - t;
  }

  protected override updated(changed: PropertyValues<this>): void {
    this.scheduleTableHints();
    this.hooks.restarts = (this.client?.restarts ?? 0) + (this.local?.renewals ?? 0);
    if (!changed.has('results') || !this.results) return;
    this.hooks.renders++;
    this.setAttribute('data-renders', String(this.hooks.renders));
    // Latency counts only the first paint of numbers computed for the state the input produced.
    const current = this.results.state === this.state && this.results.stage === 'primary';
    if (current) this.hooks.resultQuery = encodeState(this.results.state);
    const t0 = current ? this.pendingInputTime : null;
    if (current) this.pendingInputTime = null;
    const rendered = performance.now();
    const updateMs = this.lastUpdateMs;
    const batch = this.lastBatch;
    const engineMs = this.results.engineMs;
    // The frame that paints this DOM: the next animation frame (from the DOM update until its callbacks run the page
    // only waits for the frame to begin), then a task after its rendering steps.
    requestAnimationFrame(() => {
      const frameStart = performance.now();
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        if (t0 === null) return;
        this.hooks.latencies.push({
          rendered: rendered - t0, painted: performance.now() - t0, frameWait: Math.max(0, frameStart - rendered), inputFrame: this.inputFrameAt - t0, received: this.receivedAt - t0,
          engine: engineMs, update: updateMs, trips: batch.trips, calls: batch.calls, cached: batch.cached, local: batch.local,
        });
      };
      ch.port2.postMessage(null);
    });
  }

  private tableTimer: ReturnType<typeof setTimeout> | null = null;

  /**
   * Wide tables that scroll sideways say so (a visible hint on narrow screens). Measuring forces a layout, so it
   * waits until the controls rest rather than costing every slider move a synchronous layout.
   */
  private scheduleTableHints(): void {
    if (this.tableTimer) clearTimeout(this.tableTimer);
    this.tableTimer = setTimeout(() => {
      this.tableTimer = null;
      for (const el of this.renderRoot.querySelectorAll<HTMLElement>('.table-wrap')) {
        el.toggleAttribute('data-scrolls', el.scrollWidth > el.clientWidth + 1);
      }
    }, 200);
  }

  // ---------------------------------------------------------------------------------------------- render

  /** The notice goes away with its button: the keyboard moves on to the results. */
  private dismissNotices(): void {
    this.notices = [];
    void this.updateComplete.then(() => this.focusResults());
  }

  /** Moves the keyboard to the results (the page's skip link). */
  focusResults(): void {
    this.renderRoot.querySelector<HTMLElement>('#results')?.focus();
  }

  private renderResults(): TemplateResult {
    const r = this.results;
    if (this.engineStatus === 'error') {
      return html`<div class="error" role="alert"><strong>The engine could not start.</strong> ${this.engineError}</div>`;
    }
    if (!r) return html`<div class="loading" role="status" aria-live="polite"><span class="spinner" aria-hidden="true"></span> Loading the engine…</div>`;
    const serving = isServing(r.state);
    const status = planStatus(r);
    const metrics = metricsOf(r, r.chip?.ok ? r.chip.result : undefined);
    const pin = r.pinned;
    const answer = r.main;
    return html`
      <ss-headline .results=${r} .status=${status} .metrics=${metrics}></ss-headline>
      ${!r.mesh.ok ? html`<div class="diagnostics" role="status" data-diagnostics="mesh"><ul><li class="err"><span class="sev">Problem</span> Mesh: ${r.mesh.problem}</li></ul></div>` : nothing}
      ${answer ? diagnosticsList(answer.diagnostics, serving ? 'serving' : 'training_step') : nothing}
      ${serving ? html`<ss-serving-results .results=${r}></ss-serving-results>` : html`<ss-training-results .results=${r}></ss-training-results>`}
      ${pin ? html`<ss-compare .pinnedState=${pin.state} .metrics=${metrics} .pinnedMetrics=${metricsOf(pin, pin.chip?.ok ? pin.chip.result : undefined)} .status=${status} .pinnedStatus=${planStatus(pin)}></ss-compare>` : nothing}
      ${serving ? html`<ss-serving-search .results=${r} .state=${this.state} .run=${this.servingSearch}
        @ss-apply-deployment=${(e: CustomEvent<ServingDeployment>) => this.applyDeployment(e.detail)}></ss-serving-search>` : html`<ss-plans .results=${r} .state=${this.state} .run=${this.search} .searching=${this.searching} .ready=${this.engineStatus === 'ready'}
        @ss-search=${() => this.runSearch()} @ss-cancel-search=${() => this.cancelSearch()} @ss-apply=${(e: CustomEvent<SearchedPlanCore>) => this.applyPlan(e.detail)}></ss-plans>`}
      <ss-charts .results=${r} .plots=${this.plots} .live=${this.state} .onDrawn=${(s: State) => (this.hooks.chartsQuery = encodeState(s))}></ss-charts>
      <ss-facts .results=${r}></ss-facts>
      ${r.mesh.ok && answer ? html`<ss-export .state=${r.state} .scenario=${mainScenario(r.state, r.mesh.plan)} .answer=${answer}></ss-export>` : nothing}
      <p class="muted small">Engine ${PRESETS.engine_version} · last evaluation ${sig(r.engineMs)} ms in the engine for ${r.scenarios} scenarios (${r.cached} answered from the page’s cache).</p>`;
  }

  override render(): TemplateResult {
    const status = this.engineStatus === 'ready' ? 'Engine ready' : this.engineStatus === 'error' ? 'Engine failed' : 'Loading engine…';
    const r = this.results;
    const pinned = Boolean(this.state.values['pin']);
    return html`
      <header>
        <h1>Scalescope <span class="sub">How to Scale Your Model, live</span></h1>
        <div class="actions">
          <span class="status ${this.engineStatus}" role="status" aria-live="polite" data-engine=${this.engineStatus}>${status}</span>
          <button type="button" @click=${() => this.copyLink()} id="copy-link">Copy link</button>
          <button type="button" @click=${() => this.pin()} id="pin" aria-disabled=${r ? 'false' : 'true'}>${pinned ? 'Re-pin' : 'Pin for compare'}</button>
          ${pinned ? html`<button type="button" @click=${() => this.unpin()} id="unpin">Unpin</button>` : nothing}
          <button type="button" @click=${() => this.resetAll()} id="reset">Reset</button>
          <span class="copied" role="status" aria-live="polite">${this.copied}</span>
        </div>
      </header>
      ${this.notices.length
        ? html`<div class="notice" role="alert" data-notice>
            <strong>Some of this link could not be used.</strong>
            <ul>${this.notices.map((n) => html`<li>${n}</li>`)}</ul>
            <button type="button" @click=${() => this.dismissNotices()}>Dismiss</button>
          </div>`
        : nothing}
      ${r ? html`<ss-headline class="phone-strip" compact .results=${r} .status=${planStatus(r)} .metrics=${metricsOf(r, r.chip?.ok ? r.chip.result : undefined)}></ss-headline>` : nothing}
      <main @ss-set=${this.onSet}>
        <div class="controls-col">
          <ss-controls .state=${this.state} .degreeProblem=${this.degreeProblem} .calibration=${r ? fidelityOf(r).calibration : undefined}
            .calibrationDiagnostics=${r?.main?.diagnostics.filter(isProfileDiagnostic) ?? []} .fieldDiagnostics=${r?.main?.diagnostics ?? []}
            .kvDefault=${isServing(this.state) && r && isServing(r.state) && r.main?.ok ? (r.main.result as { kv_context_len?: number }).kv_context_len : undefined}></ss-controls>
        </div>
        <div class="results" id="results" tabindex="-1" aria-label="Results">${this.renderResults()}</div>
      </main>`;
  }
}

customElements.define('scalescope-explorer', ScalescopeExplorer);
