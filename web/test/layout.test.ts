// An applied plan's exact layout as the URL carries it (state/layout.ts), and a mesh in words (ui/mesh-words.ts). The
// mesh for degrees is the engine's (plan_mesh: tests/unit/test_plan_mesh.cpp, and plan-mesh.test.ts for the page).
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule } from '../src/engine/types';
import { describePlan, nodesTimesGpus } from '../src/ui/mesh-words';
import type { Degrees } from '../src/state/plan-mesh';
import {
  formatLayout,
  layoutDegrees,
  layoutOfPlan,
  layoutPlan,
  parseLayout,
  type PlanLayout,
} from '../src/state/layout';
import { hardwarePreset } from '../src/state/params';
import { askNowOf, loadEngine } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

const deg = (d: Partial<Degrees>): Degrees => ({
  data: 1,
  fsdp: 1,
  context: 1,
  expert: 1,
  pipeline: 1,
  tensor: 1,
  ...d,
});
const h100 = hardwarePreset('h100-sxm');

describe('a mesh in words', () => {
  it('names each strategy’s axes, and GPU clusters as nodes × GPUs', () => {
    expect(describePlan(layoutPlan(parseLayout('fsdp4.fsdp4.tensor4')!))).toBe('4×4×4 · FSDP on X,Y · TP on Z');
    expect(nodesTimesGpus(h100, 1024)).toBe('128 nodes × 8 GPUs');
    expect(nodesTimesGpus(h100, 4)).toBe('1 node × 4 GPUs');
  });
});

