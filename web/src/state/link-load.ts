// A link read under the controls' rules, so that a link reaches only states the controls could, and opens on one
// that runs (issue 20):
//  - the degrees ask for at most the Chips field's largest count (no slider reaches TP 512 × FSDP 8192 × PP 256,
//    2^30 chips; a link asking for them keeps the default degrees and says so);
//  - then the engine's nearest runnable state (plan_mesh `nearest`): degrees the model splits into, a fixed chip
//    count the degrees split, degrees the link's chip can lay out (`?hw=tpu-v5e` opens on FSDP 32 × TP 8, the
//    16×16 pod), whole sequences in the batch; a notice says what changed and why.
// The rules are the engine's; this file only asks it and says what changed.
import { DEGREE_KEYS, balanced, chipsFixed, nearest, planMeshResult, type AskNow } from './plan-mesh';
import { cloneState, param, type State } from './params';
import { planMeshScenario } from './scenario';
import type { Decoded } from './url';

export interface LoadedLink {
  state: State;
  /** What the link asked for that the page changed, in words (joins the decoder's notices). */
  notices: string[];
}

const DEGREE_AND_SLICE_KEYS = [...Object.values(DEGREE_KEYS), 'slices', 'chips'];

/** The decoded link with the chip range and the engine's nearest runnable state applied; null until the engine can answer. */
export function loadLink(d: Decoded, ask: AskNow): LoadedLink | null {
  const notices: string[] = [];
  let state = d.state;
  const asked = planMeshResult(ask(planMeshScenario(state)));
  if (!asked) return null;
  const maxChips = param('chips').max ?? Infinity;
  if (asked.chips > maxChips) {
    const named = DEGREE_AND_SLICE_KEYS.filter((k) => k !== 'chips' && state.values[k] !== param(k).default).map(
      (k) => `${param(k).label} ${state.values[k]}`,
    );
    state = cloneState(state);
    for (const k of DEGREE_AND_SLICE_KEYS) state.values[k] = param(k).default;
    notices.push(
      `Ignored the link’s degrees (${named.join(' × ')}): together they ask for ${asked.chips.toLocaleString('en-US')} chips, and the Chips field goes up to ${maxChips.toLocaleString('en-US')}. Using the default degrees.`,
    );
  }
  const answer = planMeshResult(ask(planMeshScenario(state, undefined, { chips: chipsFixed(state), batch: true })));
  // A fixed chip count the degrees split sets the balancing degree; one they do not is dropped by the nearest state.
  const n = nearest(balanced(state, answer).state, answer);
  return { state: n.state, notices: [...notices, ...n.notices] };
}
