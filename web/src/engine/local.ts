// The page's own engine instance, for the numbers on screen (issue 11, point 9): a slider's input handler evaluates
// the on-screen scenarios synchronously, so the numbers paint in the slider's own frame (the engine takes well under
// a millisecond for them). Batches for charts and plan searches still go to the worker. It shares the worker
// client's cache, so a scenario is computed once whichever side asked. An instance that throws is replaced in the
// background; until then the worker answers.
import { lookUp, storeAnswers, type BatchResult, type ResultCache } from './client';
import { evaluateBatch } from './batch';
import { engineFactory, type Instantiate } from './load';
import type { EngineModule, Evaluation } from './types';

export class LocalEngine {
  /** Instances made after the first (each after a throw). */
  renewals = 0;
  private instance: EngineModule | null = null;

  private constructor(private readonly instantiate: Instantiate) {}

  static async start(base: string, instantiate?: Instantiate): Promise<LocalEngine> {
    const e = new LocalEngine(instantiate ?? (await engineFactory(base)));
    e.instance = await e.instantiate();
    return e;
  }

  get ready(): boolean {
    return this.instance !== null;
  }

  /** Evaluates scenario texts now, through the cache; null while no instance is ready (ask the worker instead). */
  evaluate(scenarios: string[], cache: ResultCache): BatchResult | null {
    const m = this.instance;
    if (!m) return null;
    const { known, misses } = lookUp(cache, scenarios);
    if (misses.length === 0)
      return { results: known as Evaluation<unknown>[], engineMs: 0, cached: scenarios.length, trips: 0, calls: 0 };
    const t0 = performance.now();
    const { json, calls, trapped } = evaluateBatch(m, misses);
    const engineMs = performance.now() - t0;
    if (trapped) this.renew();
    const fresh = storeAnswers(cache, misses, json);
    if (fresh instanceof Error) {
      this.renew();
      return null;
    }
    return {
      results: scenarios.map((s, i) => known[i] ?? fresh.get(s)!),
      engineMs,
      cached: scenarios.length - misses.length,
      trips: 0,
      calls,
    };
  }

  private renew(): void {
    this.instance = null;
    this.renewals++;
    this.instantiate().then(
      (m) => (this.instance = m),
      () => undefined, // the worker keeps answering
    );
  }
}
