// Reads the pieces of a plan that the training and serving queries share: the mesh axes, sub-axes or degree of
// each strategy, efficiency knobs.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "io/json_reader.h"
#include "physics/layout.h"
#include "physics/mesh.h"
#include "planners/training.h"

namespace scalescope {

AxisGroup& plan_group(TrainingPlan& plan, int strategy);
const AxisGroup& plan_group(const TrainingPlan& plan, int strategy);

// How a query gave its strategies. Each strategy is a degree (`"fsdp": 1024`, laid out by the engine), or a list
// of whole mesh axis names (`["X", "Y"]`, the original form) and sub-axes (`{"axis": "Z", "size": 4}`, with
// `"stride"` to pin its place on the axis; without it the engine picks the best order).
struct PlanSpec {
  LayoutRules rules;
  std::array<AxisGroup, kLayoutStrategies> whole{};  // the original form, groups in the order given
  bool whole_axes_only = true;                       // every strategy a list of whole axis names
  std::int64_t layouts = 1;                          // the ways the degrees lie on the mesh, each costed
};

// Reads the six strategy keys of `r` into `spec` (degrees, fixed pieces, whole-axis groups) and checks that they
// tile the mesh: sub-axes that overlap, axes left without a strategy, degrees that do not divide the chips or
// cannot be laid on the mesh are diagnostics naming the valid choices.
PlanSpec read_plan_spec(JsonReader& r, const Mesh& mesh, Diagnostics& d);

// The index of the mesh axis `name` names, or -1 with an unknown_mesh_axis diagnostic listing the mesh's axes.
int find_mesh_axis(const Json& name, const std::string& path, const Mesh& mesh, Diagnostics& d);

// Reads `key` (an array of mesh axis names) into `group`; marks each axis in `used` and reports reuse.
void read_axis_group(JsonReader& r, const char* key, const Mesh& mesh, AxisGroup& group, std::vector<int>& used,
                     Diagnostics& d);

// Every mesh axis must carry some strategy: an unused axis would silently replicate the whole job.
void check_all_axes_used(const Mesh& mesh, const std::vector<int>& used, const std::string& path, Diagnostics& d);

// A group's pieces as the query reads them: whole axes by name, sub-axes as {"axis", "size", "stride"}.
Json group_json(const AxisGroup& group, const Mesh& mesh);
// What each strategy of a plan runs on: its pieces, rings, the bandwidth its AllGather gets.
Json layout_json(const Hardware& hw, const Mesh& mesh, const TrainingPlan& plan);

Efficiency read_efficiency(JsonReader& args, Diagnostics& d);

}  // namespace scalescope
