// The page's side of the launch configs' worker (launch-worker.ts): one EngineClient (client.ts: a cache, a timeout,
// a fresh worker after a crash) started on the first request, so that neither the worker nor scalescope_launch.wasm
// is fetched before a reader asks for a launch config. Requests share one lane: a newer one replaces one still
// waiting (which resolves as null).
import { EngineClient } from './client';
import type { Evaluation, Scenario } from './types';

let client: EngineClient | null = null;

/** The launch engine's answers to `scenarios`, in order; null when a newer request replaced this one. */
export async function evaluateLaunch(scenarios: readonly Scenario[]): Promise<Evaluation<unknown>[] | null> {
  client ??= new EngineClient(
    () => new Worker(new URL('./launch-worker.ts', import.meta.url), { type: 'module' }),
    new URL('engine/', document.baseURI).href,
  );
  const batch = await client.evaluate(
    scenarios.map((s) => JSON.stringify(s)),
    'launch',
  );
  return batch ? batch.results : null;
}
