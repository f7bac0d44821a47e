// The structured mutator of issue 12: valid scenarios with each field pushed to an extreme. The bases are every
// valid golden scenario (tests/golden/*.json) and every docs/api.md example; each numeric leaf takes each extreme
// (0, -0, 1e-300, 5e-324, 1e300, -1, 0.5, huge integers, a string, null, an array, an object, deep nesting),
// each text leaf a few (empty, non-ASCII with a quote, too long); and each number of the hardware and model
// presets a scenario names is given as an override with each extreme (a preset's numbers are the scenario's too),
// on one base per query kind, chip and model. Deterministic: native and wasm see the same list.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace scalescope::mutations {

struct Mutation {
  std::string name;      // base scenario :: JSON pointer = extreme
  std::string scenario;  // JSON text
};

// Every `stride`-th one (1: all), in a fixed order.
std::vector<Mutation> mutated_scenarios(std::size_t stride = 1);

// The mutator's bases as they are (the fuzzer's seed corpus: golden_dump --seeds).
std::vector<Mutation> base_scenarios();

// FNV-1a, 64 bits: golden_dump --mutations prints one per answer, so that native and wasm can be compared
// without writing gigabytes.
std::uint64_t fnv1a(std::string_view text);

}  // namespace scalescope::mutations
