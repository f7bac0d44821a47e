// Parallelism degrees -> a mesh and the axes each strategy uses (docs/api.md "Mesh" and `training_step`).
// This is configuration, not physics: the engine validates the result and reports anything it cannot run.
//  - TPU: each strategy takes one or more physical torus axes (the book's I_XY), at most `ici.torus_dims` axes in
//    all; the slice must fit the pod in some axis order (sorted sizes against the sorted `ici.max_slice_shape`).
//  - GPU: one mesh axis per strategy; the last axis is innermost (inside the NVLink domain first), so tensor
//    parallelism goes last and pipeline first.
//  - Slices > 1 (TPU): a DCN axis joins the slices and belongs to data or FSDP.
import type { AxisRef, HardwarePreset } from '../engine/types';

export const STRATEGIES = ['data', 'fsdp', 'context', 'expert', 'pipeline', 'tensor'] as const;
export type Strategy = (typeof STRATEGIES)[number];
export type Degrees = Record<Strategy, number>;

export const AXIS_NAMES = ['X', 'Y', 'Z', 'W', 'V', 'U'] as const;
export const DCN_AXIS = 'DCN';
/** The strategies the page lets span the slices (the DCN axis). */
export type DcnStrategy = 'data' | 'fsdp';

/** GPU axis order, outermost first. */
const GPU_ORDER: readonly Strategy[] = ['pipeline', 'data', 'fsdp', 'expert', 'context', 'tensor'];

export interface MeshPlan {
  shape: number[];
  axisNames: string[];
  /**
   * Mesh axes per strategy (only strategies with degree > 1, plus `data` for a single chip): whole axes by name, or
   * sub-axes (an applied plan's layout, state/layout.ts).
   */
  axes: Partial<Record<Strategy, AxisRef[]>>;
  /** Strategies the engine lays out itself, by degree (state/degree-mesh.ts: whole axes could not hold them). */
  degrees?: Partial<Record<Strategy, number>>;
  slices: number;
  chipsPerSlice: number;
  chips: number;
}

export type MeshOutcome = { ok: true; plan: MeshPlan } | { ok: false; problem: string };

export const STRATEGY_LABEL: Record<Strategy, string> = {
  data: 'DP', fsdp: 'FSDP', context: 'CP', expert: 'EP', pipeline: 'PP', tensor: 'TP',
};

/** The divisors of n, smallest first: pairs up to √n, so a link's 2^30 chips cost 32768 steps, not 2^30. */
export function divisors(n: number): number[] {
  const small: number[] = [];
  const large: number[] = [];
  for (let f = 1; f * f <= n; f++) {
    if (n % f !== 0) continue;
    small.push(f);
    if (f * f !== n) large.push(n / f);
  }
  return small.concat(large.reverse());
}

/** Ordered factorisations of n into `k` factors, each >= 2, non-increasing. */
export function factorisations(n: number, k: number, maxFactor = n): number[][] {
  if (k === 1) return n >= 2 && n <= maxFactor ? [[n]] : [];
  const out: number[][] = [];
  for (const f of divisors(n).reverse()) {
    if (f < 2 || f > maxFactor) continue;
    for (const rest of factorisations(n / f, k - 1, f)) out.push([f, ...rest]);
  }
  return out;
}

/** The most chips one slice can hold: the product of the pod's largest slice over its torus axes. */
export function podChips(maxShape: readonly number[], dims: number): number {
  return maxShape.slice(0, dims).reduce((a, v) => a * (v > 0 ? v : 1), 1);
}

/** Does a slice shape fit the pod in some axis order (sorted sizes against the sorted largest slice)? */
export function fitsPod(shape: readonly number[], maxShape: readonly number[], dims: number): boolean {
  const want = [...shape];
  while (want.length < dims) want.push(1);
  const have = maxShape.slice(0, dims).map((v) => (v > 0 ? v : 1));
  want.sort((a, b) => a - b);
  have.sort((a, b) => a - b);
  return want.every((w, i) => w <= (have[i] ?? 1));
}

function describeShape(shape: readonly number[]): string {
  return shape.join('×');
}

/**
 * Splits the per-slice degrees over at most `dims` torus axes. Prefers the smallest largest axis (a cube-like
 * slice: shorter rings, and a strategy over two axes gets twice the bandwidth, spec §2.5), then fewer axes, then
 * the most balanced shape (smallest sum of axis sizes: 4x4x8 before 8x2x8).
 */
function tpuAxes(hw: HardwarePreset, deg: Degrees): MeshOutcome | { ok: true; parts: { s: Strategy; sizes: number[] }[] } {
  const ici = hw.ici;
  const dims = ici?.torus_dims ?? 3;
  const maxShape = ici?.max_slice_shape ?? [];
  const active = STRATEGIES.filter((s) => deg[s] > 1);
  if (active.length > dims) {
    const names = active.map((s) => STRATEGY_LABEL[s]).join(', ');
    return { ok: false, problem: `${hw.name} is a ${dims}D torus: ${names} need ${active.length} mesh axes but a slice has only ${dims}. Set one degree to 1, or join slices over DCN for data parallelism.` };
  }
  const chips = active.reduce((a, s) => a * deg[s], 1);
  const tooMany = (): MeshOutcome => ({ ok: false, problem: `${chips} chips in these degrees do not fit one ${hw.name} slice (largest ${maxShape.slice(0, dims).join('×')}, ${dims} axes). Use fewer chips per slice, or more slices over DCN.` });
  // More chips than the pod holds fit no shape: say so before searching the shapes.
  if (chips > podChips(maxShape, dims)) return tooMany();
  let best: { parts: { s: Strategy; sizes: number[] }[]; axes: number; maxAxis: number; sum: number } | null = null;
  const search = (i: number, parts: { s: Strategy; sizes: number[] }[], used: number): void => {
    if (i === active.length) {
      const shape = parts.flatMap((p) => p.sizes);
      if (!fitsPod(shape, maxShape, dims)) return;
      const maxAxis = Math.max(1, ...shape);
      const sum = shape.reduce((a, b) => a + b, 0);
      const better = !best || maxAxis < best.maxAxis || (maxAxis === best.maxAxis && (used < best.axes || (used === best.axes && sum < best.sum)));
      if (better) best = { parts: parts.map((p) => ({ ...p })), axes: used, maxAxis, sum };
      return;
    }
    const s = active[i]!;
    for (let k = 1; k <= dims - used - (active.length - i - 1); k++) {
      for (const sizes of factorisations(deg[s], k)) search(i + 1, [...parts, { s, sizes }], used + k);
    }
  };
  search(0, [], 0);
  if (!best) return tooMany();
  return { ok: true, parts: (best as { parts: { s: Strategy; sizes: number[] }[] }).parts };
}

