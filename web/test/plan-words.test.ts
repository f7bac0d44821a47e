// A searched plan in words: its layout (whole torus axes or parts of them), and what tells two plans apart — the
// engine's own `tie.differs` lines read into the page's words, the page's own list for near-ties.
import { describe, expect, it } from 'vitest';
import type { SearchedPlanCore } from '../src/engine/types';
import { degreesText, layoutText, settingsDifference, tieDifferenceText } from '../src/ui/plan-words';
import { nearTieLeaders } from '../src/ui/plan-list';

const TPU = { shape: [16, 16, 8], axis_names: ['X', 'Y', 'Z'] };
const GPU = { shape: [512], axis_names: [] };

function plan(p: Partial<SearchedPlanCore>): SearchedPlanCore {
  return {
    index: 0,
    parallelism: { fsdp: ['X', 'Y', 'Z'], zero_stage: 3 },
    remat: 'none',
    precision: { matmul: 'bf16' },
    offload: { optimizer: false, activations: false },
    degrees: { data: 1, fsdp: 2048, tensor: 1, pipeline: 1, expert: 1, context: 1, slices: 1 },
    microbatch_sequences: 1,
    step_s: 1,
    bound: 'compute',
    critical: 'compute',
    mfu_frac: 0.5,
    memory_bytes: 2e10,
    host_bytes: 0,
    fits: true,
    binding: '',
    tokens_per_s: 1,
    usd_per_step: 1,
    train_time_s: 1,
    train_usd: 1,
    ...p,
  };
}

const subAxes = plan({
  parallelism: {
    fsdp: ['X', 'Y', { axis: 'Z', size: 4, stride: 2 }],
    tensor: [{ axis: 'Z', size: 2, stride: 1 }],
    zero_stage: 3,
  },
  degrees: { data: 1, fsdp: 1024, tensor: 2, pipeline: 1, expert: 1, context: 1, slices: 1 },
});

describe('a plan in words', () => {
  it('names its degrees and where each strategy sits', () => {
    expect(degreesText(subAxes)).toBe('FSDP 1024 · TP 2');
    expect(layoutText(subAxes, TPU)).toBe('FSDP on X, Y, outer 4 of Z · TP on inner 2 of Z');
    expect(layoutText(plan({}), TPU)).toBe('FSDP on X,Y,Z');
    const gpu = plan({
      mesh: { shape: [8, 8], axis_names: ['fsdp', 'tensor'] },
      parallelism: { fsdp: ['fsdp'], tensor: ['tensor'] },
    });
    expect(layoutText(gpu, GPU)).toBe('8×8 · FSDP on X · TP on Y');
  });

  it('a near-tie says which settings differ, the layout among them', () => {
    const zero1 = { ...subAxes, parallelism: { ...subAxes.parallelism, zero_stage: 1 as const }, memory_bytes: 3e10 };
    expect(settingsDifference(zero1, subAxes, TPU)).toBe('ZeRO-1 vs ZeRO-3');
    const moved = {
      ...subAxes,
      parallelism: {
        ...subAxes.parallelism,
        fsdp: ['X', 'Y', { axis: 'Z', size: 4, stride: 1 }],
        tensor: [{ axis: 'Z', size: 2, stride: 4 }],
      },
    };
    expect(settingsDifference(moved, subAxes, TPU)).toBe(
      'FSDP on X, Y, inner 4 of Z · TP on outer 2 of Z vs FSDP on X, Y, outer 4 of Z · TP on inner 2 of Z',
    );
    expect(settingsDifference(subAxes, subAxes, TPU)).toBe('the same settings');
  });
});

describe('the engine’s tie differences in words', () => {
  it.each([
    [
      'fsdp: X:16@1 Y:8@2 Z:4@1 vs X:8@1 Y:16@1 Z:4@2',
      TPU,
      'FSDP on X, outer 8 of Y, inner 4 of Z vs inner 8 of X, Y, outer 4 of Z',
    ],
    ['tensor: Y:2@1 Z:2@4 vs X:2@8 Z:2@1', TPU, 'TP on inner 2 of Y, outer 2 of Z vs outer 2 of X, inner 2 of Z'],
    [
      'fsdp: X:4@1 Z:8@1 DCN:2@1 vs X:4@1 Y:2@2 Z:4@2 DCN:2@1',
      { shape: [4, 4, 8], axis_names: ['X', 'Y', 'Z'] },
      'FSDP on X, Z, DCN vs X, outer 2 of Y, outer 4 of Z, DCN',
    ],
    ['data: - vs Z:2@4', TPU, 'DP on none vs outer 2 of Z'],
    ['zero_stage: 2 vs 3', TPU, 'ZeRO stage 2 vs 3'],
    ['remat: none vs block', TPU, 'remat none vs block'],
    ['offload: none vs activations', TPU, 'host offload none vs activations'],
    ['offload: optimizer vs both', TPU, 'host offload optimizer vs both'],
    ['something new: a vs b', TPU, 'something new: a vs b'],
  ])('%s', (line, mesh, words) => {
    expect(tieDifferenceText(line, mesh)).toBe(words);
  });

  it('on GPUs, pieces of the searched GPU order read as neighbours or a stride apart', () => {
    expect(tieDifferenceText('data: X:4@128 vs X:4@64', GPU, true)).toBe('DP on 4 GPUs 128 apart vs 4 GPUs 64 apart');
    expect(tieDifferenceText('tensor: X:8@1 vs X:4@1', GPU, true)).toBe(
      'TP on 8 neighbouring GPUs vs 4 neighbouring GPUs',
    );
  });
});

describe('near-tie groups (issue 22: 9 of 10 rows within 1%)', () => {
  it("each plan within 1% of its group's first plan joins that group, not a chain of rows each 1% apart", () => {
    // 10.00, 10.08, 10.09 and 10.099 lie within 1% of 10.00; 10.15 is within 1% of the row above but 1.5% from the first.
    expect(nearTieLeaders([10, 10.08, 10.09, 10.099, 10.15, 10.2, 11])).toEqual([0, 0, 0, 0, 4, 4, 6]);
    expect(nearTieLeaders([])).toEqual([]);
    expect(nearTieLeaders([5])).toEqual([0]);
  });
});
