// Explicit layouts: a searched plan (docs/api.md `plan_search`) runs on a particular mesh, axis by axis, and a
// strategy may hold a whole axis or a factor of one (a sub-axis: the engine's logical axes). The state keeps the
// layout as text: axes in mesh order (outermost first) joined by '.', each axis its pieces outermost first joined
// by '*', each piece a strategy and a size. "fsdp16.fsdp16.fsdp4*tensor2" is a 16x16x8 slice with FSDP on X, Y and
// the outer 4 of Z, and TP on the inner 2 of Z (stride 1: neighbours); "fsdp8.pipeline4.tensor2" a GPU mesh (the
// last axis innermost). Whole-axis layouts read as they always did. Slices stay separate (the DCN axis).
import type { AxisRef, SubAxis } from '../engine/types';
import {
  AXIS_NAMES,
  DCN_AXIS,
  STRATEGIES,
  type DcnStrategy,
  type Degrees,
  type MeshPlan,
  type Strategy,
} from './mesh-plan';

export interface LayoutPiece {
  strategy: Strategy;
  size: number;
}

/** One mesh axis: its pieces, outermost first (a whole axis is one piece). */
export type LayoutAxis = readonly LayoutPiece[];

/** Pieces one axis may be split into (the engine's search splits a torus axis between at most 2 strategies by default). */
export const MAX_PIECES_PER_AXIS = 4;

const PIECE = `(?:${STRATEGIES.join('|')})[1-9]\\d{0,5}`;
const AXIS = `${PIECE}(?:\\*${PIECE}){0,${MAX_PIECES_PER_AXIS - 1}}`;
/** A whole layout, at most as many axes as there are axis names. */
export const LAYOUT_RE = new RegExp(`^${AXIS}(?:\\.${AXIS}){0,${AXIS_NAMES.length - 1}}$`);

export function parseLayout(text: string): LayoutAxis[] | null {
  if (!LAYOUT_RE.test(text)) return null;
  return text.split('.').map((axis) =>
    axis.split('*').map((piece) => {
      const m = /^([a-z]+)(\d+)$/.exec(piece)!;
      return { strategy: m[1] as Strategy, size: Number(m[2]) };
    }),
  );
}

export function formatLayout(axes: readonly LayoutAxis[]): string {
  return axes.map((a) => a.map((p) => `${p.strategy}${p.size}`).join('*')).join('.');
}

const axisSize = (a: LayoutAxis): number => a.reduce((x, p) => x * p.size, 1);

/** Per-slice degrees of a layout. */
export function layoutDegrees(axes: readonly LayoutAxis[]): Degrees {
  const d: Degrees = { data: 1, fsdp: 1, context: 1, expert: 1, pipeline: 1, tensor: 1 };
  for (const a of axes) for (const p of a) d[p.strategy] *= p.size;
  return d;
}

/**
 * The mesh of a layout and each strategy's axes: a one-piece axis by name, a piece of a split axis as a sub-axis
 * whose stride is the product of the pieces inside it (docs/api.md). Each strategy lists its pieces in mesh order,
 * as plan_search writes them; `slices` > 1 adds the DCN axis for `dcnStrategy`, last.
 */
export function layoutPlan(axes: readonly LayoutAxis[], slices = 1, dcnStrategy: DcnStrategy = 'data'): MeshPlan {
  const shape = axes.map(axisSize);
  const axisNames = AXIS_NAMES.slice(0, shape.length);
  const byStrategy: Partial<Record<Strategy, AxisRef[]>> = {};
  axes.forEach((a, i) => {
    const name = axisNames[i]!;
    let stride = shape[i]!;
    for (const p of a) {
      stride /= p.size;
      const ref: AxisRef = a.length === 1 ? name : { axis: name, size: p.size, stride };
      (byStrategy[p.strategy] ??= []).push(ref);
    }
  });
  if (slices > 1) (byStrategy[dcnStrategy] ??= []).push(DCN_AXIS);
  const chipsPerSlice = shape.reduce((x, y) => x * y, 1);
  return { shape, axisNames, axes: byStrategy, slices, chipsPerSlice, chips: chipsPerSlice * slices };
}

export type PlanLayout = { ok: true; axes: LayoutAxis[]; dcn: Strategy | null } | { ok: false; problem: string };

const isSubAxis = (r: unknown): r is SubAxis =>
  typeof r === 'object' &&
  r !== null &&
  typeof (r as SubAxis).axis === 'string' &&
  Number.isInteger((r as SubAxis).size) &&
  Number.isInteger((r as SubAxis).stride);

/**
 * The layout of a plan the engine found: its mesh (`shape` and `axis_names`: the searched mesh for a TPU, the
 * plan's own for a GPU) and its `parallelism` (whole axes by name, or sub-axes). Axes of size 1 are dropped (they
 * change nothing) and the DCN axis is left to the slices (`dcn` says whose it is). A problem in words when an
 * axis of size > 1 is left to no strategy, or its pieces do not tile it outermost to innermost.
 */
export function layoutOfPlan(
  mesh: { shape: readonly number[]; axis_names: readonly string[] },
  parallelism: Readonly<Record<string, unknown>>,
): PlanLayout {
  const pieces = new Map<string, { strategy: Strategy; size: number; stride: number }[]>();
  let dcn: Strategy | null = null;
  const sizeOf = (name: string): number => mesh.shape[mesh.axis_names.indexOf(name)] ?? 0;
  for (const s of STRATEGIES) {
    const refs = parallelism[s];
    if (!Array.isArray(refs)) continue;
    for (const r of refs) {
      if (r === DCN_AXIS) dcn = s;
      else if (typeof r === 'string')
        (pieces.get(r) ?? pieces.set(r, []).get(r)!).push({ strategy: s, size: sizeOf(r), stride: 1 });
      else if (isSubAxis(r))
        (pieces.get(r.axis) ?? pieces.set(r.axis, []).get(r.axis)!).push({
          strategy: s,
          size: r.size,
          stride: r.stride,
        });
      else return { ok: false, problem: `The plan gives ${s} an axis this page cannot read (${JSON.stringify(r)}).` };
    }
  }
  const unknown = [...pieces.keys()].find((n) => !mesh.axis_names.includes(n));
  if (unknown !== undefined)
    return { ok: false, problem: `The plan names an axis ${unknown} that its mesh does not have.` };
  const out: LayoutAxis[] = [];
  for (let i = 0; i < mesh.shape.length; i++) {
    const size = mesh.shape[i]!;
    const name = mesh.axis_names[i] ?? AXIS_NAMES[i] ?? '';
    if (name === DCN_AXIS || size === 1) continue;
    const own = (pieces.get(name) ?? []).filter((p) => p.size > 1).sort((a, b) => b.stride - a.stride);
    // Outermost first, each piece's stride the product of those inside it: then they tile the axis exactly.
    let inner = 1;
    for (const p of [...own].reverse()) {
      if (p.stride !== inner)
        return { ok: false, problem: `The plan’s pieces of axis ${name} do not tile it; the page cannot show it.` };
      inner *= p.size;
    }
    if (inner !== size)
      return {
        ok: false,
        problem: `The plan leaves part of axis ${name} (${size} chips) to no strategy; the page cannot show it.`,
      };
    out.push(own.map((p) => ({ strategy: p.strategy, size: p.size })));
  }
  return { ok: true, axes: out.length ? out : [[{ strategy: 'data', size: 1 }]], dcn };
}
