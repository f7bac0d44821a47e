// A searched plan (docs/api.md `plan_search`) -> the controls that reproduce it exactly: the degrees, the plan's
// own mesh layout (the searched slice's axes for a TPU, the plan's mesh for a GPU), ZeRO stage, microbatches and
// remat. Configuration only: the engine computed the plan; the page sets its controls so that the training_step it
// sends is the very plan the search evaluated.
import type { SearchedPlan } from '../engine/types';
import { STRATEGIES, formatLayout, layoutDegrees, layoutOfPlan, type LayoutAxis, type Strategy } from './mesh';
import { cloneState, param, type State, type Value } from './params';
import { activeLayout } from './scenario';

/** Degree controls by strategy. */
export const DEGREE_KEY: Record<Strategy, string> = { data: 'dp', fsdp: 'fsdp', tensor: 'tp', pipeline: 'pp', expert: 'ep', context: 'cp' };

export interface SearchedMesh {
  shape: readonly number[];
  axis_names: readonly string[];
}

/** The exact layout of a plan: its own mesh (GPU) or the searched one (TPU). */
export function planLayout(plan: SearchedPlan, searched: SearchedMesh): LayoutAxis[] | null {
  return layoutOfPlan(plan.mesh ?? searched, plan.parallelism as Record<string, unknown>);
}

export type Applied = { ok: true; state: State } | { ok: false; problems: string[] };

/** The state whose training step is this plan; problems in words when a value does not fit a control's range. */
export function applyPlan(state: State, plan: SearchedPlan, searched: SearchedMesh): Applied {
  const axes = planLayout(plan, searched);
  if (!axes) return { ok: false, problems: ['This plan leaves a mesh axis to no strategy; the page cannot show it.'] };
  const deg = layoutDegrees(axes);
  const s = cloneState(state);
  const problems: string[] = [];
  const set = (key: string, v: Value): void => {
    const p = param(key);
    if (typeof v === 'number' && ((p.min !== undefined && v < p.min) || (p.max !== undefined && v > p.max))) {
      problems.push(`${p.label} ${v} is outside this page’s range (${p.min} to ${p.max}).`);
    } else s.values[key] = v;
  };
  for (const k of STRATEGIES) set(DEGREE_KEY[k], deg[k]);
  const par = plan.parallelism;
  set('mb', par.microbatches ?? 1);
  if (deg.fsdp > 1) set('zero', par.zero_stage ?? 3);
  set('sp', par.sequence_parallel ?? true);
  if (deg.pipeline > 1) {
    set('sched', par.pipeline_schedule ?? '1f1b');
    set('vstages', par.virtual_stages ?? 1);
  }
  set('remat', plan.remat);
  if (Number(s.values['slices']) > 1) set('dcn', par.fsdp?.includes('DCN') ? 'fsdp' : 'data');
  s.values['layout'] = formatLayout(axes);
  return problems.length ? { ok: false, problems } : { ok: true, state: s };
}

/** Is this plan the one the state shows? */
export function isCurrentPlan(state: State, plan: SearchedPlan, searched: SearchedMesh): boolean {
  const axes = planLayout(plan, searched);
  const active = activeLayout(state);
  if (!axes || !active || formatLayout(axes) !== formatLayout(active)) return false;
  const v = state.values;
  return v['remat'] === plan.remat && v['mb'] === (plan.parallelism.microbatches ?? 1) &&
    (layoutDegrees(axes).fsdp <= 1 || v['zero'] === (plan.parallelism.zero_stage ?? 3));
}
