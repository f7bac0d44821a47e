#include "io/ranges.h"

namespace scalescope {

namespace {

constexpr bool kWhole = true, kReal = false, kOrZero = true;
// One row per field, generated from the schema's ranges (schema/: each number's minimum, maximum, integer type and
// x-unit): bandwidths from 1 MB/s to 100 PB/s, FLOP/s from 1 GFLOP/s to 10 EFLOP/s, memories from 1 kB; sizes,
// degrees and lengths as the planners can hold them finite (a product of every maximum stays below 1e300).
constexpr NumberRange kRanges[] = {
#include "io/ranges_table.inc"
};

}  // namespace

std::span<const NumberRange> number_ranges() { return kRanges; }

const NumberRange* find_range(std::string_view field) {
  for (const NumberRange& r : kRanges)
    if (r.field == field) return &r;
  return nullptr;
}

}  // namespace scalescope
