// The engine's nearest_fit (docs/api.md) for a state: the question the explorer asks of it, and the answer put back
// on the controls. The search and its rules are the engine's; this file only asks, and maps each changed path onto
// the control that holds it.
import type { Evaluation, NearestFitQuery, NearestFitResult, Scenario, ServingQuery } from '../engine/types';
import { cloneState, param, type State } from './params';
import { changeWords, keyOfPath } from './plan-mesh';
import { laidOutScenario } from './scenario';

export interface FitOptions {
  /** Model preset ids the state's model may be replaced by. */
  models?: readonly string[];
  /** Serve instead, on one replica over the chips, when no model trains (a training state on a mesh to lay out). */
  serveInstead?: boolean;
  /** What may not move. */
  keep?: NonNullable<NearestFitQuery['keep']>;
  /** The state as the question (a caller's own fidelity, say); its serving replica is asked the same way. */
  question?: (s: State) => Scenario;
}

/** The nearest_fit question for a state. */
export function fitScenario(s: State, o: FitOptions = {}): Scenario {
  const ask = o.question ?? ((x: State) => laidOutScenario(x));
  const question = ask(s);
  const query: NearestFitQuery = { kind: 'nearest_fit', query: question.query as NearestFitQuery['query'] };
  if (o.keep) query.keep = o.keep;
  if (o.models) query.models = [...o.models];
  if (o.serveInstead && question.mesh && 'lay_out' in question.mesh) {
    query.serve_instead = ask({ ...cloneState(s), values: { ...s.values, mode: 'serving' } }).query as ServingQuery;
  }
  return { ...question, query };
}

/** The answer's result, or undefined when the engine refused the question. */
export function fitResult(answer: Evaluation<unknown> | null | undefined): NearestFitResult | undefined {
  return answer?.ok ? (answer.result as NearestFitResult) : undefined;
}

/**
 * The explorer's control each path of a nearest_fit change sets (null: none's): a lay_out argument is plan_mesh's
 * own (plan-mesh.ts keyOfPath), the rest the question's.
 */
function controlOf(path: string): string | null {
  const question: Record<string, string> = {
    '/model/preset': 'model',
    '/query/batch': 'sbatch',
    '/query/remat': 'remat',
  };
  if (path in question) return question[path]!;
  return keyOfPath(path.startsWith('/mesh/lay_out/') ? `/query${path.slice('/mesh/lay_out'.length)}` : path);
}

/** The state with a nearest_fit answer's changes on its controls (an unset degree is 1); as it was without one. */
export function stateOfFit(s: State, answer: Evaluation<unknown> | null | undefined): State {
  const fit = fitResult(answer);
  if (!fit?.changes.length) return s;
  const out = cloneState(s);
  for (const c of fit.changes) {
    if (c.path === '/query/kind') {
      out.values['mode'] = c.to === 'serving' ? 'serving' : 'training';
      const q = fit.scenario.query as ServingQuery;
      if (q.batch !== undefined) out.values['sbatch'] = q.batch;
      continue;
    }
    const key = controlOf(c.path);
    if (!key) continue;
    const degree = c.path.startsWith('/mesh/lay_out/parallelism/') && key !== 'etp';
    out.values[key] = c.to === null && degree ? 1 : (c.to as State['values'][string]);
  }
  out.values['layout'] = param('layout').default;
  return out;
}

/** Each change of a nearest_fit answer in words, on the control it moved: "Batch 4,194,304 → 2,097,152: why." */
export function fitWords(answer: Evaluation<unknown> | null | undefined): string[] {
  const fit = fitResult(answer);
  if (!fit) return [];
  return fit.changes.flatMap((c) => {
    const key = c.path === '/query/kind' ? 'mode' : controlOf(c.path);
    return key ? [changeWords(key, c.from, c.to, c.reason)] : [];
  });
}
