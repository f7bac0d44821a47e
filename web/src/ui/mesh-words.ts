// A mesh in words: where each strategy sits ("4×4×4 · FSDP on X,Y · TP on Z"), a sub-axis by its place on its axis,
// GPU clusters as nodes × GPUs. Display only: the mesh itself is the engine's (state/plan-mesh.ts).
import type { AxisRef, HardwarePreset } from '../engine/types';
import { STRATEGIES, type MeshPlan, type Strategy } from '../state/plan-mesh';

export const STRATEGY_LABEL: Record<Strategy, string> = {
  data: 'DP',
  fsdp: 'FSDP',
  context: 'CP',
  expert: 'EP',
  pipeline: 'PP',
  tensor: 'TP',
};

function describeShape(shape: readonly number[]): string {
  return shape.join('×');
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
    const text = refs.map((r) =>
      axisRefText(r, typeof r === 'string' ? 0 : (plan.shape[plan.axisNames.indexOf(r.axis)] ?? r.size)),
    );
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
  return Number.isInteger(nodes)
    ? `${nodes} nodes × ${domain} GPUs`
    : `${chips} GPUs (${nodes.toFixed(2)} nodes of ${domain}: not whole nodes)`;
}
