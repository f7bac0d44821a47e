// A searched plan in words (display only): its degrees, its layout on the mesh, its settings, and what tells two
// plans apart — the engine's own list for exact ties (`tie.differs`, docs/api.md `plan_search`), the page's for
// near-ties.
import type { SearchedPlanCore } from '../engine/types';
import { AXIS_NAMES, STRATEGIES, type Strategy } from '../state/plan-mesh';
import { STRATEGY_LABEL, axisRefText, describeAxes, describePlan } from './mesh-words';
import { layoutPlan } from '../state/layout';
import { planLayout, type SearchedMesh } from '../state/plans';
import { QUERY_DEFAULTS } from '../engine/schema-choices';

/** What a plan leaves out, the engine takes as (the schema's defaults). */
const TRAINING_DEFAULTS = QUERY_DEFAULTS.training_step;

/** "FSDP 1024 · TP 2" (strategies in the page's order), "one chip". */
export function degreesText(p: SearchedPlanCore): string {
  const parts = STRATEGIES.filter((k) => (p.degrees[k] ?? 1) > 1).map((k) => `${STRATEGY_LABEL[k]} ${p.degrees[k]}`);
  return parts.length ? parts.join(' · ') : 'one chip';
}

/**
 * Where each strategy sits: "FSDP on X, Y, outer 4 of Z · TP on inner 2 of Z" on the searched slice (every TPU plan
 * shares its shape), "8×8 · FSDP on X · TP on Y" on a GPU plan's own mesh.
 */
export function layoutText(p: SearchedPlanCore, searched: SearchedMesh): string {
  const lay = planLayout(p, searched);
  if (!lay.ok) return lay.problem;
  const plan = layoutPlan(lay.axes, p.degrees.slices, lay.dcn === 'fsdp' ? 'fsdp' : 'data');
  return p.mesh ? describePlan(plan) : describeAxes(plan);
}

/** The settings of a plan in words, by field (what a near-tie can differ in; memory and binding have columns of their own). */
export function planSettings(p: SearchedPlanCore, searched: SearchedMesh): Record<string, string> {
  const par = p.parallelism;
  const mb = par.microbatches ?? 1;
  const schedule =
    p.degrees.pipeline > 1
      ? `${par.pipeline_schedule ?? TRAINING_DEFAULTS['/parallelism/pipeline_schedule']}${par.virtual_stages && par.virtual_stages > 1 ? ` ×${par.virtual_stages}` : ''}`
      : '';
  return {
    degrees: degreesText(p),
    layout: layoutText(p, searched),
    zero: p.degrees.fsdp > 1 ? `ZeRO-${par.zero_stage ?? TRAINING_DEFAULTS['/parallelism/zero_stage']}` : '',
    schedule: schedule && `schedule ${schedule}`,
    microbatches: `${mb} microbatch${mb === 1 ? '' : 'es'}`,
    remat: `remat ${p.remat}`,
  };
}

/** "ZeRO-1 vs ZeRO-3; remat none vs block": what sets a plan apart from the one above (near-ties). */
export function settingsDifference(p: SearchedPlanCore, above: SearchedPlanCore, searched: SearchedMesh): string {
  const a = planSettings(p, searched);
  const b = planSettings(above, searched);
  const diffs = Object.keys(a)
    .filter((k) => a[k] !== b[k] && (a[k] || b[k]))
    .map((k) => `${a[k] || 'none'} vs ${b[k] || 'none'}`);
  return diffs.length ? diffs.join('; ') : 'the same settings';
}

const SETTING_WORDS: Readonly<Record<string, string>> = {
  zero_stage: 'ZeRO stage',
  pipeline_schedule: 'schedule',
  virtual_stages: 'virtual stages',
  microbatches: 'microbatches',
  remat: 'remat',
  offload: 'host offload',
  matmul: 'matmul precision',
  sequence_parallel: 'sequence parallel',
  context_variant: 'context variant',
};

/**
 * The engine's pieces "X:16@1 Z:4@2" (axis:size@stride) in the page's words: "X, outer 4 of Z"; on GPUs, whose
 * search runs on one axis in GPU order (a plan's own mesh is written from it), "4 GPUs 128 apart".
 */
function piecesText(text: string, searched: SearchedMesh, gpu: boolean): string {
  if (text.trim() === '-') return 'none';
  return text
    .trim()
    .split(/\s+/)
    .map((tok) => {
      const m = /^([A-Za-z0-9_]+):(\d+)@(\d+)$/.exec(tok);
      if (!m) return tok;
      if (gpu) return m[3] === '1' ? `${m[2]} neighbouring GPUs` : `${m[2]} GPUs ${m[3]} apart`;
      const axis = m[1]!;
      const i = searched.axis_names.length
        ? searched.axis_names.indexOf(axis)
        : AXIS_NAMES.indexOf(axis as (typeof AXIS_NAMES)[number]);
      const size = Number(m[2]);
      // The DCN axis is the slices', not in the searched shape: a piece of it names it whole.
      return axisRefText({ axis, size, stride: Number(m[3]) }, i >= 0 ? (searched.shape[i] ?? size) : size);
    })
    .join(', ');
}

/** One line of the engine's `tie.differs` ("fsdp: X:16@1 Y:8@2 vs ...", "remat: none vs block") in words. */
export function tieDifferenceText(line: string, searched: SearchedMesh, gpu = false): string {
  const m = /^([a-z_]+): (.*) vs (.*)$/.exec(line);
  if (!m) return line;
  const key = m[1]!;
  if ((STRATEGIES as readonly string[]).includes(key)) {
    return `${STRATEGY_LABEL[key as Strategy]} on ${piecesText(m[2]!, searched, gpu)} vs ${piecesText(m[3]!, searched, gpu)}`;
  }
  return `${SETTING_WORDS[key] ?? key.replace(/_/g, ' ')} ${m[2]!.trim()} vs ${m[3]!.trim()}`;
}
