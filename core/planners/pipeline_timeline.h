// A pipeline schedule played pass by pass: what each stage runs and when, so that a drawing of the schedule is the
// engine's, bubble included. Each schedule runs its published order (the sources are in pipeline_timeline.cpp); the
// timeline's bubble is then the closed form's of pipeline.h, which the tests check schedule by schedule.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "planners/pipeline.h"

namespace scalescope {

// `backward` is a whole backward pass; zero-bubble schedules split it into `input_grad` and a later `weight_grad`.
enum class PipelinePassKind : std::uint8_t { forward, backward, input_grad, weight_grad };
const char* pipeline_pass_name(PipelinePassKind k);

struct PipelinePass {
  int stage = 0;       // the pipeline rank, 0 to S - 1
  int microbatch = 0;  // 0 to m - 1 (DualPipe: the first half enters at the first stage, the second at the last)
  int chunk = 0;       // the model chunk on that stage: the interleaved schedule's 0 to v - 1; DualPipe's two
  PipelinePassKind kind = PipelinePassKind::forward;
  double start_s = 0, end_s = 0;
};

struct PipelineTimeline {
  std::vector<PipelinePass> passes;  // in the order they were laid out; empty when `not_laid_out` says why
  double span_s = 0;                 // from the first pass's start to the last one's end
  double busy_s = 0;                 // one stage's passes added up (every stage does the same work)
  std::string not_laid_out;
  double bubble_s() const { return span_s - busy_s; }
};

// At most this many passes are laid out: a drawing shows a few thousand, and the answer stays small.
constexpr int kMaxTimelinePasses = 4096;

// The schedule of `plan` (its pipeline degree, microbatches and chunks) at `times` per microbatch and stage. Passes
// hand their activations on at once: the timeline is the compute's, as the bubble's closed form is.
PipelineTimeline lay_out_pipeline(const TrainingPlan& plan, const PipelinePassTimes& times);

}  // namespace scalescope
