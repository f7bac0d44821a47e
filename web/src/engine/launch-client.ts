// The page's side of the launch module's worker (launch-worker.ts): one EngineClient (client.ts: a cache, a timeout,
// a fresh worker after a crash) started on the first request, so that neither the worker nor scalescope_launch.wasm
// is fetched before a reader asks for a launch config or pastes a config.json (the first-load module reads none:
// docs/architecture.md "What the page ships"). In each lane a newer request replaces one still waiting (which
// resolves as null).
import { EngineClient } from './client';
import type { AnyScenario, Evaluation, ModelJson, ModelResult } from './types';

let client: EngineClient | null = null;

/** The launch engine's answers to `scenarios`, in order; null when a newer request of the lane replaced this one. */
export async function evaluateLaunch(
  scenarios: readonly AnyScenario[],
  lane = 'launch',
): Promise<Evaluation<unknown>[] | null> {
  client ??= new EngineClient(
    () => new Worker(new URL('./launch-worker.ts', import.meta.url), { type: 'module' }),
    new URL('engine/', document.baseURI).href,
  );
  const batch = await client.evaluate(
    scenarios.map((s) => JSON.stringify(s)),
    lane,
  );
  return batch ? batch.results : null;
}

/** The question the launch module answers about a pasted config.json: the `model` query (docs/api.md). */
export function configModelScenario(config: Record<string, unknown>): AnyScenario {
  return { version: 1, model: { hf_config: config }, query: { kind: 'model' } };
}

/** Its answer as the page keeps it. */
export function modelJsonOf(e: Evaluation<ModelResult>): ModelJson {
  return { ok: e.ok, model: e.result?.model, diagnostics: e.diagnostics };
}

/**
 * What the engine makes of a pasted config.json (the `model` query, docs/api.md): its fields as an inline model,
 * which the page's scenarios then carry, and the diagnostics naming the keys it cannot read. Null when replaced.
 */
export async function readConfigJson(config: Record<string, unknown>): Promise<ModelJson | null> {
  const r = await evaluateLaunch([configModelScenario(config)], 'model');
  const e = r?.[0] as Evaluation<ModelResult> | undefined;
  return e ? modelJsonOf(e) : null;
}
