// Pipeline parallelism beside the step (jax-ml.github.io/scaling-book/training gives no closed form; the schedules' own
// papers do): which layers the busiest stage holds, the bubble each schedule leaves, and what it keeps in memory.
#pragma once
#include <array>

#include "planners/training.h"
#include "specs/layer_pattern.h"

namespace scalescope {

// Model chunks per stage: the interleaved schedule's v, DualPipeV's two (a V of 2S stages on S devices), else one.
double chunks_per_stage(const TrainingPlan& plan);

// The layers of the stage that weighs most by `weight` (per layer kind: FLOPs, or seconds): S stages of c chunks
// each, a chunk ceil(L / (S c)) layers (the last ones shorter), chunk j on stage j mod S. A deeper pipeline than
// kMaxStagesScanned is taken as evenly mixed.
constexpr double kMaxStagesScanned = 512;
LayerCounts busiest_stage(const LayerPattern& pattern, double stages, double chunks,
                          const std::array<double, kLayerKinds>& weight);
// The layers of stage `stage` (0 to S - 1) under the same split: its chunks j = stage, stage + S, ...
LayerCounts stage_layers(const LayerPattern& pattern, double stages, double chunks, double stage);

// The bubble as a fraction of the step for m microbatches on S stages (book fidelity: every microbatch's forward,
// input-gradient and weight-gradient passes F = W = B/2, as 6ND splits them): GPipe and 1F1B (S - 1)(F + B), the
// interleaved schedule (S - 1)(F + B)/v, ZB-H1 (S - 1)(F + B - 2W), DualPipe (S/2 - 1)(F&B + B - 3W), DualPipeV
// (S - 1)(F&B + B - 3W) on chunks of half a stage, F&B taken as F + B (the pair overlaps communication, not compute).
double bubble_fraction(const TrainingPlan& plan);

// One microbatch through the whole of one stage's layers, in seconds: the forward pass, the backward pass (input and
// weight gradients, recompute included) and the weight gradients' part of it, which zero-bubble schedules split off.
struct PipelinePassTimes {
  double forward_s = 0, backward_s = 0, weight_grad_s = 0;
};

// The same bubble in seconds from one microbatch's passes on the busiest stage.
double bubble_s(const TrainingPlan& plan, const PipelinePassTimes& passes);

// The book step's passes, at the split bubble_fraction assumes (F = W = B/2, as 6ND splits them): one microbatch's
// share of the step's compute, `compute_s` over `microbatches`.
PipelinePassTimes book_pipeline_passes(double compute_s, double microbatches);

}  // namespace scalescope
