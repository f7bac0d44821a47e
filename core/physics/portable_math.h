// exp and log that give the same bits on every platform (issue 22, item 13). The C library's exp and log may differ
// in the last bit between glibc (native) and Emscripten's musl (wasm), and a fit that calls them thousands of times
// turns one bit into different fitted profiles. These use only +, -, *, / and exact scaling by powers of two, which
// IEEE 754 rounds the same everywhere (with -ffp-contract=off, docs/design.md), and are accurate to about 1 ulp.
#pragma once

#include <cmath>
#include <cstdint>

namespace scalescope {

double portable_exp(double x);
double portable_log(double x);  // x > 0; log(0) is -inf, a negative x or NaN gives NaN
// exp(x) - 1, accurate where x is small (a checkpoint interval over a job's MTBF): its Taylor series below 0.01.
double portable_expm1(double x);

// Whether b is a whole multiple of a: std::fmod(b, a) == 0, for any a and b. Whole numbers below 2^53 (every
// degree, count and token count a plan has) take an integer remainder, which is exact and far cheaper than fmod
// (musl's, in wasm, loops over the bits): a plan search asks it a dozen times a plan.
inline bool divides(double a, double b) {
  constexpr double kExact = 9007199254740992.0;  // 2^53
  if (a >= 1 && a < kExact && b >= 0 && b < kExact) {
    const auto ia = static_cast<std::int64_t>(a), ib = static_cast<std::int64_t>(b);
    if (static_cast<double>(ia) == a && static_cast<double>(ib) == b) return ib % ia == 0;
  }
  return std::fmod(b, a) == 0;
}

// std::ceil and std::floor of a non-negative x, through an integer conversion (SSE2's cvttsd2si: the baseline x86-64
// build has no rounding instruction, and a libm call per tile count is most of a calibrated step's time). Exact,
// like std's, for every x below 2^62; beyond, std's.
inline double whole_ceil(double x) {
  constexpr double kExactIntegers = 4.6e18;
  if (!(x < kExactIntegers)) return std::ceil(x);
  const double t = static_cast<double>(static_cast<long long>(x));
  return t < x ? t + 1.0 : t;
}
inline double whole_floor(double x) {
  constexpr double kExactIntegers = 4.6e18;
  if (!(x < kExactIntegers)) return std::floor(x);
  return static_cast<double>(static_cast<long long>(x));
}

}  // namespace scalescope
