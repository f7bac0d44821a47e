// Putting an engine answer (a searched plan, a serving deployment) back into the page's controls: each value is set
// only when its control can hold it, and the problems are said in words (the parameter table, state/params.ts).
import { cloneState, param, type State, type Value } from './params';

export type Applied = { ok: true; state: State } | { ok: false; problems: string[] };

/** A copy of `state` to set values on, and the problems met so far. */
export class StateWriter {
  readonly state: State;
  readonly problems: string[] = [];

  constructor(state: State) {
    this.state = cloneState(state);
  }

  /** Sets `key` to `v` when it lies in the control's range and choices; else records why not. */
  set(key: string, v: Value): void {
    const p = param(key);
    if (typeof v === 'number' && ((p.min !== undefined && v < p.min) || (p.max !== undefined && v > p.max))) {
      this.problems.push(`${p.label} ${v} is outside this page’s range (${p.min} to ${p.max}).`);
    } else if (p.choices && !p.choices.includes(String(v))) {
      this.problems.push(`${p.label} ${String(v)} is not one of this page’s choices (${p.choices.join(', ')}).`);
    } else this.state.values[key] = v;
  }

  result(): Applied {
    return this.problems.length ? { ok: false, problems: this.problems } : { ok: true, state: this.state };
  }
}
