// The plan search's list (display rules, no physics): which of the plans the engine ranked the page lists — those
// that fit and raise no warning, unless the search options ask for them — and why the others are not. Shared by the
// list (plans.ts), the explorer and the list's downloads (search-export.ts).
import type {
  Diagnostic,
  Evaluation,
  PlanSearchQuery,
  PlanSearchResult,
  Scenario,
  SearchedPlan,
} from '../engine/types';
import type { State } from '../state/params';
import { applyPlan, type SearchedMesh } from '../state/plans';
import { PLAN_SEARCH_KEEP } from '../state/scenario';

/** A plan the engine listed, with what keeps it off the list. */
export interface PlanRow {
  plan: SearchedPlan;
  /** Its place in the engine's ranking (0 = best). */
  rank: number;
  /** Why it is not listed: it does not fit, the applied step warns or fails, or a control cannot hold it. */
  problems: string[];
  warnings: Diagnostic[];
}

/** A plan search the page ran: for which scenario (its text) and on which mesh, and what came back. */
export interface SearchRun {
  key: string;
  /** The state the search was asked for (its downloads list its inputs). */
  state: State;
  mesh: SearchedMesh;
  gpu: boolean;
  ev: Evaluation<PlanSearchResult> | null;
  engineMs: number;
  rows: PlanRow[];
  /** False while chunks are still coming (the plans so far), or after a cancel. */
  complete: boolean;
  cancelled?: boolean;
  chunks: number;
  /** From the click to this answer, in the page (ms). */
  wallMs: number;
  progressFrac: number;
  error?: string;
}

/** The problem a plan out of HBM has (listed anyway when the search was asked to rank such plans). */
export const NOT_FIT = 'does not fit in HBM';

/**
 * Each ranked plan with what keeps it off the list: out of HBM, the warnings the engine says its training step raises
 * (the plan's own `warnings`), or a setting the page's controls cannot hold. No plan is run again: applied, a plan is
 * the very step the search evaluated (docs/api.md `plan_search`).
 */
export function planRows(state: State, res: PlanSearchResult, mesh: SearchedMesh): PlanRow[] {
  return res.plans.map((plan, rank) => {
    const a = applyPlan(state, plan, mesh);
    const problems = a.ok ? [] : [...a.problems];
    if (!plan.fits) problems.push(NOT_FIT);
    return { plan, rank, problems, warnings: plan.warnings };
  });
}

/** The constraints a run's search was asked with (its key is the scenario's text). */
export function runConstraints(run: SearchRun): NonNullable<PlanSearchQuery['constraints']> {
  return ((JSON.parse(run.key) as Scenario).query as PlanSearchQuery).constraints ?? {};
}

/**
 * The plans the list shows, best first: those that fit and raise no warning; with `must_fit` off also
 * those out of HBM, and with `include_warnings` on also those that warn (each marked in its row).
 */
export function listedPlans(run: SearchRun): PlanRow[] {
  return listable(run).slice(0, PLANS_SHOWN);
}

/** Every ranked plan the list may show (listedPlans keeps the first PLANS_SHOWN). */
export function listable(run: SearchRun): PlanRow[] {
  const c = runConstraints(run);
  const outOfHbmOk = c.must_fit === false; // such a plan's applied step warns out_of_hbm: that is what was asked for
  const ok = (x: PlanRow): boolean =>
    x.problems.every((p) => p === NOT_FIT && outOfHbmOk) &&
    (c.include_warnings === true || x.warnings.every((w) => w.code === 'out_of_hbm' && outOfHbmOk));
  return run.rows.filter(ok);
}

/** How many plans the list shows: all the search returns. */
export const PLANS_SHOWN = PLAN_SEARCH_KEEP;

/** Why a ranked plan is not in the list: its problems, the warnings its applied step raises, or the list is full. */
export function leftOutBecause(run: SearchRun, c: PlanRow): string {
  if (listedPlans(run).includes(c)) return '';
  if (!listable(run).includes(c))
    return [...c.problems, ...c.warnings.map((w) => w.message)].join('; ') || 'not listable';
  return `below the ${PLANS_SHOWN} plans the list shows`;
}

/** Plans whose steps lie within this fraction of their group's first plan's step are near-ties. */
export const TIE_FRAC = 0.01;

/**
 * For each listed plan (by step, fastest first), the index of the first plan of its near-tie group: a group is the
 * run of plans whose steps lie within TIE_FRAC of its first's (issue 22: 9 of 10 rows within 1% read as one group,
 * each saying how it differs from the group's first, not from the row above, whose own step may be 1% further).
 */
export function nearTieLeaders(steps: readonly number[]): number[] {
  const leaders: number[] = [];
  let first = 0;
  steps.forEach((step, i) => {
    if (i > 0 && Math.abs(step - steps[first]!) > TIE_FRAC * steps[first]!) first = i;
    leaders.push(first);
  });
  return leaders;
}
