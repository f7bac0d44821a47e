// Numeric formats and their sizes (jax-ml.github.io/scaling-book (its notation): bf16 = 2 bytes, int8/fp8 = 1, int4 =
// 0.5, fp32 = 4).
#pragma once
#include <array>
#include <optional>
#include <string_view>

namespace scalescope {

enum class Dtype { fp32, bf16, fp8, int8, int4, fp4 };
inline constexpr std::array<Dtype, 6> kAllDtypes = {Dtype::fp32, Dtype::bf16, Dtype::fp8,
                                                    Dtype::int8, Dtype::int4, Dtype::fp4};
inline constexpr std::size_t kDtypeCount = kAllDtypes.size();

constexpr double bytes_per_element(Dtype d) {
  switch (d) {
    case Dtype::fp32:
      return 4.0;
    case Dtype::bf16:
      return 2.0;
    case Dtype::fp8:
      return 1.0;
    case Dtype::int8:
      return 1.0;
    case Dtype::int4:
      return 0.5;
    case Dtype::fp4:
      return 0.5;
  }
  return 0.0;
}

constexpr std::size_t dtype_index(Dtype d) { return static_cast<std::size_t>(d); }

std::string_view dtype_name(Dtype d);
std::optional<Dtype> parse_dtype(std::string_view name);
// "fp32, bf16, fp8, int8, int4, fp4"
const char* dtype_choices();

}  // namespace scalescope
