// A scenario whose mesh is {"lay_out": {plan_mesh's arguments}}: the query runs on the mesh plan_mesh lays its
// degrees out on, with each strategy on the axes plan_mesh gives it (docs/api.md "A mesh the engine lays out"). A
// page then asks for a step and its mesh in one call; the CLI and Python may give degrees instead of axes.
#pragma once
#include <functional>

#include "io/json_reader.h"

namespace scalescope {

// Is `scenario`'s mesh a lay_out request?
bool asks_lay_out(const Json& scenario);

// `scenario` with its mesh laid out: `mesh` becomes plan_mesh's mesh, and query.parallelism's strategies its axes
// (or, where plan_mesh leaves the layout to the query, its degrees). `evaluate` answers the plan_mesh scenario.
// Where no mesh comes of it, the diagnostics say why (at /mesh/lay_out, plan_mesh's own paths under it) and the
// scenario is returned as it was.
Json lay_out_mesh(const Json& scenario, const std::function<Json(const Json&)>& evaluate, Diagnostics& d);

// `scenario` on the mesh of plan_mesh's result `plan` (which has one): what lay_out_mesh answers, for a caller that
// asked plan_mesh itself.
Json on_planned_mesh(const Json& scenario, const Json& plan);

}  // namespace scalescope
