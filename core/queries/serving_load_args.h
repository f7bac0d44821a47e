// A serving query's `load` (issue 35): the benchmark's closed-loop clients, the serving engine's fitted runtime,
// the interactivity frontier's concurrencies and a disaggregated prefill pool, read and answered
// (planners/serving_load.h).
#pragma once
#include <memory>
#include <vector>

#include "planners/serving_load.h"
#include "queries/query.h"
#include "queries/serving_args.h"

namespace scalescope {

struct LoadArgs {
  bool given = false;
  ServingLoadInput in;
  ServingBackend backend;             // default: the kernels' step as it is
  std::vector<double> concurrencies;  // the interactivity frontier's points
  // Disaggregated: a prefill worker's chips and split (same chip and model), owned here for the query's life.
  std::unique_ptr<Mesh> prefill_mesh;
  std::unique_ptr<ServingInput> prefill_in;
};

// Reads `load` beside the serving query's arguments (its lengths; its replica, whose dtypes and chip the prefill
// pool shares).
void read_load(const QueryContext& ctx, JsonReader& args, const ServingArgs& serving, LoadArgs& out,
               Diagnostics& diagnostics);

// The steady state of the query's load at `concurrency` (its prefill pool, if any, priced at the replica's
// fidelity), for `backend`: the load's own, or the kernels' step as it is where the fidelity has no runtime.
ServingLoad serve_load_args(const LoadArgs& load, const ServingModel& model, const ServingBackend& backend,
                            double concurrency);

// The steady state, its runtime, the prefill pool and the frontier. `model` is the decode replica at the query's
// fidelity; a replica with no room for one sequence warns at `path`.
Json load_json(const LoadArgs& load, const ServingModel& model, Diagnostics& diagnostics, const std::string& path);

}  // namespace scalescope
