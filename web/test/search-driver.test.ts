// The chunked plan search (state/search-driver.ts) through the real wasm engine: however the space is cut into
// chunks, the last chunk's answer is the single search's (the same plans, front and counts), progress only rises,
// a cancel stops between chunks; and the search's constraints and objective reach the engine from the URL keys.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule, Evaluation, PlanSearchQuery, PlanSearchResult, Scenario } from '../src/engine/types';
import { defaultState } from '../src/state/params';
import { stateWith } from './state';

import { decodeState, encodeState } from '../src/state/url';
import { chunkScenario, nextChunkPlans, searchInChunks, type EvaluateSearch } from '../src/state/search-driver';
import { loadEngine, searchScenarioOf } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

const evaluate: EvaluateSearch = (text) => {
  const t0 = performance.now();
  const ev = JSON.parse(engine.evaluate(text)) as Evaluation<PlanSearchResult>;
  return Promise.resolve({ ev, engineMs: performance.now() - t0 });
};

/** What must match between one call and the chunks: everything but the chunking fields themselves. */
const answer = (r: PlanSearchResult): unknown => ({
  plans: r.plans,
  pareto: r.pareto,
  pareto_size: r.pareto_size,
  counts: r.counts,
  evaluated: r.evaluated,
  valid: r.valid,
  fitting: r.fitting,
  space: r.space,
});

const searches: [string, Record<string, unknown>][] = [
  ['64 H100s', { hw: 'h100-sxm', chips: 64, fsdp: 8, tp: 8 }],
  ['a v5p 4×4×4 slice', { hw: 'tpu-v5p', fsdp: 16, tp: 4 }],
  [
    'a v5p slice, TP at most 2, 10% headroom, by cost',
    { hw: 'tpu-v5p', fsdp: 16, tp: 4, pmaxtp: 2, phead: 0.1, pobj: 'cost_to_train' },
  ],
];

describe('chunked plan search', () => {
  it.each(searches)('%s: the chunks end on the single search’s answer exactly', async (_name, values) => {
    const sc = searchScenarioOf(engine, stateWith(values))!;
    const one = (await evaluate(JSON.stringify(sc)))!.ev;
    expect(one.ok).toBe(true);
    const space = one.result!.space;
    const fracs: number[] = [];
    // A first chunk of a seventh of the space and small later ones: several chunks, never one.
    const last = await searchInChunks(sc, evaluate, {
      firstChunkPlans: Math.ceil(space / 7),
      chunkTargetMs: 0.5,
      onChunk: (p) => fracs.push(p.ev.result!.progress_frac),
    });
    expect(last).not.toBeNull();
    expect(last!.chunks).toBeGreaterThan(2);
    expect(last!.ev.result!.complete).toBe(true);
    expect(answer(last!.ev.result!)).toEqual(answer(one.result!));
    expect(fracs.length).toBe(last!.chunks - 1);
    expect(fracs.every((f, i) => f > 0 && f < 1 && (i === 0 || f > fracs[i - 1]!))).toBe(true);
  });

  it('a cancel stops the search between chunks: the chunk already asked for is the last', async () => {
    const sc = searchScenarioOf(engine, stateWith(searches[0]![1]))!;
    const control = new AbortController();
    let calls = 0;
    const counting: EvaluateSearch = (t) => {
      calls++;
      return evaluate(t);
    };
    const last = await searchInChunks(sc, counting, {
      firstChunkPlans: 1000,
      signal: control.signal,
      onChunk: () => control.abort(),
    });
    expect(last).toBeNull();
    expect(calls).toBe(2); // the first chunk, and the second, asked for while the first was shown
  });

  it('sizes chunks from the last one’s rate, and resumes from the cursor', () => {
    expect(nextChunkPlans(100_000, 100, 200)).toBe(200_000);
    expect(nextChunkPlans(100, 100, 1)).toBe(10_000); // never tiny
    const sc = searchScenarioOf(engine, defaultState())!;
    const cursor = { next: 5, retained: [1, 2], counts: {} as PlanSearchResult['counts'] };
    const q = chunkScenario(sc, 123, cursor).query as PlanSearchQuery;
    expect(q.chunk_plans).toBe(123);
    expect(q.resume).toEqual(cursor);
    expect((sc.query as PlanSearchQuery).chunk_plans).toBeUndefined(); // the page's scenario is left as it was
  });
});

describe('the plan search options in the URL', () => {
  it('the defaults send no constraints or objective (the engine’s own defaults)', () => {
    const q = searchScenarioOf(engine, defaultState())!.query as PlanSearchQuery;
    expect(q.constraints).toBeUndefined();
    expect(q.objective).toBeUndefined();
  });

  it('a link reproduces the search: each key round-trips and reaches the query', () => {
    const s = stateWith({ pobj: 'tokens_per_usd', pmaxtp: 4, pfit: false, phead: 0.15, pwarn: true });
    const text = encodeState(s);
    for (const k of ['pobj=tokens_per_usd', 'pmaxtp=4', 'pfit=0', 'phead=0.15', 'pwarn=1']) expect(text).toContain(k);
    const d = decodeState('?' + text);
    expect(d.notices).toEqual([]);
    const q = searchScenarioOf(engine, d.state)!.query as PlanSearchQuery;
    expect(q.objective).toBe('tokens_per_usd');
    expect(q.constraints).toEqual({
      max_tensor: 4,
      must_fit: false,
      memory_headroom_frac: 0.15,
      include_warnings: true,
    });
  });

  it('values out of range or unknown fall back to the defaults with a notice', () => {
    const d = decodeState('?v=1&pmaxtp=0&phead=0.95&pobj=fastest&pfit=maybe');
    expect(d.notices.length).toBe(4);
    expect(searchScenarioOf(engine, d.state)!.query).toEqual(searchScenarioOf(engine, defaultState())!.query);
  });

  it('max_tensor 4 keeps every ranked plan’s TP at 4 or less', () => {
    const sc: Scenario = searchScenarioOf(engine, stateWith({ hw: 'h100-sxm', chips: 64, fsdp: 8, tp: 8, pmaxtp: 4 }))!;
    const ev = JSON.parse(engine.evaluate(JSON.stringify(sc))) as Evaluation<PlanSearchResult>;
    expect(ev.result!.plans.length).toBeGreaterThan(0);
    expect(ev.result!.plans.every((p) => p.degrees.tensor <= 4)).toBe(true);
    expect(ev.result!.pareto.every((p) => p.degrees.tensor <= 4)).toBe(true);
  });
});
