// Where chips sit: a slice of a TPU torus (jax-ml.github.io/scaling-book/tpus) and a GPU cluster of scale-up domains
// under a fat tree (scaling-book/gpus, networking). Plain data in, plain data out.
#pragma once
#include <array>

#include "io/diagnostics.h"
#include "specs/hardware.h"

namespace scalescope {

constexpr int kMaxTorusDims = 3;

struct TpuSlice {
  int dims = 0;
  std::array<int, kMaxTorusDims> shape{};  // trailing entries 1
  std::array<bool, kMaxTorusDims> wraps{};
  double chips = 0, hosts = 0, cores = 0;
  double peak_flops_per_s = 0;           // bf16, whole slice
  double hbm_capacity_bytes = 0;         // whole slice
  double hbm_bandwidth_bytes_per_s = 0;  // whole slice
  double dcn_unidir_bytes_per_s = 0;     // whole slice (per-chip DCN times chips,
                                         // scaling-book/training, multi-pod over DCN)
  double max_hops = 0;                   // farthest chip, in ICI hops
};

// scaling-book/tpus, wraparound rules: "whole_cubes" (v4p/v5p: wraps only when the slice is whole 4x4x4 cubes) or
// "per_axis" (v5e/v6e: an axis wraps when it is a full 16-long axis).
bool tpu_axis_wraps(const TpuInterconnect& ici, const std::array<int, kMaxTorusDims>& shape, int axis);

// Whether a slice shape (trailing entries 1) fits one pod in some axis order: the pod's axes can be permuted, so
// sorted sizes are compared (v5p 16x20x28 holds a 28x16x20 slice).
bool tpu_slice_fits(const TpuInterconnect& ici, const std::array<int, kMaxTorusDims>& shape);

// Describes a slice shape; shape problems (too many axes, larger than the pod) become diagnostics at `path`.
TpuSlice describe_tpu_slice(const Hardware& hw, const std::array<int, kMaxTorusDims>& shape, int dims,
                            const std::string& path, Diagnostics& diagnostics);

// scaling-book/tpus, ICI transfers: point-to-point over ICI: bytes / (ports * one-way link bandwidth) + hops * per-hop
// latency.
double tpu_transfer_s(double bytes, int hops, int ports, double link_unidir_bytes_per_s, double hop_latency_s);

// Shortest hop count between two chips of a slice (wrapped axes go the short way round).
int tpu_hops(const TpuSlice& slice, const std::array<int, kMaxTorusDims>& from,
             const std::array<int, kMaxTorusDims>& to);

// scaling-book/tpus, Question 5: the links out of `from` that start a shortest path to `to` and can carry a share of
// the bytes in parallel: one per axis the route changes (a route changing X and Y sends half right-then-down and half
// down-then-right), two on a wrapped axis whose target is exactly halfway round. 0 when from == to.
int tpu_route_ports(const TpuSlice& slice, const std::array<int, kMaxTorusDims>& from,
                    const std::array<int, kMaxTorusDims>& to);

// One level of a GPU cluster: the scale-up domain (level 0) or a fat-tree level above it.
struct GpuLevel {
  double gpus_below = 0;              // GPUs in one child at this level (S_{i-1}): 1 at level 0
  double capacity_gpus = 0;           // GPUs under one parent at this level
  double children_per_parent = 0;     // D_i, the tree's full fan-out
  double gpu_unidir_bytes_per_s = 0;  // per-GPU share of the link into this level (w_i)
  // scaling-book/gpus, the fat-tree AllGather: a full level moves D_i x w_i x S_{i-1} / (D_i - 1) of collective
  // bandwidth per child (0 for a level of one child, which carries no collective).
  double allgather_bytes_per_s() const {
    const double d = children_per_parent;
    return d > 1 ? d * gpus_below * gpu_unidir_bytes_per_s / (d - 1) : 0;
  }
};

constexpr int kMaxGpuLevels = 6;

struct GpuCluster {
  double gpus = 0, domains = 0;
  int levels = 0;  // levels actually spanned (>= 1)
  std::array<GpuLevel, kMaxGpuLevels> level{};
  double domain_egress_unidir_bytes_per_s = 0;  // one scale-up domain into the scale-out network
                                                // (scaling-book/gpus, "node egress")
  // The cluster's AllGather bandwidth: T = B max_i (D_i - 1) / (D_i W_i), so the slowest level sets it (H100
  // SuperPod: node 514 GB/s, leaf 413 GB/s, spine 17.1 TB/s, so 413 GB/s). -1: no level carries a collective.
  int allgather_limiting_level() const {
    int slowest = -1;
    for (int i = 0; i < levels; ++i)
      if (level[i].children_per_parent > 1 &&
          (slowest < 0 || level[i].allgather_bytes_per_s() < level[slowest].allgather_bytes_per_s()))
        slowest = i;
    return slowest;
  }
};

// scaling-book/gpus, Quiz 2 Question 1: one scale-up domain's NVLink bandwidth. The switches offer switches x ports x
// link bandwidth; the GPUs can only egress GPUs x per-GPU bandwidth; the domain carries the smaller. Bisection, both
// directions as the book counts it: each half's GPUs egress to the other half, capped by the switches' ports.
struct GpuDomainBandwidth {
  double gpu_egress_unidir_bytes_per_s = 0;
  double switch_capacity_unidir_bytes_per_s = 0;  // 0 when the preset does not describe its switches
  double aggregate_unidir_bytes_per_s = 0;
  double bisection_bidir_bytes_per_s = 0;
  bool limited_by_switches = false;
};
GpuDomainBandwidth describe_gpu_domain(const Hardware& hw);

// scaling-book/gpus, networking: level 0 is the NVLink domain (per-GPU NVLink egress); levels above it are the fat
// tree, full bisection, each GPU's share being its NIC bandwidth. A cluster larger than the tree's top keeps adding to
// the top level.
GpuCluster describe_gpu_cluster(const Hardware& hw, double gpus);

}  // namespace scalescope
