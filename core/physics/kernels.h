// A kernel's time from its shape, at the constants of one chip's kernel models (specs/kernel_models.h): the GEMM,
// the fused MoE's grouped GEMMs, flash attention over whole sequences and decode attention over a KV cache. Each is
// a roofline (the book's max of compute and memory time, jax-ml.github.io/scaling-book/roofline) with what real kernels
// add: a launch floor, a ceiling below peak, tile and wave quantisation, a ramp for small work. Pure and
// allocation-free: the calibrated planners call these for every op of a step, and calibration/kernel_fit fits them to
// measured tables.
#pragma once
#include "physics/collectives.h"
#include "specs/kernel_models.h"
#include "specs/matmul_tiling.h"

namespace scalescope {

// A kernel's time in its parts: the roofline's two sides, and what adds to their max (the launch floor, per-sequence
// work, a preprocessing kernel run before it). total() = serial + max(compute, memory).
struct KernelTime {
  double compute_s = 0, memory_s = 0, serial_s = 0;
  double total() const { return serial_s + (compute_s > memory_s ? compute_s : memory_s); }
  bool compute_bound() const { return compute_s > memory_s; }
};

// `groups` GEMMs of one shape in one kernel (1 for a dense GEMM; a grouped MoE GEMM's experts): `flops` in all,
// `shape_efficiency` the useful share of one group's tiles (physics/efficiency.h matmul_shape_efficiency), `bytes`
// the operands read and the result written, at the kernel dtype's `peak_flops_per_s`; `input_elements` the input
// a serving engine quantises beside it (0: none, as training frameworks cast in ops of their own).
KernelTime gemm_kernel_time(const GemmModel& g, double flops, double shape_efficiency, double groups, double bytes,
                            double peak_flops_per_s, double hbm_bytes_per_s, double input_elements = 0);

// A collective as NCCL runs it: `book` its book cost (physics/collectives.h) over `members` GPUs, `bytes` the array.
double collective_kernel_s(const CollectiveModel& c, const CollectiveCost& book, double members);

// Flash attention's query tiles and key blocks (FlashAttention-2 and -3 on Hopper and Blackwell, and TensorRT-LLM's
// context FMHA, tile 128 x 128).
inline constexpr double kAttentionQueryTile = 128, kAttentionKeyBlock = 128;

struct FlashAttentionShape {
  double sequences = 1, heads = 1, kv_heads = 1;  // on this chip
  double query_len = 1;                           // queries per sequence
  double mean_keys = 1, max_keys = 1;             // keys a query attends to: on average, and at most
  bool causal = true;
  double window = 0;  // a causal sliding window's keys (0: none)
  double qk_head_dim = 128, v_head_dim = 128;
  // An fp8 kernel (its own ceiling, of the fp8 peak): fp8 inputs, or an fp8 KV cache, with which the serving
  // engines run the attention in fp8 (vLLM's FP8 KV cache documentation for FlashAttention-3; TensorRT-LLM's tables
  // show its fp8-cache prefills at the fp8 rate).
  bool fp8 = false;
  // Serving engines fuse the QKV preprocessing into the op (rotary, the KV-cache write): per token the queries and
  // the `cache_values` new values read at `activation_bytes`, and the cache values written at `kv_bytes`. 0: none
  // (training frameworks run rotary as an op of its own and keep no cache).
  double activation_bytes = 0, kv_bytes = 0;
  double cache_values = 0;  // per token: KV heads x (d_qk + d_v); latent attention's r + r_rope
};
// Forward; a training step's backward is this at the model's backward rate (FlashAttention-2 §3.1: 2.5x the work).
KernelTime flash_attention_time(const FlashAttentionModel& a, const FlashAttentionShape& s, double parallel_tiles,
                                double bf16_peak_flops_per_s, double fp8_peak_flops_per_s, double hbm_bytes_per_s);
// The MMA FLOPs the kernel runs for `s` (its key blocks, padded), the work flash_attention_time divides by the rate.
// `window_blocks`: the model's (FlashAttentionModel::window_blocks).
double flash_attention_block_flops(const FlashAttentionShape& s, double window_blocks);

struct DecodeAttentionShape {
  double sequences = 1;
  double kv_heads = 1;     // KV heads on this chip (latent attention: 1)
  double kv_values = 256;  // values cached per token per KV head (2 x head dim; latent: r + r_rope)
  double mean_keys = 1;    // cached tokens each sequence reads
  double kv_bytes = 2;     // per cached value
  double flops = 0;        // the scores and the weighted sum, all sequences and heads
};
KernelTime decode_attention_time(const DecodeAttentionModel& a, const DecodeAttentionShape& s,
                                 double bf16_peak_flops_per_s, double hbm_bytes_per_s);

// A fused MoE kernel (TensorRT-LLM's, vLLM's and SGLang's fused MoE): `tokens` enter the layer on the expert group,
// each routed to `topk` of `experts`, and this rank runs the `experts / expert_degree` local ones, only those the
// tokens touch (E (1 - (1 - k/E)^T) of them, uniform routing), as grouped GEMMs: up (gated: gate and up together)
// and down over `inter` (the expert's width on this rank), each expert's rows padded to the tiles.
struct MoeKernelShape {
  double tokens = 1, topk = 1, experts = 1, expert_degree = 1;
  double hidden = 1, inter = 1;
  bool gated = true;
  double weight_bytes = 2, activation_bytes = 2;  // per element
};
KernelTime moe_kernel_time(const GemmModel& g, const MoeKernelShape& s, const MatmulTiling& tiling,
                           double peak_flops_per_s, double hbm_bytes_per_s);

// Elementwise kernels (norms, activations, residuals, casts, permutations, the optimizer) stream their bytes.
inline double stream_s(const KernelModels& k, double bytes, double hbm_bytes_per_s) {
  return bytes / (hbm_bytes_per_s * k.stream_hbm_frac);
}

}  // namespace scalescope
