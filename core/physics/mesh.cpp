#include "physics/mesh.h"

#include <algorithm>

#include "io/text.h"
#include "physics/layout.h"

namespace scalescope {

int Mesh::find(const std::string& name) const {
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (axes[i].name == name) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> Mesh::names() const {
  std::vector<std::string> out;
  for (const auto& a : axes) out.push_back(a.name);
  return out;
}

Mesh parse_mesh(const Json& node, const std::string& path, const Hardware& hw, Diagnostics& d) {
  Mesh mesh;
  JsonReader r(node, path, d);
  if (!r.ok_object()) return mesh;
  std::vector<int> shape;
  if (const Json* a = r.array("shape", true)) {
    if (a->empty() || a->size() > kMaxMeshAxes)
      add_diagnostic(d, r.path_of("shape"), "wrong_length", "'shape' must list 1 to 6 axis sizes");
    else
      for (std::size_t i = 0; i < a->size(); ++i)
        shape.push_back(static_cast<int>(
            read_integer_value((*a)[i], json_pointer_child(r.path_of("shape"), i), 1, kMaxMeshAxisChips, d)
                .value_or(1)));
  }
  std::vector<std::string> names;
  if (const Json* a = r.array("axis_names", false)) {
    for (std::size_t i = 0; i < a->size(); ++i) {
      const Json& v = (*a)[i];
      if (!v.is_string() || v.get<std::string>().empty())
        add_diagnostic(d, json_pointer_child(r.path_of("axis_names"), i), "wrong_type",
                       "axis names are non-empty strings");
      else if (v.get<std::string>().size() > kMaxStringBytes)  // docs/api.md Limits: any text the engine reads
        add_diagnostic(d, json_pointer_child(r.path_of("axis_names"), i), "too_large",
                       "an axis name is " + std::to_string(v.get<std::string>().size()) + " bytes long; the limit is " +
                           std::to_string(kMaxStringBytes));
      names.push_back(v.is_string() ? v.get<std::string>() : "?");
    }
    if (names.size() != shape.size())
      add_diagnostic(d, r.path_of("axis_names"), "wrong_length", "'axis_names' must name every axis of 'shape'");
  }
  for (std::size_t i = names.size(); i < shape.size(); ++i) names.push_back(kDefaultAxisNames[i]);
  mesh.slices = static_cast<double>(r.integer("slices", false, 1, 1 << 20).value_or(1));
  const std::string slice_axis = r.string("slice_axis_name", false).value_or("DCN");
  const Json* wrap_override = r.array("wraparound", false);
  r.finish();

  mesh.chips_per_slice = 1;
  for (int v : shape) mesh.chips_per_slice *= v;
  if (hw.kind == ChipKind::tpu) {
    std::array<int, kMaxTorusDims> torus{1, 1, 1};
    for (std::size_t i = 0; i < std::min<std::size_t>(shape.size(), kMaxTorusDims); ++i) torus[i] = shape[i];
    mesh.tpu = describe_tpu_slice(hw, torus, static_cast<int>(shape.size()), r.path_of("shape"), d);
  }
  for (std::size_t i = 0; i < shape.size(); ++i) {
    MeshAxis axis{names[i], shape[i], false, false};
    if (hw.kind == ChipKind::tpu && i < kMaxTorusDims) axis.wraps = mesh.tpu.wraps[i];
    if (wrap_override && i < wrap_override->size()) {
      const Json& w = (*wrap_override)[i];
      if (w.is_boolean())
        axis.wraps = w.get<bool>();
      else
        add_diagnostic(d, json_pointer_child(r.path_of("wraparound"), i), "wrong_type",
                       "wraparound entries are true or false");
    }
    mesh.axes.push_back(axis);
  }
  if (wrap_override && wrap_override->size() != shape.size())
    add_diagnostic(d, r.path_of("wraparound"), "wrong_length",
                   "'wraparound' must give true/false for every axis of 'shape'");
  if (wrap_override && hw.kind == ChipKind::gpu)
    add_diagnostic(d, r.path_of("wraparound"), "not_applicable",
                   "GPUs have no torus: 'wraparound' applies to TPUs only");
  if (hw.kind == ChipKind::gpu && mesh.slices > 1)
    add_diagnostic(
        d, r.path_of("slices"), "not_applicable",
        "GPU clusters join nodes through the scale-out network: put every GPU in 'shape' instead of 'slices'");
  if (mesh.slices > 1) mesh.axes.push_back(MeshAxis{slice_axis, static_cast<int>(mesh.slices), false, true});
  for (std::size_t i = 0; i < mesh.axes.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (mesh.axes[i].name == mesh.axes[j].name)
        add_diagnostic(d, r.path_of("axis_names"), "duplicate_axis",
                       "mesh axis name " + quote(mesh.axes[i].name) + " is used twice");
  mesh.chips = mesh.chips_per_slice * mesh.slices;
  if (mesh.chips > kMaxMeshChips)
    add_diagnostic(d, r.path_of("shape"), "too_large", "the mesh holds more than 100 million chips");
  return mesh;
}

CollectiveCost mesh_collective(const Hardware& hw, const Mesh& mesh, Collective op, double bytes, const int* axes,
                               int n_axes, const CollectiveOptions& o) {
  AxisGroup group;
  for (int i = 0; i < n_axes; ++i) {
    const MeshAxis& a = mesh.axes[axes[i]];
    if (a.dcn)
      return dcn_collective(op, bytes, a.size, mesh.chips_per_slice, hw.dcn_unidir_bytes_per_s_per_chip,
                            o.traffic_frac);
    add_axis(group, mesh, axes[i]);
  }
  return group_collective(hw, mesh, group, op, bytes, o);
}

}  // namespace scalescope
