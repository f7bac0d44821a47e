// Prints every golden case's full result, one JSON line per case: run natively and under Node, the two outputs
// must be byte-identical (DESIGN.md: native and wasm agree bit for bit). With --mutations, one line per scenario
// of the structured mutator (tests/mutations.h) with a hash of its whole answer (issue 12). With --seeds DIR, the
// fuzzer's seed corpus: the mutator's bases and every 25th mutation, one file each.
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "api.h"
#include "golden_cases.h"
#include "mutations.h"

namespace {

// The answer with every non-integer number replaced by 0.
std::string numbers_masked(const std::string& answer) {
  nlohmann::json j = nlohmann::json::parse(answer, nullptr, false);
  std::vector<nlohmann::json*> stack{&j};
  while (!stack.empty()) {
    nlohmann::json* node = stack.back();
    stack.pop_back();
    if (node->is_number_float()) *node = 0.0;
    else if (node->is_structured())
      for (auto& child : *node) stack.push_back(&child);
  }
  return j.dump();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--mutations") == 0) {
    for (const auto& m : scalescope::mutations::mutated_scenarios()) {
      const std::string answer = scalescope::evaluate_json(m.scenario);
      // calibrate's fit takes std::exp / std::log from the platform's libm (glibc natively, musl in wasm), which
      // differ in the last bit, and a fit from an extreme start amplifies that: its numbers are left out of the
      // hash (structure, codes and messages still compared) until the engine has a libm of its own.
      const bool masked = nlohmann::json::parse(m.scenario, nullptr, false).value("/query/kind"_json_pointer, "") == "calibrate";
      std::printf("%s :: %016" PRIx64 "%s\n", m.name.c_str(),
                  scalescope::mutations::fnv1a(masked ? numbers_masked(answer) : answer), masked ? " (numbers masked)" : "");
    }
    return 0;
  }
  if (argc > 2 && std::strcmp(argv[1], "--seeds") == 0) {
    auto seeds = scalescope::mutations::base_scenarios();
    const auto mutations = scalescope::mutations::mutated_scenarios();
    for (std::size_t i = 0; i < mutations.size(); i += 25) seeds.push_back(mutations[i]);
    for (std::size_t i = 0; i < seeds.size(); ++i)
      std::ofstream(std::string(argv[2]) + "/seed_" + std::to_string(i) + ".json", std::ios::binary) << seeds[i].scenario;
    std::printf("%zu seeds in %s\n", seeds.size(), argv[2]);
    return 0;
  }
  for (const auto& c : scalescope::golden::load_cases(scalescope::golden::golden_dir())) {
    const std::string out = scalescope::evaluate_json(c.scenario.dump());
    std::printf("%s :: %s :: %s\n", c.file.c_str(), c.name.c_str(), out.c_str());
  }
  return 0;
}
