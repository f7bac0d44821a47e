// A searched plan (docs/api.md `plan_search`) -> the controls that reproduce it exactly: the degrees and the plan's
// own layout (the searched slice's axes, whole or split into sub-axes, for a TPU; the plan's mesh for a GPU), with
// its ZeRO stage, microbatches, schedule, sequence parallelism, the experts' TP and capacity, remat and matmul
// precision. Configuration only: the engine computed the plan; the page sets its controls so that the training_step
// it sends is the very plan the search evaluated (the layout is carried, not left to the engine to choose again).
import type { SearchedPlanCore } from '../engine/types';
import { DEGREE_KEYS, STRATEGIES } from './plan-mesh';
import { formatLayout, layoutDegrees, layoutOfPlan, type PlanLayout } from './layout';
import { StateWriter, type Applied } from './apply';
import type { State } from './params';
import { PLAN_SEARCH_DCN, activeLayout } from './scenario';
import { QUERY_DEFAULTS } from '../engine/schema-choices';

/** What a plan leaves out, the engine takes as (the schema's defaults). */
const TRAINING_DEFAULTS = QUERY_DEFAULTS.training_step;

export interface SearchedMesh {
  shape: readonly number[];
  axis_names: readonly string[];
}

/** The exact layout of a plan: its own mesh (GPU) or the searched one (TPU). */
export function planLayout(plan: SearchedPlanCore, searched: SearchedMesh): PlanLayout {
  return layoutOfPlan(plan.mesh ?? searched, plan.parallelism as Record<string, unknown>);
}

export type { Applied } from './apply';

/** The state whose training step is this plan; problems in words when a value does not fit a control. */
export function applyPlan(state: State, plan: SearchedPlanCore, searched: SearchedMesh): Applied {
  const lay = planLayout(plan, searched);
  if (!lay.ok) return { ok: false, problems: [lay.problem] };
  const deg = layoutDegrees(lay.axes);
  const w = new StateWriter(state);
  const { state: s, problems } = w;
  const set = w.set.bind(w);
  const par = plan.parallelism;
  const slices = Number(s.values['slices']) > 1;
  if (slices && !PLAN_SEARCH_DCN.some((k) => k === lay.dcn))
    problems.push(`The plan runs ${lay.dcn ?? 'nothing'} over DCN; this page gives DCN to DP or FSDP only.`);
  // Settings the page has no control for: it sends the engine's defaults, so only plans with those apply.
  if (plan.offload.optimizer || plan.offload.activations)
    problems.push('The plan offloads to host memory, which this page has no control for.');
  if (deg.context > 1 && (par.context_variant ?? TRAINING_DEFAULTS['/parallelism/context_variant']) !== 'ring')
    problems.push(`The plan’s context variant ${par.context_variant} is not one this page offers (ring).`);
  for (const k of STRATEGIES) set(DEGREE_KEYS[k], deg[k]);
  set('mb', par.microbatches ?? 1);
  if (deg.fsdp > 1 || lay.dcn === 'fsdp') set('zero', par.zero_stage ?? TRAINING_DEFAULTS['/parallelism/zero_stage']);
  if (deg.tensor > 1) set('sp', par.sequence_parallel ?? TRAINING_DEFAULTS['/parallelism/sequence_parallel']);
  if (deg.pipeline > 1) {
    set('sched', par.pipeline_schedule ?? TRAINING_DEFAULTS['/parallelism/pipeline_schedule']);
    set('vstages', par.virtual_stages ?? TRAINING_DEFAULTS['/parallelism/virtual_stages']);
  }
  set('etp', par.expert_tensor ?? null);
  if (plan.moe?.token_policy === 'pad')
    problems.push('The plan pads every expert to its capacity, which this page has no control for (it drops).');
  set('cap', plan.moe?.capacity_factor ?? null);
  set('remat', plan.remat);
  set('mm', plan.precision.matmul);
  if (slices && lay.dcn) set('dcn', lay.dcn);
  s.values['layout'] = formatLayout(lay.axes);
  return w.result();
}

/** Is this plan the one the state shows? Applying it would change nothing, and the state uses its layout. */
export function isCurrentPlan(state: State, plan: SearchedPlanCore, searched: SearchedMesh): boolean {
  const a = applyPlan(state, plan, searched);
  return (
    a.ok &&
    activeLayout(state) !== null &&
    Object.keys(a.state.values).every((k) => a.state.values[k] === state.values[k])
  );
}
