// Parallelism degrees as a reader moves them: which degrees a model can be split into (so sliders stop only there),
// and the fixed-chip-count mode, where moving TP, PP, EP or CP hands the rest of the chips to FSDP (or DP). This is
// configuration, not physics: the rules are the engine's own checks of a plan (core/planners/training_checks.cpp,
// core/queries/serving.cpp: TP divides the heads, the dense layers' d_ff, the experts' d_ff (or the experts' own TP
// does, dividing TP) and the KV heads or a multiple of them; PP gives every stage (every chunk: interleaved, two for
// dualpipe_v) a layer, DualPipe pairs stages so needs an even count, and the stages need not divide the layers: the
// busiest sets the pace; EP divides the experts, and a dense model has none to split; CP divides the sequence), and
// web/test/degrees.test.ts holds them against the engine.
import type { ModelFields } from './scenario';
import { cloneState, param, type Param, type State } from './params';

export type DegreeStrategy = NonNullable<Param['degree']>;

/** The URL key of each degree. */
export const DEGREE_KEYS: Readonly<Record<DegreeStrategy, string>> = {
  data: 'dp', fsdp: 'fsdp', tensor: 'tp', pipeline: 'pp', expert: 'ep', context: 'cp',
};

const divides = (a: number, b: number): boolean => a > 0 && b % a === 0;
const num = (s: State, k: string): number => Number(s.values[k]);
const serving = (s: State): boolean => s.values['mode'] === 'serving';

/** The experts' own TP (the `etp` key; unset: the TP degree). */
const expertTensor = (s: State, tp: number): number => (typeof s.values['etp'] === 'number' ? num(s, 'etp') : tp);

/** Parallel folding: the expert group is EP times the TP ranks the experts do not split over; it divides the experts. */
const foldedSplits = (tp: number, ep: number, m: ModelFields, s: State): boolean => {
  const etp = expertTensor(s, tp);
  return m.experts === 0 || etp === tp || divides((ep * tp) / etp, m.experts);
};

/** Can the model (and the sequence) be split `value` ways by this strategy? */
export function splits(strategy: DegreeStrategy, value: number, m: ModelFields, s: State): boolean {
  if (!Number.isInteger(value) || value < 1) return false;
  switch (strategy) {
    case 'tensor': {
      const etp = expertTensor(s, value);
      return divides(value, m.heads) && (divides(value, m.kv_heads) || divides(m.kv_heads, value)) &&
        (!m.dense_mlp || divides(value, m.d_ff)) &&
        (m.experts === 0 || (divides(etp, value) && divides(etp, m.expert_d_ff) && foldedSplits(value, num(s, 'ep'), m, s)));
    }
    case 'pipeline': {
      const sched = s.values['sched'];
      if (sched === 'dualpipe' && value > 1 && value % 2 !== 0) return false;
      const chunks = sched === 'interleaved' ? num(s, 'vstages') : sched === 'dualpipe_v' ? 2 : 1;
      return value * chunks <= m.layers;
    }
    case 'expert':
      return value === 1 || (m.experts > 0 && value <= m.experts && divides(value, m.experts) && foldedSplits(num(s, 'tp'), value, m, s));
    case 'context':
      return divides(value, num(s, 'seq'));
    default:
      return true; // data and FSDP split the batch, whatever the model
  }
}

/** The degree that takes what the others leave when the chip count is fixed: TP when serving, else FSDP (or DP). */
export function balancingDegree(s: State): DegreeStrategy {
  if (serving(s)) return 'tensor';
  return num(s, 'fsdp') > 1 || num(s, 'dp') === 1 ? 'fsdp' : 'data';
}

/** The degrees a mode uses (serving: TP and EP only). */
export function activeDegrees(s: State): DegreeStrategy[] {
  return serving(s) ? ['tensor', 'expert'] : ['data', 'fsdp', 'tensor', 'pipeline', 'expert', 'context'];
}

/** Chips in one slice times the slices: the product of every degree of the mode. */
export function chipsOf(s: State): number {
  const slices = serving(s) ? 1 : num(s, 'slices');
  return activeDegrees(s).reduce((a, d) => a * num(s, DEGREE_KEYS[d]), 1) * slices;
}

