#include "traces/trace_report.h"

#include <algorithm>
#include <array>
#include <map>

#include "io/format.h"
#include "physics/roofline.h"
#include "traces/op_costs.h"
#include "traces/trace_timeline.h"

namespace scalescope {

std::string hardware_preset_for_device(const std::string& device_name) {
  // Longest names first: "GB200" before "B200", "MI325" before nothing shorter. The A100 40 GB, and variants such
  // as the PG509-200, read as the 80 GB preset (the same peak; 1.6 rather than 2.0 TB/s of HBM).
  static constexpr std::array<std::pair<const char*, const char*>, 11> kByName = {{
      {"GB300", "gb300-nvl72"},
      {"GB200", "gb200-nvl72"},
      {"B300", "b300"},
      {"B200", "b200"},
      {"H200", "h200"},
      {"H800", "h800"},
      {"H100", "h100-sxm"},
      {"A100", "a100-80gb"},
      {"MI355", "mi355x"},
      {"MI325", "mi325x"},
      {"MI300", "mi300x"},
  }};
  for (const auto& [part, preset] : kByName)
    if (device_name.find(part) != std::string::npos) return preset;
  return {};
}

namespace {

constexpr double kUs = 1e-6;
constexpr double kSmallMatmulDim = 128;  // a matrix unit's tile edge (scaling-book/tpus, the 128x128 MXU;
                                         // scaling-book/gpus, Tensor Core tiles)

// What the roofline says one op instance or kernel should take, and why it may not.
struct Price {
  double roofline_us = 0, flops = 0, bytes = 0;
  std::string shape;
  double min_dim = 0;  // matmuls
  bool compute_bound = false;
  double intensity = 0, critical_intensity = 0;
  std::optional<MatmulCost> matmul;  // what a kernel table needs of it
  std::optional<CollectiveBytes> collective;
};

struct Group {
  OpClass op_class = OpClass::other;
  std::string op, kernel, shape;
  long long calls = 0, kernels = 0;  // op instances (a split-K GEMM is one), kernels
  double time_us = 0, priced_time_us = 0, roofline_us = 0, flops = 0, bytes = 0, exposed_us = 0;
  Price last;           // a representative price, for the reason
  bool shaped = false;  // FLOPs and bytes known
  bool priced = false;  // and a roofline time
};

// A matmul's FLOPs and bytes follow from its shapes; its roofline also needs the chip's peak for its dtype
// (roofline_us stays negative without one: the A100 has no fp32 matrix peak, TF32 or not being the caller's choice).
std::optional<Price> price_matmul(const Trace& trace, int op_index, const Hardware* hw) {
  const auto& op = trace.ops[static_cast<std::size_t>(op_index)];
  if (op.shape < 0) return std::nullopt;
  const auto cost = matmul_cost(trace.name_of(op.name), trace.shapes[static_cast<std::size_t>(op.shape)]);
  if (!cost) return std::nullopt;
  Price p;
  p.flops = cost->flops, p.bytes = cost->bytes, p.shape = cost->shape;
  p.min_dim = std::min({cost->m, cost->n, cost->k});
  p.roofline_us = -1;
  p.matmul = cost;
  if (hw && hw->peak(cost->dtype) > 0 && hw->hbm_bandwidth_bytes_per_s > 0) {
    const auto r = roofline(cost->flops, cost->bytes, hw->peak(cost->dtype), hw->hbm_bandwidth_bytes_per_s);
    p.roofline_us = r.lower_bound_s / kUs;
    p.compute_bound = r.compute_bound;
    p.intensity = r.intensity_flops_per_byte, p.critical_intensity = r.critical_intensity_flops_per_byte;
  }
  return p;
}

int world_size_of(const Trace& trace) {
  const auto& info = trace.distributed_info;
  if (!info.is_object()) return 0;
  const auto it = info.find("world_size");
  if (it == info.end() || !it->is_number()) return 0;
  const double n = it->get<double>();
  return n >= 2 && n <= 1e8 ? static_cast<int>(n) : 0;  // a mesh the engine can price
}

std::optional<Price> price_collective(const Trace& trace, const TraceKernel& k, const Hardware& hw) {
  if (hw.kind != ChipKind::gpu) return std::nullopt;  // TPU traces come from XProf, without these records
  std::optional<CollectiveBytes> c;
  if (k.collective >= 0)
    c = collective_bytes(trace.collectives[static_cast<std::size_t>(k.collective)], trace.name_of(k.name));
  if (!c && k.op >= 0) {
    const auto& op = trace.ops[static_cast<std::size_t>(k.op)];
    if (op.shape >= 0)
      c = all_reduce_op_bytes(trace.name_of(op.name), trace.shapes[static_cast<std::size_t>(op.shape)],
                              world_size_of(trace));
  }
  if (!c) return std::nullopt;
  const auto cost = gpu_collective(c->op, c->bytes, hw, c->group_size, 1, hw.scale_up.in_network_reduction);
  if (!(cost.time_s > 0)) return std::nullopt;
  Price p;
  p.roofline_us = cost.time_s / kUs;
  p.bytes = c->bytes;
  p.collective = c;
  p.shape =
      std::string(collective_name(c->op)) + " of " + format_bytes(c->bytes) + " over " + std::to_string(c->group_size);
  return p;
}

std::optional<Price> price_copy(const Trace& trace, const TraceKernel& k, const Hardware& hw) {
  if (k.bytes <= 0) return std::nullopt;
  const std::string& name = trace.name_of(k.name);
  Price p;
  p.bytes = k.bytes;
  p.shape = format_bytes(k.bytes);
  if (k.op_class == OpClass::memset || name.find("DtoD") != std::string::npos) {
    const double moved = k.op_class == OpClass::memset ? k.bytes : 2 * k.bytes;  // a copy reads and writes
    if (hw.hbm_bandwidth_bytes_per_s <= 0) return std::nullopt;
    p.roofline_us = moved / hw.hbm_bandwidth_bytes_per_s / kUs;
  } else if (name.find("HtoD") != std::string::npos || name.find("DtoH") != std::string::npos) {
    if (hw.host_pcie_unidir_bytes_per_s <= 0) return std::nullopt;
    p.roofline_us = k.bytes / hw.host_pcie_unidir_bytes_per_s / kUs;
  } else {
    return std::nullopt;
  }
  return p;
}

std::string percent(double x) { return format_count(100 * x) + "%"; }

Json reason(const Group& g) {
  const double achieved = g.priced_time_us > 0 ? g.roofline_us / g.priced_time_us : 0;
  auto out = [](const char* code, std::string message) { return Json{{"code", code}, {"message", message}}; };
  switch (g.op_class) {
    case OpClass::collective:
      if (g.exposed_us > 0.5 * g.time_us)
        return out("not_overlapped", percent(g.exposed_us / g.time_us) +
                                         " of its time ran with no compute beside it: overlap it with the "
                                         "layer's matmuls, or shard so that less is sent (scaling-book/training)");
      return out("slow_collective", "at " + percent(achieved) + " of the link's bandwidth (scaling-book/gpus, " +
                                        "collectives): small messages pay the launch and per-step latency");
    case OpClass::memcpy:
    case OpClass::memset:
      // Below a megabyte a copy or set is its launch and latency, not its bytes.
      if (g.calls > 0 && g.bytes / static_cast<double>(g.calls) < 1e6)
        return out("tiny_transfer", std::to_string(g.calls) + (g.op_class == OpClass::memset ? " sets" : " copies") +
                                        " of " + format_bytes(g.bytes / static_cast<double>(g.calls)) +
                                        " each: every one pays a launch and a latency for little data; merge them, "
                                        "or keep the data on the device");
      return out("copy", "a copy at " + percent(achieved) + " of its link: keep the data where it is used");
    default:
      break;
  }
  if (g.last.min_dim > 0 && g.last.min_dim < kSmallMatmulDim)
    return out("small_shape", "a dimension of " + format_count(g.last.min_dim) +
                                  " (under 128) leaves the matrix units' tiles part-empty: batch more tokens "
                                  "per matmul, or fuse the small ones (book, Rooflines)");
  if (!g.last.compute_bound)
    return out("memory_bound", "intensity " + format_count(g.last.intensity) + " FLOPs/byte is under the chip's " +
                                   format_count(g.last.critical_intensity) +
                                   ": it waits on HBM; a larger batch per matmul raises it (book, Rooflines)");
  return out("below_peak", "compute-bound, at " + percent(achieved) + " of the chip's peak");
}

Json group_json(const Group& g) {
  Json row{{"class", op_class_name(g.op_class)},
           {"op", g.op.empty() ? Json(nullptr) : Json(g.op)},
           {"kernel", g.kernel.substr(0, 160)},
           {"shape", g.shape.empty() ? Json(nullptr) : Json(g.shape)},
           {"calls", g.calls},
           {"kernels", g.kernels},
           {"time_s", g.time_us * kUs}};
  row["flops"] = g.shaped ? Json(g.flops) : Json(nullptr);
  row["bytes"] = g.shaped ? Json(g.bytes) : Json(nullptr);
  if (g.shaped && g.flops > 0 && g.bytes > 0 && g.priced_time_us > 0) {  // where it sits on the roofline chart
    row["intensity_flops_per_byte"] = g.flops / g.bytes;
    row["achieved_flops_per_s"] = g.flops / (g.priced_time_us * kUs);
  }
  if (g.priced) {
    row["roofline_s"] = g.roofline_us * kUs;
    row["priced_time_s"] = g.priced_time_us * kUs;
    row["achieved_fraction"] = g.priced_time_us > 0 ? g.roofline_us / g.priced_time_us : 0;
    row["lost_s"] = std::max(0.0, g.priced_time_us - g.roofline_us) * kUs;
    row["reason"] = reason(g);
  } else {
    row["roofline_s"] = nullptr;
  }
  if (g.op_class == OpClass::collective) row["exposed_s"] = g.exposed_us * kUs;
  return row;
}

// Every kernel into its group (one op at one shape, one collective at one size, else one kernel name) and its
// class, priced where its shapes or records allow; the priced GEMMs and collectives into the kernel tables.
struct Tally {
  std::map<std::string, Group> groups;
  std::array<Group, kOpClasses.size()> classes;
  double total_us = 0, classified_us = 0, priced_us = 0;
};

Tally tally_kernels(const Trace& trace, const TraceReportOptions& options,
                    const std::vector<DeviceTimeline>& timelines) {
  std::map<int, const DeviceTimeline*> timeline_of;
  for (const auto& t : timelines) timeline_of[t.device] = &t;
  // Matmuls are priced per op instance (a split-K GEMM's kernels share one op's FLOPs), the rest per kernel.
  std::map<int, std::optional<Price>> op_price;
  std::map<int, double> op_time_us;  // a priced matmul op instance's kernels, summed
  Tally tally;
  for (const auto& k : trace.kernels) {
    std::optional<Price> price;
    bool first_of_op = true;
    if (k.op >= 0 && (k.op_class == OpClass::matmul || k.op_class == OpClass::moe)) {
      const auto [it, added] = op_price.try_emplace(k.op);
      if (added) it->second = price_matmul(trace, k.op, options.hardware);
      first_of_op = added;
      price = it->second;
    } else if (options.hardware && k.op_class == OpClass::collective) {
      price = price_collective(trace, k, *options.hardware);
    } else if (options.hardware && (k.op_class == OpClass::memcpy || k.op_class == OpClass::memset)) {
      price = price_copy(trace, k, *options.hardware);
    }
    const bool priced = price && price->roofline_us >= 0;
    const std::string op = k.op >= 0 ? trace.name_of(trace.ops[static_cast<std::size_t>(k.op)].name) : "";
    const std::string key =
        std::string(op_class_name(k.op_class)) + "|" + (price ? op + "|" + price->shape : trace.name_of(k.name));
    Group& g = tally.groups[key];
    if (g.calls == 0 && g.time_us == 0) {
      g.op_class = k.op_class, g.op = op, g.kernel = trace.name_of(k.name);
      if (price) g.shape = price->shape;
    }
    Group& c = tally.classes[static_cast<std::size_t>(k.op_class)];
    for (Group* x : {&g, &c}) {
      x->time_us += k.duration_us;
      ++x->kernels;
      if (first_of_op || !price) ++x->calls;  // an op priced once is one call; an unpriced kernel is its own
      if (price) {
        x->shaped = true;
        if (first_of_op) x->flops += price->flops, x->bytes += price->bytes;
        x->last = *price;
      }
      if (priced) {
        x->priced = true;
        x->priced_time_us += k.duration_us;
        if (first_of_op) x->roofline_us += price->roofline_us;
      }
    }
    if (price && price->matmul) op_time_us[k.op] += k.duration_us;
    if (options.kernel_tables && price && price->collective) {
      const CollectiveBytes& sent = *price->collective;
      if (trace.name_of(k.name).find("nccl") != std::string::npos)
        options.kernel_tables->add_collective(sent.op, sent.group_size, sent.bytes, k.duration_us * kUs);
      else if (sent.op == Collective::all_reduce)
        options.kernel_tables->add_one_shot_all_reduce(sent.group_size, sent.bytes, k.duration_us * kUs);
    }
    if (k.op_class == OpClass::collective) {
      const auto* t = timeline_of[k.device];
      const double exposed = k.duration_us - covered_length(t->compute, k.start_us, k.start_us + k.duration_us);
      g.exposed_us += exposed, c.exposed_us += exposed;
    }
    tally.total_us += k.duration_us;
    if (k.op_class != OpClass::other) tally.classified_us += k.duration_us;
    if (priced) tally.priced_us += k.duration_us;
  }
  if (options.kernel_tables)
    for (const auto& [op, us] : op_time_us) {
      const MatmulCost& m = *op_price[op]->matmul;
      options.kernel_tables->add_gemm(m.dtype, m.batch, m.m, m.n, m.k, us * kUs);
    }
  return tally;
}

Json hardware_json(const TraceReportOptions& options) {
  const Hardware* hw = options.hardware;
  if (!hw) return nullptr;
  const bool has_roof = hw->peak(Dtype::bf16) > 0 && hw->hbm_bandwidth_bytes_per_s > 0;
  return {
      {"id", hw->id},
      {"name", hw->name},
      {"from", options.hardware_from},
      {"peak_bf16_flops_per_s", hw->peak(Dtype::bf16)},
      {"hbm_bandwidth_bytes_per_s", hw->hbm_bandwidth_bytes_per_s},
      {"critical_intensity_flops_per_byte",
       has_roof
           ? Json(
                 roofline(0, 0, hw->peak(Dtype::bf16), hw->hbm_bandwidth_bytes_per_s).critical_intensity_flops_per_byte)
           : Json(nullptr)}};
}

Json distributed_json(const Trace& trace) {
  const Json& info = trace.distributed_info;
  const auto rank = info.is_object() ? info.find("rank") : info.end();
  if (rank == info.end() || !rank->is_number_integer()) return nullptr;
  return {{"rank", *rank}, {"world_size", world_size_of(trace)}};
}

Json device_json(const DeviceTimeline& t) {
  return {{"device", t.device},
          {"window_s", t.window_us * kUs},
          {"busy_s", t.busy_us * kUs},
          {"idle_s", t.idle_us() * kUs},
          {"compute_s", t.compute_us * kUs},
          {"communication_s", t.communication_us * kUs},
          {"exposed_communication_s", t.exposed_communication_us * kUs},
          {"overlapped_communication_s", (t.communication_us - t.exposed_communication_us) * kUs}};
}

Json classes_json(const Tally& tally) {
  Json rows = Json::array();
  for (const auto c : kOpClasses) {
    const Group& g = tally.classes[static_cast<std::size_t>(c)];
    if (g.time_us <= 0) continue;
    rows.push_back(
        {{"class", op_class_name(c)},
         {"time_s", g.time_us * kUs},
         {"share", g.time_us / tally.total_us},
         {"kernels", g.kernels},
         {"priced_time_s", g.priced_time_us * kUs},
         {"roofline_s", g.roofline_us * kUs},
         {"achieved_fraction", g.priced_time_us > 0 ? Json(g.roofline_us / g.priced_time_us) : Json(nullptr)}});
  }
  return rows;
}

// The largest losses: each device's idle time, and the priced groups by the time they lose to their roofline.
Json gaps_json(std::vector<const Group*> groups, const std::vector<DeviceTimeline>& timelines, std::size_t top) {
  auto lost = [](const Group* g) { return g->priced ? g->priced_time_us - g->roofline_us : 0.0; };
  std::sort(groups.begin(), groups.end(), [&](const Group* a, const Group* b) { return lost(a) > lost(b); });
  Json gaps = Json::array();
  for (const auto& t : timelines)
    if (t.idle_us() > 0)
      gaps.push_back({{"class", "idle"},
                      {"device", t.device},
                      {"lost_s", t.idle_us() * kUs},
                      {"reason",
                       {{"code", "idle"},
                        {"message", "no kernel ran for " + percent(t.idle_us() / t.window_us) +
                                        " of the window: the host launched too slowly or waited (a sync, the data "
                                        "loader); CUDA graphs or a larger batch per launch close it"}}}});
  for (std::size_t i = 0; i < groups.size() && i < top && lost(groups[i]) > 0; ++i)
    gaps.push_back(group_json(*groups[i]));
  std::stable_sort(gaps.begin(), gaps.end(),
                   [](const Json& a, const Json& b) { return a["lost_s"].get<double>() > b["lost_s"].get<double>(); });
  if (gaps.size() > top) gaps.erase(gaps.begin() + static_cast<std::ptrdiff_t>(top), gaps.end());
  return gaps;
}

}  // namespace

Json trace_report(const Trace& trace, const TraceReportOptions& options) {
  const auto timelines = device_timelines(trace);
  const Tally tally = tally_kernels(trace, options, timelines);
  const auto top = static_cast<std::size_t>(options.top);
  Json result;
  result["hardware"] = hardware_json(options);
  result["distributed"] = distributed_json(trace);
  result["kernels"] = trace.kernels.size();
  result["cpu_ops"] = trace.ops.size();
  result["kernel_time_s"] = tally.total_us * kUs;
  result["classified_share"] = tally.total_us > 0 ? tally.classified_us / tally.total_us : 0;
  result["priced_share"] = tally.total_us > 0 ? tally.priced_us / tally.total_us : 0;
  Json devices = Json::array(), idle = Json::array();
  for (const auto& t : timelines) {
    devices.push_back(device_json(t));
    for (std::size_t i = 0; i < t.idle_gaps.size() && i < top; ++i)
      idle.push_back({{"device", t.device},
                      {"start_s", (t.idle_gaps[i].first - t.busy.front().first) * kUs},
                      {"duration_s", (t.idle_gaps[i].second - t.idle_gaps[i].first) * kUs}});
  }
  result["devices"] = std::move(devices);
  result["idle_gaps"] = std::move(idle);
  result["classes"] = classes_json(tally);
  std::vector<const Group*> groups;
  for (const auto& [key, g] : tally.groups) groups.push_back(&g);
  std::sort(groups.begin(), groups.end(), [](const Group* a, const Group* b) { return a->time_us > b->time_us; });
  Json ops = Json::array();
  for (std::size_t i = 0; i < groups.size() && i < top; ++i) ops.push_back(group_json(*groups[i]));
  result["ops"] = std::move(ops);
  result["gaps"] = gaps_json(std::move(groups), timelines, top);
  return result;
}

}  // namespace scalescope
