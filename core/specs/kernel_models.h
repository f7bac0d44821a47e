// The calibrated fidelity's kernel level (docs/design.md "Fidelity and calibration": two levels): for each op kind a
// compact model of a kernel's time from its shape, whose few constants are fitted per chip to measured kernel
// tables where they are public (ai-dynamo/aiconfigurator's, calibration/kernel_fit) and, for chips without them,
// to end-to-end runs. The time formulas are in physics/kernels.h; this file is their data: the constants of one
// chip, their ranges, and where they came from. Part of a calibration profile.
#pragma once
#include <array>
#include <span>
#include <string>
#include <vector>

#include "io/diagnostics.h"
#include "io/json_reader.h"

namespace scalescope {

// The GEMM kernels a matmul runs in, by how its operands are stored: bf16; fp8 (or int8) with one scale per tensor;
// fp8 with block scales (DeepSeek-V3's 1x128 / 128x128, and MXFP8's 1x32: both dequantise per block inside the
// kernel); 4-bit floats with block scales (NVFP4). Each has its own ceiling and floor.
enum class GemmKind { bf16, fp8, fp8_block, fp4 };
inline constexpr std::size_t kGemmKinds = 4;
const char* gemm_kind_name(GemmKind kind);

// A GEMM (dense, or the grouped GEMMs of a fused MoE kernel): time = launch + max(compute, memory) + input
// passes, compute = (FLOPs / shape efficiency + half_rate_flops per GEMM) / (peak x ceiling), memory = bytes /
// (HBM x hbm_frac), input passes = input_passes x the input's elements x 3 bytes / HBM.
struct GemmModel {
  double ceiling_frac = 0.8;     // of the dtype's peak, for large well-tiled shapes
  double half_rate_flops = 1e8;  // the work at which a kernel reaches half its ceiling (fill, tail, epilogue)
  double hbm_frac = 0.8;         // of the HBM bandwidth, streaming the operands (GEMV-like shapes)
  double launch_s = 3e-6;        // the floor: launch, and any fixed-size kernel the backend runs with it
  // Passes over the bf16 input (read 2 bytes, write 1 per element) that a serving engine runs beside the GEMM:
  // quantising it to the kernel's format (per tensor, per block); for the MoE kernel, permuting the token copies.
  // Training frameworks' casts are priced as ops of their own (planners/training_settings.cpp).
  double input_passes = 1e-3;
};

// Flash attention over whole sequences (training, prefill): per query tile of 128 rows, 4 x 128 x 128 x (head dim
// + softmax_head_dim) FLOPs per 128-key block it visits plus tile_overhead_flops, over the SMs; plus the QKV
// preprocessing (rotary, the KV-cache write) streaming each token's q, k and v.
struct FlashAttentionModel {
  double ceiling_frac = 0.7;         // of the bf16 peak, for the MMA work
  double softmax_head_dim = 32;      // the per-score softmax work (exp, max, rescale), in head-dimension units
  double tile_overhead_flops = 2e7;  // per query tile: load Q, write O and its row statistics
  double preprocess_hbm_frac = 0.3;  // of the HBM bandwidth, for the per-token preprocessing
  // Key blocks a query tile under a causal sliding window visits beyond its mean keys: 1 if the kernel skipped every
  // block outside the window (a tile's rows t to t + 127 see keys t - W + 1 to t + 127); TensorRT-LLM's measure 3-5.
  double window_blocks = 1.0;
  double launch_s = 1e-5;
  double fp8_ceiling_frac = 0.5;  // fp8 kernels, of the fp8 peak
  // With an fp8 KV cache the attention runs in fp8 (at fp8_ceiling_frac), its queries, keys and values quantised
  // first: passes over them, 3 bytes an element (bf16 read, fp8 written).
  double fp8_kv_passes = 1e-3;
  double backward_frac = 0.8;  // the backward kernel's rate relative to the forward's (no public table)
};

// Decode attention (one or a few new tokens per sequence against its KV cache, flash-decoding): time = launch +
// sequences x sequence_s + max(KV bytes + sequences x KV heads x split_bytes at HBM x hbm_frac, FLOPs at the
// ceiling). Latent attention (MLA, absorbed) has the same form with one latent head of r + r_rope values.
struct DecodeAttentionModel {
  double hbm_frac = 0.85;        // of the HBM bandwidth, reading a bf16 KV cache at long context
  double fp8_kv_hbm_frac = 0.7;  // with an fp8 cache (dequantised in the kernel)
  double split_bytes = 1e4;      // per (sequence, KV head): the ramp of short contexts
  double sequence_s = 2e-8;      // per sequence: scheduling, the reduction of split partials
  double ceiling_frac = 0.3;     // of the bf16 peak, for the scores (latent attention's 128 heads are compute-heavy)
  double launch_s = 8e-6;
};

// A collective over GPUs of one NVLink domain as NCCL runs it: NCCL picks, per message, the faster of its protocols
// (src/graph/tuning.cc: LL/LL128 for latency, Simple for bandwidth), each a software latency on top of the preset's
// ring latency plus the book's bandwidth term at a share of the links (physics/efficiency.h achieved_collective_s).
// A small group runs fewer channels: the share is scaled by N / (N + span_penalty) for N GPUs.
struct CollectiveModel {
  double link_frac = 0.75;             // the bandwidth protocol's share of the links
  double latency_s = 2e-5;             // and its latency
  double low_latency_link_frac = 0.3;  // the low-latency protocol's share
  double low_latency_s = 3e-6;         // and its latency
  double span_penalty = 0.5;
};
// NCCL's four (physics/collectives.h's Collective order: all_gather, reduce_scatter, all_reduce, all_to_all), then
// the serving engines' one-shot all-reduce for small tensor-parallel messages (TensorRT-LLM's custom all-reduce;
// vLLM and SGLang have their own).
inline constexpr std::size_t kCollectiveKinds = 5;
inline constexpr std::size_t kCustomAllReduce = 4;

// Where a chip's kernel constants come from: the tables (repository, commit, backend release, per op) or, for a
// chip without public tables, the end-to-end runs and the literature priors.
struct KernelSource {
  std::string repository, commit, licence;  // empty: fitted on end-to-end runs
  std::vector<std::string> tables;          // "gemm: trtllm 1.3.0rc20 <path>", one per op table fitted
  // The models (a KernelParameter's model(): "moe/bf16", "decode_attention") without a table on this chip: they
  // hold the chip family's constants.
  std::vector<std::string> unfitted;
  std::string note;
  bool from_tables() const { return !repository.empty(); }
  bool fitted(const std::string& model) const;
};

struct KernelModels {
  std::array<GemmModel, kGemmKinds> gemm{};
  std::array<GemmModel, kGemmKinds> moe{};  // the fused MoE kernel's grouped GEMMs (ceiling, floor, streaming)
  FlashAttentionModel prefill{};
  DecodeAttentionModel decode{};
  // Latent attention (MLA) runs kernels of its own (TensorRT-LLM's context and generation MLA): the same forms with
  // their own constants, used where a table fitted them (latent_fitted), else the standard kernels' constants.
  FlashAttentionModel prefill_mla{};
  DecodeAttentionModel decode_mla{};
  std::array<CollectiveModel, kCollectiveKinds> collective{};
  double stream_hbm_frac = 0.85;  // elementwise kernels (norms, activations, residuals, casts, the optimizer)
  KernelSource source;

