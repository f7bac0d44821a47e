// "Open in the explorer" from a widget: the whole setup the widget shows, carried into a state the explorer can run.
// A view maps its own keys onto the explorer's (a TPU slice becomes a fixed chip count; the §5.1 figure's chips
// and TP become FSDP × TP); then, if the explorer's default degrees do not fit the widget's chip (a v5e slice holds
// at most 256 chips), the data-like degree is halved until they do. Configuration only: the explorer asks the engine.
import { BASE_TABLE, cloneState, type State } from '../state/params';
import { encodeState } from '../state/url';
import { balancingDegree, DEGREE_KEYS, rebalance } from '../state/degrees';
import { meshFor } from '../state/scenario';
import type { View } from './view';

/** The explorer state for a widget's state: the view's mapping, then degrees that fit the chip. */
export function explorerStateOf(view: View<unknown> | undefined, widgetState: State): State {
  const s = cloneState(view?.toExplorer ? view.toExplorer(widgetState) : widgetState);
  for (const k of Object.keys(s.values)) if (!BASE_TABLE.byKey.has(k)) delete s.values[k];
  const fixed = rebalance(s).state;
  let out = fixed;
  for (let i = 0; i < 16 && !meshFor(out).ok; i++) {
    const key = DEGREE_KEYS[balancingDegree(out)];
    const v = Number(out.values[key]);
    if (v <= 1) break;
    out = cloneState(out);
    out.values[key] = v / 2;
    if (typeof out.values['chips'] === 'number') out.values['chips'] = null; // the count moved: it is no longer fixed
  }
  return out;
}

/** The explorer's query string for a widget's state. */
export function explorerQueryOf(view: View<unknown> | undefined, widgetState: State): string {
  return encodeState(explorerStateOf(view, widgetState));
}
