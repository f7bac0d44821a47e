// How real kernels and links fall short of the peaks the book divides by (the calibrated fidelity, docs/design.md
// "Fidelity and calibration"). Pure, allocation-free functions of a shape and a few measured constants; the
// constants themselves are fitted per chip family and live in a calibration profile (specs/calibration_profile.h).
#pragma once
#include "specs/matmul_tiling.h"

namespace scalescope {

// Fraction of the matrix unit's peak a matmul [M,K] x [K,N] can reach from its shape alone (1 for a shape that
// tiles exactly into many waves):
//   padding: M / (ceil(M / tile_m) tile_m), the same for N and K (the MXU pads K and N to its width);
//   waves:   tiles / (ceil(tiles / parallel_tiles) parallel_tiles), the last wave's idle SMs (wave quantisation,
//            NVIDIA "Matrix Multiplication Background" guide), after splitting K when there are fewer tiles than SMs.
double matmul_shape_efficiency(double m, double k, double n, const MatmulTiling& tiling);

// Small kernels do not reach their steady-state rate: launch, pipeline fill and the tail cost about as much as
// `half_rate_flops` more work at full rate, so a matmul of G FLOPs runs at G / (G + G_half) of the large-matmul
// rate (one parameter matching Calculon's measured A100 curve: 0.6 at 1 GFLOP, 0.9 at 16, 0.95 at 128). Seconds
// at `rate` FLOP/s for `flops` of work of which `shape_efficiency` is useful (padding, waves).
constexpr double matmul_compute_s(double flops, double shape_efficiency, double half_rate_flops, double rate) {
  return (flops / shape_efficiency + half_rate_flops) / rate;
}

// A collective as links achieve it: the book's bandwidth term at a fraction of the link's peak, plus a fixed
// software latency (NCCL or the ICI DMA set-up) on top of the book's per-hop latency.
constexpr double achieved_collective_s(double book_bandwidth_s, double book_latency_s, double link_frac,
                                       double software_latency_s) {
  const double bandwidth_s = book_bandwidth_s / link_frac;
  return software_latency_s + (bandwidth_s > book_latency_s ? bandwidth_s : book_latency_s);
}

// Communication that runs beside computation: the part that `overlap_frac` of the computation cannot hide.
constexpr double exposed_s(double comms_s, double compute_s, double overlap_frac) {
  const double hidden = overlap_frac * compute_s;
  return comms_s > hidden ? comms_s - hidden : 0.0;
}

}  // namespace scalescope
