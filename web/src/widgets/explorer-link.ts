// "Open in the explorer" from a widget: the whole setup the widget shows, carried into a state the explorer can run.
// A view maps its own keys onto the explorer's (a TPU slice becomes a fixed chip count; the scaling-book/training
// roofline figure's chips and TP become FSDP × TP); then the engine's nearest runnable state (plan_mesh: if the
// explorer's default degrees do not fit the widget's chip, a v5e slice holding at most 256 chips, FSDP shrinks until
// they do). Configuration only.
// A view that shows no model (a chip, a mesh, a matmul) would open on the explorer's default model, which a few
// chips cannot hold ("needs 38.1 GB of 16 GB", issue 20): its link carries the largest preset model the engine says
// runs and fits there, without a warning, at a batch it holds.
import type { Evaluation } from '../engine/types';
import { BASE_TABLE, cloneState, FEATURES, MODEL_IDS, type State } from '../state/params';
import { encodeState } from '../state/url';
import { balanced, chipsFixed, nearest, planMeshResult } from '../state/plan-mesh';
import { mainScenario, meshOf, planMeshScenario } from '../state/scenario';
import { planStatus } from '../ui/results';
import type { Ask, View } from './view';

/** The explorer state for a widget's state: the view's mapping (the explorer puts it under its rules as it loads). */
export function explorerStateOf(view: View<unknown> | undefined, widgetState: State): State {
  const s = cloneState(view?.toExplorer ? view.toExplorer(widgetState) : widgetState);
  for (const k of Object.keys(s.values)) if (!BASE_TABLE.byKey.has(k)) delete s.values[k];
  return s;
}

/** The view's mapping under the engine's rules: a fixed chip count applied, the nearest state that runs (null: replaced). */
export async function runnableExplorerState(
  view: View<unknown> | undefined,
  widgetState: State,
  ask: Ask,
): Promise<State | null> {
  const s = explorerStateOf(view, widgetState);
  const answers = await ask([planMeshScenario(s, undefined, { chips: chipsFixed(s), batch: true })]);
  if (!answers) return null;
  const answer = planMeshResult(answers[0]);
  return nearest(balanced(s, answer).state, answer).state;
}

/** The explorer's query string for a widget's state, before the engine has checked it. */
export function explorerQueryOf(view: View<unknown> | undefined, widgetState: State): string {
  return encodeState(explorerStateOf(view, widgetState));
}

/** Global batches a link may shrink to, as halvings of the explorer's: a few chips hold a model's weights long
 * before they hold 4M tokens of its activations. Halvings keep whole sequences per shard. */
const BATCH_HALVINGS = 8;
const SERVING_BATCH_HALVINGS = 6; // 32 sequences down to 1: the KV caches beside the weights

/** How large a model an answer runs, to pick the largest: training FLOPs per token, or the weights a replica serves. */
type Size = (answer: Evaluation<unknown>) => number;
const trainingSize =
  (batch: number): Size =>
  (a) =>
    ((a.result as { model_flops?: number } | undefined)?.model_flops ?? 0) / batch;
const servingSize: Size = (a) =>
  (a.result as { memory?: { param_bytes?: number } } | undefined)?.memory?.param_bytes ?? 0;

/**
 * explorerStateOf, with a model that fits for a model-free view: the state as it is if the engine says it runs,
 * fits and warns of nothing on the widget's chips; else, at the largest of the explorer's batch and its halvings at
 * which some preset trains so, the one with the most FLOPs per token (a reader's batch is kept before the model is
 * grown: 405B at 128k tokens is no better a landing than 18B at 4M); else, on chips too few to train any preset
 * (8 v5e chips, chapters 9 and 10), the largest preset they serve so, at the largest batch. A view that shows a
 * model keeps it, fitting or not (its point may be that). One batch size is asked at a time, so the usual answer
 * costs one question of the presets. Null when a newer request replaced the engine's answer.
 */
export async function fittingExplorerState(
  view: View<unknown> | undefined,
  widgetState: State,
  ask: Ask,
): Promise<State | null> {
  const s = await runnableExplorerState(view, widgetState, ask);
  if (!s || !view?.modelFree || s.values['mode'] === 'serving') return s;
  /** The largest of `states` the engine runs cleanly (undefined: none; null: the answer was replaced). */
  const largest = async (states: State[], size: Size): Promise<State | null | undefined> => {
    const meshAnswers = await ask(states.map((c) => planMeshScenario(c)));
    if (!meshAnswers) return null;
    const meshes = states.map((c, i) => meshOf(c, meshAnswers[i]));
    const asked = meshes.flatMap((m, i) => (m.ok ? [{ i, plan: m.plan }] : []));
    // The explorer's headline is calibrated where the engine has both fidelities (the `fid` row's default).
    const answers = await ask(
      asked.map(({ i, plan }) => {
        const sc = mainScenario(states[i]!, plan);
        return FEATURES.fidelity ? { ...sc, query: { ...sc.query, fidelity: 'calibrated' } } : sc;
      }),
    );
    if (!answers) return null;
    let best: { state: State; size: number } | undefined;
    asked.forEach(({ i }, j) => {
      const a = answers[j]!;
      const clean = planStatus({ state: states[i]!, mesh: meshes[i]!, main: a as Evaluation<never> }).kind === 'ok';
      if (clean && (!best || size(a) > best.size)) best = { state: states[i]!, size: size(a) };
    });
    return best?.state;
  };
  const meshAnswer = await ask([planMeshScenario(s)]);
  if (!meshAnswer) return null;
  const mesh = meshOf(s, meshAnswer[0]);
  if (!mesh.ok) return s;
  const asIs = await largest([s], () => 0);
  if (asIs !== undefined) return asIs ?? null;
  const batch = Number(s.values['batch']);
  for (let k = 0; k < BATCH_HALVINGS; k++) {
    const b = batch / 2 ** k;
    const found = await largest(
      MODEL_IDS.map((id) => ({ ...cloneState(s), values: { ...s.values, model: id, batch: b } })),
      trainingSize(b),
    );
    if (found !== undefined) return found;
  }
  // One replica over all the widget's chips (TP over the slice), as the chapter's serving examples run.
  const chips = mesh.plan.chips;
  const sbatch = Number(s.values['sbatch']);
  for (let k = 0; k < SERVING_BATCH_HALVINGS; k++) {
    const b = Math.max(1, Math.floor(sbatch / 2 ** k));
    const values = { ...s.values, mode: 'serving', sbatch: b, tp: chips, dp: 1, fsdp: 1 };
    const found = await largest(
      MODEL_IDS.map((id) => ({ ...cloneState(s), values: { ...values, model: id } })),
      servingSize,
    );
    if (found !== undefined) return found;
  }
  return s;
}
