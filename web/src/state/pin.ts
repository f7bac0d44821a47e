// A pinned comparison lives in the URL: `pin` holds the other state as its own query string (only what differs from
// the defaults, with its own version key: "v=1" alone pins the defaults), so a shared link or a reload shows the same
// comparison, and an old pin migrates like any old link. Decoding goes
// through the same codec, so a hostile or stale pin is dropped with a notice like any other key.
import { cloneState, type State } from './params';
import { decodeState, encodeState } from './url';

/** The `pin` value for a state: its query string, without a pin of its own. */
export function pinText(pinned: State): string {
  const s = cloneState(pinned);
  s.values['pin'] = '';
  return encodeState(s);
}

export interface Pinned {
  state: State;
  notices: string[];
}

/** The pinned state of a state, or null when nothing is pinned. */
export function pinnedOf(s: State): Pinned | null {
  const text = String(s.values['pin'] ?? '');
  if (!text) return null;
  const d = decodeState(text);
  d.state.values['pin'] = ''; // a pin never nests
  return { state: d.state, notices: d.notices.map((n) => `Pinned comparison: ${n}`) };
}
