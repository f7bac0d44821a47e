// Engine names in words, for the explorer and the widgets alike (display only).
import { STRATEGY_LABEL } from './mesh-words';

/** Communication times of a training step by strategy (result.time.comms keys). */
export const COMMS_LABELS: Readonly<Record<string, string>> = {
  data_s: STRATEGY_LABEL.data, fsdp_s: STRATEGY_LABEL.fsdp, tensor_s: STRATEGY_LABEL.tensor, pipeline_s: STRATEGY_LABEL.pipeline,
  expert_s: STRATEGY_LABEL.expert, context_s: STRATEGY_LABEL.context, dcn_s: 'DCN',
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
