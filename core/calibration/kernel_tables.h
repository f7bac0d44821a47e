// Measured kernel tables as the kernel fit reads them (tests/kernels/*.json, extracted from ai-dynamo/aiconfigurator
// by scripts/kernel_tables/extract.mjs): per chip, per op, the shape of each measured kernel and its time; and the
// shape each row is, in the terms of the kernel models (physics/kernels.h), so that a row is predicted exactly as a
// planner's op of that shape is priced.
#pragma once
#include <string>
#include <vector>

#include "io/diagnostics.h"
#include "io/json_reader.h"
#include "physics/kernels.h"
#include "specs/hardware.h"
#include "specs/kernel_models.h"

namespace scalescope {

enum class KernelOp {
  gemm,
  moe,
  context_attention,
  generation_attention,
  context_mla,
  generation_mla,
  nccl,
  custom_all_reduce
};
const char* kernel_op_name(KernelOp op);

// One measured kernel. The fields an op's table has (the rest stay 0):
//   gemm: kind, m, n, k;  moe: kind, tokens, hidden, inter, topk, experts, tp, ep, gated;
//   context_attention: batch, seq_len, heads, kv_heads, head_dim, window, fp8, kv_bytes;
//   generation_attention: batch, kv_len, heads, kv_heads, head_dim, window, kv_bytes;
//   context_mla / generation_mla: batch, seq_len or kv_len, heads (on the GPU), kv_bytes;
//   nccl: collective (physics/collectives.h order), gpus, bytes (nccl-tests' size: the whole array, but each rank's
//   buffer for all-to-all);  custom_all_reduce: gpus, bytes.
struct KernelSample {
  GemmKind kind = GemmKind::bf16;
  double m = 0, n = 0, k = 0;
  double tokens = 0, hidden = 0, inter = 0, topk = 0, experts = 0, tp = 1, ep = 1;
  bool gated = true;
  double batch = 0, seq_len = 0, kv_len = 0, heads = 0, kv_heads = 0, head_dim = 0, window = 0;
  bool fp8 = false;
  double kv_bytes = 2;
  int collective = 0;
  double gpus = 0, bytes = 0;
  double latency_s = 0;
};

struct KernelTable {
  KernelOp op = KernelOp::gemm;
  std::string path, backend, version;
  double upstream_rows = 0;
  std::vector<KernelSample> samples;
  std::string describe() const;  // "gemm: trtllm 1.3.0rc20, <path> (2400 of 100668 rows)"
};

struct KernelTables {
  std::string hardware;  // the preset id
  KernelSource source;   // repository, commit, licence (the tables are filled in as the fit uses them)
  std::vector<KernelTable> tables;
};

// Reads one chip's file: {"schema", "hardware", "source": {...}, "tables": [{"op", "path", "backend", "version",
// "upstream_rows", "columns": [...], "rows": [[...], ...]}]}; every column an op needs, every time positive.
KernelTables read_kernel_tables(const Json& node, const std::string& path, Diagnostics& diagnostics);

// DeepSeek-V3's latent attention, the shape of every MLA table (kv_lora_rank 512, qk_rope_head_dim 64,
// qk_nope_head_dim 128, v_head_dim 128).
inline constexpr double kMlaLatentRank = 512, kMlaRopeDim = 64, kMlaNopeDim = 128, kMlaValueDim = 128;

// A row's predicted time with `kernels` and `tiling` on `hw` (the chip's peaks, HBM, SMs and NVLink).
double predict_kernel_sample(KernelOp op, const KernelSample& s, const KernelModels& kernels,
                             const MatmulTiling& tiling, const Hardware& hw);

}  // namespace scalescope
