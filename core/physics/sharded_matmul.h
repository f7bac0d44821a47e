// A matmul of two sharded arrays (jax-ml.github.io/scaling-book/sharding): its case, and the plans that run it on a
// mesh, each with the collectives it needs, its FLOPs, its HBM traffic and their times (scaling-book/roofline: the
// lower bound is the slowest). Dimensions follow the contraction rule of scaling-book/transformers: a dimension of both
// inputs is contracted, unless the output keeps it (a batch dimension, e.g. X[B, D] * W[B, D, F] -> Y[B, F]); a
// dimension of one input is free.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "physics/sharding.h"

namespace scalescope {

struct CommStep {
  Collective op = Collective::all_gather;
  std::string array;          // which array it acts on ("A", "B", "C")
  std::string before, after;  // sharding before and after, in the book's notation
  // An AllGather over an axis that is not the minor-most of a dimension's split (Y of I_YX) leaves each shard every
  // |X|-th block, not a contiguous one: `after` names the axes left, and this says the split is interleaved.
  bool interleaved = false;
  std::vector<int> axes;
  double bytes = 0;  // V, per group (scaling-book/sharding)
  CollectiveCost cost;
};

struct MatmulPlan {
  std::string name;  // "local", "gather_then_multiply", "multiply_then_reduce", ...
  std::vector<CommStep> steps;
  std::string local_op;  // the matmul each device runs, in the book's notation
  std::string output;    // the result's sharding after the steps
  double flops_per_device = 0;
  double compute_s = 0;
  double hbm_bytes_per_device = 0;  // the local matmul's operands and result, read and written once
                                    // (scaling-book/roofline)
  double memory_s = 0;              // hbm_bytes_per_device / HBM bandwidth
  double comms_s = 0;               // sum of the steps (they sit on the critical path)
  double lower_bound_s = 0;         // max(compute, memory, comms)
  double upper_bound_s = 0;         // compute + memory + comms
  const char* bound = "compute";    // the largest of the three: "compute" | "memory" | "communication"
};

struct ShardedMatmul {
  int book_case = 1;  // scaling-book/sharding, case 1..4
  std::string description;
  std::vector<std::string> contracting_dims, batch_dims;
  std::vector<MatmulPlan> plans;  // alternatives, cheapest (by lower bound) first
  double total_flops = 0;         // 2 x product of all dims, counted once
};

// scaling-book/sharding, sharded matmuls: analyses `A * B -> C` (C optional: without it every shared dimension is
// contracted, einsum's rule, and a warning says so when there are several). `sizes` gives every dim's length. Uses the
// mesh's collectives.
std::optional<ShardedMatmul> analyse_sharded_matmul(std::string_view expression, const DimSizes& sizes, Dtype dtype,
                                                    const Hardware& hw, const Mesh& mesh,
                                                    const CollectiveOptions& options, const std::string& path,
                                                    const std::string& dims_path, Diagnostics& diagnostics);

}  // namespace scalescope
