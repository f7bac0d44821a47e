// The book's parallelism thresholds (TPU: jax-ml.github.io/scaling-book/training; GPU: .../scaling-book/gpus): the
// per-chip batch a data-parallel axis needs to stay compute-bound, the tensor-parallel limit, the mixed FSDP x TP bound
// and X_opt, the DCN per-slice batch. Allocation-free; the planners call these per plan.
#pragma once

namespace scalescope {

// scaling-book/training, data parallelism and FSDP: DP/FSDP is compute-bound iff tokens per chip > C / (W_ici * axes).
constexpr double dp_min_tokens_per_chip(double c, double w_ici_bidir, double axes) { return c / (w_ici_bidir * axes); }

// scaling-book/training, tensor parallelism: TP is compute-bound iff Y < M_Y * F * W / C.
constexpr double tp_max_degree(double c, double w, double d_ff, double axes) { return axes * d_ff * w / c; }

// scaling-book/training, mixed FSDP x TP: tokens per chip > alpha^2 / (M_X M_Y F) (Aug-2025 "max" model),
// 4 alpha^2 / (...) for the Feb-2025 "sum" model.
constexpr double mixed_min_tokens_per_chip(double alpha, double d_ff, double m_x, double m_y, bool sum_model) {
  return (sum_model ? 4.0 : 1.0) * alpha * alpha / (m_x * m_y * d_ff);
}

// scaling-book/training, mixed FSDP + TP: X_opt = sqrt((B / F) (M_X / M_Y) N), kept in [1, N] (beyond it the best split
// is pure TP or FSDP).
double fsdp_optimal_degree(double batch_tokens, double d_ff, double m_x, double m_y, double chips);

// scaling-book/gpus, data parallelism: X nodes doing DP see (X - 1)/X of the full reduction:
// tokens per GPU > alpha (X - 1) / X.
constexpr double gpu_dp_min_tokens_per_gpu(double alpha, double nodes) {
  return nodes <= 1 ? alpha : alpha * (nodes - 1.0) / nodes;
}

// scaling-book/gpus, expert parallelism, EP inside one scale-up domain (Z GPUs, all-to-all switched): the dispatch and
// combine AllToAlls cost V (Z-1)/(Z^2 W_GPU) each (scaling-book/gpus, intra-node AllToAll), so the expert's FLOPs hide
// them iff F > alpha_GPU (Z - 1)/Z.
constexpr double expert_min_d_ff_in_domain(double alpha_gpu, double z) { return alpha_gpu * (z - 1.0) / z; }

}  // namespace scalescope
