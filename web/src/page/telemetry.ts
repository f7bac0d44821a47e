// The page's measurements (read by the browser test; harmless for readers): the hooks on window.__scalescope, and
// the timing of each slider move from its input event to the frame that paints its numbers.
import { encodeState } from '../state/url';
import type { Results } from '../ui/results';
import type { State } from '../state/params';

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
  latencies: {
    rendered: number;
    painted: number;
    frameWait: number;
    inputFrame: number;
    received: number;
    engine: number;
    update: number;
    trips: number;
    calls: number;
    cached: number;
    local: boolean;
  }[];
  engineLoadMs?: number;
  interactiveMs?: number;
  /** The worker's warm-up chunk (page/engine-session.ts warmUp), ms from its request to its answer. */
  warmUpMs?: number;
  errors: string[];
  /** URL query of the state on screen now, and of the state the shown numbers were computed for. */
  stateQuery: string;
  resultQuery: string;
  /** URL query of the state the charts were last drawn for. */
  chartsQuery?: string;
  /** Per charts' draw, ms from the paint of that state's numbers in the DOM to the charts showing it (issue 20: ≤ 50). */
  chartLags: number[];
  /** The last plan search: time in the engine (ms), plans listed and, of those, on the Pareto front. */
  search?: {
    engineMs: number;
    plans: number;
    evaluated: number;
    listed: number;
    paretoListed: number;
    /** Wall time from the click to this chunk (ms), chunks so far, complete or not, progress after each chunk, for which state. */
    wallMs: number;
    chunks: number;
    complete: boolean;
    fracs: number[];
    query: string;
  };
  /** The last serving search: time in the engine (ms; 0 when the cache answered), deployments listed, and for which state. */
  servingSearch?: {
    engineMs: number;
    cached: boolean;
    deployments: number;
    evaluated: number;
    meeting: number;
    query: string;
  };
  /** Worker restarts and page-instance renewals so far (each after a hang or a throw). */
  restarts?: number;
}

declare global {
  interface Window {
    __scalescope?: ScalescopeHooks;
  }
}

/** What the last batch of numbers cost: worker trips, wasm calls, cached answers, and whether the page answered. */
export interface BatchCost {
  trips: number;
  calls: number;
  cached: number;
  local: boolean;
}

export class Telemetry {
  readonly hooks: ScalescopeHooks = {
    renders: 0,
    ready: false,
    latencies: [],
    chartLags: [],
    errors: [],
    stateQuery: '',
    resultQuery: '',
  };
  /** When each state's numbers reached the DOM (the charts' lag counts from it). */
  private numbersAt = new WeakMap<State, number>();
  private pendingInputTime: number | null = null;
  /** End of the first frame after the last input (see ScalescopeHooks.latencies). */
  private inputFrameAt = NaN;
  private receivedAt = 0;
  private lastBatch: BatchCost = { trips: 0, calls: 0, cached: 0, local: false };
  /** Time of Lit's last DOM update (for the timing breakdown). */
  private lastUpdateMs = 0;

  constructor() {
    window.__scalescope = this.hooks;
  }

  error(what: string, e: unknown): void {
    this.hooks.errors.push(`${what}: ${e instanceof Error ? e.message : String(e)}`);
  }

  /** A reader's input (a slider's event, or now): the moves' latencies count from it. */
  markInput(ev?: Event): void {
    const t0 = ev ? ev.timeStamp : performance.now();
    this.pendingInputTime = t0;
    this.inputFrameAt = NaN;
    afterFrame(() => {
      if (this.pendingInputTime === t0 || this.pendingInputTime === null) this.inputFrameAt = performance.now();
    });
  }

  /** The numbers' batch is back. */
  received(cost: BatchCost): void {
    this.receivedAt = performance.now();
    this.lastBatch = cost;
  }

  /** Times Lit's DOM update. */
  timeUpdate(update: () => void): void {
    const t = performance.now();
    update();
    this.lastUpdateMs = performance.now() - t;
  }

  /**
   * New results are in the DOM. Latency counts only the first paint of numbers computed for the state the input
   * produced (`current`): the frame that paints this DOM is the next animation frame (from the DOM update until its
   * callbacks run the page only waits for the frame to begin), then a task after its rendering steps.
   */
  rendered(results: Results, current: boolean): void {
    this.hooks.renders++;
    if (current) this.hooks.resultQuery = encodeState(results.state);
    const t0 = current ? this.pendingInputTime : null;
    if (current) this.pendingInputTime = null;
    const rendered = performance.now();
    if (current && !this.numbersAt.has(results.state)) this.numbersAt.set(results.state, rendered);
    const update = this.lastUpdateMs;
    const batch = this.lastBatch;
    const engine = results.engineMs;
    requestAnimationFrame(() => {
      const frameStart = performance.now();
      afterTask(() => {
        if (t0 === null) return;
        this.hooks.latencies.push({
          rendered: rendered - t0,
          painted: performance.now() - t0,
          frameWait: Math.max(0, frameStart - rendered),
          inputFrame: this.inputFrameAt - t0,
          received: this.receivedAt - t0,
          engine,
          update,
          ...batch,
        });
      });
    });
  }

  /** The charts now show `state`. */
  chartsDrawn(state: State): void {
    this.hooks.chartsQuery = encodeState(state);
    const at = this.numbersAt.get(state);
    if (at !== undefined) this.hooks.chartLags.push(performance.now() - at);
  }
}

/** Runs `f` in a task after the current one (a message, not a timer: no clamping). */
function afterTask(f: () => void): void {
  const ch = new MessageChannel();
  ch.port1.onmessage = () => f();
  ch.port2.postMessage(null);
}

/** Runs `f` after the next frame has painted. */
function afterFrame(f: () => void): void {
  requestAnimationFrame(() => afterTask(f));
}
