// Reading a training query's arguments into a TrainingInput: shared by training_step, plan_search and the
// calibration queries (which read each published run's scenario once and evaluate it many times).
#pragma once
#include <cstdint>

#include "planners/goodput.h"
#include "planners/training.h"
#include "queries/query.h"

namespace scalescope {

// What training_step and plan_search share: batch, sequence, precision, remat, efficiency, cost (no parallelism).
TrainingInput read_training_input(const QueryContext& ctx, JsonReader& args, Diagnostics& diagnostics);

// How a training_step query gave its plan: laid out by the engine from degrees or sub-axes (over `layouts`
// layouts), and whether `microbatch_sequences` set the microbatch count.
struct TrainingPlanForm {
  bool laid_out = false;
  std::int64_t layouts = 1;
  bool microbatch_sizes = false;
};

// A training_step query's arguments with its parallelism (degrees and sub-axes laid out: the layout with the
// fastest book step), checked (check_training_plan); false when the plan cannot run (the diagnostics say why).
bool read_training_step_args(const QueryContext& ctx, JsonReader& args, Diagnostics& diagnostics, TrainingInput& in,
                             TrainingPlanForm* form = nullptr);

// The out_of_hbm warning of a step that does not fit its chip's HBM (training_step's, and each searched plan's).
// At `query_path`: "/query", or "/query/training" in a summary.
void warn_out_of_hbm(const TrainingStep& step, const Hardware& hw, Diagnostics& diagnostics,
                     const std::string& query_path = "/query");

// A training query's `goodput` settings over the chip's defaults (planners/goodput.h); `given` when the query had
// the key (the book's fidelity then includes the block it otherwise leaves out).
struct GoodputAsk {
  bool given = false;
  GoodputSettings settings;
};
GoodputAsk read_goodput_settings(const QueryContext& ctx, JsonReader& args, Diagnostics& diagnostics);
// The result's `goodput` block: expected wall time, interruptions, checkpoints, restarts, cost, sources.
Json goodput_json(const TrainingInput& in, const TrainingStep& step, const GoodputAsk& ask);

}  // namespace scalescope
