// Reads the pieces of a plan that the training and serving queries share: mesh axes per strategy (each mesh
// axis used once), efficiency knobs.
#pragma once
#include <string>
#include <vector>

#include "io/json_reader.h"
#include "physics/mesh.h"
#include "planners/training.h"

namespace scalescope {

// The index of the mesh axis `name` names, or -1 with an unknown_mesh_axis diagnostic listing the mesh's axes.
int find_mesh_axis(const Json& name, const std::string& path, const Mesh& mesh, Diagnostics& d);

// Reads `key` (an array of mesh axis names) into `group`; marks each axis in `used` and reports reuse.
void read_axis_group(JsonReader& r, const char* key, const Mesh& mesh, AxisGroup& group, std::vector<int>& used,
                     Diagnostics& d);

// Every mesh axis must carry some strategy: an unused axis would silently replicate the whole job.
void check_all_axes_used(const Mesh& mesh, const std::vector<int>& used, const std::string& path, Diagnostics& d);

Efficiency read_efficiency(JsonReader& args, Diagnostics& d);

}  // namespace scalescope
