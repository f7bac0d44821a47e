#include "physics/roofline.h"

#include <algorithm>

namespace scalescope {

Roofline roofline(double flops, double bytes, double peak_flops_per_s, double bandwidth_bytes_per_s) {
  Roofline r;
  r.compute_s = flops / peak_flops_per_s;
  r.memory_s = bytes / bandwidth_bytes_per_s;
  r.lower_bound_s = std::max(r.compute_s, r.memory_s);
  r.upper_bound_s = r.compute_s + r.memory_s;
  r.intensity_flops_per_byte = bytes > 0 ? flops / bytes : 0.0;
  r.critical_intensity_flops_per_byte = peak_flops_per_s / bandwidth_bytes_per_s;
  r.attainable_flops_per_s =
      bytes > 0 ? std::min(peak_flops_per_s, r.intensity_flops_per_byte * bandwidth_bytes_per_s) : peak_flops_per_s;
  r.compute_bound = r.compute_s > r.memory_s;
  return r;
}

double matmul_crossover_batch(double d, double f, const MatmulDtypes& t, double c, double w) {
  const double per_batch_flops_s = 2.0 * d * f / c;
  const double per_batch_bytes_s = (bytes_per_element(t.lhs) * d + bytes_per_element(t.out) * f) / w;
  const double denominator = per_batch_flops_s - per_batch_bytes_s;
  if (denominator <= 0) return 0.0;
  return bytes_per_element(t.rhs) * d * f / w / denominator;
}

}  // namespace scalescope
