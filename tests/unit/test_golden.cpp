// Every golden case (tests/golden/*.json) through the CLI's entry point, evaluate_json.
#include <catch2/catch.hpp>

#include "api.h"
#include "golden_cases.h"

TEST_CASE("golden cases from the book's worked examples", "[golden]") {
  const auto cases = scalescope::golden::load_cases(scalescope::golden::golden_dir());
  REQUIRE(cases.size() >= 40);
  for (const auto& c : cases) {
    const auto evaluation = nlohmann::json::parse(scalescope::evaluate_json(c.scenario.dump()));
    const auto failures = scalescope::golden::check(c, evaluation);
    std::string report;
    for (const auto& f : failures) report += "\n  " + f;
    INFO(c.file << " :: " << c.name << " (" << c.citation << ")" << report);
    CHECK(failures.empty());
  }
}
