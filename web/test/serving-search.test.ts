// The serving search from the explorer's controls (state/scenario.ts servingSearchScenario) and back
// (state/serving-search.ts applyDeployment), against docs/api.md `serving_search` and the real wasm engine: the query
// the page sends for the book's "fewest chips" question is the golden case's, its answer is the book's 4x2 slice,
// and every deployment applied gives, on the page's own serving query, the decode step, time to first token,
// memory, latency per token and cost the search reported.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  EngineModule,
  Evaluation,
  Scenario,
  ServingDeployment,
  ServingResult,
  ServingSearchResult,
} from '../src/engine/types';
import { PRESETS, cloneState, defaultState, type State, type Value } from '../src/state/params';
import { mainScenario, meshFor, servingSearchScenario, SERVING_SEARCH_KEEP } from '../src/state/scenario';
import { applyDeployment, chipsText, isCurrentDeployment, replicaText } from '../src/state/serving-search';
import { balanced, planMeshResult } from '../src/state/plan-mesh';
import { planMeshScenario } from '../src/state/scenario';
import { REPO, loadEngine, askNowOf } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

const run = <R>(s: Scenario): Evaluation<R> => JSON.parse(engine.evaluate(JSON.stringify(s))) as Evaluation<R>;
const runMany = <R>(s: Scenario[]): Evaluation<R>[] =>
  JSON.parse(engine.evaluate_many(JSON.stringify(s))) as Evaluation<R>[];

function serving(values: Record<string, Value> = {}): State {
  const s = defaultState();
  Object.assign(s.values, { mode: 'serving' }, values);
  return s;
}

/** The book's question (scaling-book/applied-inference, batch 32 at 8192 tokens), set in the explorer's controls. */
const FEWEST_CHIPS = serving({
  hw: 'tpu-v5e',
  model: 'llama-3-70b',
  prompt: 8192,
  gen: 1,
  kvctx: 8192,
  sbatch: 32,
  skeepb: true,
  wdt: 'int8',
  kvdt: 'int8',
  skeepdt: true,
  scomms: false,
  sobj: 'fewest_chips',
  sprefill: 'colocated',
});

