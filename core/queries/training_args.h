// Reading a training query's arguments into a TrainingInput: shared by training_step, plan_search and the
// calibration queries (which read each published run's scenario once and evaluate it many times).
#pragma once
#include "planners/training.h"
#include "queries/query.h"

namespace scalescope {

// What training_step and plan_search share: batch, sequence, precision, remat, efficiency, cost (no parallelism).
TrainingInput read_training_input(const QueryContext& ctx, JsonReader& args, Diagnostics& diagnostics);

// A training_step query's arguments with its parallelism, checked (check_training_plan); false when the plan
// cannot run (the diagnostics say why).
bool read_training_step_args(const QueryContext& ctx, JsonReader& args, Diagnostics& diagnostics, TrainingInput& in);

}  // namespace scalescope
