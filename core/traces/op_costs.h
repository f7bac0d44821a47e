// The FLOPs and bytes of a CPU op from its recorded input shapes (PyTorch's record_shapes), for the ops whose
// arithmetic is fixed by their shapes: the matmuls (2·M·N·K FLOPs, scaling-book/roofline) and an all-reduce of one
// tensor.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "io/dtype.h"
#include "physics/collectives.h"
#include "traces/trace_model.h"

namespace scalescope {

bool op_has_cost_model(std::string_view op_name);

// A profiler's type name ("c10::BFloat16", "float", "BFloat16", "c10::Float8_e4m3fn") as the engine's dtype; fp16
// reads as bf16 (the same bytes, and the same peak on every preset chip).
std::optional<Dtype> dtype_of_type_name(std::string_view type_name);

struct MatmulCost {
  double batch = 1, m = 0, k = 0, n = 0;  // batch x [M,K] @ [K,N]
  double flops = 0, bytes = 0;            // 2·batch·M·N·K; each operand and the output read or written once
  Dtype dtype = Dtype::bf16;              // the first operand's
  std::string shape;                      // "888x2880 @ 2880x640", for people
};
// aten::mm, addmm, bmm, baddbmm, matmul, linear, _scaled_mm; nullopt when the shapes do not describe one matmul
// (inner dimensions that differ, a missing or unknown dtype).
std::optional<MatmulCost> matmul_cost(std::string_view op_name, const OpShape& shape);

struct CollectiveBytes {
  Collective op = Collective::all_reduce;
  double bytes = 0;  // V (scaling-book/gpus, collective costs): the whole array one group member sees (gathered, or not
                     // yet reduced)
  int group_size = 0;
};
// From a profiler's collective record (the kernel's or record_param_comms' args).
std::optional<CollectiveBytes> collective_bytes(const CollectiveRecord& record, std::string_view kernel_name);
// From a CPU op that all-reduces its first input in place (symm_mem::multimem_all_reduce_, a custom all-reduce),
// over `world_size` ranks.
std::optional<CollectiveBytes> all_reduce_op_bytes(std::string_view op_name, const OpShape& shape, int world_size);

}  // namespace scalescope
