// Collective costs on a TPU torus (jax-ml.github.io/scaling-book/sharding), GPU NVLink and fat tree (.../gpus) and DCN
// (.../training). `bytes` is always V, the full (gathered, or not yet reduced) array as one collective group sees it;
// if the array is also sharded over other mesh axes, V is one shard of those (scaling-book/sharding). Allocation-free.
#pragma once
#include <optional>
#include <string_view>

#include "physics/topology.h"

namespace scalescope {

enum class Collective { all_gather, reduce_scatter, all_reduce, all_to_all };
std::string_view collective_name(Collective c);
std::optional<Collective> parse_collective(std::string_view name);
const char* collective_choices();

struct CollectiveCost {
  double bandwidth_s = 0;  // bandwidth-bound term
  double latency_s = 0;    // hop-latency term (0 where the book gives none)
  double time_s = 0;       // max of the two (scaling-book/sharding, latency-bound regime)
  bool latency_bound = false;
};

struct TorusAxis {
  int size = 1;
  bool wraps = false;
};

// scaling-book/sharding, collective costs on a TPU torus, over one or several axes. AllGather/ReduceScatter: V / sum of
// per-axis bandwidths, where a wrapped axis gives W_ici = 2 W_uni and an axis without wraparound W_uni * X/(X-1) (the
// book's (X-1)(V/X)/W_uni); latency: T_min * sum of hops (X/2 wrapped, X-1 not). AllReduce = 2 x AllGather. AllToAll
// (Aug-2025 ND form): V * max(X_i)/(4 N W_ici), an unwrapped axis counting double. `traffic_frac` scales the bandwidth
// term (ragged AllToAll, scaling-book/gpus: "cost x min(k/N, 1)").
CollectiveCost tpu_collective(Collective op, double bytes, const TorusAxis* axes, int n_axes,
                              double link_unidir_bytes_per_s, double hop_latency_s, double traffic_frac = 1.0);

// A collective group's ring (or line) on one torus axis: `size` members `stride` chips apart. It closes into a
// ring through the axis's wraparound only when it spans the whole axis (`wraps`): a 4-chip group inside a 16-long
// axis is a line (scaling-book/tpus, wraparound). A strided group shares each link of its stretch with the `stride`
// groups interleaved with it, and each of its hops crosses `stride` links.
struct TorusRing {
  int size = 1;
  bool wraps = false;
  int stride = 1;
};

// scaling-book/sharding over rings: tpu_collective with each axis's bandwidth divided by its ring's stride, its hops
// and its AllToAll extent multiplied by it. Rings of stride 1 are tpu_collective's axes, to the last bit.
CollectiveCost tpu_ring_collective(Collective op, double bytes, const TorusRing* rings, int n_rings,
                                   double link_unidir_bytes_per_s, double hop_latency_s, double traffic_frac = 1.0);

// scaling-book/training, multi-pod over DCN (Aug-2025): between `slices` slices of `chips_per_slice` chips each over
// DCN, the slice's DCN bandwidth is chips x per-chip egress: AllGather/ReduceScatter V / (M W_dcn), AllReduce
// 2V / (M W_dcn); AllToAll uses the cross-node form of scaling-book/gpus, V (S-1) / (S^2 M W_dcn).
CollectiveCost dcn_collective(Collective op, double bytes, double slices, double chips_per_slice,
                              double dcn_unidir_bytes_per_s_per_chip, double traffic_frac = 1.0);

// scaling-book/gpus, collectives: `members` GPUs in the collective, each `inner_stride` GPUs apart (the product of the
// mesh axes inside it, the book's Y). AllGather/ReduceScatter: V Y max_i (D_i - 1)/(D_i max(Y, S_{i-1}) w_i) over the
// tree levels spanned; AllReduce 2x that, or with in-network reduction (SHARP) V Y max_i 1/(max(Y, S_{i-1}) w_i);
// AllToAll: V (N-1)/(N^2 W_gpu) inside one domain, V (M-1)/(M^2 W_node) across M domains. Latency, when the preset
// states it: NCCL's ring model, a launch latency plus one step latency per ring step.
CollectiveCost gpu_collective(Collective op, double bytes, const Hardware& hw, double members, double inner_stride,
                              bool in_network_reduction, double traffic_frac = 1.0);

// The part of a collective's latency the calibrated model adds to its fitted software latency: a TPU's ICI hops, a
// GPU's NCCL ring (the launch and one step per ring step, from the preset: linear in the group, issue 22 item 26).
inline double unfitted_latency_s(const Hardware&, const CollectiveCost& c) { return c.latency_s; }

// scaling-book/gpus, ragged top-k AllToAll: the fraction of the dense traffic sent when each token goes to k of N
// shards. approx: min(k/N, 1); exact: 1 - ((N-1)/N)^k (the book's exact non-empty fraction without its (N-1)/N factor,
// which the dense formula already has).
double ragged_all_to_all_fraction(double k, double n, bool exact);

}  // namespace scalescope
