// Sliders stop only at degrees the model splits into, and those are exactly the degrees the engine accepts
// (core/planners/training_checks.cpp): checked here against the engine for every model preset. With a fixed chip
// count, moving TP, PP, EP or CP hands the rest of the chips to FSDP (or DP).
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule, Evaluation } from '../src/engine/types';
import { MODEL_IDS, param, type State } from '../src/state/params';
import { stateWith } from './state';
import { balancingDegree, chipsOf, chipsStops, degreeStops, fitToChip, rebalance, splits, type DegreeStrategy } from '../src/state/degrees';
import { baseModel, effectiveModel, meshFor } from '../src/state/scenario';
import { loadEngine } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

/** Does the engine reject `value`-way `strategy` on this model (an error at that strategy's path)? */
function engineRejects(model: string, strategy: DegreeStrategy, value: number, seq = 4096): boolean {
  const parallelism: Record<string, unknown> = { data: ['X'], [strategy]: ['Y'] };
  const sc = {
    hardware: { preset: 'h100-sxm' }, model: { preset: model }, mesh: { shape: [1, value] },
    query: { kind: 'training_step', batch_tokens: seq * value * 4, seq_len: seq, parallelism },
  };
  const ev = JSON.parse(engine.evaluate(JSON.stringify(sc))) as Evaluation<unknown>;
  return ev.diagnostics.some((d) => d.severity !== 'warning' && d.path.startsWith(`/query/parallelism/${strategy}`));
}

