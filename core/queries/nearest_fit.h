// The `nearest_fit` query (docs/api.md): the scenario nearest to a training_step or serving question that runs,
// fits in HBM and warns of nothing. It moves, in this order and only as far as it must: the degrees (plan_mesh's
// nearest), the recomputation, the batch (halvings), the model (the largest of `models` that fits), and last, for a
// training question on chips too few to train any of them, one serving replica over all of them. A page's link asks
// it once, instead of keeping the search and the engine's rules itself (issue 39).
#pragma once
#include <functional>

#include "io/json_reader.h"

namespace scalescope {

// Is `scenario` a nearest_fit question? It is answered on whole scenarios, before any spec is resolved: the
// candidates it asks differ in model and mesh.
bool asks_nearest_fit(const Json& scenario);

// The result object, with `evaluate` answering each candidate scenario. Argument errors, and the question's own
// errors (at its paths under /query/query), go to `d`.
Json run_nearest_fit(const Json& scenario, const std::function<Json(const Json&)>& evaluate, Diagnostics& d);

}  // namespace scalescope
