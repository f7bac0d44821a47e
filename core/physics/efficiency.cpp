#include "physics/efficiency.h"

#include <algorithm>
#include <cmath>

#include "physics/portable_math.h"

namespace scalescope {

namespace {

// The fraction of `extent` rounded up to whole tiles that holds real data.
double padding(double extent, double tile) {
  if (extent <= 0 || tile <= 1) return 1.0;
  return extent / (whole_ceil(extent / tile) * tile);
}
}  // namespace

double matmul_shape_efficiency(double m, double k, double n, const MatmulTiling& t) {
  double e = padding(m, t.tile_m) * padding(n, t.tile_n) * padding(k, t.tile_k);
  if (t.parallel_tiles > 1) {
    // Too few output tiles to fill the SMs: kernels split the contraction (split-K / stream-K) into at most
    // K / tile_k pieces, so that each SM has work.
    double tiles = whole_ceil(m / t.tile_m) * whole_ceil(n / t.tile_n);
    if (tiles < t.parallel_tiles)
      tiles *= std::max(1.0, std::min(whole_floor(t.parallel_tiles / tiles), whole_floor(k / t.tile_k)));
    e *= tiles / (whole_ceil(tiles / t.parallel_tiles) * t.parallel_tiles);
  }
  return e;
}

}  // namespace scalescope