  // The prefill and decode attention models a model's layers run: latent attention's own where its tables fitted
  // them, the standard kernels' otherwise (a TPU, a profile fitted on runs alone).
  bool latent_fitted() const { return source.fitted("prefill_attention/mla") && source.fitted("decode_attention/mla"); }
  const FlashAttentionModel& prefill_for(bool latent) const {
    return latent && latent_fitted() ? prefill_mla : prefill;
  }
  const DecodeAttentionModel& decode_for(bool latent) const { return latent && latent_fitted() ? decode_mla : decode; }
};

// One constant of the kernel models: its place in the profile's `kernels` object (op, variant or "", name) and its
// range (positive: the fits work in its logarithm). Its meaning: kernel_models.cpp's table, and the schema's.
struct KernelParameter {
  const char* op;       // "gemm", "moe", "prefill_attention", "decode_attention", "collective", "memory"
  const char* variant;  // the GEMM kind or collective; for attention "" (standard) or "mla"; "" for one model
  const char* name;
  double lo, hi;

  double& at(KernelModels& k) const;
  double value(const KernelModels& k) const { return at(const_cast<KernelModels&>(k)); }
  std::string path() const;   // "gemm/bf16/ceiling_frac"
  std::string model() const;  // "gemm/bf16": the model it belongs to
};
std::span<const KernelParameter> kernel_parameters();
const KernelParameter* find_kernel_parameter(std::string_view path);

// Reads a profile's `kernels` object (every constant required, each in its range) and writes it back.
KernelModels read_kernel_models(const Json& node, const std::string& path, Diagnostics& diagnostics);
Json kernel_models_json(const KernelModels& kernels);

}  // namespace scalescope
