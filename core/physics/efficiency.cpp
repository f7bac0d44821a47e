#include "physics/efficiency.h"

#include <algorithm>
#include <cmath>

namespace scalescope {

namespace {
// std::ceil and std::floor of a non-negative x, through an integer conversion (SSE2's cvttsd2si: the baseline x86-64
// build has no rounding instruction, and a libm call per tile count is most of a calibrated step's time). Exact,
// like std's, for every x below 2^62; beyond, std's.
constexpr double kExactIntegers = 4.6e18;
double ceil_of(double x) {
  if (!(x < kExactIntegers)) return std::ceil(x);
  const double t = static_cast<double>(static_cast<long long>(x));
  return t < x ? t + 1.0 : t;
}
double floor_of(double x) {
  if (!(x < kExactIntegers)) return std::floor(x);
  return static_cast<double>(static_cast<long long>(x));
}

// The fraction of `extent` rounded up to whole tiles that holds real data.
double padding(double extent, double tile) {
  if (extent <= 0 || tile <= 1) return 1.0;
  return extent / (ceil_of(extent / tile) * tile);
}
}  // namespace

double matmul_shape_efficiency(double m, double k, double n, const MatmulTiling& t) {
  double e = padding(m, t.tile_m) * padding(n, t.tile_n) * padding(k, t.tile_k);
  if (t.parallel_tiles > 1) {
    // Too few output tiles to fill the SMs: kernels split the contraction (split-K / stream-K) into at most
    // K / tile_k pieces, so that each SM has work.
    double tiles = ceil_of(m / t.tile_m) * ceil_of(n / t.tile_n);
    if (tiles < t.parallel_tiles)
      tiles *= std::max(1.0, std::min(floor_of(t.parallel_tiles / tiles), floor_of(k / t.tile_k)));
    e *= tiles / (ceil_of(tiles / t.parallel_tiles) * t.parallel_tiles);
  }
  return e;
}

}  // namespace scalescope
