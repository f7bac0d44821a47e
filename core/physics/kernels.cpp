#include "physics/kernels.h"

#include <algorithm>

#include "physics/efficiency.h"
#include "physics/portable_math.h"

namespace scalescope {

KernelTime gemm_kernel_time(const GemmModel& g, double flops, double shape_efficiency, double groups, double bytes,
                            double peak_flops_per_s, double hbm_bytes_per_s, double input_elements) {
  KernelTime t;
  t.serial_s = g.launch_s + g.input_passes * 3.0 * input_elements / hbm_bytes_per_s;
  if (flops <= 0 && bytes <= 0) return t;
  // Each group's kernel pays the ramp (its own fill and tail), all of them at the ceiling.
  const double rate = peak_flops_per_s * g.ceiling_frac;
  t.compute_s = rate > 0 ? (flops / shape_efficiency + groups * g.half_rate_flops) / rate : 0;
  t.memory_s = bytes / (hbm_bytes_per_s * g.hbm_frac);
  return t;
}

namespace {

// Whether a causal query tile's keys are a sliding window narrower than the sequence.
bool windowed(const FlashAttentionShape& s) { return s.causal && s.window > 0 && s.window < s.query_len; }

}  // namespace

double flash_attention_block_flops(const FlashAttentionShape& s, double window_blocks) {
  const double tiles = whole_ceil(s.query_len / kAttentionQueryTile);
  // A causal query tile visits the blocks up to its diagonal: its mean keys plus half a block (tile i of n: i + 1
  // blocks), or under a window its mean keys plus `window_blocks` (its rows t to t + 127 see keys t - W + 1 to
  // t + 127: one block more at 128-key granularity); a full one every block its keys touch.
  const double extra = windowed(s) ? window_blocks : 0.5;
  const double blocks_per_tile =
      s.causal ? std::max(1.0, s.mean_keys / kAttentionKeyBlock + extra) : whole_ceil(s.mean_keys / kAttentionKeyBlock);
  // QK^T and PV: 2 x tile x block x (d_qk + d_v) per block.
  return s.sequences * s.heads * tiles * blocks_per_tile * 2.0 * kAttentionQueryTile * kAttentionKeyBlock *
         (s.qk_head_dim + s.v_head_dim);
}

KernelTime flash_attention_time(const FlashAttentionModel& a, const FlashAttentionShape& s, double parallel_tiles,
                                double bf16_peak_flops_per_s, double fp8_peak_flops_per_s, double hbm_bytes_per_s) {
  KernelTime t;
  t.serial_s = a.launch_s;
  const double tiles = s.sequences * s.heads * whole_ceil(s.query_len / kAttentionQueryTile);
  if (tiles <= 0) return t;
  // The softmax's exponentials and rescaling cost about softmax_head_dim more MMA-equivalent work per score
  // (FlashAttention-3 §3: the exponential throughput is a bottleneck), independent of the head dimension.
  const double per_score = 1.0 + 2.0 * a.softmax_head_dim / (s.qk_head_dim + s.v_head_dim);
  const double work = flash_attention_block_flops(s, a.window_blocks) * per_score + tiles * a.tile_overhead_flops;
  // The longest tile (the last causal one) bounds the kernel when there are fewer tiles than SMs.
  const double longest_blocks = whole_ceil(s.max_keys / kAttentionKeyBlock) + (windowed(s) ? a.window_blocks : 0.0);
  const double block_work = 2.0 * kAttentionQueryTile * kAttentionKeyBlock * (s.qk_head_dim + s.v_head_dim) * per_score;
  const double longest = longest_blocks * block_work + a.tile_overhead_flops;
  const double units = std::max(1.0, parallel_tiles);
  const double rate = s.fp8 ? fp8_peak_flops_per_s * a.fp8_ceiling_frac : bf16_peak_flops_per_s * a.ceiling_frac;
  t.compute_s = std::max(work / units, longest) / (rate / units);
  const double tokens = s.sequences * s.query_len;
  const double preprocess_bytes =
      tokens * (s.activation_bytes * (s.heads * s.qk_head_dim + s.cache_values) + s.kv_bytes * s.cache_values);
  // With an fp8 cache the attention runs in fp8, its queries, keys and values quantised first (3 bytes an element).
  const double quantise_bytes =
      s.kv_bytes > 0 && s.kv_bytes < 2.0
          ? a.fp8_kv_passes * 3.0 * tokens * (s.heads * s.qk_head_dim + s.kv_heads * (s.qk_head_dim + s.v_head_dim))
          : 0.0;
  // The preprocessing is a kernel of its own before the attention: its time adds.
  t.serial_s += preprocess_bytes / (hbm_bytes_per_s * a.preprocess_hbm_frac) + quantise_bytes / hbm_bytes_per_s;
  return t;
}

KernelTime decode_attention_time(const DecodeAttentionModel& a, const DecodeAttentionShape& s,
                                 double bf16_peak_flops_per_s, double hbm_bytes_per_s) {
  KernelTime t;
  t.serial_s = a.launch_s + s.sequences * a.sequence_s;
  const double kv_bytes = s.sequences * s.kv_heads * s.mean_keys * s.kv_values * s.kv_bytes;
  const double frac = s.kv_bytes < 2.0 ? a.fp8_kv_hbm_frac : a.hbm_frac;
  t.memory_s = (kv_bytes + s.sequences * s.kv_heads * a.split_bytes) / (hbm_bytes_per_s * frac);
  t.compute_s = s.flops / (bf16_peak_flops_per_s * a.ceiling_frac);
  return t;
}

KernelTime moe_kernel_time(const GemmModel& g, const MoeKernelShape& s, const MatmulTiling& tiling,
                           double peak_flops_per_s, double hbm_bytes_per_s) {
  const double local = s.experts / s.expert_degree;
  const double unrouted = 1.0 - s.topk / s.experts;
  const double touched_frac = unrouted > 0 ? 1.0 - portable_exp(s.tokens * portable_log(unrouted)) : 1.0;
  const double touched = std::max(1.0, local * touched_frac);
  const double rows = s.tokens * s.topk / s.expert_degree / touched;  // per touched expert
  const double up = (s.gated ? 2.0 : 1.0) * s.inter;
  // The up GEMM [rows, hidden] x [hidden, up] and the down GEMM [rows, inter] x [inter, hidden], per expert.
  const double up_flops = 2.0 * rows * s.hidden * up, down_flops = 2.0 * rows * s.inter * s.hidden;
  const double padded = touched * (up_flops / matmul_shape_efficiency(rows, s.hidden, up, tiling) +
                                   down_flops / matmul_shape_efficiency(rows, s.inter, s.hidden, tiling));
  const double a = s.activation_bytes, w = s.weight_bytes;
  const double bytes = touched * (a * rows * s.hidden + w * s.hidden * up + a * rows * up + a * rows * s.inter +
                                  w * s.inter * s.hidden + a * rows * s.hidden);
  // The token copies are permuted (and quantised) on the way in and out: the model's input passes.
  return gemm_kernel_time(g, padded, 1.0, 2.0 * touched, bytes, peak_flops_per_s, hbm_bytes_per_s,
                          s.tokens * s.topk / s.expert_degree * s.hidden);
}

double collective_kernel_s(const CollectiveModel& c, const CollectiveCost& book, double members) {
  if (book.time_s <= 0) return 0;
  const double span = members / (members + c.span_penalty);
  const double bandwidth_protocol =
      achieved_collective_s(book.bandwidth_s, book.latency_s, c.link_frac * span, c.latency_s);
  const double low_latency_protocol =
      achieved_collective_s(book.bandwidth_s, book.latency_s, c.low_latency_link_frac * span, c.low_latency_s);
  return std::min(bandwidth_protocol, low_latency_protocol);
}

}  // namespace scalescope
