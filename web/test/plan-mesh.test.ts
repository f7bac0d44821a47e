// The page asks the engine for its parallelism rules (state/plan-mesh.ts, docs/api.md `plan_mesh`; issue 20): the
// mesh of the state's degrees, where the sliders stop, what a fixed chip count sets, and the nearest state that runs.
// That the engine's lists are exactly what training_step accepts is tests/unit/test_plan_mesh.cpp's; here, that the
// page asks the right question and applies the answer.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule, Evaluation, PlanMeshResult, TrainingStepResult } from '../src/engine/types';
import { balanced, chipsStops, degreeStops, nearest, planMeshResult, type AskNow } from '../src/state/plan-mesh';
import { param, type State } from '../src/state/params';
import { mainScenario, meshFor, planMeshScenario } from '../src/state/scenario';
import { describePlan } from '../src/ui/mesh-words';
import { askNowOf, loadEngine } from './engine';
import { stateWith } from './state';

let engine: EngineModule;
let ask: AskNow;
beforeAll(async () => {
  engine = await loadEngine();
  ask = askNowOf(engine);
});

/** The answer the explorer asks for with each state: stops and a fixed chip count. */
const answerFor = (s: State, extra: { batch?: boolean } = {}): PlanMeshResult =>
  planMeshResult(ask(planMeshScenario(s, undefined, { chips: true, stops: true, ...extra })))!;

