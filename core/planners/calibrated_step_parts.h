// The calibrated training step in named parts (planners/calibrated_training.h prices a step with them, in this
// order): the layers' work on the busiest stage, each strategy's per-layer collectives and what of them is exposed,
// the stage that paces a microbatch, the pipeline's bubble and sends, the once-a-step gradient reductions, and the
// optimizer. Internal to the calibrated step's files.
#pragma once
#include <array>

#include "planners/calibrated_kernels.h"
#include "planners/pipeline.h"

namespace scalescope::calibrated {

// DualPipe or DualPipeV (DeepSeek-V3 §3.2.1): the expert exchange and the stage sends hide behind another microbatch.
bool runs_dualpipe(const TrainingPlan& pl);

// One microbatch's work on one chip: each layer kind the model has, the busiest stage's layers (stages need not
// divide the layers), the head, and the trained multi-token prediction modules.
struct StageWork {
  std::array<WorkTime, kLayerKinds> kind{};
  std::array<double, kLayerKinds> kind_s{};  // each kind's whole time with its per-op launch overhead
  std::array<int, kLayerKinds> present{};    // the kinds the model has, `kinds` of them
  int kinds = 0;
  LayerCounts here;  // the busiest stage's layers
  WorkTime head, mtp;
  WorkTime dense, moe, no_mlp;  // the heaviest dense, MoE and MLP-less kinds on the stage

  // `layers`' total of one field of WorkTime.
  double sum(const LayerCounts& layers, double WorkTime::*field) const;
  // `start` plus `layers`' whole time with launch overheads (`start` first: a stage's exposed comms, in the order
  // the step has always summed them, so the answers stay the same bit for bit).
  double time_s(const LayerCounts& layers, double start) const;
};
StageWork stage_work(const Calibrated& c, const LayerShape& shape, const TrainingStep& s);

// The weights each chip holds and moves: what the FSDP gathers and the gradient reductions price.
struct ChipWeights {
  ChipParams params;
  double chip_params = 0, p_bytes = 0;
  // Gradients are reduced in the master weights' format where there is one (Megatron's fp32 main grads, MaxText's
  // fp32 weights): reductions move grad_frac x the working weights' bytes.
  double grad_frac = 1;
  double layer_weight_bytes = 0;  // one layer's share of the chip's weights
  bool zero3 = false;             // every layer's weights gathered before use (gathers_layers)
  bool zero3_expert = false;      // ... and the non-expert ones over the expert ranks as well
};
ChipWeights chip_weights(const TrainingInput& in, const TrainingStep& ideal, const TrainingStep& s,
                         const LayerCounts& here);

// Communication inside the microbatch, per layer (Korthikanti et al.; Megatron-LM): TP/SP and EP on the critical
// path but for what the profile's frameworks overlap, CP's ring passes behind the attention kernel, FSDP's
// layer-by-layer gathers behind the neighbouring layer's compute. Full times and exposed times per layer.
struct LayerComms {
  double tp_attention = 0, tp_dense = 0, tp_moe = 0, ep = 0, cp = 0, fsdp = 0;
  double tp_exposed_dense = 0, tp_exposed_moe = 0, tp_exposed_no_mlp = 0;
  double ep_exposed = 0, cp_exposed = 0, fsdp_exposed = 0;

  // What `layers` leave exposed.
  double exposed_in(const LayerCounts& layers) const;
};
LayerComms layer_comms(const Calibrated& c, const TrainingStep& s, const LayerShape& shape, const StageWork& work,
                       const ChipWeights& weights);

// The stage that paces a microbatch and one microbatch's time on it.
struct StagePace {
  LayerCounts layers;
  double with_head = 0;  // 1 where the last stage, with the head and MTP modules, paces
  double work_per_mb_s = 0, overhead_per_mb_s = 0, exposed_per_mb_s = 0;
  double stage_mb_s = 0;  // the three above
  double sum(const StageWork& work, double WorkTime::*field) const { return work.sum(layers, field); }
};
StagePace stage_pace(const Calibrated& c, const TrainingStep& s, const StageWork& work, const LayerComms& comms);

// The schedule's bubble at the pacing stage's time, and the activations and gradients sent between stages.
struct PipelineCost {
  PipelinePassTimes passes;  // one microbatch through the pacing stage, split as the bubble splits it
  double bubble_s = 0, send_s = 0;
};
PipelineCost pipeline_cost(const Calibrated& c, const TrainingStep& s, const LayerShape& shape, const StageWork& work,
                           const StagePace& pace);

// Once per step, after the last microbatch's backward: the gradient reductions over DP, ZeRO-1/2 over FSDP, and
// DCN, with what of each is exposed.
struct GradientReductions {
  double dp = 0, dp_exposed = 0;
  double zero12 = 0, zero12_exposed = 0;
  double dcn = 0, dcn_exposed = 0;
};
GradientReductions gradient_reductions(const Calibrated& c, const TrainingStep& s, const StageWork& work,
                                       const ChipWeights& weights);

// Adam's update, memory-bound (scaling-book/transformers, training memory).
double optimizer_s(const Calibrated& c, const TrainingStep& s, const ChipWeights& weights);

}  // namespace scalescope::calibrated
