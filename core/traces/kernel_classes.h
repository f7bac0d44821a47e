// What a kernel does, from its name, its trace category and the CPU op that launched it: the classes of the
// calibrated step's breakdown (matmuls, attention, MoE, collectives) and the rest a profile shows. The rules are
// substrings of the names that cuBLAS/cuBLASLt (nvjet, sm90_xmma, ampere_*gemm), CUTLASS, hipBLASLt (Cijk_),
// FlashAttention/FlashInfer/TensorRT-LLM (fmha), NCCL/RCCL, PyTorch's ATen and Triton give their kernels.
#pragma once
#include <array>
#include <optional>
#include <string_view>

#include "physics/collectives.h"

namespace scalescope {

enum class OpClass {
  matmul,
  attention,
  moe,
  collective,
  memcpy,
  memset,
  normalization,
  elementwise,
  embedding,
  optimizer,
  other
};
inline constexpr std::array<OpClass, 11> kOpClasses = {OpClass::matmul,        OpClass::attention,   OpClass::moe,
                                                       OpClass::collective,    OpClass::memcpy,      OpClass::memset,
                                                       OpClass::normalization, OpClass::elementwise, OpClass::embedding,
                                                       OpClass::optimizer,     OpClass::other};
const char* op_class_name(OpClass c);

// `category` is the event's `cat` ("kernel", "gpu_memcpy", "gpu_memset"); `cpu_op` the launching op's name, or
// empty. The op decides MoE and attention (a grouped GEMM under vllm::moe_forward is MoE); the kernel name the rest.
OpClass classify_kernel(std::string_view name, std::string_view category, std::string_view cpu_op);

// The collective a kernel or op name or a profiler's "Collective name" performs (NCCL's AllGather, torch's
// _allgather_base, symm_mem's multimem_all_reduce_), if it is one the book prices.
std::optional<Collective> collective_of(std::string_view name);

}  // namespace scalescope
