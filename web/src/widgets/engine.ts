// One engine worker for every widget on a page, started by the first widget that comes near the viewport. The
// EngineClient keeps at most one batch in the worker and replaces a waiting batch with a newer one; with several
// widgets sharing it, that would drop one widget's request for another's. So requests queue here per widget: a
// widget's newer request replaces only its own waiting one (resolved as null), and batches go to the client one at
// a time. The worker and the engine files are found relative to the widgets script itself (import.meta.url), so a
// page on any origin can embed a widget with one script tag.
import { EngineClient } from '../engine/client';
import type { Evaluation } from '../engine/types';
import { FEATURES } from '../state/params';
import { atBookFidelity } from '../state/scenario';
import workerUrl from '../engine/worker.ts?worker&url';

interface Waiting {
  texts: string[];
  resolve: (r: Evaluation<unknown>[] | null) => void;
  reject: (e: Error) => void;
}

let siteRoot: URL | null = null;

/**
 * Widgets show what the chapters teach: the book's model, whatever the engine's default fidelity (docs/design.md
 * "Fidelity and calibration"). Every scenario a widget sends says so, once the engine has the key (issue 8).
 */
export function bookFidelity(scenario: unknown): unknown {
  const sc = scenario as { query?: Record<string, unknown> };
  if (!FEATURES.fidelity || !sc?.query || sc.query['fidelity'] !== undefined) return scenario;
  return atBookFidelity(sc as { query: Record<string, unknown> });
}

/** Where the site's files are (the folder holding widgets.js, engine/ and index.html); set by the entry module. */
export function setSiteRoot(url: URL): void {
  siteRoot = url;
}

export function siteUrl(rel: string): string {
  return new URL(rel, siteRoot ?? self.location.href).href;
}

/**
 * A worker from another origin cannot be started directly (a page embedding widgets.js from elsewhere): then start
 * a same-origin module worker from a blob that imports the real one (the site must allow CORS, as GitHub Pages does).
 */
function startWorker(): Worker {
  const url = new URL(workerUrl, import.meta.url);
  if (url.origin === self.location.origin) return new Worker(url, { type: 'module' });
  const blob = new Blob([`import ${JSON.stringify(url.href)};\n`], { type: 'text/javascript' });
  return new Worker(URL.createObjectURL(blob), { type: 'module' });
}

export class SharedEngine {
  private readonly waiting = new Map<object, Waiting>();
  private busy = false;

  constructor(private readonly client: EngineClient) {}

  get ready(): Promise<unknown> {
    return this.client.ready;
  }

  /** Evaluates scenarios for `owner`; resolves null when the same owner asked again before this ran. */
  evaluate(owner: object, scenarios: unknown[]): Promise<Evaluation<unknown>[] | null> {
    const texts = scenarios.map((s) => JSON.stringify(bookFidelity(s)));
    return new Promise((resolve, reject) => {
      const old = this.waiting.get(owner);
      if (old) {
        old.resolve(null);
        this.waiting.delete(owner); // the newest request goes to the back of the queue: fair between widgets
      }
      this.waiting.set(owner, { texts, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.busy) return;
    const next = this.waiting.entries().next();
    if (next.done) return;
    const [owner, job] = next.value;
    this.waiting.delete(owner);
    this.busy = true;
    this.client.evaluate(job.texts).then(
      (batch) => {
        this.busy = false;
        job.resolve(batch ? batch.results : null);
        this.pump();
      },
      (e: unknown) => {
        this.busy = false;
        job.reject(e instanceof Error ? e : new Error(String(e)));
        this.pump();
      },
    );
  }
}

let shared: SharedEngine | null = null;

/** The page's engine, started on first use. Throws (as a rejected promise) when no worker can be started. */
export function pageEngine(): SharedEngine {
  if (!shared) {
    const worker = startWorker();
    shared = new SharedEngine(new EngineClient(worker, siteUrl('engine/')));
  }
  return shared;
}
