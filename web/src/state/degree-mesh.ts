// Degrees the page's own layout cannot hold on a TPU slice (state/mesh.ts gives each strategy whole torus axes:
// more strategies than axes, or PP 35 × TP 32 × FSDP 4, fail there) still run on the engine's logical mesh axes:
// the page picks a torus shape on which every strategy can take a factor of each axis, and sends the degrees
// themselves (docs/api.md `training_step`, "a degree"); the engine lays them out in every distinct way and keeps the
// fastest. Configuration only: the engine checks the plan and costs whatever layout it picks.
import type { HardwarePreset } from '../engine/types';
import { AXIS_NAMES, DCN_AXIS, STRATEGIES, divisors, factorisations, fitsPod, podChips, type DcnStrategy, type Degrees, type MeshPlan } from './mesh';

/** Can each degree take one factor of every axis so that the factors on each axis multiply to its size? */
export function degreesTile(shape: readonly number[], degrees: readonly number[]): boolean {
  if (!degrees.length) return shape.every((a) => a === 1);
  const [d, ...more] = degrees as [number, ...number[]];
  const pick = (axis: number, left: number, rest: number[]): boolean => {
    if (axis === rest.length) return left === 1 && degreesTile(rest, more);
    for (const f of divisors(rest[axis]!)) {
      if (left % f !== 0) continue;
      const next = rest.slice();
      next[axis] = rest[axis]! / f;
      if (pick(axis + 1, left / f, next)) return true;
    }
    return false;
  };
  return pick(0, d, [...shape]);
}

/**
 * A slice shape for per-slice degrees the engine lays out itself, or null when none fits the pod. Shapes are tried
 * as planMesh prefers them (the smallest largest axis, then fewer axes, then the most balanced). With slices, the
 * DCN axis goes to `dcnStrategy` whole, so that strategy must have no share inside a slice.
 */
export function degreeMesh(hw: HardwarePreset, deg: Degrees, slices = 1, dcnStrategy: DcnStrategy = 'data'): MeshPlan | null {
  if (hw.kind !== 'tpu' || (slices > 1 && deg[dcnStrategy] > 1)) return null;
  const dims = hw.ici?.torus_dims ?? 3;
  const maxShape = hw.ici?.max_slice_shape ?? [];
  const active = STRATEGIES.filter((s) => deg[s] > 1);
  const chipsPerSlice = active.reduce((a, s) => a * deg[s], 1);
  if (active.length === 0 || chipsPerSlice > podChips(maxShape, dims)) return null;
  const shapes = Array.from({ length: dims }, (_, k) => factorisations(chipsPerSlice, k + 1)).flat()
    .filter((shape) => fitsPod(shape, maxShape, dims))
    .sort((a, b) => Math.max(...a) - Math.max(...b) || a.length - b.length || a.reduce((x, y) => x + y, 0) - b.reduce((x, y) => x + y, 0));
  const shape = shapes.find((sh) => degreesTile(sh, active.map((s) => deg[s])));
  if (!shape) return null;
  const degrees: MeshPlan['degrees'] = {};
  for (const s of active) degrees[s] = deg[s];
  return {
    shape, axisNames: AXIS_NAMES.slice(0, shape.length), axes: slices > 1 ? { [dcnStrategy]: [DCN_AXIS] } : {}, degrees,
    slices, chipsPerSlice, chips: chipsPerSlice * slices,
  };
}
