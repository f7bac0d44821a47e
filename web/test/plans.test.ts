// Applying a searched plan sets controls whose training step is exactly the plan the engine ranked: the same step
// time and memory, bit for bit, for TPU slices (with and without DCN), GPU clusters (the plan's own mesh) and MoE.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule, Evaluation, PlanSearchResult, TrainingStepResult } from '../src/engine/types';
import { SHAPES, shapeMismatches, EXTRA_KEY } from '../src/engine/types';
import { cloneState, defaultState, type State } from '../src/state/params';
import { applyPlan, isCurrentPlan } from '../src/state/plans';
import { mainScenario, meshFor, planSearchScenario } from '../src/state/scenario';
import { loadEngine } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

const run = <R>(x: unknown): Evaluation<R> => JSON.parse(engine.evaluate(JSON.stringify(x))) as Evaluation<R>;

function state(values: Record<string, unknown>): State {
  const s = cloneState(defaultState());
  Object.assign(s.values, values);
  return s;
}

const CASES: [string, State][] = [
  ['v5p 16x16x8 (default)', defaultState()],
  ['v5p 4x4x4', state({ fsdp: 16, tp: 4 })],
  ['v5p 4x4x8, two slices over DCN', state({ fsdp: 32, tp: 4, slices: 2 })],
  ['H100 x 64', state({ hw: 'h100-sxm', fsdp: 16, tp: 4 })],
  ['H100 x 512, long sequences', state({ hw: 'h100-sxm', fsdp: 64, tp: 8, seq: 8192, batch: 16777216 })],
  ['Mixtral on v5e 8x8', state({ hw: 'tpu-v5e', model: 'mixtral-8x7b', fsdp: 16, tp: 1, ep: 4 })],
];

describe('plan search -> apply', () => {
  it.each(CASES)('%s: every listed plan, applied, is the same training step', (_name, s) => {
    const sc = planSearchScenario(s);
    expect(sc).not.toBeNull();
    const ev = run<PlanSearchResult>(sc);
    expect(ev.diagnostics.filter((d) => d.severity !== 'warning')).toEqual([]);
    expect(shapeMismatches(ev.result, SHAPES.plan_search).filter((m) => !m.endsWith(EXTRA_KEY))).toEqual([]);
    const plans = ev.result!.plans;
    expect(plans.length).toBeGreaterThan(0);
    for (const [i, plan] of plans.entries()) {
      expect(shapeMismatches(plan, SHAPES.searched_plan).filter((m) => !m.endsWith(EXTRA_KEY)), `plan ${i}`).toEqual([]);
      const a = applyPlan(s, plan, { shape: sc!.mesh!.shape, axis_names: sc!.mesh!.axis_names ?? [] });
      expect(a.ok, `plan ${i}: ${a.ok ? '' : a.problems.join(' ')}`).toBe(true);
      if (!a.ok) continue;
      const m = meshFor(a.state);
      expect(m.ok, `plan ${i}`).toBe(true);
      if (!m.ok) continue;
      const t = run<TrainingStepResult>(mainScenario(a.state, m.plan));
      expect(t.diagnostics.filter((d) => d.severity !== 'warning'), `plan ${i}`).toEqual([]);
      expect(t.result!.time.step_s, `plan ${i} ${JSON.stringify(plan.parallelism)}`).toBe(plan.step_s);
      expect(t.result!.memory.total_bytes, `plan ${i}`).toBe(plan.memory_bytes);
      expect(t.result!.mfu_frac, `plan ${i}`).toBe(plan.mfu_frac);
      expect(isCurrentPlan(a.state, plan, { shape: sc!.mesh!.shape, axis_names: sc!.mesh!.axis_names ?? [] }), `plan ${i}`).toBe(true);
      // The search key does not move when a plan is applied: the list stays valid for the page.
      expect(JSON.stringify(planSearchScenario(a.state)), `plan ${i}`).toBe(JSON.stringify(sc));
    }
  });

  it('a GPU plan with data, pipeline and tensor axes (D×P×T, tensor innermost) applies exactly', () => {
    const s = state({ hw: 'h100-sxm', fsdp: 1, dp: 16, pp: 4, tp: 8, batch: 4194304, mb: 16 });
    const sc = planSearchScenario(s)!;
    const mesh = { shape: [16, 4, 8], axis_names: ['D', 'P', 'T'] };
    const parallelism = { data: ['D'], pipeline: ['P'], tensor: ['T'], microbatches: 16, zero_stage: 1 as const };
    const q = sc.query as unknown as Record<string, unknown>;
    const direct = run<TrainingStepResult>({ ...sc, mesh, query: { ...q, kind: 'training_step', keep: undefined, parallelism, remat: 'block' } });
    expect(direct.diagnostics.filter((d) => d.severity !== 'warning')).toEqual([]);
    const t = direct.result!;
    const plan = {
      parallelism, remat: 'block' as const, mesh, degrees: { ...t.degrees }, step_s: t.time.step_s, bound: t.time.bound, critical: t.time.critical,
      mfu_frac: t.mfu_frac, memory_bytes: t.memory.total_bytes, fits: t.memory.fits, binding: t.binding, train_time_s: t.cost.train_time_s, train_usd: t.cost.train_usd,
    };
    const a = applyPlan(s, plan, { shape: [128], axis_names: ['X'] });
    expect(a.ok).toBe(true);
    if (!a.ok) return;
    expect(a.state.values['layout']).toBe('data16.pipeline4.tensor8');
    const m = meshFor(a.state);
    expect(m.ok && m.plan.shape).toEqual([16, 4, 8]);
    if (!m.ok) return;
    const viaPage = run<TrainingStepResult>(mainScenario(a.state, m.plan)).result!;
    expect(viaPage.time.step_s).toBe(plan.step_s);
    expect(viaPage.memory.total_bytes).toBe(plan.memory_bytes);
  });

  it('a plan outside the controls’ ranges is refused with words, not applied', () => {
    const s = defaultState();
    const sc = planSearchScenario(s)!;
    const plan = run<PlanSearchResult>(sc).result!.plans[0]!;
    const a = applyPlan(s, { ...plan, parallelism: { ...plan.parallelism, microbatches: 1e6 } }, { shape: sc.mesh!.shape, axis_names: sc.mesh!.axis_names ?? [] });
    expect(a.ok).toBe(false);
    if (!a.ok) expect(a.problems.join(' ')).toContain('Microbatches');
  });

  it('no plan search in serving mode', () => {
    expect(planSearchScenario(state({ mode: 'serving' }))).toBeNull();
  });
});
