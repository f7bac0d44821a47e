// The dispatch of an MoE layer's token copies to their experts' ranks, and the combine back (one direction each),
// by where the expert-parallel group sits: inside one NVLink domain, across domains through the scale-out network,
// or on a TPU torus (jax-ml.github.io/scaling-book/gpus AllToAll; DeepSeek-V3 §3.2.2; DeepEP). A token routed to k of E
// experts over N ranks sends its copies to their ranks; balanced routing spreads them evenly.
//   all_to_all:   every copy travels on its own (Megatron's alltoall dispatcher): (per_domain - 1)/N of them over
//                 NVLink, (N - per_domain)/N over the scale-out network;
//   hierarchical: one copy per destination domain crosses the scale-out network and one per destination GPU
//                 crosses NVLink (DeepEP's node-deduplicated internode kernels, HybridEP), so a token bound for k
//                 experts on M domains sends (M - 1)(1 - (1 - 1/M)^k) copies out of its domain.
// Allocation-free.
#pragma once
#include "physics/layout.h"

namespace scalescope {

enum class DispatchKind { all_to_all, hierarchical };

struct DispatchCost {
  double scale_up_bytes = 0, scale_out_bytes = 0;  // one rank's bytes over NVLink / ICI and out of its domain
  double scale_up_s = 0, scale_out_s = 0;          // at the links' peaks (ICI: the torus AllToAll,
                                                   // scaling-book/sharding)
  double ranks_per_domain = 1, domains = 1;
};

// Parallel folding's expert-parallel group: the expert axis's pieces and the TP ranks' pieces the experts do not
// split over (Megatron-Core; the caller folds only when the experts' TP is below TP).
AxisGroup folded_expert_group(const Mesh& mesh, const AxisGroup& expert, const AxisGroup& tensor);

// Expected distinct values among k uniform draws from n (with replacement): n (1 - (1 - 1/n)^k).
double expected_distinct(double k, double n);

// One rank dispatching `tokens` tokens of `bytes_per_token` bytes, `k` copies each, over the expert-parallel
// group `group` of `ranks` members (its pieces place it; `ranks` may exceed the group's own degree when TP ranks
// fold into it).
DispatchCost expert_dispatch_cost(const Hardware& hw, const Mesh& mesh, const AxisGroup& group, double ranks,
                                  double tokens, double k, double bytes_per_token, DispatchKind kind);

// The exchange as links achieve it: the NVLink (or ICI) and scale-out parts run at once, each at its achieved share
// of the peak, plus one software latency (physics/efficiency.h's achieved_collective_s, for two links).
double achieved_dispatch_s(const DispatchCost& c, double fast_link_frac, double slow_link_frac, double latency_s);

}  // namespace scalescope
