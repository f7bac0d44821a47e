// Prints every golden case's full result, one JSON line per case, then the validation suite's calibrate and
// family-held-out validation: run natively and under Node, the two outputs must be byte-identical (docs/design.md:
// native and wasm agree bit for bit). With --mutations, one line per scenario of the structured mutator
// (tests/mutations.h) with a hash of its whole answer (issue 12); with --mutations --answers, one JSON line per
// mutated scenario, {name, scenario, answer}, for the schema's agreement test (web/test/schema-mutations.test.ts).
// With --seeds DIR, the fuzzer's seed corpus: the mutator's bases and every 25th mutation, one file each. With
// --scenarios, each line's scenario text. With --evaluate, each line of stdin is a scenario and its answer a line
// out (the schema tests' probes of the readers).
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "api.h"
#include "golden_cases.h"
#include "mutations.h"

namespace {

// The project's validation suite, calibrated and validated with every family held out: thousands of exp and log
// calls in a fit, which must give the same bits natively and in wasm (issue 22, item 13).
std::vector<std::pair<std::string, std::string>> calibration_cases() {
  std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/tests/validation/published-runs.json");
  const nlohmann::json suite = nlohmann::json::parse(in, nullptr, false);
  if (!suite.is_object() || !suite.contains("runs")) return {{"published-runs.json", "unreadable"}};
  const nlohmann::json& runs = suite["runs"];
  return {{"calibrate", nlohmann::json{{"query", {{"kind", "calibrate"}, {"runs", runs}}}}.dump()},
          {"validation with each family held out",
           nlohmann::json{{"query", {{"kind", "validation"}, {"family_holdout", true}, {"runs", runs}}}}.dump()}};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--mutations") == 0) {
    const bool answers = argc > 2 && std::strcmp(argv[2], "--answers") == 0;
    for (const auto& m : scalescope::mutations::mutated_scenarios()) {
      const std::string answer = scalescope::evaluate_json(m.scenario);
      if (answers)
        std::printf("{\"name\": %s, \"scenario\": %s, \"answer\": %s}\n", nlohmann::json(m.name).dump().c_str(),
                    m.scenario.c_str(), answer.c_str());
      else
        std::printf("%s :: %016" PRIx64 "\n", m.name.c_str(), scalescope::mutations::fnv1a(answer));
    }
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "--evaluate") == 0) {
    for (std::string line; std::getline(std::cin, line);) std::printf("%s\n", scalescope::evaluate_json(line).c_str());
    return 0;
  }
  if (argc > 2 && std::strcmp(argv[1], "--seeds") == 0) {
    auto seeds = scalescope::mutations::base_scenarios();
    const auto mutations = scalescope::mutations::mutated_scenarios();
    for (std::size_t i = 0; i < mutations.size(); i += 25) seeds.push_back(mutations[i]);
    for (std::size_t i = 0; i < seeds.size(); ++i)
      std::ofstream(std::string(argv[2]) + "/seed_" + std::to_string(i) + ".json", std::ios::binary)
          << seeds[i].scenario;
    std::printf("%zu seeds in %s\n", seeds.size(), argv[2]);
    return 0;
  }
  // With --scenarios, the scenario text of each line instead of its answer, for another binding to evaluate and
  // compare (the Python module's test, python/tests/test_golden.py).
  const bool scenarios = argc > 1 && std::strcmp(argv[1], "--scenarios") == 0;
  for (const auto& c : scalescope::golden::load_cases(scalescope::golden::golden_dir())) {
    if (scenarios) {
      std::printf("%s :: %s :: %s\n", c.file.c_str(), c.name.c_str(), c.scenario.dump().c_str());
      continue;
    }
    const std::string out = scalescope::evaluate_json(c.scenario.dump());
    std::printf("%s :: %s :: %s\n", c.file.c_str(), c.name.c_str(), out.c_str());
  }
  for (const auto& [name, scenario] : calibration_cases())
    std::printf("published-runs.json :: %s :: %s\n", name.c_str(),
                scenarios ? scenario.c_str() : scalescope::evaluate_json(scenario).c_str());
  return 0;
}
