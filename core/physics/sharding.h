// The book's sharding notation (spec/book.md §2.3, §2.4): `A[I_X, J_YZ]{U_X}` and the four cases of a sharded
// matmul, with the collectives each needs and their cost on a mesh. Parsing allocates; it is not a hot path.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/diagnostics.h"
#include "io/dtype.h"
#include "physics/mesh.h"

namespace scalescope {

struct ShardedDim {
  std::string name;
  std::vector<int> axes;  // mesh axis indices, in order (I_XY splits I over X then Y)
};

struct ShardedArray {
  std::string name;
  std::vector<ShardedDim> dims;
  std::vector<int> unreduced;  // {U_X}

  bool uses_axis(int axis) const;
  const ShardedDim* dim(const std::string& dim_name) const;
};

// Parses one array, e.g. "A[I_X, J]" or "C[I, K]{U_Y}". Subscripts are split into mesh axis names by longest
// match. Unknown axes, an axis used twice and syntax errors become diagnostics at `path`.
std::optional<ShardedArray> parse_sharded_array(std::string_view text, const Mesh& mesh, const std::string& path,
                                                Diagnostics& diagnostics);

// "A[I_X, J]{U_Y}" with the mesh's axis names.
std::string format_sharded_array(const ShardedArray& array, const Mesh& mesh);

using DimSizes = std::map<std::string, double>;

struct ArrayMemory {
  double elements = 0;               // of the whole (logical) array
  double bytes_per_device = 0;
  double total_bytes_all_devices = 0;  // counting replicas
  double replication = 1;            // devices holding each shard: product of the unused mesh axes
  std::vector<double> local_shape;
};

// §2.3: bytes per device = total / product of the mesh axes used; replicas over the unused axes.
ArrayMemory array_memory(const ShardedArray& array, const DimSizes& sizes, Dtype dtype, const Mesh& mesh);

// Checks every dim has a size (else a diagnostic at `dims_path`) and is divisible by its shards (at its own entry).
void check_array_sizes(const ShardedArray& array, const DimSizes& sizes, const Mesh& mesh, const std::string& dims_path,
                       Diagnostics& diagnostics);

struct CommStep {
  Collective op = Collective::all_gather;
  std::string array;        // which array it acts on ("A", "B", "C")
  std::string before, after;  // sharding before and after, in the book's notation
  std::vector<int> axes;
  double bytes = 0;         // V, per group (§2.5)
  CollectiveCost cost;
};

struct MatmulPlan {
  std::string name;         // "local", "gather_then_multiply", "multiply_then_reduce", ...
  std::vector<CommStep> steps;
  std::string local_op;     // the matmul each device runs, in the book's notation
  std::string output;       // the result's sharding after the steps
  double flops_per_device = 0;
  double compute_s = 0;
  double comms_s = 0;       // sum of the steps (they sit on the critical path)
  double lower_bound_s = 0; // max(compute, comms)
  double upper_bound_s = 0; // compute + comms
};

struct ShardedMatmul {
  int book_case = 1;        // §2.4 case 1..4
  std::string description;
  std::vector<MatmulPlan> plans;  // alternatives, cheapest (by lower bound) first
  double total_flops = 0;   // 2 x product of all dims, counted once
};

// §2.4: analyses `A * B -> C` (C optional). `sizes` gives every dim's length. Uses the mesh's collectives.
std::optional<ShardedMatmul> analyse_sharded_matmul(std::string_view expression, const DimSizes& sizes, Dtype dtype,
                                                    const Hardware& hw, const Mesh& mesh,
                                                    const CollectiveOptions& options, const std::string& path,
                                                    const std::string& dims_path, Diagnostics& diagnostics);

}  // namespace scalescope
