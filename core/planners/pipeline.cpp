#include "planners/pipeline.h"

#include <algorithm>
#include <cmath>

namespace scalescope {

const char* pipeline_schedule_name(PipelineSchedule s) {
  switch (s) {
    case PipelineSchedule::gpipe:
      return "gpipe";
    case PipelineSchedule::one_f_one_b:
      return "1f1b";
    case PipelineSchedule::interleaved:
      return "interleaved";
    case PipelineSchedule::zero_bubble:
      return "zero_bubble";
    case PipelineSchedule::dualpipe:
      return "dualpipe";
    case PipelineSchedule::dualpipe_v:
      return "dualpipe_v";
  }
  return "1f1b";
}

const std::vector<std::string>& pipeline_schedule_choices() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (PipelineSchedule s : kPipelineSchedules) out.emplace_back(pipeline_schedule_name(s));
    return out;
  }();
  return names;
}

// deepseek-ai/DualPipe, "Pipeline Bubbles and Memory Usage Comparison": DualPipe 2x parameters per device.
double schedule_parameter_copies(PipelineSchedule s) { return s == PipelineSchedule::dualpipe ? 2.0 : 1.0; }

// GPipe holds every microbatch's activations; 1F1B-like schedules at most one per stage (PP); DualPipe PP + 1
// chunks; DualPipeV 2S + 1 chunks of half a stage (deepseek-ai/DualPipe's table). The interleaved schedule's first
// stage runs 2 (S - 1) + (v - 1) S warm-up chunks before its first backward (Narayanan et al. 2021, §2.2; NVIDIA/
// Megatron-LM megatron/core/pipeline_parallel/schedules.py @ d98e8a6, num_warmup_microbatches), then holds one more:
// v S + S - 1 chunks of 1/v of its layers, S (1 + (S - 1)/(v S)) microbatches' worth (Korthikanti et al. 2022,
// §4.2.3: the interleaved schedule's 1 + (p - 1)/(p m) over 1F1B).
double schedule_in_flight_microbatches(PipelineSchedule s, double stages, double microbatches, double virtual_stages) {
  switch (s) {
    case PipelineSchedule::gpipe:
      return microbatches;
    case PipelineSchedule::dualpipe:
      return std::min(microbatches, stages + 1.0);
    case PipelineSchedule::dualpipe_v:
      return std::min(microbatches, stages + 0.5);
    case PipelineSchedule::interleaved:
      return std::min(microbatches, stages + (stages - 1.0) / std::max(1.0, virtual_stages));
    default:
      return std::min(microbatches, stages);
  }
}

// The last stage's warm-up: none under 1F1B and zero bubble; (v - 1) S chunks under the interleaved schedule (the
// same num_warmup_microbatches at rank S - 1), then one more.
double schedule_last_stage_in_flight(PipelineSchedule s, double stages, double microbatches, double virtual_stages) {
  if (stages <= 1) return 1.0;
  switch (s) {
    case PipelineSchedule::one_f_one_b:
    case PipelineSchedule::zero_bubble:
      return 1.0;
    case PipelineSchedule::interleaved: {
      const double v = std::max(1.0, virtual_stages);
      return std::min(microbatches, ((v - 1.0) * stages + 1.0) / v);
    }
    default:
      return schedule_in_flight_microbatches(s, stages, microbatches, virtual_stages);
  }
}

double chunks_per_stage(const TrainingPlan& p) {
  if (p.schedule == PipelineSchedule::interleaved) return p.virtual_stages;
  if (p.schedule == PipelineSchedule::dualpipe_v) return 2.0;
  return 1.0;
}