/** Is the chip count fixed (the `chips` key set)? */
export function chipsFixed(s: State): boolean {
  return typeof s.values['chips'] === 'number';
}

/** Product of the degrees other than `skip` and the balancing one (and the slices). */
function othersProduct(s: State, skip: DegreeStrategy | null): number {
  const bal = balancingDegree(s);
  const slices = serving(s) ? 1 : num(s, 'slices');
  return activeDegrees(s).filter((d) => d !== bal && d !== skip).reduce((a, d) => a * num(s, DEGREE_KEYS[d]), 1) * slices;
}

const POWERS_OF_TWO = (max: number, min = 1): number[] => {
  const out: number[] = [];
  for (let v = 1; v <= max; v *= 2) if (v >= min) out.push(v);
  return out;
};

/**
 * Where a degree's slider stops: every degree in the row's range the model splits into (TP over 40 heads: 1, 2, 4, 5,
 * 8, 10, 20, 40), and with a fixed chip count only those that leave a whole number of chips for the balancing degree.
 * The balancing degree itself is then derived (no stops of its own: null); data and FSDP stop at powers of two.
 */
export function degreeStops(p: Param, s: State, m: ModelFields): number[] | null {
  const strategy = p.degree;
  if (!strategy) return null;
  const max = p.max ?? 1;
  const fixed = chipsFixed(s) && activeDegrees(s).includes(strategy);
  if (fixed && strategy === balancingDegree(s)) return null;
  const candidates = strategy === 'data' || strategy === 'fsdp' ? POWERS_OF_TWO(max) : Array.from({ length: max }, (_, i) => i + 1);
  const room = fixed ? num(s, 'chips') / othersProduct(s, strategy) : Infinity;
  const out = candidates.filter((v) => splits(strategy, v, m, s) && (!fixed || (Number.isInteger(room / v) && room / v >= 1)));
  return out.length ? out : [num(s, p.key)];
}

/** Chip counts the chips slider stops at: the other degrees times 1, 2, 3, 4, 6, 8, 12, 16, ... (up to the row's max). */
export function chipsStops(s: State): number[] {
  const unit = othersProduct(s, null);
  const max = param('chips').max ?? 65536;
  const out: number[] = [];
  for (let k = 1; unit * k <= max; k = k < 2 ? 2 : Number.isInteger(Math.log2(k)) ? k * 1.5 : (k / 1.5) * 2) out.push(unit * k);
  return out.length ? out : [unit];
}

export type Rebalanced = { state: State; problem?: string };

/**
 * With a fixed chip count, the balancing degree takes chips / (the other degrees): after any change, and when a
 * link sets `chips`. A count that does not split leaves the degrees as they were and says why.
 */
export function rebalance(s: State): Rebalanced {
  if (!chipsFixed(s)) return { state: s };
  const chips = num(s, 'chips');
  const bal = balancingDegree(s);
  const others = othersProduct(s, null);
  const want = chips / others;
  const p = param(DEGREE_KEYS[bal]);
  if (!Number.isInteger(want) || want < 1 || want > (p.max ?? Infinity)) {
    return { state: s, problem: `${chips} chips do not split into the other degrees (${others} chips per ${p.label} replica)` };
  }
  if (want === num(s, p.key)) return { state: s };
  const out = cloneState(s);
  out.values[p.key] = want;
  return { state: out };
}

/**
 * Degrees that the chip can lay out: while the mesh does not fit (a v5e slice holds at most 256 chips, a 2D torus two
 * strategies), the balancing degree halves; a fixed chip count that had to move is no longer fixed. The same state
 * when it fits already. Configuration only (the mesh rules are state/mesh.ts's), used when the chip changes and for
 * a widget's "open in the explorer".
 */
export function fitToChip(s: State, fits: (s: State) => boolean): State {
  let out = s;
  for (let i = 0; i < 16 && !fits(out); i++) {
    const key = DEGREE_KEYS[balancingDegree(out)];
    const v = num(out, key);
    if (v <= 1) break;
    out = cloneState(out);
    out.values[key] = v / 2;
    if (chipsFixed(out)) out.values['chips'] = null;
  }
  return out;
}