describe('servingSearchScenario', () => {
  it('is a query this engine has', () => {
    expect(PRESETS.queries).toContain('serving_search');
  });

  it('is null outside serving mode', () => {
    expect(servingSearchScenario(defaultState())).toBeNull();
  });

  it('sends the serving controls and leaves the engine its defaults (the search picks replica, split, dtypes and batch)', () => {
    expect(servingSearchScenario(serving())).toEqual({
      version: 1,
      hardware: { preset: 'tpu-v5p' },
      model: { preset: 'llama-3-70b' },
      query: {
        kind: 'serving_search',
        prompt_len: 8192,
        generated_len: 512,
        objective: 'usd_per_million_tokens',
        include_comms: true,
        keep: SERVING_SEARCH_KEEP,
      },
    });
  });

  it('sends targets, demand, prefill, the kept batch and dtypes and the efficiencies at their docs/api.md paths', () => {
    const s = serving({
      hw: 'h100-sxm',
      slat: 0.02,
      sttft: 1.5,
      sdemand: 5e4,
      sprefill: 'disaggregated',
      skeepb: true,
      sbatch: 64,
      skeepdt: true,
      wdt: 'fp8',
      kvdt: 'bf16',
      kvctx: 4096,
      eff_hbm: 0.8,
      sobj: 'tokens_per_s_per_chip',
      tp: 4,
    });
    expect(servingSearchScenario(s)?.query).toEqual({
      kind: 'serving_search',
      prompt_len: 8192,
      generated_len: 512,
      kv_context_len: 4096,
      objective: 'tokens_per_s_per_chip',
      include_comms: true,
      keep: SERVING_SEARCH_KEEP,
      targets: { latency_per_token_s: 0.02, time_to_first_token_s: 1.5 },
      demand_tokens_per_s: 5e4,
      disaggregation: 'disaggregated',
      batches: [64],
      dtypes: { weights: ['fp8'], kv: ['bf16'] },
      efficiency: { hbm_frac: 0.8 },
    });
    // One target alone is sent alone; the degrees and a speculative draft are not the search's. A parameter override
    // is (issue 39: the search then costs what the panel does).
    const one = servingSearchScenario(serving({ sttft: 2, tp: 16, spec: true, sparams: 70e9 }))!.query;
    expect(one).toMatchObject({ targets: { time_to_first_token_s: 2 }, params_override: 70e9 });
    expect(JSON.stringify(one)).not.toMatch(/parallelism|speculative|latency_per_token_s/);
    // The memory budget, set, goes to the search (and to the panel: applyDeployment below); unset, the engine's
    // default decides.
    expect(servingSearchScenario(serving({ smem: 0.85 }))!.query).toMatchObject({ memory_frac: 0.85 });
    expect(JSON.stringify(servingSearchScenario(serving({}))!.query)).not.toMatch(/memory_frac/);
  });

  it('asks the golden "fewest chips" case (tests/golden/ch08_applied_inference.json) for the book’s question', () => {
    const golden = (
      JSON.parse(fs.readFileSync(path.join(REPO, 'tests/golden/ch08_applied_inference.json'), 'utf8')) as {
        cases: { name: string; scenario: Scenario }[];
      }
    ).cases.find((c) => c.name.startsWith('serving_search, fewest chips for LLaMA-3 70B int8'))!.scenario;
    const sc = servingSearchScenario(FEWEST_CHIPS)!;
    expect({ ...sc.query, keep: 3, fidelity: 'book' }).toEqual(golden.query);
    expect(sc.hardware).toEqual(golden.hardware);
    expect(sc.model).toEqual(golden.model);
  });

  it('answers it through the wasm engine: a 4x2 v5e slice, 8 chips, 17.5 ms per decode step (book), the same slice calibrated', () => {
    const sc = servingSearchScenario(FEWEST_CHIPS)!;
    const book = run<ServingSearchResult>({ ...sc, query: { ...sc.query, fidelity: 'book' } as Scenario['query'] });
    expect(book.ok).toBe(true);
    const d = book.result!.deployments[0]!;
    expect(d.mesh.shape).toEqual([4, 2]);
    expect(d.total_chips).toBe(8);
    // scaling-book/applied-inference, the step time on a 4x2: 112e9 / (8 x 8.1e11) = 17.4 ms
    expect(d.decode_step_s).toBeCloseTo(0.017515953619753086, 12);
    expect(d.memory_bytes).toBeLessThanOrEqual(d.hbm_capacity_bytes);
    expect(d.hbm_capacity_bytes).toBe(8 * 16e9);
    expect(book.result!.fidelity).toBe('book');
    // The page's own query is calibrated (the default): the memory still sets the slice.
    const cal = run<ServingSearchResult>(sc);
    expect(cal.result!.fidelity).toBe('calibrated');
    expect(cal.result!.calibration?.error_band.text).toMatch(/held-out/);
    expect(cal.result!.deployments[0]!.mesh.shape).toEqual([4, 2]);
    expect(
      cal.result!.deployments.every(
        (x) => x.batch === 32 && x.dtypes.weights === 'int8' && x.dtypes.kv === 'int8' && !x.disaggregated,
      ),
    ).toBe(true);
  });

  it('says plainly when nothing meets the targets, and still lists the latency x cost front', () => {
    const ev = run<ServingSearchResult>(servingSearchScenario(serving({ hw: 'tpu-v5e', slat: 1e-4 }))!);
    expect(ev.ok).toBe(true);
    expect(ev.result!.deployments).toEqual([]);
    expect(ev.result!.meeting_targets).toBe(0);
    expect(ev.diagnostics.map((d) => [d.code, d.severity])).toContainEqual(['no_deployment_meets_targets', 'warning']);
    expect(ev.result!.frontier.length).toBeGreaterThan(0);
  });
});

