#include "queries/plan_reader.h"

#include <algorithm>

#include "io/text.h"

namespace scalescope {

int find_mesh_axis(const Json& name, const std::string& path, const Mesh& mesh, Diagnostics& d) {
  const int axis = name.is_string() ? mesh.find(name.get<std::string>()) : -1;
  if (axis < 0)
    add_diagnostic(d, path, "unknown_mesh_axis",
                   "unknown mesh axis" + (name.is_string() ? " " + quote(name.get<std::string>()) : std::string()) +
                       "; mesh axes: " + join_choices(mesh.names()));
  return axis;
}

void read_axis_group(JsonReader& r, const char* key, const Mesh& mesh, AxisGroup& group, std::vector<int>& used,
                     Diagnostics& d) {
  const Json* list = r.array(key, false);
  if (!list) return;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string path = json_pointer_child(r.path_of(key), i);
    const int axis = find_mesh_axis((*list)[i], path, mesh, d);
    if (axis < 0) continue;
    if (std::find(used.begin(), used.end(), axis) != used.end()) {
      add_diagnostic(d, path, "axis_reused", "mesh axis " + quote(mesh.axes[axis].name) + " already carries another strategy");
      continue;
    }
    used.push_back(axis);
    add_axis(group, mesh, axis);
  }
}

void check_all_axes_used(const Mesh& mesh, const std::vector<int>& used, const std::string& path, Diagnostics& d) {
  for (std::size_t i = 0; i < mesh.axes.size(); ++i)
    if (mesh.axes[i].size > 1 && std::find(used.begin(), used.end(), static_cast<int>(i)) == used.end())
      add_diagnostic(d, path, "axis_unused",
                     "mesh axis " + quote(mesh.axes[i].name) + " (" + std::to_string(mesh.axes[i].size) +
                         ") carries no strategy; give it to data, fsdp, tensor, pipeline, expert or context");
}

Efficiency read_efficiency(JsonReader& args, Diagnostics& d) {
  Efficiency e;
  if (const Json* node = args.object("efficiency", false)) {
    JsonReader r(*node, args.path_of("efficiency"), d);
    e.flops_frac = r.number("flops_frac", false).value_or(1.0);
    e.hbm_frac = r.number("hbm_frac", false).value_or(1.0);
    e.network_frac = r.number("network_frac", false).value_or(1.0);
    r.finish();
  }
  return e;
}

}  // namespace scalescope