describe('explicit layouts (applied plans)', () => {
  it('parses, formats and gives degrees', () => {
    const axes = parseLayout('fsdp4.fsdp4.tensor4')!;
    expect(axes).toEqual([
      [{ strategy: 'fsdp', size: 4 }],
      [{ strategy: 'fsdp', size: 4 }],
      [{ strategy: 'tensor', size: 4 }],
    ]);
    expect(formatLayout(axes)).toBe('fsdp4.fsdp4.tensor4');
    expect(layoutDegrees(axes)).toEqual(deg({ fsdp: 16, tensor: 4 }));
    expect(layoutPlan(axes)).toMatchObject({
      shape: [4, 4, 4],
      axisNames: ['X', 'Y', 'Z'],
      axes: { fsdp: ['X', 'Y'], tensor: ['Z'] },
      chips: 64,
    });
    expect(layoutPlan(axes, 2, 'data')).toMatchObject({
      axes: { fsdp: ['X', 'Y'], tensor: ['Z'], data: ['DCN'] },
      slices: 2,
      chips: 128,
    });
    for (const bad of [
      '',
      'fsdp',
      'fsdp0',
      'fsdp4.x2',
      'fsdp4,tensor2',
      'fsdp4**tensor2',
      '*fsdp4',
      'fsdp4*',
      'fsdp2*fsdp2*fsdp2*fsdp2*fsdp2',
    ])
      expect(parseLayout(bad), bad).toBeNull();
  });

  it('a split axis lists its pieces outermost first; each is a sub-axis whose stride is the pieces inside it', () => {
    const axes = parseLayout('fsdp16.fsdp16.fsdp4*tensor2')!;
    expect(formatLayout(axes)).toBe('fsdp16.fsdp16.fsdp4*tensor2');
    expect(layoutDegrees(axes)).toEqual(deg({ fsdp: 1024, tensor: 2 }));
    const plan = layoutPlan(axes);
    expect(plan).toMatchObject({ shape: [16, 16, 8], chips: 2048 });
    expect(plan.axes).toEqual({
      fsdp: ['X', 'Y', { axis: 'Z', size: 4, stride: 2 }],
      tensor: [{ axis: 'Z', size: 2, stride: 1 }],
    });
    expect(describePlan(plan)).toBe('16×16×8 · FSDP on X, Y, outer 4 of Z · TP on inner 2 of Z');
    const three = layoutPlan(parseLayout('data2*fsdp2*tensor2')!);
    expect(three.axes).toEqual({
      data: [{ axis: 'X', size: 2, stride: 4 }],
      fsdp: [{ axis: 'X', size: 2, stride: 2 }],
      tensor: [{ axis: 'X', size: 2, stride: 1 }],
    });
    expect(describePlan(three)).toBe('8 · DP on outer 2 of X · FSDP on middle 2 of X · TP on inner 2 of X');
  });

  it('reads a searched plan: TPU axes of the searched mesh, GPU the plan’s own mesh (size-1 axes dropped, DCN left to slices)', () => {
    const text = (l: PlanLayout): string => (l.ok ? formatLayout(l.axes) : l.problem);
    const tpu = layoutOfPlan(
      { shape: [4, 4, 8], axis_names: ['X', 'Y', 'Z'] },
      { fsdp: ['Z'], tensor: ['X', 'Y'], data: ['DCN'], zero_stage: 3 },
    );
    expect(text(tpu)).toBe('tensor4.tensor4.fsdp8');
    expect(tpu.ok && tpu.dcn).toBe('data');
    expect(
      text(layoutOfPlan({ shape: [64, 1, 1], axis_names: ['D', 'P', 'T'] }, { fsdp: ['D'], microbatches: 4 })),
    ).toBe('fsdp64');
    expect(
      text(
        layoutOfPlan(
          { shape: [8, 4, 2], axis_names: ['D', 'P', 'T'] },
          { data: ['D'], pipeline: ['P'], tensor: ['T'] },
        ),
      ),
    ).toBe('data8.pipeline4.tensor2');
    expect(text(layoutOfPlan({ shape: [1], axis_names: ['X'] }, {}))).toBe('data1');
    // Sub-axes, in any order in the strategies' lists: the axis reads outermost (largest stride) first.
    const sub = layoutOfPlan(
      { shape: [16, 16, 8], axis_names: ['X', 'Y', 'Z'] },
      {
        tensor: [{ axis: 'Z', size: 2, stride: 1 }],
        fsdp: ['X', 'Y', { axis: 'Z', size: 4, stride: 2 }],
        zero_stage: 3,
      },
    );
    expect(text(sub)).toBe('fsdp16.fsdp16.fsdp4*tensor2');
    expect(
      text(
        layoutOfPlan(
          { shape: [8], axis_names: ['X'] },
          { fsdp: [{ axis: 'X', size: 2, stride: 1 }], tensor: [{ axis: 'X', size: 4, stride: 2 }] },
        ),
      ),
    ).toBe('tensor4*fsdp2');
  });

  it('refuses, in words, a plan it cannot hold', () => {
    const problem = (mesh: { shape: number[]; axis_names: string[] }, par: Record<string, unknown>): string => {
      const l = layoutOfPlan(mesh, par);
      return l.ok ? '' : l.problem;
    };
    expect(problem({ shape: [4, 4], axis_names: ['X', 'Y'] }, { fsdp: ['X'] })).toMatch(/axis Y/); // Y belongs to no strategy
    expect(problem({ shape: [8], axis_names: ['X'] }, { fsdp: [{ axis: 'X', size: 4, stride: 2 }] })).toMatch(
      /do not tile/,
    );
    expect(problem({ shape: [8], axis_names: ['X'] }, { fsdp: [{ axis: 'X', size: 4, stride: 1 }] })).toMatch(
      /part of axis X/,
    );
    expect(problem({ shape: [8], axis_names: ['X'] }, { fsdp: ['X'], tensor: ['Q'] })).toMatch(/axis Q/);
    expect(problem({ shape: [8], axis_names: ['X'] }, { fsdp: [7] })).toMatch(/cannot read/);
  });

  it('the page uses a layout only while the degrees still match it', async () => {
    const { cloneState, defaultState } = await import('../src/state/params');
    const { meshFor } = await import('../src/state/scenario');
    const s = cloneState(defaultState());
    Object.assign(s.values, { fsdp: 8, tp: 16, layout: 'tensor4.tensor4.fsdp8' });
    const ask = askNowOf(engine);
    const m = meshFor(s, ask);
    expect(m.ok && m.plan).toMatchObject({ shape: [4, 4, 8], axes: { tensor: ['X', 'Y'], fsdp: ['Z'] } });
    s.values['tp'] = 8; // no longer the layout's degrees: back to the engine's mesh
    const n = meshFor(s, ask);
    expect(n.ok && n.plan.axes).toEqual({ fsdp: ['X'], tensor: ['Y'] }); // plan_mesh's 8×8
    s.values['mode'] = 'serving';
    s.values['tp'] = 16;
    const sv = meshFor(s, ask);
    expect(sv.ok && sv.plan.axes.fsdp).toBeUndefined();
  });
});