/**
 * Builds the mesh for per-slice degrees. `slices` > 1 adds the DCN axis, used by `dcnStrategy`.
 */
export function planMesh(hw: HardwarePreset, deg: Degrees, slices = 1, dcnStrategy: DcnStrategy = 'data'): MeshOutcome {
  for (const s of STRATEGIES) {
    const d = deg[s];
    if (!Number.isInteger(d) || d < 1) return { ok: false, problem: `The ${STRATEGY_LABEL[s]} degree must be a whole number of at least 1 (got ${d}).` };
  }
  if (!Number.isInteger(slices) || slices < 1) return { ok: false, problem: `The number of slices must be a whole number of at least 1 (got ${slices}).` };
  if (hw.kind === 'gpu' && slices > 1) return { ok: false, problem: `Slices joined over DCN are a TPU notion; for GPUs raise DP or FSDP instead.` };

  const shape: number[] = [];
  const axes: Partial<Record<Strategy, AxisRef[]>> = {};
  const add = (s: Strategy, size: number): void => {
    const name = AXIS_NAMES[shape.length]!;
    shape.push(size);
    (axes[s] ??= []).push(name);
  };
  if (hw.kind === 'tpu') {
    const r = tpuAxes(hw, deg);
    if (!r.ok) return r;
    if ('parts' in r) {
      // Axis order follows STRATEGIES (data outermost ... tensor last), each strategy's axes largest first.
      for (const p of r.parts) for (const size of p.sizes) add(p.s, size);
    }
  } else {
    if (shape.length > AXIS_NAMES.length) return { ok: false, problem: 'Too many mesh axes.' };
    for (const s of GPU_ORDER) if (deg[s] > 1) add(s, deg[s]);
  }
  if (shape.length === 0) add(slices > 1 ? dcnStrategy : 'data', 1);
  const chipsPerSlice = shape.reduce((a, b) => a * b, 1);
  if (slices > 1) (axes[dcnStrategy] ??= []).push(DCN_AXIS);
  return { ok: true, plan: { shape, axisNames: AXIS_NAMES.slice(0, shape.length), axes, slices, chipsPerSlice, chips: chipsPerSlice * slices } };
}

/** An axis in words: a whole axis by name, a sub-axis by where it sits on its axis ("inner 2 of Z": stride 1, neighbours). */
export function axisRefText(ref: AxisRef, axisSize: number): string {
  if (typeof ref === 'string') return ref;
  if (ref.size === axisSize && ref.stride === 1) return ref.axis;
  const where = ref.stride === 1 ? 'inner' : ref.stride * ref.size === axisSize ? 'outer' : 'middle';
  return `${where} ${ref.size} of ${ref.axis}`;
}

/** "4×4×4 · FSDP on X,Y · TP on Z · 2 slices over DCN"; "16×16×8 · FSDP on X, Y, outer 4 of Z · TP on inner 2 of Z" */
export function describePlan(plan: MeshPlan): string {
  return `${describeShape(plan.shape)} · ${describeAxes(plan)}`;
}

/** Where each strategy sits, without the shape: "FSDP on X,Y · TP on Z · 2 slices over DCN". */
export function describeAxes(plan: MeshPlan): string {
  const parts = STRATEGIES.filter((s) => plan.axes[s]?.length).map((s) => {
    const refs = plan.axes[s]!;
    const text = refs.map((r) => axisRefText(r, typeof r === 'string' ? 0 : (plan.shape[plan.axisNames.indexOf(r.axis)] ?? r.size)));
    return `${STRATEGY_LABEL[s]} on ${text.join(refs.every((r) => typeof r === 'string') ? ',' : ', ')}`;
  });
  const laid = STRATEGIES.filter((s) => plan.degrees?.[s]).map((s) => `${STRATEGY_LABEL[s]} ${plan.degrees![s]}`);
  if (laid.length) parts.unshift(`${laid.join(' × ')} on parts of the axes (the engine’s fastest layout)`);
  const slices = plan.slices > 1 ? ` · ${plan.slices} slices over DCN` : '';
  return `${parts.join(' · ')}${slices}`;
}

/** GPU clusters in the preset's words: nodes (NVLink domains) × GPUs. */
export function nodesTimesGpus(hw: HardwarePreset, chips: number): string {
  const domain = hw.scale_up?.domain_gpus ?? 8;
  if (chips <= domain) return `1 node × ${chips} GPU${chips === 1 ? '' : 's'}`;
  const nodes = chips / domain;
  return Number.isInteger(nodes) ? `${nodes} nodes × ${domain} GPUs` : `${chips} GPUs (${nodes.toFixed(2)} nodes of ${domain}: not whole nodes)`;
}
