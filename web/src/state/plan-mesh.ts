// A state's parallelism as the engine's `plan_mesh` query takes it (docs/api.md), and its answer as the page uses it:
// the mesh the degrees lay out on, where each degree's slider stops, what a fixed chip count sets, and the nearest
// state that runs. The rules are the engine's (issue 20): this file only asks, and maps the answer onto the
// controls' keys.
import type { AxisRef, Evaluation, PlanMeshQuery, PlanMeshResult, Scenario, Strategy } from '../engine/types';
import { DEGREE_KEYS, STRATEGIES, type Degrees, type DcnStrategy, type MeshOutcome, type MeshPlan } from './mesh-plan';
import { cloneState, hardwarePreset, param, type Param, type State } from './params';

export * from './mesh-plan';

/** The engine's answer at once (the page's own instance), or null when it has none to give synchronously. */
export type AskNow = (scenario: Scenario) => Evaluation<unknown> | null;

const num = (s: State, k: string): number => Number(s.values[k]);
const serving = (s: State): boolean => s.values['mode'] === 'serving';

export function degreesOf(s: State): Degrees {
  const sv = serving(s);
  return {
    data: sv ? 1 : num(s, 'dp'),
    fsdp: sv ? 1 : num(s, 'fsdp'),
    context: sv ? 1 : num(s, 'cp'),
    expert: num(s, 'ep'),
    pipeline: sv ? 1 : num(s, 'pp'),
    tensor: num(s, 'tp'),
  };
}

/** Slices joined over DCN: TPU training only (a GPU cluster and a serving replica have none). */
export function slicesOf(s: State): number {
  return serving(s) || hardwarePreset(String(s.values['hw'])).kind === 'gpu' ? 1 : num(s, 'slices');
}

export function dcnOf(s: State): DcnStrategy {
  return s.values['dcn'] === 'fsdp' ? 'fsdp' : 'data';
}

/** Is the chip count fixed (the `chips` key set)? */
export function chipsFixed(s: State): boolean {
  return typeof s.values['chips'] === 'number';
}

export interface MeshQuestion {
  /** The fixed chip count: the engine then sets the balancing degree. */
  chips?: boolean;
  /** Where the degree sliders stop (each row's range; data and FSDP at powers of two). */
  stops?: boolean;
  /** The batch, so that the nearest state has whole sequences. */
  batch?: boolean;
}

/** The plan_mesh query of a state's degrees (`deg`: others than the state's, for a chart's variants). */
export function planMeshQuery(s: State, deg: Degrees = degreesOf(s), ask: MeshQuestion = {}): PlanMeshQuery {
  const sv = serving(s);
  const par: NonNullable<PlanMeshQuery['parallelism']> = sv ? { tensor: deg.tensor, expert: deg.expert } : { ...deg };
  if (typeof s.values['etp'] === 'number') par.expert_tensor = num(s, 'etp');
  const q: PlanMeshQuery = { kind: 'plan_mesh', parallelism: par };
  if (sv) q.mode = 'serving';
  else {
    // The schedule decides which stage counts run (DualPipe pairs stages; interleaving gives each chunk a layer),
    // for the stops too while PP is 1.
    if (s.values['sched'] !== '1f1b') {
      par.pipeline_schedule = s.values['sched'] as NonNullable<typeof par.pipeline_schedule>;
      if (par.pipeline_schedule === 'interleaved') par.virtual_stages = num(s, 'vstages');
    }
    if (slicesOf(s) > 1) Object.assign(q, { slices: slicesOf(s), dcn_strategy: dcnOf(s) });
    q.seq_len = num(s, 'seq');
    if (ask.batch) q.batch_tokens = num(s, 'batch');
  }
  if (ask.chips && chipsFixed(s)) q.chips = num(s, 'chips');
  if (ask.stops) {
    q.list_degrees = {};
    for (const k of (sv ? ['tensor', 'expert'] : STRATEGIES) as readonly Strategy[]) {
      q.list_degrees[k] = {
        up_to: param(DEGREE_KEYS[k]).max ?? 1,
        ...(k === 'data' || k === 'fsdp' ? { powers_of_two: true } : {}),
      };
    }
  }
  return q;
}

/** The answer's result, or undefined when the engine refused the question or has not answered. */
export function planMeshResult(ev: Evaluation<unknown> | null | undefined): PlanMeshResult | undefined {
  return ev?.ok ? (ev.result as PlanMeshResult) : undefined;
}

