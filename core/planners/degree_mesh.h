// The mesh for parallelism degrees given as numbers (the explorer's controls and links, the `plan_mesh` query):
// which slice shape, and which axes each strategy takes.
//  - TPU: each strategy on whole torus axes, on the most cube-like slice that holds them (the smallest largest
//    axis: shorter rings, and a strategy over two axes gets twice the bandwidth, scaling-book/sharding, collective
//    costs), then on fewer axes, then the most balanced (4x4x8 before 8x2x8). Failing that (more strategies than
//    axes, PP 35 x TP 32 x FSDP 4), a training plan may run on the most cube-like slice on which every degree takes a
//    factor of each axis: the strategies are then sent as degrees and the engine lays them out itself
//    (planners/plan_layout.h; scaling-book/sharding, sharding notation).
//  - GPU: one axis per strategy, tensor innermost (inside the NVLink domain first, scaling-book/gpus, collectives),
//    pipeline outermost.
//  - Slices (TPU) join over a DCN axis that data or FSDP spans (scaling-book/training, multi-pod over DCN).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "physics/layout.h"
#include "specs/hardware.h"

namespace scalescope {

struct DegreeMeshInput {
  const Hardware* hw = nullptr;
  // Per slice, in TrainingPlan's order (data, fsdp, tensor, pipeline, expert, context); each at least 1.
  std::array<std::int64_t, kLayoutStrategies> degrees{1, 1, 1, 1, 1, 1};
  std::int64_t slices = 1;
  int dcn_strategy = 0;       // the strategy the DCN axis joins: data (0) or fsdp (1)
  bool engine_layout = true;  // may fall back to degrees the engine lays out (training; a serving replica may not)
};

struct DegreeMesh {
  bool ok = false;
  std::string code, problem;  // why the degrees have no mesh
  std::vector<int> shape;     // the slice's axes, named X, Y, Z, ... in order
  // Each strategy's whole axes (indices into `shape`; shape.size() names the DCN axis). With `engine_layout`, only
  // the DCN strategy has an axis: every other strategy is sent as its degree.
  std::array<std::vector<int>, kLayoutStrategies> axes;
  bool engine_layout = false;
  double chips_per_slice = 1, chips = 1;
};

DegreeMesh mesh_for_degrees(const DegreeMeshInput& in);

// The name of mesh axis `i` of such a mesh ("X", "Y", ...; `dcn` the axis joining slices).
const char* degree_mesh_axis_name(int i, bool dcn);

}  // namespace scalescope
