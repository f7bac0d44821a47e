// "Open in the explorer" from a widget: the whole setup the widget shows, carried into a state the explorer can run.
// A view maps its own keys onto the explorer's (a TPU slice becomes a fixed chip count; the scaling-book/training
// roofline figure's chips and TP become FSDP × TP); then the engine's nearest_fit (docs/api.md) moves what must move,
// in one question: the degrees to the nearest that run on the widget's chips, and, for a view that shows no model
// (a chip, a mesh, a matmul), the model, batch and recomputation too, so that the link does not open on the
// explorer's default model, which a few chips cannot hold ("needs 38.1 GB of 16 GB", issue 20). Configuration only.
import type { Evaluation, NearestFitQuery, NearestFitResult, Scenario, ServingQuery, Strategy } from '../engine/types';
import { BASE_TABLE, cloneState, FEATURES, MODEL_IDS, param, type State } from '../state/params';
import { encodeState } from '../state/url';
import { DEGREE_KEYS } from '../state/plan-mesh';
import { laidOutScenario } from '../state/scenario';
import type { Ask, View } from './view';

/** The explorer state for a widget's state: the view's mapping (the explorer puts it under its rules as it loads). */
export function explorerStateOf(view: View<unknown> | undefined, widgetState: State): State {
  const s = cloneState(view?.toExplorer ? view.toExplorer(widgetState) : widgetState);
  for (const k of Object.keys(s.values)) if (!BASE_TABLE.byKey.has(k)) delete s.values[k];
  return s;
}

/** The explorer's query string for a widget's state, before the engine has checked it. */
export function explorerQueryOf(view: View<unknown> | undefined, widgetState: State): string {
  return encodeState(explorerStateOf(view, widgetState));
}

/** The explorer's question for a state, at the fidelity of its headline (calibrated where the engine has both). */
function questionOf(s: State): Scenario {
  const sc = laidOutScenario(s);
  return FEATURES.fidelity ? { ...sc, query: { ...sc.query, fidelity: 'calibrated' } as Scenario['query'] } : sc;
}

/**
 * The nearest_fit question for a state. `modelFree`: any of the explorer's models may replace the state's, and on
 * chips too few to train any, one replica serves the largest it can (the chapters' serving examples); else the
 * model, batch and recomputation stay, fitting or not (a view of a model's plan may be making that point), and only
 * the degrees move.
 */
export function linkFitScenario(s: State, modelFree: boolean): Scenario {
  const question = questionOf(s);
  const query: NearestFitQuery = { kind: 'nearest_fit', query: question.query as NearestFitQuery['query'] };
  if (!modelFree) query.keep = ['remat', 'batch'];
  else {
    query.models = [...MODEL_IDS];
    if (question.mesh && 'lay_out' in question.mesh) {
      const replica = questionOf({ ...cloneState(s), values: { ...s.values, mode: 'serving' } });
      query.serve_instead = replica.query as ServingQuery;
    }
  }
  return { ...question, query };
}

/** The explorer's control each path of a nearest_fit change sets (null: the path is another's, or none's). */
function controlOf(path: string): string | null {
  const direct: Record<string, string> = {
    '/model/preset': 'model',
    '/query/batch_tokens': 'batch',
    '/query/batch': 'sbatch',
    '/query/remat': 'remat',
    '/mesh/lay_out/chips': 'chips',
    '/mesh/lay_out/slices': 'slices',
    '/mesh/lay_out/parallelism/expert_tensor': 'etp',
  };
  if (path in direct) return direct[path]!;
  const m = /^\/mesh\/lay_out\/parallelism\/(\w+)$/.exec(path);
  return m && m[1]! in DEGREE_KEYS ? DEGREE_KEYS[m[1] as Strategy] : null;
}

/** The state with a nearest_fit answer's changes on its controls (an unset degree is 1); as it was without one. */
export function stateOfFit(s: State, answer: Evaluation<unknown> | undefined): State {
  const fit = answer?.ok ? (answer.result as NearestFitResult) : undefined;
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

/** The view's mapping with only its degrees moved to the nearest that run (null: a newer request replaced it). */
export async function runnableExplorerState(
  view: View<unknown> | undefined,
  widgetState: State,
  ask: Ask,
): Promise<State | null> {
  const s = explorerStateOf(view, widgetState);
  const answers = await ask([linkFitScenario(s, false)]);
  return answers ? stateOfFit(s, answers[0]) : null;
}

/**
 * explorerStateOf, on the nearest degrees that run, and for a model-free training view on a model that fits
 * (nearest_fit: the state as it is if it runs cleanly; else at the largest batch at which some preset does, the one
 * with the most FLOPs per token; else the largest preset one replica serves). Null when a newer request replaced the
 * engine's answer.
 */
export async function fittingExplorerState(
  view: View<unknown> | undefined,
  widgetState: State,
  ask: Ask,
): Promise<State | null> {
  const s = explorerStateOf(view, widgetState);
  const modelFree = Boolean(view?.modelFree) && s.values['mode'] !== 'serving';
  const answers = await ask([linkFitScenario(s, modelFree)]);
  return answers ? stateOfFit(s, answers[0]) : null;
}
