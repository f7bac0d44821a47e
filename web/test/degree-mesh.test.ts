// Degrees the page's whole-axis layout cannot hold on a TPU slice go to the engine as degrees, on a slice shape that
// can hold them: the engine accepts every such scenario and lays the strategies on parts of the axes itself.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule, Evaluation, TrainingStepResult } from '../src/engine/types';
import { degreeMesh, degreesTile } from '../src/state/degree-mesh';
import { describePlan, planMesh, type Degrees } from '../src/state/mesh';
import { defaultState, hardwarePreset } from '../src/state/params';
import { stateWith } from './state';
import { mainScenario, meshFor } from '../src/state/scenario';
import { loadEngine } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

const deg = (d: Partial<Degrees>): Degrees => ({ data: 1, fsdp: 1, context: 1, expert: 1, pipeline: 1, tensor: 1, ...d });
const v5p = hardwarePreset('tpu-v5p');
const v5e = hardwarePreset('tpu-v5e');

describe('degrees on parts of the torus axes', () => {
  it('tiles a shape only when every axis is a product of one factor of each degree', () => {
    expect(degreesTile([16, 20, 14], [35, 32, 4])).toBe(true); // PP 5 × 7, TP and FSDP from the rest
    expect(degreesTile([16, 16], [32, 8])).toBe(true);
    expect(degreesTile([16, 16], [3, 2])).toBe(false);
    expect(degreesTile([4, 4], [8, 4])).toBe(false); // 32 chips on 16
    expect(degreesTile([8], [2, 2, 2])).toBe(true); // three strategies on one axis
  });

  it('only when whole axes cannot hold the degrees, only on TPUs, and with DCN only for a strategy that has nothing inside a slice', () => {
    expect(planMesh(v5p, deg({ fsdp: 4, tensor: 32, pipeline: 35 })).ok).toBe(false);
    const m = degreeMesh(v5p, deg({ fsdp: 4, tensor: 32, pipeline: 35 }))!;
    expect(m).toMatchObject({ chips: 4480, axes: {}, degrees: { fsdp: 4, tensor: 32, pipeline: 35 } });
    expect(m.shape.reduce((a, b) => a * b, 1)).toBe(4480);
    expect(describePlan(m)).toMatch(/FSDP 4 × PP 35 × TP 32 on parts of the axes/);
    expect(degreeMesh(v5e, deg({ fsdp: 512 }))).toBeNull(); // more than the pod
    expect(degreeMesh(hardwarePreset('h100-sxm'), deg({ fsdp: 4, tensor: 8 }))).toBeNull();
    expect(degreeMesh(v5e, deg({ fsdp: 32, tensor: 8 }), 2, 'fsdp')).toBeNull();
    expect(degreeMesh(v5e, deg({ fsdp: 32, tensor: 8 }), 2, 'data')).toMatchObject({ axes: { data: ['DCN'] }, chips: 512 });
    // The page's own layout is kept where it works.
    expect(meshFor(defaultState())).toMatchObject({ ok: true, plan: { axes: { fsdp: ['X', 'Y'], tensor: ['Z'] } } });
    expect(meshFor(stateWith({ mode: 'serving', hw: 'tpu-v5e', tp: 32, ep: 4, model: 'mixtral-8x7b' })).ok).toBe(false);
  });

  it.each([
    ['v5p: FSDP 4 × TP 32 × PP 35 (the chapter 6 widget after its best plan)', { fsdp: 4, tp: 32, pp: 35, mb: 128, zero: 1 }],
    ['v5e: FSDP 32 × TP 8 on the 16×16 pod', { hw: 'tpu-v5e', fsdp: 32, tp: 8 }],
    ['v5e: DP 2 × FSDP 4 × TP 8, three strategies on a 2D torus', { hw: 'tpu-v5e', dp: 2, fsdp: 4, tp: 8 }],
    ['v5e: FSDP 4 × CP 2 × TP 8 in each of two slices, DP over DCN', { hw: 'tpu-v5e', fsdp: 4, cp: 2, tp: 8, slices: 2 }],
  ])('%s: the engine lays out the degrees and answers without an error', (_name, values) => {
    const s = stateWith(values);
    const m = meshFor(s);
    expect(m.ok).toBe(true);
    if (!m.ok) return;
    expect(m.plan.degrees).toBeDefined();
    const ev = JSON.parse(engine.evaluate(JSON.stringify(mainScenario(s, m.plan)))) as Evaluation<TrainingStepResult>;
    expect(ev.diagnostics.filter((d) => d.severity !== 'warning')).toEqual([]);
    const t = ev.result!;
    expect(t.degrees.chips).toBe(m.plan.chips);
    expect(t.layouts_considered).toBeGreaterThan(0);
    expect(Object.keys(t.parallelism ?? {}).length).toBeGreaterThan(0);
    expect(Number.isFinite(t.time.step_s)).toBe(true);
  });
});
