// Queries on a mesh: one collective, an array's memory under a sharding, a sharded matmul's plans.
#include <algorithm>

#include "io/format.h"
#include "io/limits.h"
#include "io/text.h"
#include "physics/sharded_matmul.h"
#include "queries/plan_reader.h"
#include "queries/query.h"

namespace scalescope {

namespace {

Json cost_json(const CollectiveCost& c) {
  return {{"time_s", c.time_s},
          {"bandwidth_s", c.bandwidth_s},
          {"latency_s", c.latency_s},
          {"regime", c.latency_bound ? "latency" : "bandwidth"}};
}

CollectiveOptions read_options(const Hardware& hw, JsonReader& args, Diagnostics& d) {
  CollectiveOptions o;
  o.in_network_reduction = args.boolean("in_network_reduction", false).value_or(false);
  if (o.in_network_reduction && (hw.kind != ChipKind::gpu || !hw.scale_up.in_network_reduction))
    add_diagnostic(d, args.path_of("in_network_reduction"), "unknown_for_chip",
                   hw.name + " has no in-network reduction (SHARP)");
  return o;
}

DimSizes read_dims(JsonReader& args, Diagnostics& d) {
  DimSizes sizes;
  const Json* dims = args.object("dims", true);
  if (!dims) return sizes;
  if (dims->size() > kMaxObjectKeys) {
    add_diagnostic(
        d, args.path_of("dims"), "too_large",
        "'dims' names " + std::to_string(dims->size()) + " dimensions; the limit is " + std::to_string(kMaxObjectKeys));
    return sizes;
  }
  for (auto it = dims->begin(); it != dims->end(); ++it)
    // A bad entry has its diagnostic already; keep a placeholder so it is not also reported missing.
    sizes[it.key()] =
        read_number_value(it.value(), json_pointer_child(args.path_of("dims"), it.key()), "dims", d).value_or(1);
  return sizes;
}

Json axes_json(const std::vector<int>& axes, const Mesh& mesh) {
  Json out = Json::array();
  for (int a : axes) out.push_back(mesh.axes[a].name);
  return out;
}

}  // namespace

Json run_collective(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const Hardware& hw = *ctx.hw;
  const Mesh& mesh = *ctx.mesh;
  const auto op_name = args.choice("op", true, {"all_gather", "reduce_scatter", "all_reduce", "all_to_all"});
  const double bytes = args.number("bytes", true).value_or(0);
  CollectiveOptions options = read_options(hw, args, d);
  std::vector<int> axes;
  if (const Json* list = args.array("axes", true)) {
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string p = json_pointer_child(args.path_of("axes"), i);
      const int idx = find_mesh_axis((*list)[i], p, mesh, d);
      if (idx < 0) continue;
      if (std::find(axes.begin(), axes.end(), idx) != axes.end())
        add_diagnostic(d, p, "axis_reused", "mesh axis " + quote(mesh.axes[idx].name) + " is listed twice");
      else
        axes.push_back(idx);
    }
    if (list->empty()) add_diagnostic(d, args.path_of("axes"), "empty", "list at least one mesh axis");
  }
  const bool any_dcn = std::any_of(axes.begin(), axes.end(), [&](int a) { return mesh.axes[a].dcn; });
  if (any_dcn && axes.size() > 1)
    add_diagnostic(d, args.path_of("axes"), "mixed_dcn",
                   "a collective over DCN runs on its own; ask for the ICI axes and the DCN axis separately");
  // scaling-book/gpus, ragged AllToAll: each token goes to k of the N shards.
  if (const Json* ragged = args.object("ragged", false)) {
    JsonReader r(*ragged, args.path_of("ragged"), d);
    const double k = r.number("active", true).value_or(1);
    const bool exact = r.choice("model", false, {"approx", "exact"}).value_or("approx") == "exact";
    r.finish();
    double n = 1;
    for (int a : axes) n *= mesh.axes[a].size;
    options.traffic_frac = ragged_all_to_all_fraction(k, n, exact);
    if (op_name && *op_name != "all_to_all")
      add_diagnostic(d, args.path_of("ragged"), "not_applicable", "'ragged' applies to all_to_all only");
  }
  if (!op_name || has_errors(d)) return {};
  const Collective op = *parse_collective(*op_name);
  const CollectiveCost cost = mesh_collective(hw, mesh, op, bytes, axes.data(), static_cast<int>(axes.size()), options);
  double devices = 1;
  for (int a : axes) devices *= mesh.axes[a].size;
  Json out = cost_json(cost);
  out["op"] = *op_name;
  out["axes"] = axes_json(axes, mesh);
  out["devices_in_group"] = devices;
  out["bytes"] = bytes;
  out["bytes_per_device_shard"] = bytes / devices;
  out["traffic_fraction"] = options.traffic_frac;
  out["effective_bandwidth_bytes_per_s"] = cost.bandwidth_s > 0 ? bytes / cost.bandwidth_s : 0.0;
  return out;
}

