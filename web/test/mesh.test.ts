import { describe, expect, it } from 'vitest';
import { factorisations, planMesh, describePlan, nodesTimesGpus, type Degrees } from '../src/state/mesh';
import { formatLayout, layoutDegrees, layoutOfPlan, layoutPlan, parseLayout, type PlanLayout } from '../src/state/layout';
import { hardwarePreset } from '../src/state/params';

const deg = (d: Partial<Degrees>): Degrees => ({ data: 1, fsdp: 1, context: 1, expert: 1, pipeline: 1, tensor: 1, ...d });
const v5p = hardwarePreset('tpu-v5p');
const v5e = hardwarePreset('tpu-v5e');
const h100 = hardwarePreset('h100-sxm');

describe('degrees -> mesh', () => {
  it('factorises', () => {
    expect(factorisations(16, 2)).toEqual([[8, 2], [4, 4]]);
    expect(factorisations(12, 2)).toEqual([[6, 2], [4, 3]]);
    expect(factorisations(7, 2)).toEqual([]);
    expect(factorisations(8, 1)).toEqual([[8]]);
  });

  it('gives the book’s 4x4x4 for FSDP 16 x TP 4 on a v5p', () => {
    const r = planMesh(v5p, deg({ fsdp: 16, tensor: 4 }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.plan.shape).toEqual([4, 4, 4]);
    expect(r.plan.axes).toEqual({ fsdp: ['X', 'Y'], tensor: ['Z'] });
    expect(r.plan.chips).toBe(64);
    expect(describePlan(r.plan)).toBe('4×4×4 · FSDP on X,Y · TP on Z');
  });

  it('prefers balanced shapes', () => {
    const r = planMesh(v5p, deg({ fsdp: 16, tensor: 8 }));
    expect(r.ok && r.plan.shape).toEqual([4, 4, 8]);
    const t = planMesh(v5p, deg({ tensor: 4 }));
    expect(t.ok && t.plan).toMatchObject({ shape: [2, 2], axes: { tensor: ['X', 'Y'] } });
  });

  it('keeps every slice inside the pod and uses each axis once', () => {
    for (const [hw, d] of [[v5p, deg({ fsdp: 256, tensor: 16 })], [v5e, deg({ fsdp: 16, tensor: 16 })], [v5p, deg({ data: 2, fsdp: 8, tensor: 4 })]] as const) {
      const r = planMesh(hw, d);
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      const used = Object.values(r.plan.axes).flat();
      expect(new Set(used).size).toBe(used.length);
      expect(used.sort()).toEqual([...r.plan.axisNames].sort());
      expect(r.plan.shape.length).toBeLessThanOrEqual(hw.ici!.torus_dims);
      const want = [...r.plan.shape].sort((a, b) => a - b);
      const have = hw.ici!.max_slice_shape.slice().sort((a, b) => a - b);
      want.forEach((w, i) => expect(w).toBeLessThanOrEqual(have[i + have.length - want.length]!));
    }
  });

  it('explains what cannot be built', () => {
    const tooMany = planMesh(v5e, deg({ data: 2, fsdp: 2, tensor: 2 }));
    expect(tooMany.ok).toBe(false);
    if (!tooMany.ok) expect(tooMany.problem).toMatch(/2D torus/);
    const tooBig = planMesh(v5e, deg({ fsdp: 512 }));
    expect(tooBig.ok).toBe(false);
    if (!tooBig.ok) expect(tooBig.problem).toMatch(/do not fit/);
    expect(planMesh(v5p, deg({ tensor: 0 })).ok).toBe(false);
    expect(planMesh(h100, deg({ fsdp: 8 }), 2).ok).toBe(false);
  });

  it('adds the DCN axis for slices, used by data or FSDP', () => {
    const r = planMesh(v5p, deg({ fsdp: 16, tensor: 4 }), 4, 'data');
    expect(r.ok && r.plan.axes.data).toEqual(['DCN']);
    expect(r.ok && r.plan.chips).toBe(256);
    const f = planMesh(v5p, deg({ fsdp: 16 }), 2, 'fsdp');
    expect(f.ok && f.plan.axes.fsdp).toEqual(['X', 'Y', 'DCN']);
  });

  it('puts GPU tensor parallelism innermost and pipeline outermost', () => {
    const r = planMesh(h100, deg({ pipeline: 4, fsdp: 32, tensor: 8 }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.plan.shape).toEqual([4, 32, 8]);
    expect(r.plan.axes).toEqual({ pipeline: ['X'], fsdp: ['Y'], tensor: ['Z'] });
    expect(nodesTimesGpus(h100, r.plan.chips)).toBe('128 nodes × 8 GPUs');
    expect(nodesTimesGpus(h100, 4)).toBe('1 node × 4 GPUs');
  });

  it('maps a single chip to one data axis of size 1', () => {
    const r = planMesh(v5p, deg({}));
    expect(r.ok && r.plan).toMatchObject({ shape: [1], axes: { data: ['X'] }, chips: 1 });
  });
});

describe('explicit layouts (applied plans)', () => {
  it('parses, formats and gives degrees', () => {
    const axes = parseLayout('fsdp4.fsdp4.tensor4')!;
    expect(axes).toEqual([[{ strategy: 'fsdp', size: 4 }], [{ strategy: 'fsdp', size: 4 }], [{ strategy: 'tensor', size: 4 }]]);
    expect(formatLayout(axes)).toBe('fsdp4.fsdp4.tensor4');
    expect(layoutDegrees(axes)).toEqual(deg({ fsdp: 16, tensor: 4 }));
    expect(layoutPlan(axes)).toMatchObject({ shape: [4, 4, 4], axisNames: ['X', 'Y', 'Z'], axes: { fsdp: ['X', 'Y'], tensor: ['Z'] }, chips: 64 });
    expect(layoutPlan(axes, 2, 'data')).toMatchObject({ axes: { fsdp: ['X', 'Y'], tensor: ['Z'], data: ['DCN'] }, slices: 2, chips: 128 });
    for (const bad of ['', 'fsdp', 'fsdp0', 'fsdp4.x2', 'fsdp4,tensor2', 'fsdp4**tensor2', '*fsdp4', 'fsdp4*', 'fsdp2*fsdp2*fsdp2*fsdp2*fsdp2']) expect(parseLayout(bad), bad).toBeNull();
  });

  it('a split axis lists its pieces outermost first; each is a sub-axis whose stride is the pieces inside it', () => {
    const axes = parseLayout('fsdp16.fsdp16.fsdp4*tensor2')!;
    expect(formatLayout(axes)).toBe('fsdp16.fsdp16.fsdp4*tensor2');
    expect(layoutDegrees(axes)).toEqual(deg({ fsdp: 1024, tensor: 2 }));
    const plan = layoutPlan(axes);
    expect(plan).toMatchObject({ shape: [16, 16, 8], chips: 2048 });
    expect(plan.axes).toEqual({ fsdp: ['X', 'Y', { axis: 'Z', size: 4, stride: 2 }], tensor: [{ axis: 'Z', size: 2, stride: 1 }] });
    expect(describePlan(plan)).toBe('16×16×8 · FSDP on X, Y, outer 4 of Z · TP on inner 2 of Z');
    const three = layoutPlan(parseLayout('data2*fsdp2*tensor2')!);
    expect(three.axes).toEqual({ data: [{ axis: 'X', size: 2, stride: 4 }], fsdp: [{ axis: 'X', size: 2, stride: 2 }], tensor: [{ axis: 'X', size: 2, stride: 1 }] });
    expect(describePlan(three)).toBe('8 · DP on outer 2 of X · FSDP on middle 2 of X · TP on inner 2 of X');
  });

  it('reads a searched plan: TPU axes of the searched mesh, GPU the plan’s own mesh (size-1 axes dropped, DCN left to slices)', () => {
    const text = (l: PlanLayout): string => (l.ok ? formatLayout(l.axes) : l.problem);
    const tpu = layoutOfPlan({ shape: [4, 4, 8], axis_names: ['X', 'Y', 'Z'] }, { fsdp: ['Z'], tensor: ['X', 'Y'], data: ['DCN'], zero_stage: 3 });
    expect(text(tpu)).toBe('tensor4.tensor4.fsdp8');
    expect(tpu.ok && tpu.dcn).toBe('data');
    expect(text(layoutOfPlan({ shape: [64, 1, 1], axis_names: ['D', 'P', 'T'] }, { fsdp: ['D'], microbatches: 4 }))).toBe('fsdp64');
    expect(text(layoutOfPlan({ shape: [8, 4, 2], axis_names: ['D', 'P', 'T'] }, { data: ['D'], pipeline: ['P'], tensor: ['T'] }))).toBe('data8.pipeline4.tensor2');
    expect(text(layoutOfPlan({ shape: [1], axis_names: ['X'] }, {}))).toBe('data1');
    // Sub-axes, in any order in the strategies' lists: the axis reads outermost (largest stride) first.
    const sub = layoutOfPlan({ shape: [16, 16, 8], axis_names: ['X', 'Y', 'Z'] },
      { tensor: [{ axis: 'Z', size: 2, stride: 1 }], fsdp: ['X', 'Y', { axis: 'Z', size: 4, stride: 2 }], zero_stage: 3 });
    expect(text(sub)).toBe('fsdp16.fsdp16.fsdp4*tensor2');
    expect(text(layoutOfPlan({ shape: [8], axis_names: ['X'] }, { fsdp: [{ axis: 'X', size: 2, stride: 1 }], tensor: [{ axis: 'X', size: 4, stride: 2 }] }))).toBe('tensor4*fsdp2');
  });

  it('refuses, in words, a plan it cannot hold', () => {
    const problem = (mesh: { shape: number[]; axis_names: string[] }, par: Record<string, unknown>): string => {
      const l = layoutOfPlan(mesh, par);
      return l.ok ? '' : l.problem;
    };
    expect(problem({ shape: [4, 4], axis_names: ['X', 'Y'] }, { fsdp: ['X'] })).toMatch(/axis Y/); // Y belongs to no strategy
    expect(problem({ shape: [8], axis_names: ['X'] }, { fsdp: [{ axis: 'X', size: 4, stride: 2 }] })).toMatch(/do not tile/);
    expect(problem({ shape: [8], axis_names: ['X'] }, { fsdp: [{ axis: 'X', size: 4, stride: 1 }] })).toMatch(/part of axis X/);
    expect(problem({ shape: [8], axis_names: ['X'] }, { fsdp: ['X'], tensor: ['Q'] })).toMatch(/axis Q/);
    expect(problem({ shape: [8], axis_names: ['X'] }, { fsdp: [7] })).toMatch(/cannot read/);
  });

  it('the page uses a layout only while the degrees still match it', async () => {
    const { cloneState, defaultState } = await import('../src/state/params');
    const { meshFor } = await import('../src/state/scenario');
    const s = cloneState(defaultState());
    Object.assign(s.values, { fsdp: 8, tp: 16, layout: 'tensor4.tensor4.fsdp8' });
    const m = meshFor(s);
    expect(m.ok && m.plan).toMatchObject({ shape: [4, 4, 8], axes: { tensor: ['X', 'Y'], fsdp: ['Z'] } });
    s.values['tp'] = 8; // no longer the layout's degrees: back to the page's own mesh
    const n = meshFor(s);
    expect(n.ok && n.plan.axes).toEqual({ fsdp: ['X'], tensor: ['Y'] }); // planMesh's own 8×8
    s.values['mode'] = 'serving';
    s.values['tp'] = 16;
    const sv = meshFor(s);
    expect(sv.ok && sv.plan.axes.fsdp).toBeUndefined();
  });
});
