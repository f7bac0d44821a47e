// "Open in the explorer" from a widget: the whole setup the widget shows, carried into a state the explorer can run.
// A view maps its own keys onto the explorer's (a TPU slice becomes a fixed chip count; the §5.1 figure's chips
// and TP become FSDP × TP); then, if the explorer's default degrees do not fit the widget's chip (a v5e slice holds
// at most 256 chips), the data-like degree is halved until they do (state/degrees.ts fitToChip). Configuration only.
import { BASE_TABLE, cloneState, type State } from '../state/params';
import { encodeState } from '../state/url';
import { fitToChip, rebalance } from '../state/degrees';
import { meshFor } from '../state/scenario';
import type { View } from './view';

/** The explorer state for a widget's state: the view's mapping, then degrees that fit the chip. */
export function explorerStateOf(view: View<unknown> | undefined, widgetState: State): State {
  const s = cloneState(view?.toExplorer ? view.toExplorer(widgetState) : widgetState);
  for (const k of Object.keys(s.values)) if (!BASE_TABLE.byKey.has(k)) delete s.values[k];
  return fitToChip(rebalance(s).state, (x) => meshFor(x).ok);
}

/** The explorer's query string for a widget's state. */
export function explorerQueryOf(view: View<unknown> | undefined, widgetState: State): string {
  return encodeState(explorerStateOf(view, widgetState));
}
