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

// False when the arguments have errors (the diagnostics say which).
bool read_serving_args(const QueryContext& ctx, JsonReader& args, Diagnostics& diagnostics, ServingArgs& out);

}  // namespace scalescope
