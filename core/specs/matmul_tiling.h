// The matmul tile a chip's kernels work in (the software's choice as much as the silicon's): an MXU is a 128x128 or
// 256x256 systolic array fed by 8-row slices; a GPU kernel tiles the output into thread-block tiles (e.g. 128x256
// on H100) spread over the SMs in waves. Part of a calibration profile; physics/efficiency.h uses it.
#pragma once

namespace scalescope {

struct MatmulTiling {
  double tile_m = 1, tile_n = 1, tile_k = 1;  // rows of the LHS, columns of the RHS, the contraction
  double parallel_tiles = 1;                  // tiles in flight at once (SMs on a GPU; 1 on a TPU core)
};

}  // namespace scalescope
