// Every widget view by its `view` attribute (chapters/README.md lists them).
import type { View } from '../view';
import { collective, roofline, tpuSlice } from './basics';
import { shardedMatmul, transformer } from './models';
import { gpuCollectives, serving } from './serving';
import { pipeline, trainingPlanner, trainingRoofline } from './training';

/** Views typed loosely: each view's compute() output is its own render()'s input. */
export const VIEWS: Readonly<Record<string, View<unknown>>> = {
  roofline,
  'tpu-slice': tpuSlice,
  collective,
  'sharded-matmul': shardedMatmul,
  transformer,
  'training-roofline': trainingRoofline,
  'training-planner': trainingPlanner,
  serving,
  'gpu-collectives': gpuCollectives,
  pipeline,
} as unknown as Record<string, View<unknown>>;

export const VIEW_NAMES: readonly string[] = Object.keys(VIEWS);
