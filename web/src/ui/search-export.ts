// The plan search's and the serving search's lists as downloads (issue 22): the same writers as the main answer's
// (state/export.ts), the search's inputs first. The plan CSV has one row per plan the engine ranked — its place in
// the page's list, or why the page leaves it out — with its degrees, settings, step time, MFU, memory, fits and the
// warnings the engine says its training step raises; the serving CSV one row per deployment the panel lists (the ranked ones,
// or the fastest when none meets the targets). Every number is the engine's, in its own SI unit (named in the column).
import type { Scenario, ServingDeployment } from '../engine/types';
import type { CsvBlock } from '../state/csv';
import { exportCsv, exportJson, usedBy, type Provenance } from '../state/export';
import { replicaText } from '../state/serving-search';
import { planSettings } from './plan-words';
import { leftOutBecause, listedPlans, type SearchRun } from './plan-list';
import type { ServingSearchRun } from './serving-run';

const provenance = (run: SearchRun | ServingSearchRun): Provenance => ({
  state: run.state,
  scenario: JSON.parse(run.key) as Scenario,
  used: usedBy(run.ev),
});

export const PLAN_COLUMNS = [
  'listed',
  'engine_rank',
  'plan',
  'layout',
  'settings',
  'data',
  'fsdp',
  'tensor',
  'pipeline',
  'expert',
  'context',
  'slices',
  'zero_stage',
  'pipeline_schedule',
  'virtual_stages',
  'microbatches',
  'remat',
  'matmul_precision',
  'step_s',
  'bound',
  'book_step_s',
  'mfu_frac',
  'memory_bytes',
  'fits',
  'pareto',
  'binding',
  'tokens_per_s',
  'train_time_s',
  'train_usd',
  'warnings',
  'left_out_because',
] as const;

/** Every plan the engine ranked, best first, with its number in the page's list (or why it is left out). */
function planBlock(run: SearchRun): CsvBlock {
  const listed = listedPlans(run);
  const rows = run.rows.map((c) => {
    const p = c.plan;
    const s = planSettings(p, run.mesh);
    const par = p.parallelism;
    const at = listed.indexOf(c);
    const d = p.degrees;
    return [
      at >= 0 ? at + 1 : '',
      p.rank,
      s['degrees'],
      s['layout'],
      [s['zero'], s['schedule'], s['microbatches'], s['remat']].filter(Boolean).join(' · '),
      d.data,
      d.fsdp,
      d.tensor,
      d.pipeline,
      d.expert,
      d.context,
      d.slices,
      par.zero_stage,
      par.pipeline_schedule,
      par.virtual_stages,
      par.microbatches,
      p.remat,
      p.precision.matmul,
      p.step_s,
      p.bound,
      p.ideal?.step_s,
      p.mfu_frac,
      p.memory_bytes,
      p.fits,
      p.pareto,
      p.binding,
      p.tokens_per_s,
      p.train_time_s,
      p.train_usd,
      c.warnings.map((w) => w.message).join('; '),
      leftOutBecause(run, c),
    ];
  });
  return { header: PLAN_COLUMNS, rows };
}

export function planSearchCsv(run: SearchRun): string {
  return exportCsv(provenance(run), planBlock(run));
}

export function planSearchJson(run: SearchRun): string {
  const listed = listedPlans(run);
  const plans = run.rows.map((c) => ({
    listed: listed.indexOf(c) + 1 || null,
    left_out_because: leftOutBecause(run, c) || null,
    plan: c.plan,
    warnings: c.warnings,
  }));
  return exportJson(provenance(run), { plans, answer: run.ev });
}

export const DEPLOYMENT_COLUMNS = [
  'list',
  'rank',
  'total_chips',
  'replicas',
  'prefill_servers',
  'replica',
  'replica_mesh',
  'tensor',
  'expert',
  'expert_tensor',
  'weights_dtype',
  'kv_dtype',
  'disaggregated',
  'batch',
  'decode_step_s',
  'latency_per_token_s',
  'time_to_first_token_s',
  'tokens_per_s',
  'tokens_per_s_per_chip',
  'usd_per_million_output_tokens',
  'memory_bytes',
  'hbm_capacity_bytes',
  'bound',
  'meets_targets',
] as const;

/** The deployments the panel lists: `kind` says which list (the ranked deployments, or the latency x cost front). */
export interface ServingList {
  kind: 'deployment' | 'frontier';
  rows: readonly ServingDeployment[];
  gpu: boolean;
}

function deploymentBlock(list: ServingList): CsvBlock {
  const rows = list.rows.map((d, i) => [
    list.kind,
    i + 1,
    d.total_chips,
    d.replicas,
    d.prefill_servers,
    replicaText(d, list.gpu),
    d.mesh.shape.join('x'),
    d.degrees.tensor,
    d.degrees.expert,
    d.degrees.expert_tensor,
    d.dtypes.weights,
    d.dtypes.kv,
    d.disaggregated,
    d.batch,
    d.decode_step_s,
    d.latency_per_token_s,
    d.time_to_first_token_s,
    d.tokens_per_s,
    d.tokens_per_s_per_chip,
    d.usd_per_million_output_tokens,
    d.memory_bytes,
    d.hbm_capacity_bytes,
    d.bound,
    d.meets_targets,
  ]);
  return { header: DEPLOYMENT_COLUMNS, rows };
}

export function servingSearchCsv(run: ServingSearchRun, list: ServingList): string {
  return exportCsv(provenance(run), deploymentBlock(list));
}

export function servingSearchJson(run: ServingSearchRun, list: ServingList): string {
  return exportJson(provenance(run), { list: list.kind, deployments: list.rows, answer: run.ev });
}