LayerCounts busiest_stage(const LayerPattern& pattern, double stages, double chunks,
                          const std::array<double, kLayerKinds>& weight) {
  const double layers = pattern.layers;
  const double chunk = std::ceil(layers / (stages * chunks));
  if (stages > kMaxStagesScanned || pattern.runs.size() <= 1) {
    // One kind of layer (or too many stages to scan): the busiest stage holds c full chunks of the mix.
    return pattern.all.scaled(std::min(layers, chunks * chunk) / layers);
  }
  // Weigh every chunk in one walk along the runs (chunk j on stage j mod S), then count the heaviest stage's layers.
  std::array<double, static_cast<std::size_t>(kMaxStagesScanned)> stage_weight;
  const auto& runs = pattern.runs;
  std::size_t r = 0;
  const auto stage_count = static_cast<std::size_t>(stages);
  std::fill_n(stage_weight.begin(), stage_count, 0.0);
  const auto total_chunks = static_cast<std::size_t>(stages * chunks);
  for (std::size_t j = 0, stage = 0; j < total_chunks; ++j, stage = stage + 1 == stage_count ? 0 : stage + 1) {
    const double a = std::min(static_cast<double>(j) * chunk, layers),
                 b = std::min((static_cast<double>(j) + 1.0) * chunk, layers);
    double w = 0;
    while (r + 1 < runs.size() && runs[r + 1].start <= a) ++r;
    for (std::size_t q = r; q < runs.size() && runs[q].start < b; ++q) {
      const double end = q + 1 < runs.size() ? runs[q + 1].start : layers;
      w += (std::min(b, end) - std::max(a, runs[q].start)) * weight[runs[q].kind];
    }
    stage_weight[stage] += w;
  }
  double best_stage = 0, best_weight = -1;
  for (double s = 0; s < stages; ++s)
    if (stage_weight[static_cast<std::size_t>(s)] > best_weight) {
      best_weight = stage_weight[static_cast<std::size_t>(s)];
      best_stage = s;
    }
  return stage_layers(pattern, stages, chunks, best_stage);
}

LayerCounts stage_layers(const LayerPattern& pattern, double stages, double chunks, double stage) {
  const double layers = pattern.layers;
  const double chunk = std::ceil(layers / (stages * chunks));
  LayerCounts out;
  for (double j = stage; j < stages * chunks; j += stages) {
    const LayerCounts c = pattern.range(std::min(j * chunk, layers), std::min((j + 1.0) * chunk, layers));
    for (int k = 0; k < kLayerKinds; ++k) out.n[k] += c.n[k];
  }
  return out;
}

namespace {

// The bubble in units of one microbatch's F + B on a stage.
double bubble_units(const TrainingPlan& p, double f, double b, double w) {
  const double s = p.pipeline.degree;
  if (s <= 1) return 0;
  switch (p.schedule) {
    case PipelineSchedule::gpipe:
    case PipelineSchedule::one_f_one_b:
      return (s - 1.0) * (f + b);
    case PipelineSchedule::interleaved:
      return (s - 1.0) * (f + b) / p.virtual_stages;
    case PipelineSchedule::zero_bubble:
      return (s - 1.0) * (f + b - 2.0 * w);
    case PipelineSchedule::dualpipe:
      return std::max(0.0, s / 2.0 - 1.0) * (f + b + b - 3.0 * w);
    case PipelineSchedule::dualpipe_v:
      return (s - 1.0) * (f + b + b - 3.0 * w) / 2.0;  // chunks of half a stage
  }
  return 0;
}

}  // namespace

double bubble_fraction(const TrainingPlan& p) {
  const double s = p.pipeline.degree;
  if (s <= 1) return 0;
  // The standard GPipe expression (S - 1)/(v m + S - 1), v = 1 but for the interleaved schedule.
  if (p.schedule == PipelineSchedule::gpipe || p.schedule == PipelineSchedule::one_f_one_b)
    return (s - 1) / (p.microbatches + s - 1);
  if (p.schedule == PipelineSchedule::interleaved) return (s - 1) / (p.virtual_stages * p.microbatches + s - 1);
  // 6ND: F = 2ND, B = 4ND (input and weight gradients, 2ND each), W = 2ND: in units of F + B = 3.
  const double bubble = bubble_units(p, 1.0, 2.0, 1.0) / 3.0;  // microbatch times
  return bubble / (p.microbatches + bubble);
}

PipelinePassTimes book_pipeline_passes(double compute_s, double microbatches) {
  const double stage_microbatch_s = microbatches > 0 ? compute_s / microbatches : 0;
  return {stage_microbatch_s / 3.0, 2.0 * stage_microbatch_s / 3.0, stage_microbatch_s / 3.0};
}

double bubble_s(const TrainingPlan& p, const PipelinePassTimes& passes) {
  return std::max(0.0, bubble_units(p, passes.forward_s, passes.backward_s, passes.weight_grad_s));
}

}  // namespace scalescope
