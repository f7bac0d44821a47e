// "Open in the explorer" from a widget: the whole setup the widget shows, carried into a state the explorer can run.
// A view maps its own keys onto the explorer's (a TPU slice becomes a fixed chip count; the scaling-book/training
// roofline figure's chips and TP become FSDP × TP); then the engine's nearest_fit (state/fit.ts) moves what must move,
// in one question: the degrees to the nearest that run on the widget's chips, and, for a view that shows no model
// (a chip, a mesh, a matmul), the model, batch and recomputation too, so that the link does not open on the
// explorer's default model, which a few chips cannot hold ("needs 38.1 GB of 16 GB", issue 20). Configuration only.
import type { Scenario } from '../engine/types';
import { BASE_TABLE, cloneState, FEATURES, MODEL_IDS, type State } from '../state/params';
import { encodeState } from '../state/url';
import { fitScenario, stateOfFit } from '../state/fit';
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
function explorerQuestion(s: State): Scenario {
  const sc = laidOutScenario(s);
  return FEATURES.fidelity ? { ...sc, query: { ...sc.query, fidelity: 'calibrated' } as Scenario['query'] } : sc;
}

/**
 * The nearest_fit question for a link. `modelFree`: any of the explorer's models may replace the state's, and on
 * chips too few to train any, one replica serves the largest it can (the chapters' serving examples); else the
 * model, batch and recomputation stay, fitting or not (a view of a model's plan may be making that point), and only
 * the degrees move.
 */
export function linkFitScenario(s: State, modelFree: boolean): Scenario {
  return fitScenario(
    s,
    modelFree
      ? { models: MODEL_IDS, serveInstead: true, question: explorerQuestion }
      : { keep: ['remat', 'batch'], question: explorerQuestion },
  );
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
