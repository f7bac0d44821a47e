// Which parallelism degrees a model can run with on a chip, and the nearest that runs (the `plan_mesh` query: the
// explorer's slider stops, its fixed chip count, and links that cannot run as given). The rules are the planners'
// own: a training plan's setting_problems (training_checks.cpp), a serving replica's serving_plan_problems
// (serving_checks.cpp), and the mesh of planners/degree_mesh.h.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "planners/degree_mesh.h"
#include "planners/training.h"
#include "specs/model.h"

namespace scalescope {

// The largest degree a strategy takes (the readers' bound on a degree given as a number).
inline constexpr std::int64_t kMaxPlanDegree = 1 << 24;

struct DegreeQuestion {
  const Hardware* hw = nullptr;
  const ModelConfig* model = nullptr;
  bool serving = false;  // a serving replica: tensor and expert only, in one slice, on whole axes
  std::array<std::int64_t, kLayoutStrategies> degrees{1, 1, 1, 1, 1, 1};  // per slice, TrainingPlan's order
  std::int64_t slices = 1;
  int dcn_strategy = 0;    // data (0) or fsdp (1)
  std::int64_t chips = 0;  // > 0: a fixed chip count; the balancing strategy takes what the others leave
  // The settings a model's splits depend on.
  PipelineSchedule schedule = PipelineSchedule::one_f_one_b;
  double virtual_stages = 1;
  double expert_tensor = 0;  // the experts' TP (0: the TP degree)
  double seq_len = 0;        // > 0: CP must divide it
  double batch_tokens = 0;   // > 0 with seq_len: the nearest runnable batch is whole sequences
};

// A training plan for `gpus` GPUs given as a count, as the summary and Python default to it: TP inside one NVLink
// domain (the GPUs chapter: TP beyond a node is rarely worth it) at the largest degree that divides the count, the
// domain and the heads; FSDP takes the rest. 64 H100s train as TP 8 x FSDP 8, not one 64-way TP group (issue 40).
struct GpuCountPlan {
  int tensor = 1, fsdp = 1;
};
GpuCountPlan default_gpu_count_plan(const Hardware& hw, const ModelConfig* model, int gpus);

// The strategy a fixed chip count sets: TP for a serving replica; in training FSDP, or DP when only DP is on.
int balancing_strategy(const DegreeQuestion& q);

// The chips the degrees other than `skip` and the balancing one ask for, times the slices: a fixed chip count is a
// multiple of it.
double chips_unit(const DegreeQuestion& q, int skip = -1);

// Why the model does not split `strategy` ways when it is at `degree` (PlanProblem bits, only those the strategy
// decides; 0: it splits).
unsigned split_problems(const DegreeQuestion& q, int strategy, std::int64_t degree);
// Every strategy's, at the degrees as they are.
unsigned split_problems(const DegreeQuestion& q);
// Every strategy's in words (as training_step and serving word them), at the paths of the query's `parallelism`
// under `query_path`.
void describe_split_problems(const DegreeQuestion& q, const std::string& query_path, Diagnostics& diagnostics);

// Sets the balancing degree to chips / chips_unit. False (and nothing changed) when the count does not split.
bool balance_chips(DegreeQuestion& q);
// balance_chips, and why a fixed chip count cannot be applied in words ("" when it was): it does not split into the
// other degrees, or it sets a balancing degree the model does not split into (q unchanged then).
std::string chips_problem(DegreeQuestion& q);

struct DegreeOptions {
  std::int64_t up_to = 0;  // 0: not asked
  bool powers_of_two = false;
};
// The degrees up to `options.up_to` (1, 2, 4, ... with powers_of_two) the model splits `strategy` into; with a fixed
// chip count, only those that leave a whole number of chips to the balancing degree.
std::vector<std::int64_t> valid_degrees(const DegreeQuestion& q, int strategy, const DegreeOptions& options);

struct DegreeChange {
  std::string path;  // the query's key that changed (/query/parallelism/fsdp, /query/chips, /query/batch_tokens)
  double from = 0, to = 0;
  bool dropped = false;  // the key is no longer set (a fixed chip count that had to go)
  std::string reason;
};
// Whether the question runs as plan_mesh answers it: a fixed chip count splits, the degrees lay out on the chip and
// the model splits into them (every problem the planners would refuse them for).
bool runs(const DegreeQuestion& q);

// Moves `q` to the nearest question that runs and says what changed, in order: every strategy the model does not
// split into goes to the nearest degree it does (by ratio; the smaller on a tie); a fixed chip count the degrees
// cannot split is dropped; the balancing degree shrinks by its smallest factor until the mesh lays out on the chip
// (a fixed chip count is then dropped); the batch goes to the nearest whole number of sequences.
std::vector<DegreeChange> nearest_runnable(DegreeQuestion& q);

// The mesh input of the question's degrees.
DegreeMeshInput degree_mesh_input(const DegreeQuestion& q);

}  // namespace scalescope
