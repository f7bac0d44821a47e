// Queries about where chips sit: a TPU slice or GPU cluster, and point-to-point transfers.
#include "physics/topology.h"

#include <algorithm>

#include "queries/query.h"

namespace scalescope {

namespace {

Json tpu_slice_json(const Hardware& hw, const TpuSlice& s) {
  Json shape = Json::array(), wraps = Json::array();
  for (int i = 0; i < s.dims; ++i) {
    shape.push_back(s.shape[i]);
    wraps.push_back(s.wraps[i]);
  }
  return {{"shape", shape},
          {"wraparound", wraps},
          {"chips", s.chips},
          {"hosts", s.hosts},
          {"cores", s.cores},
          {"peak_bf16_flops_per_s", s.peak_flops_per_s},
          {"hbm_capacity_bytes", s.hbm_capacity_bytes},
          {"hbm_bandwidth_bytes_per_s", s.hbm_bandwidth_bytes_per_s},
          {"dcn_unidir_bytes_per_s", s.dcn_unidir_bytes_per_s},
          {"ici_link_unidir_bytes_per_s", hw.ici.link_unidir_bytes_per_s},
          {"max_hops", s.max_hops}};
}

Json gpu_cluster_json(const Hardware& hw, const GpuCluster& c) {
  Json levels = Json::array();
  auto level_name = [&](int i) {
    return i == 0 ? std::string("scale_up")
           : i - 1 < static_cast<int>(hw.scale_out.fat_tree_level_names.size())
               ? hw.scale_out.fat_tree_level_names[i - 1]
               : "level " + std::to_string(i);
  };
  for (int i = 0; i < c.levels; ++i) {
    const GpuLevel& lv = c.level[i];
    levels.push_back({{"name", level_name(i)},
                      {"gpus_per_child", lv.gpus_below},
                      {"children_per_parent", lv.children_per_parent},
                      {"gpus_per_parent", lv.capacity_gpus},
                      {"child_egress_unidir_bytes_per_s", lv.gpus_below * lv.gpu_unidir_bytes_per_s}});
    if (lv.children_per_parent > 1) levels.back()["allgather_bytes_per_s"] = lv.allgather_bytes_per_s();
  }
  const GpuDomainBandwidth nvlink = describe_gpu_domain(hw);
  Json domain{{"gpu_egress_unidir_bytes_per_s", nvlink.gpu_egress_unidir_bytes_per_s},
              {"aggregate_unidir_bytes_per_s", nvlink.aggregate_unidir_bytes_per_s},
              {"bisection_bidir_bytes_per_s", nvlink.bisection_bidir_bytes_per_s}};
  if (nvlink.switch_capacity_unidir_bytes_per_s > 0) {  // the preset describes its switches
    domain["switch_capacity_unidir_bytes_per_s"] = nvlink.switch_capacity_unidir_bytes_per_s;
    domain["limited_by"] = nvlink.limited_by_switches ? "switches" : "gpus";
  }
  Json out{{"gpus", c.gpus},
           {"domains", c.domains},
           {"gpus_per_domain", hw.scale_up.domain_gpus},
           {"scale_up_domain", domain},
           {"domain_egress_unidir_bytes_per_s", c.domain_egress_unidir_bytes_per_s},
           {"peak_bf16_flops_per_s", c.gpus * hw.peak(Dtype::bf16)},
           {"hbm_capacity_bytes", c.gpus * hw.hbm_capacity_bytes},
           {"levels", levels}};
  if (const int slowest = c.allgather_limiting_level(); slowest >= 0) {
    out["allgather_bytes_per_s"] = c.level[slowest].allgather_bytes_per_s();
    out["allgather_limited_by"] = level_name(slowest);
  }
  return out;
}

}  // namespace

Json run_topology(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const Hardware& hw = *ctx.hw;
  if (hw.kind == ChipKind::gpu) {
    const double gpus = ctx.mesh ? ctx.mesh->chips : args.number("gpus", true).value_or(1);
    return gpu_cluster_json(hw, describe_gpu_cluster(hw, gpus));
  }
  if (!ctx.mesh) {
    add_diagnostic(d, "/mesh", "missing_key",
                   "a TPU topology query needs 'mesh' with the slice shape, e.g. {\"shape\": [4, 4]}");
    return {};
  }
  Json out = tpu_slice_json(hw, ctx.mesh->tpu);
  out["slices"] = ctx.mesh->slices;
  out["total_chips"] = ctx.mesh->chips;
  return out;
}

Json run_transfer(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const Hardware& hw = *ctx.hw;
  const double bytes = args.number("bytes", true).value_or(0);
  const auto ports_arg = args.number("ports", false);
  double ports = ports_arg.value_or(1);
  const auto link = args.choice("link", false, {"ici", "pcie", "dcn", "hbm", "scale_up", "scale_out"}).value_or("ici");
  const auto hops_arg = args.number("hops", false);
  double hops = hops_arg.value_or(0);
  const Json* from = args.array("from", false);
  const Json* to = args.array("to", false);
  if (from || to) {
    const std::string where = args.path_of(from ? "from" : "to");
    if (!from || !to)
      add_diagnostic(d, where, "missing_key", "give both 'from' and 'to' chip coordinates");
    else if (hw.kind != ChipKind::tpu || !ctx.mesh)
      add_diagnostic(d, where, "not_applicable", "'from'/'to' are chip coordinates on a TPU mesh; give 'hops' instead");
    else if (hops_arg)
      add_diagnostic(d, args.path_of("hops"), "conflicting", "give either 'hops' or 'from'/'to', not both");
    else {
      // Coordinates name one chip of the slice: one entry per mesh axis, each inside the axis.
      std::array<int, kMaxTorusDims> a{}, b{};
      const TpuSlice& slice = ctx.mesh->tpu;
      auto read = [&](const Json& coords, const char* key, std::array<int, kMaxTorusDims>& out) {
        const std::size_t axes = ctx.mesh->axes.size() - (ctx.mesh->slices > 1 ? 1 : 0);
        if (coords.size() != axes) {
          add_diagnostic(d, args.path_of(key), "wrong_length",
                         "'" + std::string(key) + "' needs one coordinate per mesh axis");
          return;
        }
        for (std::size_t i = 0; i < axes && i < kMaxTorusDims; ++i)
          if (auto v =
                  read_integer_value(coords[i], json_pointer_child(args.path_of(key), i), 0, slice.shape[i] - 1, d))
            out[i] = static_cast<int>(*v);
      };
      read(*from, "from", a);
      read(*to, "to", b);
      hops = tpu_hops(slice, a, b);
      // scaling-book/tpus, Question 5: a route changing several axes splits the bytes over its disjoint shortest paths,
      // unless told.
      if (!ports_arg) ports = std::max(1, tpu_route_ports(slice, a, b));
    }
  }
  double w = 0, latency = 0;
  if (link == "ici" || link == "scale_up") {
    if (hw.kind == ChipKind::tpu) {
      w = hw.ici.link_unidir_bytes_per_s;
      latency = hw.ici.hop_latency_s;
    } else {
      w = hw.scale_up.gpu_unidir_bytes_per_s;
    }
  } else if (link == "pcie")
    w = hw.host_pcie_unidir_bytes_per_s;
  else if (link == "hbm")
    w = hw.hbm_bandwidth_bytes_per_s;
  else if (link == "dcn")
    w = hw.dcn_unidir_bytes_per_s_per_chip;
  else if (link == "scale_out")
    w = hw.scale_out.nic_unidir_bytes_per_s_per_gpu;
  if (w <= 0) {
    add_diagnostic(d, args.path_of("link"), "unknown_for_chip", hw.name + " has no '" + link + "' bandwidth");
    return {};
  }
  // scaling-book/tpus, ICI transfers: bytes / (ports x one-way bandwidth) + hops x per-hop latency. From a chip to
  // itself nothing crosses a link: no time at all (issue 22).
  const bool same_chip = (from && to) && hops == 0;
  const double time =
      same_chip ? 0.0 : tpu_transfer_s(bytes, static_cast<int>(hops), static_cast<int>(ports), w, latency);
  return {{"time_s", time},
          {"bandwidth_s", same_chip ? 0.0 : bytes / (ports * w)},
          {"latency_s", hops * latency},
          {"hops", hops},
          {"link_unidir_bytes_per_s", w},
          {"ports", ports}};
}

}  // namespace scalescope
