// A device mesh: named axes laid onto a TPU torus (one mesh axis per physical axis, the book's convention in
// jax-ml.github.io/scaling-book/sharding) or onto GPUs (the last axis innermost, inside the NVLink domain), plus slices
// over DCN.
#pragma once
#include <string>
#include <vector>

#include "io/json_reader.h"
#include "physics/collectives.h"
#include "physics/topology.h"
#include "specs/hardware.h"

namespace scalescope {

struct MeshAxis {
  std::string name;
  int size = 1;
  bool wraps = false;  // TPU: torus wraparound on this axis
  bool dcn = false;    // the axis that joins slices over DCN
};

// A mesh's axis names when the scenario gives none, in order (docs/api.md "Mesh"): the engine's one list of them.
inline constexpr const char* kDefaultAxisNames[] = {"X", "Y", "Z", "W", "V", "U"};
inline constexpr int kMaxMeshAxes = 6;

inline constexpr double kMaxMeshChips = 1e8;       // far beyond any real cluster; keeps every product finite
inline constexpr int kMaxMeshAxisChips = 1 << 20;  // one axis of a mesh (the largest any chip's scale-up domain lists)

struct Mesh {
  std::vector<MeshAxis> axes;  // ICI / scale-up axes in order, then the DCN axis if slices > 1
  double chips = 1;            // all chips, all slices
  double chips_per_slice = 1;
  double slices = 1;
  TpuSlice tpu;  // TPU only: the slice description

  int find(const std::string& name) const;
  std::vector<std::string> names() const;
};

// Reads {"shape": [4,4,4], "axis_names": ["X","Y","Z"], "slices": 2, "slice_axis_name": "S", "wraparound": [...]}
// TPU shapes are torus slices (validated against the pod); GPU shapes are any factorisation of the GPU count.
Mesh parse_mesh(const Json& node, const std::string& path, const Hardware& hw, Diagnostics& diagnostics);

struct CollectiveOptions {
  bool in_network_reduction = false;  // GPU SHARP
  double traffic_frac = 1.0;          // ragged AllToAll
};

// The cost of `op` on `bytes` over the given mesh axes (indices into mesh.axes). DCN axes may not be mixed with
// ICI axes in one collective (the book treats them as separate hierarchical steps).
CollectiveCost mesh_collective(const Hardware& hw, const Mesh& mesh, Collective op, double bytes, const int* axes,
                               int n_axes, const CollectiveOptions& options);

}  // namespace scalescope