describe('degrees a model splits into', () => {
  it.each(MODEL_IDS)('%s: TP, PP and EP stops are exactly what the engine accepts', (model) => {
    const s = stateWith({ model });
    const m = effectiveModel(baseModel(s), s);
    for (const [strategy, max] of [['tensor', 64], ['pipeline', 32], ['expert', 16]] as [DegreeStrategy, number][]) {
      for (let v = 1; v <= max; v++) {
        expect(splits(strategy, v, m, s), `${model} ${strategy} ${v}`).toBe(!engineRejects(model, strategy, v));
      }
    }
  });

  it('interleaved: every stage needs a chunk of layers (stages × virtual stages up to the layers, not dividing them)', () => {
    // llama-3-8b: 32 layers; 3 virtual stages per stage fit up to 10 stages (30 chunks), 11 would need 33.
    const s = stateWith({ model: 'llama-3-8b', sched: 'interleaved', vstages: 3 });
    const m = effectiveModel(baseModel(s), s);
    for (let v = 1; v <= 16; v++) {
      const sc = {
        hardware: { preset: 'h100-sxm' }, model: { preset: 'llama-3-8b' }, mesh: { shape: [v] },
        query: { kind: 'training_step', batch_tokens: 4096 * 64, seq_len: 4096, parallelism: { pipeline: ['X'], pipeline_schedule: 'interleaved', virtual_stages: 3, microbatches: 8 } },
      };
      const ev = JSON.parse(engine.evaluate(JSON.stringify(sc))) as Evaluation<unknown>;
      const rejected = ev.diagnostics.some((d) => d.severity !== 'warning' && d.path.startsWith('/query/parallelism'));
      expect(splits('pipeline', v, m, s), `interleaved x3, ${v} stages`).toBe(!rejected);
    }
    expect(degreeStops(param('pp'), s, m)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('DualPipe needs an even number of stages; dualpipe_v runs two chunks per stage (DeepSeek-V3: 61 layers)', () => {
    for (const sched of ['dualpipe', 'dualpipe_v'] as const) {
      const s = stateWith({ model: 'deepseek-v3', sched });
      const m = effectiveModel(baseModel(s), s);
      for (let v = 1; v <= 64; v++) {
        const sc = {
          hardware: { preset: 'h100-sxm' }, model: { preset: 'deepseek-v3' }, mesh: { shape: [v] },
          query: { kind: 'training_step', batch_tokens: 4096 * 64, seq_len: 4096, parallelism: { pipeline: ['X'], pipeline_schedule: sched, microbatches: 64 } },
        };
        const ev = JSON.parse(engine.evaluate(JSON.stringify(sc))) as Evaluation<unknown>;
        const rejected = ev.diagnostics.some((d) => d.severity !== 'warning' && d.path.startsWith('/query/parallelism'));
        expect(splits('pipeline', v, m, s), `${sched}, ${v} stages`).toBe(!rejected);
      }
    }
    const v = stateWith({ model: 'deepseek-v3', sched: 'dualpipe_v' });
    expect(degreeStops(param('pp'), v, effectiveModel(baseModel(v), v))!.at(-1)).toBe(30); // 2 x 30 chunks <= 61 layers
  });

  it('the experts’ own TP: TP and EP stop where the engine accepts the folded plan (Qwen3-30B-A3B, 128 experts of d_ff 768)', () => {
    for (const etp of [1, 2, 4]) {
      for (const ep of [1, 2, 8]) {
        const s = stateWith({ model: 'qwen3-30b-a3b', etp, ep });
        const m = effectiveModel(baseModel(s), s);
        for (let tp = 1; tp <= 32; tp++) {
          const sc = {
            hardware: { preset: 'h100-sxm' }, model: { preset: 'qwen3-30b-a3b' }, mesh: { shape: [ep, tp] },
            query: { kind: 'training_step', batch_tokens: 4096 * ep * tp * 4, seq_len: 4096, parallelism: { expert: ['X'], tensor: ['Y'], expert_tensor: etp } },
          };
          const ev = JSON.parse(engine.evaluate(JSON.stringify(sc))) as Evaluation<unknown>;
          const rejected = ev.diagnostics.some((d) => d.severity !== 'warning' && d.path.startsWith('/query/parallelism'));
          expect(splits('tensor', tp, m, s), `etp ${etp}, ep ${ep}, tp ${tp}`).toBe(!rejected);
        }
      }
    }
  });

  it('a 40-head model offers no 16-, 32- or 64-way TP (the reviewer’s case), only divisors', () => {
    const s = stateWith({ model: 'llama-2-13b' });
    const m = effectiveModel(baseModel(s), s);
    const stops = degreeStops(param('tp'), s, m)!;
    expect(stops).not.toContain(16);
    expect(stops).not.toContain(32);
    for (const v of stops) expect(m.heads % v).toBe(0);
    expect(stops[0]).toBe(1);
  });
});

describe('fixed chip count', () => {
  it('moving TP rebalances FSDP so the chips stay', () => {
    const s = stateWith({ chips: 2048, tp: 16 });
    const r = rebalance(s);
    expect(r.problem).toBeUndefined();
    expect(r.state.values['fsdp']).toBe(128);
    expect(chipsOf(r.state)).toBe(2048);
    const pp = rebalance(stateWith({ chips: 2048, tp: 8, pp: 4 }));
    expect(pp.state.values['fsdp']).toBe(64);
  });

  it('DP balances when FSDP is off; serving balances TP', () => {
    expect(balancingDegree(stateWith({ fsdp: 1, dp: 4 }))).toBe('data');
    expect(rebalance(stateWith({ fsdp: 1, dp: 4, chips: 64, tp: 8 })).state.values['dp']).toBe(8);
    const serving = rebalance(stateWith({ mode: 'serving', chips: 16, ep: 2 }));
    expect(serving.state.values['tp']).toBe(8);
  });

  it('a count that does not split says why and leaves the degrees', () => {
    const s = stateWith({ chips: 100, tp: 8 });
    const r = rebalance(s);
    expect(r.problem).toMatch(/100 chips do not split/);
    expect(r.state).toBe(s);
  });

  it('with a fixed count, TP stops leave whole FSDP degrees and FSDP is derived', () => {
    const s = stateWith({ chips: 2048 });
    const m = effectiveModel(baseModel(s), s);
    const tp = degreeStops(param('tp'), s, m)!;
    for (const v of tp) expect(Number.isInteger(2048 / v)).toBe(true);
    expect(degreeStops(param('fsdp'), s, m)).toBeNull();
    const chips = chipsStops(s);
    for (const c of chips) expect(c % 8).toBe(0);
    expect(chips).toContain(2048);
  });
});

describe('a chip that cannot hold the degrees', () => {
  it('halves FSDP until the slice fits, and unfixes a count that had to move', () => {
    const fits = (x: State): boolean => meshFor(x).ok;
    const v5e = fitToChip(stateWith({ hw: 'tpu-v5e', chips: 2048 }), fits);
    // A 2D torus holds FSDP 32 × TP 8 on the whole 16×16 pod once the engine may split an axis between them.
    expect(v5e.values['fsdp']).toBe(32);
    expect(v5e.values['chips']).toBeNull();
    const m = meshFor(v5e);
    expect(m.ok && m.plan).toMatchObject({ shape: [16, 16], degrees: { fsdp: 32, tensor: 8 } });
    const ok = stateWith({});
    expect(fitToChip(ok, fits)).toBe(ok);
  });
});
