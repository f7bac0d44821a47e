// The book's sharding notation (jax-ml.github.io/scaling-book/sharding): `A[I_X, J_YZ]{U_X}`, an array's memory under a
// sharding. The four cases of a sharded matmul build on it (physics/sharded_matmul.h). Parsing allocates; it is not a
// hot path.
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

// Devices one shard spans: the product of the mesh axes' sizes.
double shard_count(const std::vector<int>& axes, const Mesh& mesh);

// "A[I_X, J]{U_Y}" with the mesh's axis names.
std::string format_sharded_array(const ShardedArray& array, const Mesh& mesh);

using DimSizes = std::map<std::string, double>;

struct ArrayMemory {
  double elements = 0;  // of the whole (logical) array
  double bytes_per_device = 0;
  double total_bytes_all_devices = 0;  // counting replicas
  double replication = 1;              // devices holding each shard: product of the unused mesh axes
  std::vector<double> local_shape;
};

// scaling-book/sharding: bytes per device = total / product of the mesh axes used; replicas over the unused axes.
ArrayMemory array_memory(const ShardedArray& array, const DimSizes& sizes, Dtype dtype, const Mesh& mesh);

// Checks every dim has a size (else a diagnostic at `dims_path`) and is divisible by its shards (at its own entry).
void check_array_sizes(const ShardedArray& array, const DimSizes& sizes, const Mesh& mesh, const std::string& dims_path,
                       Diagnostics& diagnostics);

}  // namespace scalescope
