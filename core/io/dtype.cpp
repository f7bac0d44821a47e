#include "io/dtype.h"

namespace scalescope {

std::string_view dtype_name(Dtype d) {
  switch (d) {
    case Dtype::fp32:
      return "fp32";
    case Dtype::bf16:
      return "bf16";
    case Dtype::fp8:
      return "fp8";
    case Dtype::int8:
      return "int8";
    case Dtype::int4:
      return "int4";
    case Dtype::fp4:
      return "fp4";
  }
  return "?";
}

std::optional<Dtype> parse_dtype(std::string_view name) {
  for (Dtype d : kAllDtypes)
    if (dtype_name(d) == name) return d;
  return std::nullopt;
}

const char* dtype_choices() { return "fp32, bf16, fp8, int8, int4, fp4"; }

}  // namespace scalescope
