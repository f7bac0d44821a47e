// The page's side of the engine worker. While a slider moves only the latest request matters: at most one batch
// is in the worker; a newer request replaces the one waiting (which resolves as `null`), and an answer that arrives
// after a newer request was already answered resolves as `null` too, so results never go back in time. Requests
// travel in lanes ('main' for what a move repaints, others e.g. for charts or a plan search): a request replaces
// only the waiting one of its own lane, and 'main' goes first.
//
// Results are cached here by scenario text (the engine is a pure function): a batch sends the worker only the
// scenarios it has not seen, all of them in one message that the worker answers with one evaluate_many call; a
// batch the cache answers whole (a slider moved back, the chip or model that did not change) needs no round trip.
// A cached scenario yields the same object every time, so the page can skip redrawing what did not change.
//
// The page never waits forever (issue 12): a batch the worker has not answered within the timeout, or a worker that
// dies, rejects with an error, and the client starts a fresh worker (given a factory) for what comes next.
import type { Evaluation } from './types';
import type { FromWorker, ToWorker } from './protocol';

export interface WorkerLike {
  postMessage(msg: ToWorker): void;
  onmessage: ((ev: MessageEvent<FromWorker>) => void) | null;
  onerror?: ((ev: ErrorEvent) => void) | null;
  terminate?(): void;
}

export interface ClientOptions {
  cacheSize?: number;
  /** A cache shared with another evaluator (the page's own engine instance). */
  cache?: ResultCache;
  /** A batch unanswered this long (ms) is given up: its caller gets an error and the worker is replaced. */
  timeoutMs?: number;
}

/** How long a batch may take: a plan search over a whole pod is well under a second; a minute means a dead engine. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Workers replaced at most this many times per page (a worker that keeps dying is a broken engine, not bad luck). */
export const MAX_RESTARTS = 5;

export interface BatchResult {
  results: Evaluation<unknown>[];
  /** Time inside the engine for the scenarios sent (0 when the cache answered everything). */
  engineMs: number;
  /** Scenarios answered from the cache. */
  cached: number;
  /** Worker round trips (0 or 1) and wasm calls made for this batch. */
  trips: number;
  calls: number;
}

/** Least-recently-used map from scenario text to its evaluation. */
export class ResultCache {
  private readonly map = new Map<string, Evaluation<unknown>>();
  constructor(readonly capacity = 2000) {}
  get size(): number {
    return this.map.size;
  }
  get(text: string): Evaluation<unknown> | undefined {
    const hit = this.map.get(text);
    if (hit) {
      this.map.delete(text);
      this.map.set(text, hit);
    }
    return hit;
  }
  /** Forgets one answer (e.g. a plan search chunk's: large, and never asked for again). */
  delete(text: string): void {
    this.map.delete(text);
  }
  set(text: string, ev: Evaluation<unknown>): void {
    this.map.delete(text);
    this.map.set(text, ev);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as string);
  }
}

interface Pending {
  lane: string;
  seq: number;
  scenarios: string[];
  /** Cached evaluations by position, filled when the request was made; the rest come from the worker. */
  known: (Evaluation<unknown> | undefined)[];
  misses: string[];
  resolve: (r: BatchResult | null) => void;
  reject: (e: Error) => void;
}

const ENGINE_ERROR = 'engine_error';

/**
 * The engine's answer (a JSON array, one evaluation per scenario text of `misses`) by scenario text, stored in the
 * cache except for traps (the next request tries again); an Error when the answer is not such an array.
 */
export function storeAnswers(
  cache: ResultCache,
  misses: readonly string[],
  json: string,
): Map<string, Evaluation<unknown>> | Error {
  let answers: unknown;
  try {
    answers = JSON.parse(json);
  } catch (e) {
    return new Error(`the engine answered with text that is not JSON: ${String(e)}`);
  }
  if (!Array.isArray(answers) || answers.length !== misses.length) {
    return new Error(
      `the engine answered ${Array.isArray(answers) ? answers.length : 'no'} results for ${misses.length} scenarios`,
    );
  }
  const fresh = new Map<string, Evaluation<unknown>>();
  misses.forEach((text, i) => {
    const ev = answers[i] as Evaluation<unknown>;
    fresh.set(text, ev);
    if (!ev.diagnostics?.some((d) => d.code === ENGINE_ERROR)) cache.set(text, ev);
  });
  return fresh;
}

/** Scenario texts, what the cache knew of them, and the distinct ones it did not. */
export function lookUp(
  cache: ResultCache,
  scenarios: readonly string[],
): { known: (Evaluation<unknown> | undefined)[]; misses: string[] } {
  const known = scenarios.map((s) => cache.get(s));
  return { known, misses: [...new Set(scenarios.filter((_, i) => known[i] === undefined))] };
}

export class EngineClient {
  readonly ready: Promise<{ version: string; loadMs: number }>;
  readonly cache: ResultCache;
  /** Workers started after the first (each after a timeout or a crash). */
  restarts = 0;
  private worker: WorkerLike;
  private readonly factory: (() => WorkerLike) | null;
  private readonly timeoutMs: number;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  /** False while a replacement worker loads: batches wait. */
  private live = false;
  private inFlight: (Pending & { id: number }) | null = null;
  /** The waiting request of each lane. */
  private readonly waiting = new Map<string, Pending>();
  private nextId = 1;
  private seq = 0;
  /** The newest request answered, per lane. */
  private readonly answeredSeq = new Map<string, number>();
  private failed: Error | null = null;