describe('where the degree sliders stop', () => {
  it('a 40-head model offers no 16-, 32- or 64-way TP (the reviewer’s case), only divisors', () => {
    const stops = degreeStops(
      param('tp'),
      stateWith({ model: 'llama-2-13b' }),
      answerFor(stateWith({ model: 'llama-2-13b' })),
    )!;
    expect(stops).toEqual([1, 2, 4, 8]);
  });

  it('the schedule is asked: interleaved ×3 stops PP at 10 on 32 layers, DualPipeV at 30 on DeepSeek-V3’s 61', () => {
    const interleaved = stateWith({ model: 'llama-3-8b', sched: 'interleaved', vstages: 3 });
    expect(degreeStops(param('pp'), interleaved, answerFor(interleaved))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const dualpipe = stateWith({ model: 'deepseek-v3', sched: 'dualpipe' });
    for (const v of degreeStops(param('pp'), dualpipe, answerFor(dualpipe))!) expect(v === 1 || v % 2 === 0).toBe(true);
    const v = stateWith({ model: 'deepseek-v3', sched: 'dualpipe_v' });
    expect(degreeStops(param('pp'), v, answerFor(v))!.at(-1)).toBe(30);
  });

  it('data and FSDP stop at powers of two; a dense model offers EP 1 only', () => {
    const s = stateWith({});
    const a = answerFor(s);
    expect(degreeStops(param('fsdp'), s, a)).toEqual(Array.from({ length: 14 }, (_, i) => 2 ** i));
    expect(degreeStops(param('ep'), s, a)).toEqual([1]);
    expect(degreeStops(param('ep'), s, undefined)).toBeNull(); // before the engine answers: no stops
  });

  it('with a fixed count, TP stops leave whole FSDP degrees, FSDP is derived and the chips stop at multiples of the rest', () => {
    const s = stateWith({ chips: 2048 });
    const a = answerFor(s);
    const tp = degreeStops(param('tp'), s, a)!;
    for (const v of tp) expect(Number.isInteger(2048 / v)).toBe(true);
    expect(tp).toContain(8);
    expect(degreeStops(param('fsdp'), s, a)).toBeNull();
    const chips = chipsStops(a)!;
    for (const c of chips) expect(c % 8).toBe(0);
    expect(chips).toContain(2048);
  });
});

describe('a fixed chip count', () => {
  it('moving TP or PP hands the rest of the chips to FSDP; DP when FSDP is off; TP when serving', () => {
    const b = (values: Record<string, unknown>): State =>
      balanced(stateWith(values), answerFor(stateWith(values))).state;
    expect(b({ chips: 2048, tp: 16 }).values['fsdp']).toBe(128);
    expect(b({ chips: 2048, tp: 8, pp: 4 }).values['fsdp']).toBe(64);
    expect(b({ fsdp: 1, dp: 4, chips: 64, tp: 8 }).values['dp']).toBe(8);
    expect(b({ mode: 'serving', chips: 16, ep: 2, model: 'mixtral-8x7b' }).values['tp']).toBe(8);
  });

  it('a count that does not split says why and leaves the degrees', () => {
    const s = stateWith({ chips: 100, tp: 8 });
    const r = balanced(s, answerFor(s));
    expect(r.problem).toMatch(/100 chips do not split into the other degrees \(8 chips per FSDP replica\)/);
    expect(r.state).toBe(s);
  });
});

describe('the nearest state that runs', () => {
  it('a v5e slice holds FSDP 32 × TP 8: the engine’s nearest, with the count no longer fixed and each change in words', () => {
    const s = stateWith({ hw: 'tpu-v5e', chips: 2048 });
    const n = nearest(balanced(s, answerFor(s)).state, answerFor(s));
    expect(n.state.values['fsdp']).toBe(32);
    expect(n.state.values['chips']).toBeNull();
    expect(n.notices.join(' ')).toMatch(
      /FSDP 256 → 32: so that the degrees fit one TPU v5e slice\..*Chips 2,048 is no longer fixed/,
    );
    const m = meshFor(n.state, ask);
    expect(m.ok && m.plan).toMatchObject({ shape: [16, 16], degrees: { fsdp: 32, tensor: 8 } });
    const ok = stateWith({});
    expect(nearest(ok, answerFor(ok))).toEqual({ state: ok, notices: [] });
  });

  it('16M tokens becomes whole 4096-token sequences; TP 3 becomes the nearest that divides the heads', () => {
    const s = stateWith({ batch: 16_000_000, tp: 3 });
    const n = nearest(s, answerFor(s, { batch: true }));
    expect(n.state.values['batch']).toBe(3906 * 4096);
    expect(n.state.values['tp']).toBe(4);
    expect(n.notices).toHaveLength(2);
  });
});

describe('degrees on parts of the torus axes', () => {
  it.each([
    [
      'v5p: FSDP 4 × TP 32 × PP 35 (the chapter 6 widget after its best plan)',
      { fsdp: 4, tp: 32, pp: 35, mb: 128, zero: 1 },
    ],
    ['v5e: FSDP 32 × TP 8 on the 16×16 pod', { hw: 'tpu-v5e', fsdp: 32, tp: 8 }],
    ['v5e: DP 2 × FSDP 4 × TP 8, three strategies on a 2D torus', { hw: 'tpu-v5e', dp: 2, fsdp: 4, tp: 8 }],
    [
      'v5e: FSDP 4 × CP 2 × TP 8 in each of two slices, DP over DCN',
      { hw: 'tpu-v5e', fsdp: 4, cp: 2, tp: 8, slices: 2 },
    ],
  ])('%s: the engine lays out the degrees and answers without an error', (_name, values) => {
    const s = stateWith(values);
    const m = meshFor(s, ask);
    expect(m.ok).toBe(true);
    if (!m.ok) return;
    expect(m.plan.degrees).toBeDefined();
    expect(describePlan(m.plan)).toMatch(/on parts of the axes/);
    const ev = JSON.parse(engine.evaluate(JSON.stringify(mainScenario(s, m.plan)))) as Evaluation<TrainingStepResult>;
    expect(ev.diagnostics.filter((d) => d.severity !== 'warning')).toEqual([]);
    expect(ev.result!.degrees.chips).toBe(m.plan.chips);
    expect(ev.result!.layouts_considered).toBeGreaterThan(0);
  });
});
