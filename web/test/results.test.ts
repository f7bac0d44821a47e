// What the headline reads from an answer: whether the plan can run and fits, the metrics, and — once the engine gives
// a calibrated estimate with the book's ideal beside it (issue 8) — both; with book-only results, the book's alone.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule, Evaluation, TrainingStepResult } from '../src/engine/types';
import { cloneState, defaultState } from '../src/state/params';
import { mainScenario, meshFor } from '../src/state/scenario';
import { atBookEfficiency, fidelityOf, metricsOf, planStatus, type PlanAnswer, type Planned } from '../src/ui/results';
import { loadEngine } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

function answer(values: Record<string, unknown> = {}): PlanAnswer {
  const state = cloneState(defaultState());
  Object.assign(state.values, values);
  const mesh = meshFor(state);
  const main = mesh.ok ? (JSON.parse(engine.evaluate(JSON.stringify(mainScenario(state, mesh.plan)))) as Evaluation<Planned>) : null;
  return { state, mesh, main };
}

describe('plan status', () => {
  it('ok for the default; no-fit, cannot-run and warnings in words', () => {
    expect(planStatus(answer())).toEqual({ kind: 'ok', text: 'Fits in HBM; no warnings.' });
    expect(planStatus(answer({ batch: 268435456 }))).toMatchObject({ kind: 'no-fit', text: expect.stringMatching(/^Does not fit: needs .* per chip of 96 GB HBM\.$/) });
    expect(planStatus(answer({ hw: 'tpu-v5e', dp: 2 }))).toMatchObject({ kind: 'cannot-run', text: expect.stringMatching(/^Cannot run: TPU v5e is a 2D torus/) });
    expect(planStatus(answer({ tp: 3 }))).toMatchObject({ kind: 'cannot-run' });
  });
});

describe('fidelity', () => {
  it('a book result shows the book’s numbers, no ideal line', () => {
    const a = answer();
    expect(fidelityOf(a).fidelity).toBe('book');
    expect(metricsOf(a, undefined).every((m) => m.ideal === undefined)).toBe(true);
    expect(atBookEfficiency(a.state)).toBe(true);
    expect(atBookEfficiency(answer({ eff_flops: 0.5 }).state)).toBe(false);
  });

  it('a calibrated result shows its estimate with the book’s ideal beside it', () => {
    const a = answer();
    const t = a.main!.result as TrainingStepResult & Record<string, unknown>;
    const calibrated: PlanAnswer = {
      ...a,
      main: { ...a.main!, result: { ...t, fidelity: 'calibrated', time: { ...t.time, step_s: 3.1 }, ideal: { step_s: t.time.step_s, mfu_frac: t.mfu_frac, train_time_s: 1, train_usd: 2 } } as Planned },
    };
    const m = metricsOf(calibrated, undefined);
    const step = m.find((x) => x.id === 'step_s')!;
    expect(step.value).toBe(3.1);
    expect(step.ideal?.value).toBe(t.time.step_s);
    expect(m.find((x) => x.id === 'train_usd')!.ideal?.value).toBe(2);
    expect(m.find((x) => x.id === 'memory_bytes')!.ideal).toBeUndefined();
  });
});
