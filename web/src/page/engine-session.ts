// The page's engines: its own wasm instance, which answers the numbers on screen synchronously in the input handler
// so they paint in the slider's own frame (engine/local.ts), and the worker, for charts and searches; one cache of
// answers by scenario text for both. The page's instance loads first; the worker starts once it is there, not
// competing with it for the CPU. If the page's instance cannot start, the worker answers the numbers too.
import { EngineClient, ResultCache, type BatchResult } from '../engine/client';
import { readConfigJson } from '../engine/launch-client';
import { LocalEngine } from '../engine/local';
import type { Evaluation, Scenario } from '../engine/types';
import { hfAnswer, hfConfigOf, rememberHfModel } from '../state/hf';
import type { State } from '../state/params';
import { WARM_UP_PLANS, chunkScenario } from '../state/search-driver';
import type { Telemetry } from './telemetry';

export type EngineStatus = 'loading' | 'ready' | 'error';
/** A batch's answers, and whether the page's own instance gave them. */
export type Answered = BatchResult & { local: boolean };

export class EngineSession {
  status: EngineStatus = 'loading';
  error = '';
  client: EngineClient | null = null;
  private local: LocalEngine | null = null;
  /** Answers by scenario text, shared by the page's instance and the worker client. */
  readonly cache = new ResultCache();

  constructor(
    private readonly telemetry: Telemetry,
    private readonly changed: () => void,
  ) {}

  /** Loads the engines: `ready` once one can answer the numbers, `workerReady` once the worker is up beside the page's. */
  start(ready: () => void, workerReady: () => void): void {
    const engineBase = new URL('engine/', document.baseURI).href;
    const t0 = performance.now();
    const onReady = (): void => {
      if (this.status === 'ready') return;
      this.status = 'ready';
      this.telemetry.hooks.engineLoadMs = performance.now() - t0;
      this.telemetry.hooks.ready = true;
      this.changed();
      ready();
    };
    LocalEngine.start(engineBase).then(
      (l) => {
        this.local = l;
        onReady();
        this.startWorker(engineBase)?.ready.then(workerReady, () => undefined);
      },
      (e: unknown) => {
        this.telemetry.error('page engine', e);
        // The worker then answers the numbers too: no warm-up to compete with them.
        this.startWorker(engineBase)?.ready.then(onReady, (err: unknown) => this.fail(err));
      },
    );
  }

  private startWorker(engineBase: string): EngineClient | null {
    try {
      // Vite bundles the worker from this exact `new Worker(new URL(...))` form.
      this.client = new EngineClient(
        () => new Worker(new URL('../engine/worker.ts', import.meta.url), { type: 'module' }),
        engineBase,
        { cache: this.cache },
      );
    } catch (e) {
      this.telemetry.error('engine worker', e);
      if (!this.local) this.fail(e);
    }
    return this.client;
  }

  fail(e: unknown): void {
    this.status = 'error';
    this.error = e instanceof Error ? e.message : String(e);
    this.changed();
  }

  /**
   * One scenario's answer at once, on the page's own instance (through the cache); null while it has none. The
   * page's rules (a fixed chip count, a link's nearest runnable state) ask this way, inside the input's handler.
   */
  askNow = (scenario: Scenario): Evaluation<unknown> | null =>
    this.local?.evaluate([JSON.stringify(scenario)], this.cache)?.results[0] ?? null;

  /** Evaluates texts on the page's own instance when it is there (at once), else in the worker's `lane`. */
  evaluate(texts: string[], lane: string): Promise<Answered | null> {
    const now = this.local ? this.local.evaluate(texts, this.cache) : null;
    if (now) return Promise.resolve({ ...now, local: true });
    if (!this.client) return Promise.resolve(null);
    return this.client.evaluate(texts, lane).then((b) => (b ? { ...b, local: false } : null));
  }

  /**
   * The same, handing the answer to `use` within this call when the page's own instance gives it (so that a chain of
   * questions still paints in the input's frame), else once the worker answers (null: a newer request replaced it).
   */
  answer(texts: string[], lane: string, use: (b: Answered | null) => void, fail: (e: unknown) => void): void {
    const now = this.local ? this.local.evaluate(texts, this.cache) : null;
    if (now) use({ ...now, local: true });
    else if (!this.client) use(null);
    else this.client.evaluate(texts, lane).then((b) => use(b ? { ...b, local: false } : null), fail);
  }

  /** The pasted config.json texts being read. */
  private readonly reading = new Set<string>();

  /**
   * Whether the state's pasted config.json, if any, has been read (its scenarios carry the model the engine read from
   * it). If not, the launch module reads it, once per text (the first-load module has no reader), and `then` runs
   * when the answer is in.
   */
  hfRead(s: State, then: () => void): boolean {
    const config = hfConfigOf(s);
    if (!config || hfAnswer(s)) return true;
    const text = String(s.values['hf']);
    if (this.reading.has(text)) return false;
    this.reading.add(text);
    readConfigJson(config).then(
      (answer) => {
        this.reading.delete(text);
        if (answer) rememberHfModel(text, answer);
        then();
      },
      (e: unknown) => {
        this.reading.delete(text);
        this.fail(e);
      },
    );
    return false;
  }

  /** Worker restarts and page-instance renewals so far (each after a hang or a throw). */
  get restarts(): number {
    return (this.client?.restarts ?? 0) + (this.local?.renewals ?? 0);
  }

  /**
   * Once the worker is up and the page idle, one small chunk of a plan search, its answer dropped: the worker's wasm
   * then reaches its optimising tier before a reader's first search. The page's default search, clicked once the
   * page had settled, took 625-673 ms without it and 517-584 ms with it (this machine, four loads each). It costs
   * 60-200 ms of the worker's time, once per page.
   */
  warmUp(search: Scenario | null): void {
    const client = this.client;
    if (!client || !search) return;
    const text = JSON.stringify(chunkScenario(search, WARM_UP_PLANS));
    const idle = window.requestIdleCallback ?? ((f: () => void) => setTimeout(f, 200));
    idle(() => {
      const t0 = performance.now();
      client.evaluate([text], 'warm-up').then(
        (b) => {
          this.cache.delete(text);
          this.telemetry.hooks.warmUpMs = b ? performance.now() - t0 : undefined;
        },
        () => undefined, // a failed warm-up only leaves the first search cold
      );
    });
  }
}
