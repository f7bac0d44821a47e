// Reading a serving query's core arguments (batch, lengths, dtypes, efficiency, parallelism) into a ServingInput,
// checked: shared by the serving query and the calibration queries.
#pragma once
#include "planners/serving.h"
#include "queries/query.h"

namespace scalescope {

struct ServingArgs {
  ServingInput in;
  double batch = 1, prompt_len = 1, generated_len = 1, kv_context_len = 1;
};

// The replica's split over `mesh` (the `parallelism` key of `args`), checked: a decode replica's or a prefill pool's.
void read_serving_parallelism(JsonReader& args, const Mesh& mesh, ServingInput& in, Diagnostics& diagnostics);

// The HBM the engine gives the weights and KV caches (`memory_frac`, or `free_memory_frac`); unset, the
// fidelity's: the book's all of it, the calibrated engines' 0.9 (vLLM's default gpu_memory_utilization; the rest
// holds activations, CUDA graphs and workspaces).
HbmBudget read_hbm_budget(JsonReader& args, Fidelity fidelity, Diagnostics& diagnostics);

// False when the arguments have errors (the diagnostics say which).
bool read_serving_args(const QueryContext& ctx, JsonReader& args, Diagnostics& diagnostics, ServingArgs& out);

}  // namespace scalescope