  /** `worker`: one worker, or a factory the client calls again to replace a worker that hung or died. */
  constructor(
    worker: WorkerLike | (() => WorkerLike),
    private readonly engineBase: string,
    options: ClientOptions | number = {},
  ) {
    const opts = typeof options === 'number' ? { cacheSize: options } : options;
    this.cache = opts.cache ?? new ResultCache(opts.cacheSize ?? 2000);
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.factory = typeof worker === 'function' ? worker : null;
    let readyResolve!: (v: { version: string; loadMs: number }) => void;
    let readyReject!: (e: Error) => void;
    this.ready = new Promise((res, rej) => {
      readyResolve = res;
      readyReject = rej;
    });
    this.onReady = readyResolve;
    this.onLoadFailed = readyReject;
    this.worker = this.connect(typeof worker === 'function' ? worker() : worker);
  }

  private readonly onReady: (v: { version: string; loadMs: number }) => void;
  private readonly onLoadFailed: (e: Error) => void;

  private connect(worker: WorkerLike): WorkerLike {
    worker.onmessage = (ev) => {
      if (worker !== this.worker) return; // a replaced worker's late words
      const msg = ev.data;
      if (msg.type === 'ready') {
        this.live = true;
        this.onReady({ version: msg.version, loadMs: msg.loadMs });
        this.pump();
      } else if (msg.type === 'error') {
        const err = new Error(msg.message);
        if (msg.id === undefined) {
          this.failed = err;
          this.onLoadFailed(err);
          this.failAll(err);
        } else if (this.inFlight?.id === msg.id) {
          this.settle().reject(err);
          this.pump();
        }
      } else if (msg.type === 'result' && this.inFlight?.id === msg.id) {
        const p = this.settle();
        this.answer(p, msg.json, msg.engineMs, msg.calls);
        this.pump();
      }
    };
    if ('onerror' in worker) {
      worker.onerror = (ev) => {
        if (worker === this.worker)
          this.replace(new Error(`the engine worker failed: ${ev.message || 'unknown error'}`));
      };
    }
    worker.postMessage({ type: 'init', engineBase: this.engineBase });
    return worker;
  }

  /** The in-flight batch, taken off the worker (its watchdog stopped). */
  private settle(): Pending & { id: number } {
    const p = this.inFlight!;
    this.inFlight = null;
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    return p;
  }

  /**
   * The worker hung or died: its batch fails with `err`; a fresh worker takes the rest. Without a factory, when a
   * worker dies before it ever loaded the engine, or after MAX_RESTARTS, every request fails with `err` instead.
   */
  private replace(err: Error): void {
    if (this.inFlight) this.settle().reject(err);
    if (!this.factory || this.failed || !this.live || this.restarts >= MAX_RESTARTS) {
      this.failed = err;
      this.onLoadFailed(err);
      this.failAll(err);
      return;
    }
    this.worker.terminate?.();
    this.restarts++;
    this.live = false;
    this.worker = this.connect(this.factory());
  }

  /**
   * Evaluates scenarios (JSON texts). Resolves null when a newer request of the same lane replaced this one or was
   * answered first.
   */
  evaluate(scenarios: string[], lane = 'main'): Promise<BatchResult | null> {
    if (this.failed) return Promise.reject(this.failed);
    const seq = ++this.seq;
    const { known, misses } = lookUp(this.cache, scenarios);
    const old = this.waiting.get(lane);
    if (old) {
      old.resolve(null);
      this.waiting.delete(lane);
    }
    if (misses.length === 0) {
      this.answeredSeq.set(lane, seq);
      return Promise.resolve({
        results: known as Evaluation<unknown>[],
        engineMs: 0,
        cached: scenarios.length,
        trips: 0,
        calls: 0,
      });
    }
    return new Promise((resolve, reject) => {
      this.waiting.set(lane, { lane, seq, scenarios, known, misses, resolve, reject });
      this.pump();
    });
  }

  private answer(p: Pending, json: string, engineMs: number, calls: number): void {
    const fresh = storeAnswers(this.cache, p.misses, json);
    if (fresh instanceof Error) p.reject(fresh);
    else this.finish(p, fresh, engineMs, 1, calls);
  }

  private finish(
    p: Pending,
    fresh: Map<string, Evaluation<unknown>>,
    engineMs: number,
    trips: number,
    calls: number,
  ): void {
    if (p.seq < (this.answeredSeq.get(p.lane) ?? 0)) {
      p.resolve(null); // a newer request was answered (from the cache) while this one was in the worker
      return;
    }
    this.answeredSeq.set(p.lane, p.seq);
    const results = p.scenarios.map((s, i) => p.known[i] ?? fresh.get(s)!);
    p.resolve({ results, engineMs, cached: p.scenarios.length - p.misses.length, trips, calls });
  }

  private pump(): void {
    while (this.live && !this.inFlight && this.waiting.size) {
      // 'main' first, then the other lanes oldest first.
      const w = this.waiting.get('main') ?? [...this.waiting.values()].sort((a, b) => a.seq - b.seq)[0]!;
      this.waiting.delete(w.lane);
      // The batch that just came back may have answered some of this one's scenarios.
      w.scenarios.forEach((s, i) => {
        w.known[i] ??= this.cache.get(s);
      });
      w.misses = [...new Set(w.scenarios.filter((_, i) => w.known[i] === undefined))];
      if (w.misses.length === 0) {
        this.finish(w, new Map(), 0, 0, 0);
        continue;
      }
      const id = this.nextId++;
      this.inFlight = { ...w, id };
      this.worker.postMessage({ type: 'evaluate', id, scenarios: w.misses });
      this.watchdog = setTimeout(() => {
        if (this.inFlight?.id === id)
          this.replace(
            new Error(`the engine did not answer within ${Math.round(this.timeoutMs / 1000)} s; it was restarted`),
          );
      }, this.timeoutMs);
    }
  }

  private failAll(err: Error): void {
    if (this.inFlight) this.settle().reject(err);
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }
}
