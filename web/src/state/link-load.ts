// A link read under the controls' rules, so that a link reaches only states the controls could:
//  - the degrees ask for at most the Chips field's largest count (no slider reaches TP 512 × FSDP 8192 × PP 256,
//    2^30 chips; a link asking for them keeps the default degrees and says so);
//  - a fixed chip count is applied to the degrees (state/degrees.ts rebalance); one they cannot split is dropped;
//  - when the degrees do not fit the link's chip, the balancing degree (FSDP or DP) is halved until they do, as
//    choosing the chip in the controls does (fitToChip: `?hw=tpu-v5e` opens on FSDP 32 × TP 8, the 16×16 pod), and
//    a notice says what changed. Degrees no halving can fit (three strategies on a 2D torus, FSDP already 1) are
//    kept, and the page says why they cannot run.
// Configuration only: the engine still checks the plan.
import { DEGREE_KEYS, activeDegrees, balancingDegree, chipsOf, fitToChip, rebalance } from './degrees';
import { cloneState, hardwarePreset, param, type State } from './params';
import { meshFor } from './scenario';
import type { Decoded } from './url';

export interface LoadedLink {
  state: State;
  /** What the link asked for that the page changed, in words (joins the decoder's notices). */
  notices: string[];
}

const DEGREE_AND_SLICE_KEYS = [...Object.values(DEGREE_KEYS), 'slices', 'chips'];

/** The decoded link with the chip range, a fixed chip count and the chip fit applied. */
export function loadLink(d: Decoded): LoadedLink {
  const notices: string[] = [];
  let state = d.state;
  const maxChips = param('chips').max ?? Infinity;
  const asked = chipsOf(state);
  if (asked > maxChips) {
    const named = activeDegrees(state).map((k) => DEGREE_KEYS[k]).concat('slices')
      .filter((k) => state.values[k] !== param(k).default).map((k) => `${param(k).label} ${state.values[k]}`);
    state = cloneState(state);
    for (const k of DEGREE_AND_SLICE_KEYS) state.values[k] = param(k).default;
    notices.push(`Ignored the link’s degrees (${named.join(' × ')}): together they ask for ${asked.toLocaleString('en-US')} chips, and the Chips field goes up to ${maxChips.toLocaleString('en-US')}. Using the default degrees.`);
  }
  const rb = rebalance(state);
  state = rb.state;
  if (rb.problem) {
    // As the chips field refuses a count the degrees cannot split, a link's is dropped (the degrees set the count).
    notices.push(`Ignored Chips = ${state.values['chips']}: ${rb.problem}.`);
    state = cloneState(state);
    state.values['chips'] = null;
  }
  const balancing = DEGREE_KEYS[balancingDegree(state)];
  const fitted = fitToChip(state, (x) => meshFor(x).ok);
  if (fitted !== state) {
    const chip = hardwarePreset(String(state.values['hw'])).name;
    const unfixed = state.values['chips'] !== fitted.values['chips'] ? '; the chip count is no longer fixed' : '';
    notices.push(`${param(balancing).label} ${state.values[balancing]} → ${fitted.values[balancing]}, so that the degrees fit one ${chip} slice (as choosing the chip does${unfixed}).`);
    state = fitted;
  }
  return { state, notices };
}
