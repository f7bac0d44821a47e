#include "physics/expert_dispatch.h"

#include <algorithm>
#include <cmath>

namespace scalescope {

AxisGroup folded_expert_group(const Mesh& mesh, const AxisGroup& expert, const AxisGroup& tensor) {
  AxisGroup g = expert;
  for (int i = 0; i < tensor.count && g.count < kMaxGroupPieces; ++i) add_piece(g, mesh, tensor.pieces[i]);
  return g;
}

double expected_distinct(double k, double n) {
  if (n <= 1) return std::min(1.0, k);
  return n * (1.0 - std::pow(1.0 - 1.0 / n, k));
}

DispatchCost expert_dispatch_cost(const Hardware& hw, const Mesh& mesh, const AxisGroup& group, double ranks,
                                  double tokens, double k, double bytes_per_token, DispatchKind kind) {
  DispatchCost c;
  if (ranks <= 1 || tokens <= 0) return c;
  const double copies = tokens * k;
  if (hw.kind == ChipKind::tpu) {
    // The torus AllToAll of the group's whole array (V = ranks x this rank's copies), scaling-book/sharding's Aug-2025
    // ND form.
    const CollectiveCost a2a =
        group_collective(hw, mesh, group, Collective::all_to_all, copies * bytes_per_token * ranks);
    c.scale_up_bytes = copies * bytes_per_token * (ranks - 1.0) / ranks;
    c.scale_up_s = a2a.time_s;
    c.ranks_per_domain = ranks;
    return c;
  }
  // Members spread evenly over the GPUs the group spans (the last mesh axis innermost).
  const double span = std::max(group.gpu_span, ranks);
  const double domain = hw.scale_up.domain_gpus;
  c.ranks_per_domain = span <= domain ? ranks : std::max(1.0, ranks * domain / span);
  c.domains = ranks / c.ranks_per_domain;
  const double g = c.ranks_per_domain, n = ranks, m = c.domains;
  if (kind == DispatchKind::all_to_all) {
    c.scale_up_bytes = copies * bytes_per_token * (g - 1.0) / n;
    c.scale_out_bytes = copies * bytes_per_token * (n - g) / n;
  } else {
    // Per token: one copy into each other destination domain, one per destination GPU (itself excepted).
    c.scale_out_bytes = tokens * bytes_per_token * (m - 1.0) * (1.0 - std::pow(1.0 - 1.0 / m, k));
    c.scale_up_bytes = tokens * bytes_per_token * expected_distinct(k, n) * (g - 1.0) / g;
  }
  c.scale_up_s = c.scale_up_bytes / hw.scale_up.gpu_unidir_bytes_per_s;
  c.scale_out_s = hw.scale_out.nic_unidir_bytes_per_s_per_gpu > 0
                      ? c.scale_out_bytes / hw.scale_out.nic_unidir_bytes_per_s_per_gpu
                      : 0.0;
  return c;
}

double achieved_dispatch_s(const DispatchCost& c, double fast_link_frac, double slow_link_frac, double latency_s) {
  const double t = std::max(c.scale_up_s / fast_link_frac, c.scale_out_s / slow_link_frac);
  return t > 0 ? t + latency_s : 0.0;
}

}  // namespace scalescope
