#include "physics/collectives.h"

#include <algorithm>
#include <cmath>

namespace scalescope {

namespace {
constexpr std::string_view kNames[] = {"all_gather", "reduce_scatter", "all_reduce", "all_to_all"};

CollectiveCost finish(double bandwidth_s, double latency_s) {
  CollectiveCost c;
  c.bandwidth_s = bandwidth_s;
  c.latency_s = latency_s;
  c.time_s = std::max(bandwidth_s, latency_s);
  c.latency_bound = latency_s > bandwidth_s;
  return c;
}
}  // namespace

std::string_view collective_name(Collective c) { return kNames[static_cast<int>(c)]; }

std::optional<Collective> parse_collective(std::string_view name) {
  for (int i = 0; i < 4; ++i)
    if (kNames[i] == name) return static_cast<Collective>(i);
  return std::nullopt;
}

const char* collective_choices() { return "all_gather, reduce_scatter, all_reduce, all_to_all"; }

namespace {
// One loop for both forms: ring(i) gives the i-th ring (a whole axis is a ring of stride 1).
template <typename RingAt>
CollectiveCost torus_collective(Collective op, double bytes, int n, RingAt ring, double w_uni, double hop_latency_s,
                                double traffic_frac) {
  double bandwidth_sum = 0, hops = 0, devices = 1, widest_axis = 0;
  for (int i = 0; i < n; ++i) {
    const TorusRing r = ring(i);
    const double x = r.size, s = r.stride;
    if (x <= 1) continue;
    devices *= x;
    if (r.wraps) {
      bandwidth_sum += 2.0 * w_uni / s;
      hops += x / 2.0 * s;
      widest_axis = std::max(widest_axis, x * s);
    } else {
      bandwidth_sum += w_uni * x / (x - 1.0) / s;
      hops += (x - 1.0) * s;
      widest_axis = std::max(widest_axis, 2.0 * x * s);  // a line moves AllToAll traffic at half a ring's rate
    }
  }
  if (devices <= 1) return CollectiveCost{};
  const double latency_s = hops * hop_latency_s;
  switch (op) {
    case Collective::all_gather:
    case Collective::reduce_scatter:
      return finish(traffic_frac * bytes / bandwidth_sum, latency_s);
    case Collective::all_reduce:
      return finish(2.0 * traffic_frac * bytes / bandwidth_sum, 2.0 * latency_s);
    case Collective::all_to_all:
      return finish(traffic_frac * bytes * widest_axis / (4.0 * devices * 2.0 * w_uni), latency_s);
  }
  return CollectiveCost{};
}
}  // namespace

CollectiveCost tpu_collective(Collective op, double bytes, const TorusAxis* axes, int n_axes, double w_uni,
                              double hop_latency_s, double traffic_frac) {
  return torus_collective(
      op, bytes, n_axes,
      [&](int i) {
        return TorusRing{axes[i].size, axes[i].wraps, 1};
      },
      w_uni, hop_latency_s, traffic_frac);
}

CollectiveCost tpu_ring_collective(Collective op, double bytes, const TorusRing* rings, int n_rings, double w_uni,
                                   double hop_latency_s, double traffic_frac) {
  return torus_collective(
      op, bytes, n_rings, [&](int i) { return rings[i]; }, w_uni, hop_latency_s, traffic_frac);
}

CollectiveCost dcn_collective(Collective op, double bytes, double slices, double chips_per_slice, double w_chip,
                              double traffic_frac) {
  if (slices <= 1) return CollectiveCost{};
  const double slice_bandwidth = chips_per_slice * w_chip;
  switch (op) {
    case Collective::all_gather:
    case Collective::reduce_scatter:
      return finish(traffic_frac * bytes / slice_bandwidth, 0);
    case Collective::all_reduce:
      return finish(2.0 * traffic_frac * bytes / slice_bandwidth, 0);
    case Collective::all_to_all:
      return finish(traffic_frac * bytes * (slices - 1) / (slices * slices * slice_bandwidth), 0);
  }
  return CollectiveCost{};
}

namespace {
// Members of one group (n members, `stride` GPUs apart) under a subtree of `gpus` consecutive GPUs.
double members_under(double gpus, double stride, double members) {
  return std::min(members, std::max(1.0, gpus / stride));
}
}  // namespace

CollectiveCost gpu_collective(Collective op, double bytes, const Hardware& hw, double members, double inner_stride,
                              bool sharp, double traffic_frac) {
  if (members <= 1) return CollectiveCost{};
  const double y = std::max(1.0, inner_stride);
  const double span = members * y;
  const GpuCluster cluster = describe_gpu_cluster(hw, span);
  const double domain = hw.scale_up.domain_gpus;
  const double in_domain = std::min(members, members_under(domain, y, members));
  const double domains = members / in_domain;
  // NCCL's ring latency (src/graph/tuning.cc): the launch, then a step latency per ring step, the n - 1 steps of an
  // AllGather or ReduceScatter (twice for an AllReduce) of which the domains - 1 between domains pay the
  // network's. An AllToAll exchanges with every peer at once: one step.
  const double ring_steps_s =
      (members - domains) * hw.scale_up.step_latency_s + (domains - 1) * hw.scale_out.step_latency_s;
  const double launch_s = hw.scale_up.launch_latency_s;
  if (op == Collective::all_to_all) {
    // Inside one domain every GPU reaches its peers over its own NVLink: V (n-1)/(n^2 W_GPU). Across M domains
    // (M = the domains one group touches) each domain's egress carries its GPUs' groups: the book's
    // V (M-1)/(M^2 W_node) for a contiguous group, times the groups sharing each domain.
    if (in_domain >= members)
      return finish(traffic_frac * bytes * (members - 1) / (members * members * hw.scale_up.gpu_unidir_bytes_per_s),
                    launch_s + hw.scale_up.step_latency_s);
    const double m = domains;
    return finish(traffic_frac * bytes * domain * (m - 1) / (members * m * cluster.domain_egress_unidir_bytes_per_s),
                  launch_s + hw.scale_out.step_latency_s);
  }
  // Walk the levels the group spans. D_i counts the children of one parent that hold members of one group (the
  // group's own members at level 0, the domains or units it touches above), so (D_i - 1)/D_i is the share of a
  // group's V that must enter a child from outside it.
  double worst_gather = 0, worst_sharp = 0;
  for (int i = 0; i < cluster.levels; ++i) {
    const GpuLevel& lv = cluster.level[i];
    const double children = members_under(lv.capacity_gpus, y, members) / members_under(lv.gpus_below, y, members);
    if (children <= 1) continue;
    const double share = std::max(y, lv.gpus_below) * lv.gpu_unidir_bytes_per_s;
    worst_gather = std::max(worst_gather, (children - 1) / (children * share));
    worst_sharp = std::max(worst_sharp, 1.0 / share);
  }
  const double full = traffic_frac * bytes * y;
  switch (op) {
    case Collective::all_gather:
    case Collective::reduce_scatter:
      return finish(full * worst_gather, launch_s + ring_steps_s);
    // SHARP keeps the ring's latency: NCCL models NVLS apart, and the book gives it no latency of its own.
    case Collective::all_reduce:
      return finish(sharp ? full * worst_sharp : 2.0 * full * worst_gather, launch_s + 2.0 * ring_steps_s);
    case Collective::all_to_all:
      break;
  }
  return CollectiveCost{};
}

double ragged_all_to_all_fraction(double k, double n, bool exact) {
  if (n <= 1) return 1.0;
  return exact ? 1.0 - std::pow((n - 1.0) / n, k) : std::min(k / n, 1.0);
}

}  // namespace scalescope
