// The plausible range of every number a scenario or a preset gives, in one table keyed by field name (issue 12).
// Wide enough for any real or hypothetical chip and model, narrow enough that no combination of inputs overflows
// to Inf or NaN (a bandwidth of 1e-300 B/s is rejected here, not divided by later). Counts take whole numbers only.
#pragma once
#include <span>
#include <string_view>

namespace scalescope {

struct NumberRange {
  std::string_view field;  // the JSON key (array entries: the array's key; peak_flops_per_s: each dtype's entry)
  double min, max;         // inclusive
  bool whole;              // a count: batch, tokens, dimensions, degrees
  std::string_view unit;   // for messages
  bool zero_ok = false;    // 0 is valid too (no bytes, no FLOPs), though not the tiny values between 0 and min
};

std::span<const NumberRange> number_ranges();
const NumberRange* find_range(std::string_view field);

}  // namespace scalescope