Json run_array(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const Mesh& mesh = *ctx.mesh;
  const auto text = args.string("array", true);
  const Dtype dtype = args.dtype("dtype", false).value_or(Dtype::bf16);
  const DimSizes sizes = read_dims(args, d);
  if (!text) return {};
  const auto array = parse_sharded_array(*text, mesh, args.path_of("array"), d);
  if (!array) return {};
  check_array_sizes(*array, sizes, mesh, args.path_of("dims"), d);
  std::vector<std::string> dim_names;
  for (const auto& dim : array->dims) dim_names.push_back(dim.name);
  for (const auto& [name, size] : sizes)
    if (!array->dim(name))
      add_diagnostic(d, json_pointer_child(args.path_of("dims"), name), "unknown_dim",
                     "the array has no dimension " + quote(name) + "; its dimensions: " + join_choices(dim_names));
  if (has_errors(d)) return {};
  const ArrayMemory m = array_memory(*array, sizes, dtype, mesh);
  const double one_copy = m.elements * bytes_per_element(dtype);
  return {{"array", format_sharded_array(*array, mesh)},
          {"local_shape", m.local_shape},
          {"bytes_per_device", m.bytes_per_device},
          {"bytes_one_copy", one_copy},
          {"bytes_all_devices", m.total_bytes_all_devices},
          {"replication", m.replication},
          {"hbm_load_s", m.bytes_per_device / ctx.hw->hbm_bandwidth_bytes_per_s}};
}

Json run_sharded_matmul(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const Hardware& hw = *ctx.hw;
  const auto expression = args.string("expression", true);
  const Dtype dtype = args.dtype("dtype", false).value_or(Dtype::bf16);
  const DimSizes sizes = read_dims(args, d);
  const CollectiveOptions options = read_options(hw, args, d);
  peak_for(hw, dtype, args.path_of("dtype"), d);
  if (!expression || has_errors(d)) return {};
  const auto m = analyse_sharded_matmul(*expression, sizes, dtype, hw, *ctx.mesh, options, args.path_of("expression"),
                                        args.path_of("dims"), d);
  if (!m) return {};
  Json plans = Json::array();
  for (const auto& p : m->plans) {
    if (p.hbm_bytes_per_device > hw.hbm_capacity_bytes)
      add_warning(d, args.path_of("expression"), "exceeds_hbm",
                  "plan '" + p.name + "' holds " + format_bytes(p.hbm_bytes_per_device) +
                      " per chip (its local operands and result), more than the " +
                      format_bytes(hw.hbm_capacity_bytes) + " of HBM");
    Json steps = Json::array();
    for (const auto& s : p.steps) {
      Json step = cost_json(s.cost);
      step["op"] = std::string(collective_name(s.op));
      step["array"] = s.array;
      step["before"] = s.before;
      step["after"] = s.after;
      if (s.interleaved) step["interleaved"] = true;
      step["axes"] = axes_json(s.axes, *ctx.mesh);
      step["bytes"] = s.bytes;
      steps.push_back(step);
    }
    plans.push_back({{"name", p.name},
                     {"local_matmul", p.local_op},
                     {"output", p.output},
                     {"steps", steps},
                     {"flops_per_device", p.flops_per_device},
                     {"compute_s", p.compute_s},
                     {"hbm_bytes_per_device", p.hbm_bytes_per_device},
                     {"memory_s", p.memory_s},
                     {"intensity_flops_per_byte", p.flops_per_device / p.hbm_bytes_per_device},
                     {"comms_s", p.comms_s},
                     {"lower_bound_s", p.lower_bound_s},
                     {"upper_bound_s", p.upper_bound_s},
                     {"bound", p.bound}});
  }
  return {{"case", m->book_case},
          {"description", m->description},
          {"contracting_dims", m->contracting_dims},
          {"batch_dims", m->batch_dims},
          {"total_flops", m->total_flops},
          // scaling-book/transformers, Question 2: mesh axes that shard neither input replicate the work: FLOPs summed
          // over every device.
          {"total_flops_all_devices", m->plans.front().flops_per_device * ctx.mesh->chips},
          {"best", plans.front()},
          {"plans", plans}};
}

}  // namespace scalescope
