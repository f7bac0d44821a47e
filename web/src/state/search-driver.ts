// A plan search in chunks (docs/api.md `plan_search`: `chunk_plans` and a `resume` cursor): each chunk is one
// short engine call, so the page can show progress and the best plans so far between chunks, and can stop. The
// final chunk's answer equals one single search's. Configuration only: the engine does the search; this loop
// passes its cursor back and sizes the chunks.
import type { Evaluation, PlanSearchQuery, PlanSearchResult, Scenario } from '../engine/types';

/** One engine call: the scenario text in, its evaluation and the time inside the engine out; null if it was replaced. */
export type EvaluateSearch = (text: string) => Promise<{ ev: Evaluation<PlanSearchResult>; engineMs: number } | null>;

export interface ChunkProgress {
  /** The answer so far (plans, Pareto front and counts up to the cursor). */
  ev: Evaluation<PlanSearchResult>;
  chunks: number;
  /** Summed time inside the engine, ms. */
  engineMs: number;
}

export interface ChunkOptions {
  signal?: AbortSignal;
  onChunk?: (p: ChunkProgress) => void;
  /** Plans in the first chunk: small, so that the first progress paints early. */
  firstChunkPlans?: number;
  /** Engine time a later chunk aims at, ms: long enough that the per-call cost stays small, short enough to repaint. */
  chunkTargetMs?: number;
}

export const FIRST_CHUNK_PLANS = 100_000;
/** Plans in the worker's warm-up chunk (page/engine-session.ts: run once, answer dropped, before a first search). */
export const WARM_UP_PLANS = 30_000;
export const CHUNK_TARGET_MS = 200;
const MIN_CHUNK_PLANS = 10_000;

/** Plans for the next chunk, from the rate the last one ran at (plans per ms). */
export function nextChunkPlans(plansDone: number, engineMs: number, targetMs: number): number {
  const rate = engineMs > 0 ? plansDone / engineMs : 0;
  return rate > 0 ? Math.max(MIN_CHUNK_PLANS, Math.round(rate * targetMs)) : FIRST_CHUNK_PLANS;
}

/** The scenario with its query asking for one chunk, resumed from `cursor`. */
export function chunkScenario(sc: Scenario, chunkPlans: number, cursor?: PlanSearchResult['cursor']): Scenario {
  const q = sc.query as PlanSearchQuery;
  const query: PlanSearchQuery = { ...q, chunk_plans: chunkPlans };
  if (cursor) query.resume = cursor;
  return { ...sc, query };
}

/**
 * Runs the search chunk by chunk until the engine says it is complete, each chunk asked for before the last one is
 * shown. Resolves with the last answer (complete, or the first that is not ok), or null when cancelled through
 * `signal` or when a newer request replaced a chunk.
 */
export async function searchInChunks(
  sc: Scenario,
  evaluate: EvaluateSearch,
  o: ChunkOptions = {},
): Promise<ChunkProgress | null> {
  let cursor: PlanSearchResult['cursor'];
  let plans = o.firstChunkPlans ?? FIRST_CHUNK_PLANS;
  let engineMs = 0;
  if (o.signal?.aborted) return null;
  let next = evaluate(JSON.stringify(chunkScenario(sc, plans, cursor)));
  for (let chunks = 1; ; chunks++) {
    const answer = await next;
    if (!answer || o.signal?.aborted) return null;
    engineMs += answer.engineMs;
    const p: ChunkProgress = { ev: answer.ev, chunks, engineMs };
    const res = answer.ev.ok ? answer.ev.result : undefined;
    if (!res || res.complete || !res.cursor) return p;
    plans = nextChunkPlans(res.cursor.next - (cursor?.next ?? 0), answer.engineMs, o.chunkTargetMs ?? CHUNK_TARGET_MS);
    cursor = res.cursor;
    // The engine goes on with the next chunk while this one is shown (issue 20: showing a chunk took a sixth of
    // the default search's time, with the engine idle). A cancel then drops that one chunk's answer.
    next = evaluate(JSON.stringify(chunkScenario(sc, plans, cursor)));
    o.onChunk?.(p);
  }
}
