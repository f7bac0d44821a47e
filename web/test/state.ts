// Test helper: the explorer's default state with some values set (the parameter table's keys, web/src/state/params.ts).
import { cloneState, defaultState, type State } from '../src/state/params';

export function stateWith(values: Record<string, unknown>): State {
  const s = cloneState(defaultState());
  Object.assign(s.values, values);
  return s;
}
