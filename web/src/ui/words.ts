// Engine names in words, for the explorer and the widgets alike (display only).
import type { GoodputResult, ServingResult, TrainingStepResult } from '../engine/types';
import { fmtSeconds } from '../charts/format';
import { STRATEGY_LABEL } from './mesh-words';

/** Communication times of a training step by strategy (result.time.comms keys). */
export const COMMS_LABELS: Readonly<Record<string, string>> = {
  data_s: STRATEGY_LABEL.data,
  fsdp_s: STRATEGY_LABEL.fsdp,
  tensor_s: STRATEGY_LABEL.tensor,
  pipeline_s: STRATEGY_LABEL.pipeline,
  expert_s: STRATEGY_LABEL.expert,
  context_s: STRATEGY_LABEL.context,
  dcn_s: 'DCN',
};

const THRESHOLD_TITLES: Readonly<Record<string, string>> = {
  dp_fsdp_tokens_per_chip: 'Batch per chip for DP/FSDP',
  tensor_parallel_degree: 'Tensor-parallel degree',
  fsdp_tp_tokens_per_chip: 'Batch per chip for FSDP × TP',
  dcn_tokens_per_slice: 'Batch per slice over DCN',
};

/** Threshold names in words (unknown names: underscores become spaces). */
export function thresholdTitle(name: string): string {
  return THRESHOLD_TITLES[name] ?? name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

type StepTime = TrainingStepResult['time'];
const BOUND_RESOURCES: readonly {
  bound: string;
  name: string;
  total: (t: StepTime) => number;
  exposed: (t: StepTime) => number;
}[] = [
  {
    bound: 'compute',
    name: 'Compute',
    total: (t) => t.compute_s + t.bubble_s,
    exposed: (t) => t.compute_s + t.bubble_s,
  },
  { bound: 'memory', name: 'HBM traffic', total: (t) => t.hbm_total_s, exposed: (t) => t.hbm_exposed_s },
  { bound: 'communication', name: 'Communication', total: (t) => t.comms_total_s, exposed: (t) => t.comms_exposed_s },
  {
    bound: 'host_offload',
    name: 'Host offload',
    total: (t) => t.offload_total_s ?? 0,
    exposed: (t) => t.offload_exposed_s ?? 0,
  },
];

/**
 * A training step's bound in words: the engine's time.bound is the resource that adds most to the step once overlap
 * is counted, so a resource whose whole time is longer is said to overlap, with what it still adds (issue 41 #17:
 * "Compute-bound" beside a longer communication bar read as a contradiction).
 */
export function trainingBoundWords(t: StepTime): { bound: string; why: string } {
  const own = BOUND_RESOURCES.find((r) => r.bound === t.bound);
  const words = [`${own ? own.name : t.bound} adds the most to the step.`];
  const ownTotal = own ? own.total(t) : 0;
  for (const r of BOUND_RESOURCES) {
    if (r === own || r.total(t) <= ownTotal) continue;
    words.push(
      `${r.name} takes longer in all (${fmtSeconds(r.total(t))}) but overlaps the rest: it adds ${fmtSeconds(r.exposed(t))}.`,
    );
  }
  return { bound: `${t.bound[0]!.toUpperCase()}${t.bound.slice(1).replace(/_/g, ' ')}-bound`, why: words.join(' ') };
}

/** The engine's note on what the book's time to train leaves out, as a sentence. */
export function costNoteWords(note: string): string {
  return `${note[0]!.toUpperCase()}${note.slice(1)}.`;
}

/** The time to train once chips fail (issue 38): the engine's own sentence, after a lead-in naming what it counts. */
export function goodputWords(g: GoodputResult): string {
  return `With failures, checkpoints and restarts: ${g.text}.`;
}

/** What priced a benchmark's load (issue 35): a serving engine's fitted runtime, with what it was fitted on, or none. */
export function loadRuntimeWords(load: NonNullable<ServingResult['load']>): string {
  const b = load.backend;
  return b
    ? `Priced with ${b.name}’s runtime, ${b.source}.`
    : 'Priced with the calibrated kernels’ step, no serving engine’s runtime.';
}

/** "GPU" on a GPU, "chip" on a TPU: the word the serving benchmarks' throughput is per. */
export const chipWord = (kind: string | undefined): string => (kind === 'gpu' ? 'GPU' : 'chip');
