#include "physics/topology.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace scalescope {

bool tpu_axis_wraps(const TpuInterconnect& ici, const std::array<int, kMaxTorusDims>& shape, int axis) {
  const int m = ici.wraparound_axis_multiple;
  if (m <= 0) return false;
  if (ici.whole_cube_wraparound) {
    for (int i = 0; i < ici.torus_dims; ++i)
      if (shape[i] % m != 0) return false;
    return true;
  }
  return shape[axis] % m == 0;
}

bool tpu_slice_fits(const TpuInterconnect& ici, const std::array<int, kMaxTorusDims>& shape) {
  std::array<int, kMaxTorusDims> want = shape, have = ici.max_slice_shape;
  for (auto& v : have) v = v == 0 ? 1 : v;
  std::sort(want.begin(), want.end());
  std::sort(have.begin(), have.end());
  for (int i = 0; i < kMaxTorusDims; ++i)
    if (want[i] > have[i]) return false;
  return true;
}

TpuSlice describe_tpu_slice(const Hardware& hw, const std::array<int, kMaxTorusDims>& shape, int dims,
                            const std::string& path, Diagnostics& d) {
  TpuSlice s;
  const TpuInterconnect& ici = hw.ici;
  const bool too_many_axes = dims > ici.torus_dims;
  if (too_many_axes)
    add_diagnostic(d, path, "too_many_axes",
                   hw.name + " is a " + std::to_string(ici.torus_dims) + "D torus; the slice shape has " +
                       std::to_string(dims) + " axes");
  s.dims = ici.torus_dims;
  s.shape.fill(1);
  for (int i = 0; i < std::min(dims, kMaxTorusDims); ++i) s.shape[i] = shape[i];
  if (!too_many_axes && !tpu_slice_fits(ici, s.shape))
    add_diagnostic(d, path, "slice_too_large",
                   "slice does not fit in one " + hw.name + " pod (largest slice " +
                       std::to_string(ici.max_slice_shape[0]) + "x" + std::to_string(ici.max_slice_shape[1]) +
                       (ici.torus_dims == 3 ? "x" + std::to_string(ici.max_slice_shape[2]) : std::string()) +
                       "); join slices over DCN instead");
  double host_chips = 1;
  for (int v : ici.host_shape) host_chips *= v == 0 ? 1 : v;
  s.chips = 1;
  for (int i = 0; i < s.dims; ++i) {
    s.chips *= s.shape[i];
    s.wraps[i] = tpu_axis_wraps(ici, s.shape, i);
    s.max_hops += s.wraps[i] ? s.shape[i] / 2 : s.shape[i] - 1;
  }
  s.hosts = std::ceil(s.chips / host_chips);
  s.cores = s.chips * ici.cores_per_chip;
  s.peak_flops_per_s = s.chips * hw.peak(Dtype::bf16);
  s.hbm_capacity_bytes = s.chips * hw.hbm_capacity_bytes;
  s.hbm_bandwidth_bytes_per_s = s.chips * hw.hbm_bandwidth_bytes_per_s;
  s.dcn_unidir_bytes_per_s = s.chips * hw.dcn_unidir_bytes_per_s_per_chip;
  return s;
}

double tpu_transfer_s(double bytes, int hops, int ports, double link_unidir_bytes_per_s, double hop_latency_s) {
  return bytes / (ports * link_unidir_bytes_per_s) + hops * hop_latency_s;
}

int tpu_hops(const TpuSlice& s, const std::array<int, kMaxTorusDims>& from, const std::array<int, kMaxTorusDims>& to) {
  int hops = 0;
  for (int i = 0; i < s.dims; ++i) {
    const int delta = std::abs(from[i] - to[i]);
    hops += s.wraps[i] ? std::min(delta, s.shape[i] - delta) : delta;
  }
  return hops;
}

int tpu_route_ports(const TpuSlice& s, const std::array<int, kMaxTorusDims>& from,
                    const std::array<int, kMaxTorusDims>& to) {
  int ports = 0;
  for (int i = 0; i < s.dims; ++i) {
    const int delta = std::abs(from[i] - to[i]);
    if (delta == 0) continue;
    ports += s.wraps[i] && 2 * delta == s.shape[i] ? 2 : 1;
  }
  return ports;
}

GpuDomainBandwidth describe_gpu_domain(const Hardware& hw) {
  const GpuScaleUp& up = hw.scale_up;
  GpuDomainBandwidth b;
  b.gpu_egress_unidir_bytes_per_s = up.domain_gpus * up.gpu_unidir_bytes_per_s;
  b.switch_capacity_unidir_bytes_per_s = up.switches * up.switch_ports * up.link_unidir_bytes_per_s;
  b.limited_by_switches = b.switch_capacity_unidir_bytes_per_s > 0 &&
                          b.switch_capacity_unidir_bytes_per_s < b.gpu_egress_unidir_bytes_per_s;
  b.aggregate_unidir_bytes_per_s =
      b.limited_by_switches ? b.switch_capacity_unidir_bytes_per_s : b.gpu_egress_unidir_bytes_per_s;
  // Half the GPUs send D/2 x W each way across the cut: D x W in both directions, each crossing byte entering one
  // switch port.
  b.bisection_bidir_bytes_per_s = b.aggregate_unidir_bytes_per_s;
  return b;
}

GpuCluster describe_gpu_cluster(const Hardware& hw, double gpus) {
  GpuCluster c;
  c.gpus = gpus;
  const double domain = hw.scale_up.domain_gpus;
  c.domains = std::ceil(gpus / domain);
  c.domain_egress_unidir_bytes_per_s = domain * hw.scale_out.nic_unidir_bytes_per_s_per_gpu;
  c.level[0] = GpuLevel{1, domain, domain, hw.scale_up.gpu_unidir_bytes_per_s};
  c.levels = 1;
  const auto& fanouts = hw.scale_out.fat_tree_fanouts;
  double below = domain;
  for (std::size_t i = 0; i < fanouts.size() && c.levels < kMaxGpuLevels && below < gpus; ++i) {
    const bool top = i + 1 == fanouts.size();
    // Past the top of the tree the top level keeps growing (a bigger spine), never a smaller fan-out.
    const double fanout = top ? std::max<double>(fanouts[i], std::ceil(gpus / below)) : fanouts[i];
    c.level[c.levels++] = GpuLevel{below, below * fanout, fanout, hw.scale_out.nic_unidir_bytes_per_s_per_gpu};
    below *= fanout;
  }
  return c;
}

}  // namespace scalescope