describe('applyDeployment', () => {
  // Dense and mixture-of-experts models on 2D and 3D tori and on GPUs, with EP on a torus axis of its own.
  // The last also sets the engines' memory budget (issue 35): the panel and the search count the same KV room.
  const searches: [string, string, string, number | null][] = [
    ['tpu-v5e', 'llama-3-70b', 'usd_per_million_tokens', null],
    ['tpu-v5e', 'mixtral-8x7b', 'fewest_chips', null],
    ['tpu-v5e', 'mixtral-8x7b', 'tokens_per_s_per_chip', null],
    ['tpu-v5p', 'deepseek-v3', 'fewest_chips', null],
    ['tpu-v5p', 'mixtral-8x7b', 'usd_per_million_tokens', null],
    ['h100-sxm', 'llama-3-8b', 'usd_per_million_tokens', null],
    ['h100-sxm', 'deepseek-v3', 'fewest_chips', null],
    ['h100-sxm', 'mixtral-8x7b', 'tokens_per_s_per_chip', null],
    ['h100-sxm', 'gpt-oss-120b', 'usd_per_million_tokens', null],
    ['b200', 'qwen3-235b-a22b', 'tokens_per_s_per_chip', null],
    ['h100-sxm', 'llama-3-70b', 'tokens_per_s_per_chip', 0.8],
  ];

  it.each(searches)(
    '%s %s (%s): each deployment applied gives the serving step, TTFT and memory the search reported',
    (hw, model, sobj, smem) => {
      const start = serving({ hw, model, sobj, tp: 1, sdemand: 3e4, smem });
      const res = run<ServingSearchResult>(servingSearchScenario(start)!).result!;
      const rows: ServingDeployment[] = [...res.deployments, ...res.frontier.slice(0, 10)];
      expect(rows.length).toBeGreaterThan(3);
      const applied = rows.map((d) => {
        const a = applyDeployment(start, d);
        if (!a.ok) throw new Error(a.problems.join(' '));
        expect(isCurrentDeployment(a.state, d)).toBe(true);
        // The colocated and disaggregated rows of one replica are two deployments: only the applied one is current.
        expect(isCurrentDeployment(a.state, { ...d, disaggregated: !d.disaggregated })).toBe(false);
        const m = meshFor(a.state, askNowOf(engine));
        if (!m.ok) throw new Error(m.problem);
        expect([...m.plan.shape].sort()).toEqual([...d.mesh.shape].sort());
        return mainScenario(a.state, m.plan);
      });
      const answers = runMany<ServingResult>(applied);
      rows.forEach((d, i) => {
        const ev = answers[i]!;
        expect(ev.ok, JSON.stringify(ev.diagnostics)).toBe(true);
        const r = ev.result!;
        expect(r.decode.step_s, replicaText(d, hw.startsWith('h'))).toBe(d.decode_step_s);
        expect(r.time_to_first_token_s).toBe(d.time_to_first_token_s);
        expect(r.memory.total_bytes).toBe(d.memory_bytes);
        expect(r.memory.hbm_capacity_bytes).toBe(d.hbm_capacity_bytes);
        expect(r.memory.fits).toBe(true);
        expect(r.memory.total_bytes).toBeLessThanOrEqual((smem ?? 0.9) * r.memory.hbm_capacity_bytes * (1 + 1e-12));
        // One cost definition (issue 20): the headline's deployment is the row, to the last digit.
        const dep = r.deployment!;
        expect(dep.prefill).toBe(d.disaggregated ? 'disaggregated' : 'colocated');
        for (const k of [
          'latency_per_token_s',
          'replicas',
          'prefill_servers',
          'total_chips',
          'tokens_per_s',
          'tokens_per_s_per_chip',
          'usd_per_million_output_tokens',
        ] as const)
          expect(dep[k], k).toBe(d[k]);
      });
      expect(rows.some((d) => d.degrees.expert > 1)).toBe(model !== 'llama-3-70b' && model !== 'llama-3-8b');
    },
  );

  it('keeps a fixed chip count fixed, at the replica’s chips', () => {
    const rebalance = (s: State) =>
      balanced(s, planMeshResult(askNowOf(engine)(planMeshScenario(s, undefined, { chips: true }))));
    const start = rebalance(serving({ hw: 'tpu-v5e', chips: 16, tp: 16 })).state;
    const d = run<ServingSearchResult>(servingSearchScenario(FEWEST_CHIPS)!).result!.deployments[0]!;
    const a = applyDeployment(start, d);
    expect(a.ok).toBe(true);
    if (!a.ok) return;
    expect(a.state.values['chips']).toBe(8);
    expect(rebalance(a.state).state.values['tp']).toBe(8);
    expect(start.values['tp']).toBe(16); // the state it started from is untouched
  });

  it('refuses values the controls cannot hold, in words', () => {
    const d = run<ServingSearchResult>(servingSearchScenario(FEWEST_CHIPS)!).result!.deployments[0]!;
    // (Every dtype the schema names is a choice now: a name from a newer engine stands for one the page lacks.)
    const a = applyDeployment(serving(), { ...d, batch: 1e6, dtypes: { weights: 'fp8', kv: 'fp6' as 'fp8' } });
    expect(a.ok).toBe(false);
    if (a.ok) return;
    expect(a.problems).toEqual([
      expect.stringMatching(/^Batch 1000000 is outside this page’s range/),
      expect.stringMatching(/^KV cache dtype fp6 is not one of this page’s choices/),
    ]);
  });

  it('describes a deployment in words', () => {
    const d = run<ServingSearchResult>(servingSearchScenario(cloneState(FEWEST_CHIPS))!).result!.deployments[0]!;
    expect(replicaText(d, false)).toBe('4×2 · TP 8');
    expect(chipsText(d)).toBe('1 replica');
    expect(chipsText({ ...d, replicas: 3, prefill_servers: 1 })).toBe('3 replicas + 1 prefill server');
    expect(replicaText({ ...d, mesh: { shape: [8] } }, true)).toBe('8 GPUs · TP 8');
    expect(
      replicaText({ ...d, mesh: { shape: [1] }, degrees: { tensor: 1, expert: 1, expert_tensor: 1 } }, false),
    ).toBe('1 chip');
    expect(replicaText({ ...d, mesh: { shape: [8] }, degrees: { tensor: 8, expert: 1, expert_tensor: 1 } }, true)).toBe(
      '8 GPUs · TP 8 · experts’ TP 1',
    );
  });
});