/** The mesh in an answer, or why there is none. */
export function meshOutcome(ev: Evaluation<unknown> | null | undefined): MeshOutcome {
  if (!ev) return { ok: false, problem: 'The engine has not answered yet.' };
  const r = planMeshResult(ev);
  if (!r) return { ok: false, problem: ev.diagnostics.map((d) => d.message).join(' ') || 'The engine gave no mesh.' };
  if (!r.mesh || !r.parallelism) return { ok: false, problem: r.problems.map((p) => p.message).join(' ') };
  const axes: MeshPlan['axes'] = {};
  const degrees: NonNullable<MeshPlan['degrees']> = {};
  for (const [k, v] of Object.entries(r.parallelism) as [Strategy, AxisRef[] | number][]) {
    if (typeof v === 'number') degrees[k] = v;
    else axes[k] = v;
  }
  const plan: MeshPlan = {
    shape: r.mesh.shape,
    axisNames: r.mesh.axis_names,
    axes,
    slices: r.mesh.slices,
    chipsPerSlice: r.chips_per_slice ?? r.chips,
    chips: r.chips,
  };
  if (r.engine_layout) plan.degrees = degrees;
  return { ok: true, plan };
}

/**
 * Where a degree's slider stops: the degrees the engine says the model splits into within the row's range (with a
 * fixed chip count, only those that leave the balancing degree whole); null for a degree without stops (the
 * balancing one while the count is fixed: it is derived) or before the engine answers; the current value alone when
 * none splits.
 */
export function degreeStops(p: Param, s: State, answer: PlanMeshResult | undefined): number[] | null {
  const list = p.degree && answer ? answer.valid_degrees[p.degree] : undefined;
  if (!list) return null;
  return list.length ? list : [num(s, p.key)];
}

/** Chip counts the chips slider stops at: the other degrees' chips times 1, 2, 3, 4, 6, 8, 12, 16, ... */
export function chipsStops(answer: PlanMeshResult | undefined): number[] | null {
  if (!answer) return null;
  const unit = answer.chips_multiple_of;
  const max = param('chips').max ?? 65536;
  const out: number[] = [];
  for (let k = 1; unit * k <= max; k = k < 2 ? 2 : Number.isInteger(Math.log2(k)) ? k * 1.5 : (k / 1.5) * 2)
    out.push(unit * k);
  return out.length ? out : [unit];
}

/** The row of the degree a fixed chip count sets (the answer's `balancing`; TP for a serving replica). */
export function balancingParam(s: State, answer: PlanMeshResult | undefined): Param {
  return param(DEGREE_KEYS[answer?.balancing ?? (serving(s) ? 'tensor' : 'fsdp')]);
}

/** A query path of plan_mesh's as the control it names (nearest_fit's lay_out paths too: state/fit.ts). */
export function keyOfPath(path: string): string | null {
  if (path === '/query/chips') return 'chips';
  if (path === '/query/batch_tokens') return 'batch';
  if (path === '/query/slices') return 'slices';
  if (path === '/query/parallelism/expert_tensor') return 'etp';
  const m = /^\/query\/parallelism\/(\w+)$/.exec(path);
  return m && m[1]! in DEGREE_KEYS ? DEGREE_KEYS[m[1] as Strategy] : null;
}

export type Settled = { state: State; problem?: string };

/** A fixed chip count applied from the answer (the balancing degree set), or why the count does not split. */
export function balanced(s: State, answer: PlanMeshResult | undefined): Settled {
  if (!chipsFixed(s) || !answer) return { state: s };
  const problem = answer.problems.find((p) => p.path === '/query/chips');
  if (problem) return { state: s, problem: problem.message };
  const key = DEGREE_KEYS[answer.balancing];
  const want = answer.degrees[answer.balancing];
  if (want === undefined || want === num(s, key)) return { state: s };
  const out = cloneState(s);
  out.values[key] = want;
  return { state: out };
}

/**
 * The nearest state that runs, as the engine found it (plan_mesh `nearest`: every degree, the chip count, the batch,
 * the slices and the experts' TP),
 * with one line per change in words; the same state when nothing had to change.
 */
export function nearest(s: State, answer: PlanMeshResult | undefined): { state: State; notices: string[] } {
  const n = answer?.nearest;
  if (!n) return { state: s, notices: [] };
  const out = cloneState(s);
  for (const [k, v] of Object.entries(n.parallelism) as [Strategy, number][]) out.values[DEGREE_KEYS[k]] = v;
  out.values['chips'] = n.chips;
  if (n.batch_tokens !== undefined) out.values['batch'] = n.batch_tokens;
  if (n.slices !== undefined) out.values['slices'] = n.slices;
  if (n.expert_tensor !== undefined) out.values['etp'] = n.expert_tensor;
  out.values['layout'] = param('layout').default;
  const notices = n.changes.flatMap((c) => {
    const key = keyOfPath(c.path);
    return key ? [changeWords(key, c.from, c.to, c.reason)] : [];
  });
  return { state: out, notices };
}

/** An engine's change to a control in words: "Label from → to: why." (a number unset is "no longer fixed"). */
export function changeWords(key: string, from: unknown, to: unknown, reason: string): string {
  const fmt = (v: unknown): string => (typeof v === 'number' ? v.toLocaleString('en-US') : String(v ?? 'unset'));
  const label = param(key).label;
  return to === null && typeof from === 'number'
    ? `${label} ${fmt(from)} is no longer fixed: ${reason}.`
    : `${label} ${fmt(from)} → ${fmt(to)}: ${reason}.`;
}
