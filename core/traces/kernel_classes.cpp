#include "traces/kernel_classes.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace scalescope {

namespace {

std::string lower(std::string_view s) {
  std::string out(s.substr(0, 512));  // every rule matches within a name's first 512 characters
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return out;
}

bool has_any(const std::string& s, std::initializer_list<std::string_view> parts) {
  return std::any_of(parts.begin(), parts.end(), [&](std::string_view p) { return s.find(p) != std::string::npos; });
}

}  // namespace

const char* op_class_name(OpClass c) {
  switch (c) {
    case OpClass::matmul:
      return "matmul";
    case OpClass::attention:
      return "attention";
    case OpClass::moe:
      return "moe";
    case OpClass::collective:
      return "collective";
    case OpClass::memcpy:
      return "memcpy";
    case OpClass::memset:
      return "memset";
    case OpClass::normalization:
      return "normalization";
    case OpClass::elementwise:
      return "elementwise";
    case OpClass::embedding:
      return "embedding";
    case OpClass::optimizer:
      return "optimizer";
    case OpClass::other:
      return "other";
  }
  return "other";
}

std::optional<Collective> collective_of(std::string_view name) {
  const std::string s = lower(name);
  if (has_any(s, {"allreduce", "all_reduce"})) return Collective::all_reduce;
  if (has_any(s, {"allgather", "all_gather"})) return Collective::all_gather;
  if (has_any(s, {"reducescatter", "reduce_scatter"})) return Collective::reduce_scatter;
  if (has_any(s, {"alltoall", "all_to_all"})) return Collective::all_to_all;
  return std::nullopt;
}

OpClass classify_kernel(std::string_view name, std::string_view category, std::string_view cpu_op) {
  if (category == "gpu_memcpy") return OpClass::memcpy;
  if (category == "gpu_memset") return OpClass::memset;
  const std::string k = lower(name), op = lower(cpu_op);
  if (has_any(k, {"nccl", "rccl", "allreduce", "all_reduce", "allgather", "all_gather", "reducescatter",
                  "reduce_scatter", "alltoall", "all_to_all", "sendrecv", "cross_device_reduce", "multimem"}))
    return OpClass::collective;
  if (has_any(op, {"moe", "expert"}) || has_any(k, {"moe", "expert"})) return OpClass::moe;
  if (has_any(op, {"attention", "sdpa", "flash_attn", "_efficient_attention", "mha"}) ||
      has_any(k, {"flash", "fmha", "attention", "attn", "paged_attention", "mha_"}))
    return OpClass::attention;
  if (has_any(k, {"rotary"})) return OpClass::elementwise;
  if (has_any(k, {"embedding", "embs", "bucketize", "fbgemm_gpu::", "bounds_check_indices"})) return OpClass::embedding;
  if (has_any(k, {"gemm", "nvjet", "xmma", "cublas", "cijk_", "bmm_", "gemv", "wgmma", "matmul", "_mm_", "hipblaslt",
                  "cutlass"}))
    return OpClass::matmul;
  if (has_any(k, {"norm"})) return OpClass::normalization;
  if (has_any(k, {"multi_tensor_apply", "adamfunctor", "fused_adam", "sgdfunctor", "lambfunctor"}))
    return OpClass::optimizer;
  if (has_any(k, {"elementwise",
                  "vectorized",
                  "unrolled",
                  "functor",
                  "reduce",
                  "softmax",
                  "copy",
                  "cat",
                  "fill",
                  "index",
                  "gather",
                  "scatter",
                  "triton",
                  "rotary",
                  "quant",
                  "act_and_mul",
                  "silu",
                  "gelu",
                  "relu",
                  "sort",
                  "scan",
                  "cub::",
                  "reshape_and_cache",
                  "neg_kernel",
                  "log",
                  "exp",
                  "transpose",
                  "permute",
                  "topk",
                  "where",
                  "arange",
                  "cast",
                  "convert"}))
    return OpClass::elementwise;
  return OpClass::other;
}

}  // namespace scalescope
