// Rooflines (jax-ml.github.io/scaling-book/roofline and .../tpus): time from FLOPs and bytes on one chip, intensity,
// bound. Pure, allocation-free functions: plan searches call them millions of times.
#pragma once
#include "io/dtype.h"

namespace scalescope {

struct Roofline {
  double compute_s = 0;                          // FLOPs / peak
  double memory_s = 0;                           // bytes / bandwidth
  double lower_bound_s = 0;                      // max: perfect overlap (the book's estimate)
  double upper_bound_s = 0;                      // sum: no overlap
  double intensity_flops_per_byte = 0;           // FLOPs / bytes
  double critical_intensity_flops_per_byte = 0;  // peak / bandwidth
  double attainable_flops_per_s = 0;             // min(peak, intensity * bandwidth)
  bool compute_bound = false;                    // intensity > critical intensity
};

// scaling-book/roofline: T_math = FLOPs/C, T_comms = bytes/W, T_lower = max, T_upper = sum.
Roofline roofline(double flops, double bytes, double peak_flops_per_s, double bandwidth_bytes_per_s);

// X[B,D] * Y[D,F] -> Z[B,F]; the book's weights are Y (`rhs`).
struct MatmulShape {
  double b = 0, d = 0, f = 0;
};
struct MatmulDtypes {
  Dtype lhs = Dtype::bf16, rhs = Dtype::bf16, out = Dtype::bf16;
};

// scaling-book/roofline: 2BDF FLOPs (a multiply-add is 2 FLOPs).
constexpr double matmul_flops(const MatmulShape& s) { return 2.0 * s.b * s.d * s.f; }
// scaling-book/roofline with per-operand dtypes (Questions 2 and 3: int8 weights, bf16 activations: 2BD + DF + 2BF).
constexpr double matmul_bytes(const MatmulShape& s, const MatmulDtypes& t) {
  return bytes_per_element(t.lhs) * s.b * s.d + bytes_per_element(t.rhs) * s.d * s.f +
         bytes_per_element(t.out) * s.b * s.f;
}

// The batch B at which the exact-bytes matmul turns compute-bound: 2BDF/C = (a BD + w DF + o BF)/W, solved for B.
// Returns 0 when no batch makes it compute-bound (the activation bytes alone outrun the FLOPs).
double matmul_crossover_batch(double d, double f, const MatmulDtypes& t, double peak_flops_per_s,
                              double bandwidth_bytes_per_s);

// scaling-book/inference, B_crit with quantization (Aug-2025): for B << D, F the matmul is compute-bound iff
// B > (C/W) * bytes_per_param / 2.
constexpr double matmul_critical_batch(double peak_flops_per_s, double bandwidth_bytes_per_s, Dtype weights) {
  return peak_flops_per_s / bandwidth_bytes_per_s * bytes_per_element(weights) / 2.0;
}

}  // namespace scalescope
