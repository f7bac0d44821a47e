#include "queries/plan_reader.h"

#include <algorithm>
#include <cmath>

#include "io/format.h"
#include "io/limits.h"
#include "io/text.h"

namespace scalescope {

AxisGroup& plan_group(TrainingPlan& p, int s) {
  AxisGroup* groups[kLayoutStrategies] = {&p.data, &p.fsdp, &p.tensor, &p.pipeline, &p.expert, &p.context};
  return *groups[s];
}
const AxisGroup& plan_group(const TrainingPlan& p, int s) { return plan_group(const_cast<TrainingPlan&>(p), s); }

namespace {

template <typename T>
std::string list_of(const std::vector<T>& values, std::size_t most = 40) {
  std::string out;
  for (std::size_t i = 0; i < values.size() && i < most; ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  if (values.size() > most) out += ", ...";
  return out;
}

std::string shape_text(const Mesh& mesh) {
  std::string out;
  for (const MeshAxis& a : mesh.axes)
    if (!a.dcn) out += (out.empty() ? "" : "x") + std::to_string(a.size);
  if (mesh.slices > 1) out += " (x " + format_count(mesh.slices) + " slices)";
  return out;
}

struct SubAxis {
  int axis = -1, size = 1, stride = 0;  // stride 0: the engine picks the place
  bool whole_name = false;
};

// One entry of a strategy's list: "X" (a whole axis) or {"axis": "X", "size": 4, "stride": 1}.
SubAxis read_sub_axis(const Json& v, const std::string& path, const Mesh& mesh, Diagnostics& d) {
  SubAxis out;
  const Json* name = &v;
  if (v.is_string()) {
    out.whole_name = true;
  } else if (v.is_object()) {
    JsonReader r(v, path, d);
    name = r.value("axis", true);
    out.size = static_cast<int>(r.integer("size", true, 1, 1 << 20).value_or(1));
    out.stride = static_cast<int>(r.integer("stride", false, 1, 1 << 20).value_or(0));
    r.finish();
    if (!name) return SubAxis{};
  } else {
    add_diagnostic(d, path, "wrong_type",
                   "a mesh axis is a name (\"X\") or a sub-axis ({\"axis\": \"X\", \"size\": 4})");
    return out;
  }
  const std::string axis_path = out.whole_name ? path : json_pointer_child(path, "axis");
  out.axis = find_mesh_axis(*name, axis_path, mesh, d);
  if (out.axis < 0) return out;
  const int n = mesh.axes[out.axis].size;
  const std::string& axis_name = mesh.axes[out.axis].name;
  if (out.whole_name) {
    out.size = n;
    out.stride = 1;
  } else if (n % out.size != 0) {
    const std::string size_path = json_pointer_child(path, "size");
    add_diagnostic(d, size_path, "not_divisible",
                   "a sub-axis of " + quote(axis_name) + " (" + std::to_string(n) +
                       ") must divide it; sizes that fit: " + list_of(divisors_of(n)));
    out.axis = -1;
  } else if (out.stride > 0 && n % (out.size * out.stride) != 0) {
    const std::string stride_path = json_pointer_child(path, "stride");
    add_diagnostic(d, stride_path, "not_divisible",
                   "a sub-axis of size " + std::to_string(out.size) + " at stride " + std::to_string(out.stride) +
                       " does not fit in " + quote(axis_name) + " (" + std::to_string(n) +
                       "): size x stride must divide it");
    out.axis = -1;
  }
  return out;
}

// Sub-axes with pinned strides on one axis occupy nested factors [stride, stride x size): they must not overlap.
void check_pinned_overlaps(const Mesh& mesh, const LayoutRules& rules, const std::string& path, Diagnostics& d) {
  for (std::size_t a = 0; a < mesh.axes.size() && a < static_cast<std::size_t>(kMaxLayoutAxes); ++a)
    for (int s = 0; s < kLayoutStrategies; ++s)
      for (int t = s + 1; t < kLayoutStrategies; ++t) {
        const std::int64_t s1 = rules.fixed_stride[a][s], g1 = rules.fixed_size[a][s];
        const std::int64_t s2 = rules.fixed_stride[a][t], g2 = rules.fixed_size[a][t];
        if (s1 <= 0 || s2 <= 0 || g1 <= 1 || g2 <= 1) continue;
        if (!(s1 * g1 <= s2 || s2 * g2 <= s1))
          add_diagnostic(d, path, "overlapping_sub_axes",
                         "the sub-axes of " + quote(mesh.axes[a].name) + " given to " + kStrategyKeys[s] + " and " +
                             kStrategyKeys[t] + " overlap (size " + std::to_string(g1) + " at stride " +
                             std::to_string(s1) + ", size " + std::to_string(g2) + " at stride " + std::to_string(s2) +
                             ")");
      }
}

// What reading the strategies found so far: how far each mesh axis is tiled, the whole axes named, whether any
// strategy was a degree, and whether any was wrong (with its diagnostic).
struct StrategyReading {
  std::array<std::int64_t, kMaxLayoutAxes> taken{};
  std::vector<int> whole_used;
  bool any_degree = false, bad = false;
};

// Strategy `s` given as a degree (`key`: 8), which must divide the mesh's chips.
void read_strategy_degree(const Json& v, int s, const std::string& path, const Mesh& mesh, PlanSpec& spec,
                          StrategyReading& read, Diagnostics& d) {
  const char* key = kStrategyKeys[s];
  spec.whole_axes_only = false;
  const auto degree = read_integer_value(v, path, 1, 1 << 24, d);
  if (!degree) {
    read.bad = true;
    return;
  }
  read.any_degree = true;
  spec.rules.degrees[s] = static_cast<int>(*degree);
  if (std::fmod(mesh.chips, static_cast<double>(*degree)) != 0) {
    read.bad = true;
    add_diagnostic(
        d, path, "not_divisible",
        std::string(key) + " " + std::to_string(*degree) + " does not divide the mesh's " + format_count(mesh.chips) +
            " chips; degrees that divide them: " + list_of(divisors_of(static_cast<std::int64_t>(mesh.chips))));
  }
}

// Strategy `s` given as mesh axes or sub-axes (`key`: ["X", {"axis": "Y", "size": 4}]): each pinned in the rules,
// none reused, the sub-axes of an axis tiling it.
void read_strategy_axes(const Json& v, int s, const std::string& path, const Mesh& mesh, PlanSpec& spec,
                        StrategyReading& read, Diagnostics& d) {
  const char* key = kStrategyKeys[s];
  LayoutRules& rules = spec.rules;
  rules.explicit_strategies |= 1u << s;
  std::int64_t degree = 1;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string epath = json_pointer_child(path, i);
    const SubAxis x = read_sub_axis(v[i], epath, mesh, d);
    if (!x.whole_name) spec.whole_axes_only = false;
    if (x.axis < 0 || x.axis >= kMaxLayoutAxes) {
      read.bad = true;
      continue;
    }
    const MeshAxis& axis = mesh.axes[x.axis];
    if (x.whole_name && std::find(read.whole_used.begin(), read.whole_used.end(), x.axis) != read.whole_used.end()) {
      read.bad = true;
      add_diagnostic(d, epath, "axis_reused", "mesh axis " + quote(axis.name) + " already carries another strategy");
      continue;
    }
    if (rules.fixed_size[x.axis][s] > 0) {
      read.bad = true;
      add_diagnostic(d, epath, "axis_reused",
                     std::string(key) + " takes " + quote(axis.name) + " twice; give one sub-axis per mesh axis");
      continue;
    }
    if (x.whole_name) read.whole_used.push_back(x.axis);
    read.taken[x.axis] *= x.size;
    if (axis.size % read.taken[x.axis] != 0) {
      read.bad = true;
      add_diagnostic(d, epath, x.whole_name ? "axis_reused" : "overlapping_sub_axes",
                     "the sub-axes of " + quote(axis.name) + " overlap: their sizes multiply to " +
                         std::to_string(read.taken[x.axis]) + ", which does not tile its " + std::to_string(axis.size) +
                         " positions");
      continue;
    }
    rules.fixed_size[x.axis][s] = x.size;
    rules.fixed_stride[x.axis][s] = x.stride;
    degree *= x.size;
    add_piece(spec.whole[s], mesh, AxisPiece{x.axis, x.size, 1});
  }
  rules.degrees[s] = static_cast<int>(degree);
}

// Sub-axes alone must tile every mesh axis: each one left partly unused is named.
void check_axes_tiled(const Mesh& mesh, const StrategyReading& read, const std::string& par, Diagnostics& d) {
  for (std::size_t a = 0; a < mesh.axes.size(); ++a) {
    if (mesh.axes[a].size <= 1 || read.taken[a] == mesh.axes[a].size) continue;
    add_diagnostic(d, par, "axis_unused",
                   "mesh axis " + quote(mesh.axes[a].name) + " (" + std::to_string(mesh.axes[a].size) + ") is tiled " +
                       std::to_string(read.taken[a]) +
                       "-way by the sub-axes given; the rest carries no strategy (give " +
                       std::to_string(mesh.axes[a].size / read.taken[a]) + " more ways to a strategy)");
  }
}

// The degrees must multiply to the mesh's chips; false (with a diagnostic) when they do not.
bool degrees_cover_mesh(const Mesh& mesh, const LayoutRules& rules, const std::string& par, Diagnostics& d) {
  double product = 1;
  for (int v : rules.degrees) product *= v;
  if (product == mesh.chips) return true;
  add_diagnostic(d, par, "mesh_mismatch",
                 "the strategies' degrees multiply to " + format_count(product) + " but the mesh has " +
                     format_count(mesh.chips) + " chips (" + shape_text(mesh) +
                     "): strategies not given have degree 1");
  return false;
}

// No layout holds the degrees: the strategies whose degree cannot lie on the mesh are named, or, if each fits
// alone, the degrees together.
void explain_no_layout(JsonReader& r, const Mesh& mesh, const LayoutRules& rules, const std::string& par,
                       Diagnostics& d) {
  const std::vector<int> fit = degrees_that_fit(mesh, false);
  bool named = false;
  for (int s = 0; s < kLayoutStrategies; ++s) {
    if (rules.explicit_strategies & (1u << s) || rules.degrees[s] <= 1) continue;
    const bool fits_dcn = (rules.dcn_strategies >> s) & 1u;
    const std::vector<int> choices = degrees_that_fit(mesh, fits_dcn);
    if (std::find(choices.begin(), choices.end(), rules.degrees[s]) == choices.end()) {
      named = true;
      add_diagnostic(d, r.path_of(kStrategyKeys[s]), "does_not_fit",
                     std::string(kStrategyKeys[s]) + " " + std::to_string(rules.degrees[s]) +
                         " cannot be laid on the " + shape_text(mesh) +
                         " mesh (a degree is a product of factors of its axes" + (fits_dcn ? "" : ", ICI only") +
                         "); degrees that fit: " + list_of(choices));
    }
  }
  if (!named)
    add_diagnostic(d, par, "does_not_fit",
                   "each degree fits the " + shape_text(mesh) + " mesh alone, but not all of them together beside " +
                       "the sub-axes given (a strategy takes one factor per axis; tensor and context stay off DCN); " +
                       "degrees that fit one strategy: " + list_of(fit));
}

}  // namespace

PlanSpec read_plan_spec(JsonReader& r, const Mesh& mesh, Diagnostics& d) {
  PlanSpec spec;
  StrategyReading read;
  read.taken.fill(1);
  const std::string par = r.path();
  for (int s = 0; s < kLayoutStrategies; ++s) {
    const Json* v = r.value(kStrategyKeys[s], false);
    if (!v) continue;
    const std::string path = r.path_of(kStrategyKeys[s]);
    if (v->is_number()) {
      read_strategy_degree(*v, s, path, mesh, spec, read, d);
    } else if (v->is_array()) {
      read_strategy_axes(*v, s, path, mesh, spec, read, d);
    } else {
      read.bad = true;
      add_diagnostic(
          d, path, "wrong_type",
          "a strategy is a degree (a number) or a list of mesh axes (\"X\", or {\"axis\": \"X\", \"size\": 4})");
    }
  }
  // The DCN axis between slices carries strategies whose traffic is once per step or per layer's weights, never
  // tensor or context parallelism (checked with the plan).
  spec.rules.dcn_strategies = (1u << 0) | (1u << 1) | (1u << 3) | (1u << 4);
  check_pinned_overlaps(mesh, spec.rules, par, d);
  if (spec.whole_axes_only && !read.any_degree) {  // the original form, checked as it always was
    check_all_axes_used(mesh, read.whole_used, par, d);
    return spec;
  }
  if (read.bad || has_errors(d)) return spec;
  if (!read.any_degree) {
    check_axes_tiled(mesh, read, par, d);
    return spec;
  }
  if (!degrees_cover_mesh(mesh, spec.rules, par, d)) return spec;
  // Every layout of the degrees is costed to pick the fastest (planners/plan_layout.h): at most kMaxLayoutsPerPlan.
  const std::int64_t layouts = count_layouts(mesh, spec.rules, kMaxLayoutsPerPlan);
  if (layouts > kMaxLayoutsPerPlan) {
    add_diagnostic(
        d, par, "too_large",
        "these degrees lie on the " + shape_text(mesh) + " mesh in more than " +
            format_count(static_cast<double>(kMaxLayoutsPerPlan)) +
            " ways, each costed to pick the "
            "fastest (the limit); name the mesh axes each strategy takes (sub-axes) or give the mesh fewer axes");
    return spec;
  }
  spec.layouts = layouts;
  if (layouts == 0) explain_no_layout(r, mesh, spec.rules, par, d);
  return spec;
}

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
      add_diagnostic(d, path, "axis_reused",
                     "mesh axis " + quote(mesh.axes[axis].name) + " already carries another strategy");
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

Json group_json(const AxisGroup& g, const Mesh& mesh) {
  Json out = Json::array();
  for (int i = 0; i < g.count; ++i) {
    const AxisPiece& p = g.pieces[i];
    const MeshAxis& a = mesh.axes[p.axis];
    if (p.size == a.size && p.stride == 1)
      out.push_back(a.name);
    else
      out.push_back({{"axis", a.name}, {"size", p.size}, {"stride", p.stride}});
  }
  return out;
}

Json layout_json(const Hardware& hw, const Mesh& mesh, const TrainingPlan& plan) {
  Json out = Json::object();
  for (int s = 0; s < kLayoutStrategies; ++s) {
    const AxisGroup& g = plan_group(plan, s);
    if (g.degree <= 1) continue;
    Json pieces = Json::array();
    int ring = 0;
    for (int i = 0; i < g.count; ++i) {
      const AxisPiece& p = g.pieces[i];
      const MeshAxis& a = mesh.axes[p.axis];
      Json piece{{"axis", a.name}, {"size", p.size}, {"stride", p.stride}, {"axis_size", a.size}};
      if (a.dcn)
        piece["dcn"] = true;
      else if (hw.kind == ChipKind::tpu) {
        piece["ring"] = g.rings[ring].wraps;  // closes through the wraparound
        piece["links_shared_by"] = g.rings[ring].stride;
      }
      if (!a.dcn) ++ring;
      pieces.push_back(piece);
    }
    Json entry{{"degree", g.degree}, {"pieces", pieces}, {"ici_axes", g.ici_axes}, {"dcn_slices", g.dcn_degree}};
    const double probe = 1e9;
    const CollectiveCost ag = group_collective(hw, mesh, g, Collective::all_gather, probe);
    entry["all_gather_bandwidth_bytes_per_s"] = ag.bandwidth_s > 0 ? probe / ag.bandwidth_s : 0.0;
    if (hw.kind == ChipKind::gpu) {
      entry["gpus_spanned"] = g.gpu_span;
      entry["nvlink_domains_spanned"] = std::ceil(g.gpu_span / hw.scale_up.domain_gpus);
    }
    out[kStrategyKeys[s]] = entry;
  }
  return out;
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
