// The page's side of the engine worker. While a slider moves only the latest request matters: at most one batch
// is in the worker; a newer request replaces the one waiting, and the replaced one resolves as `null`.
import type { Evaluation } from './types';
import type { FromWorker, ToWorker } from './protocol';

export interface WorkerLike {
  postMessage(msg: ToWorker): void;
  onmessage: ((ev: MessageEvent<FromWorker>) => void) | null;
  onerror?: ((ev: ErrorEvent) => void) | null;
}

export interface BatchResult {
  results: Evaluation<unknown>[];
  engineMs: number;
}

interface Pending {
  scenarios: string[];
  resolve: (r: BatchResult | null) => void;
  reject: (e: Error) => void;
}

export class EngineClient {
  readonly ready: Promise<{ version: string; loadMs: number }>;
  private inFlight: (Pending & { id: number }) | null = null;
  private waiting: Pending | null = null;
  private nextId = 1;
  private failed: Error | null = null;

  constructor(private readonly worker: WorkerLike, engineBase: string) {
    let readyResolve!: (v: { version: string; loadMs: number }) => void;
    let readyReject!: (e: Error) => void;
    this.ready = new Promise((res, rej) => {
      readyResolve = res;
      readyReject = rej;
    });
    worker.onmessage = (ev) => {
      const msg = ev.data;
      if (msg.type === 'ready') readyResolve({ version: msg.version, loadMs: msg.loadMs });
      else if (msg.type === 'error') {
        const err = new Error(msg.message);
        if (msg.id === undefined) {
          this.failed = err;
          readyReject(err);
          this.failAll(err);
        } else if (this.inFlight?.id === msg.id) {
          this.inFlight.reject(err);
          this.inFlight = null;
          this.pump();
        }
      } else if (msg.type === 'result' && this.inFlight?.id === msg.id) {
        this.inFlight.resolve({ results: msg.results, engineMs: msg.engineMs });
        this.inFlight = null;
        this.pump();
      }
    };
    if ('onerror' in worker) {
      worker.onerror = (ev) => {
        const err = new Error(`the engine worker failed: ${ev.message || 'unknown error'}`);
        this.failed = err;
        readyReject(err);
        this.failAll(err);
      };
    }
    worker.postMessage({ type: 'init', engineBase });
  }

  /** Evaluates scenarios (JSON texts). Resolves null when a newer request replaced this one before it ran. */
  evaluate(scenarios: string[]): Promise<BatchResult | null> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      if (this.waiting) this.waiting.resolve(null);
      this.waiting = { scenarios, resolve, reject };
      this.pump();
    });
  }

  private pump(): void {
    if (this.inFlight || !this.waiting) return;
    const id = this.nextId++;
    this.inFlight = { ...this.waiting, id };
    this.waiting = null;
    this.worker.postMessage({ type: 'evaluate', id, scenarios: this.inFlight.scenarios });
  }

  private failAll(err: Error): void {
    this.inFlight?.reject(err);
    this.waiting?.reject(err);
    this.inFlight = this.waiting = null;
  }
}
