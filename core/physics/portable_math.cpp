#include "physics/portable_math.h"

#include <cmath>
#include <limits>

namespace scalescope {

namespace {

// ln 2 split so that k * kLn2Hi is exact for |k| < 2^11 (the high part has its low 32 bits zero; fdlibm's split).
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kInvLn2 = 1.44269504088896338700e+00;
constexpr double kSqrtHalf = 0.70710678118654752440;

}  // namespace

double portable_exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();
  if (x < -745.1332191019412) return 0.0;
  // x = k ln 2 + r with |r| <= ln(2) / 2, then exp(r) by its Taylor series to r^13 / 13! (the next term is below
  // 1e-17 of the sum), then the exact scaling by 2^k.
  const double k = std::floor(x * kInvLn2 + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  double sum = 1.0;
  for (int i = 13; i >= 1; --i) sum = 1.0 + sum * r / static_cast<double>(i);
  return std::ldexp(sum, static_cast<int>(k));
}

double portable_log(double x) {
  if (std::isnan(x) || x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<double>::infinity();
  if (std::isinf(x)) return x;
  // x = m 2^e with m in [sqrt(1/2), sqrt(2)); log m = 2 atanh(s) with s = (m - 1) / (m + 1), |s| <= 0.172, by its
  // series to s^23 / 23 (the next term is below 1e-18 of the sum).
  int e = 0;
  double m = std::frexp(x, &e);
  if (m < kSqrtHalf) {
    m *= 2.0;
    e -= 1;
  }
  const double s = (m - 1.0) / (m + 1.0), z = s * s;
  double series = 1.0 / 23.0;
  for (int i = 21; i >= 1; i -= 2) series = 1.0 / static_cast<double>(i) + z * series;
  const double k = static_cast<double>(e);
  return k * kLn2Hi + (2.0 * s * series + k * kLn2Lo);
}

double portable_expm1(double x) {
  if (std::fabs(x) >= 0.01) return portable_exp(x) - 1;
  // x + x^2/2! + ... + x^6/6!: the next term is below 2e-17 x.
  return x * (1 + x / 2 * (1 + x / 3 * (1 + x / 4 * (1 + x / 5 * (1 + x / 6)))));
}

}  // namespace scalescope
