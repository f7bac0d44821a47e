// Issue 12: the structured mutator's scenarios (tests/mutations.h) all get a sound answer (tests/invariants.h):
// no crash, no NaN or Inf, no engine failure, every diagnostic with a path, a code and a message. The same suite
// runs natively and under wasm; scripts/test.sh compares the two runs' answers byte for byte (golden_dump).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "api.h"
#include "invariants.h"
#include "mutations.h"

// Under the sanitizers (the debug preset, no NDEBUG) every 10th: -O0 with ASan is ~50x slower, and the libFuzzer
// target runs under ASan/UBSan too. Release and wasm run them all.
#ifdef NDEBUG
constexpr std::size_t kStride = 1;
#else
constexpr std::size_t kStride = 10;
#endif

// Issue 20: each result's parts add up to its step (answer_problems) and the book's ideal beside a calibrated number
// is below it (ideal_problems), first on the unmutated bases: every golden case and docs/api.md example.
TEST_CASE("every golden scenario's ideal lies below its calibrated estimate, and its step adds up", "[mutations]") {
  const auto bases = scalescope::mutations::base_scenarios();
  REQUIRE(bases.size() > 250);
  for (const auto& b : bases) {
    const std::string answer = scalescope::evaluate_json(b.scenario);
    for (const auto& p : scalescope::invariants::answer_problems(answer)) FAIL_CHECK(b.name << ": " << p);
    for (const auto& p : scalescope::invariants::ideal_problems(nlohmann::json::parse(b.scenario), answer))
      FAIL_CHECK(b.name << ": " << p);
  }
}

TEST_CASE("valid scenarios with each field pushed to an extreme get sound answers, and validate agrees",
          "[mutations]") {
  const auto mutations = scalescope::mutations::mutated_scenarios(kStride);
  REQUIRE(mutations.size() > 50'000 / kStride);
  std::size_t unsound = 0;
  for (const auto& m : mutations) {
    const std::string answer = scalescope::evaluate_json(m.scenario);
    auto problems = scalescope::invariants::answer_problems(answer);
    for (auto& p : scalescope::invariants::ideal_problems(nlohmann::json::parse(m.scenario), answer))
      problems.push_back(p);
    // Issue 41: validate read the query's kind but not its arguments, and passed 4,590 of 11,936 scenarios that
    // evaluate refused. It must give exactly evaluate's diagnostics.
    const auto validated = nlohmann::json::parse(scalescope::validate_json(m.scenario));
    const auto evaluated = nlohmann::json::parse(answer);
    if (validated["diagnostics"] != evaluated["diagnostics"] || validated["ok"] != evaluated["ok"])
      problems.push_back("validate disagrees with evaluate: " + validated["diagnostics"].dump().substr(0, 300));
    if (problems.empty()) continue;
    // Report the first few in full; count the rest.
    if (++unsound <= 20) {
      std::string report;
      for (const auto& p : problems) report += "\n  " + p;
      FAIL_CHECK(m.name << report);
    }
  }
  CHECK(unsound == 0);
}
