// Every scenario example in docs/api.md runs and is valid: the documentation cannot drift from the engine.
#include <fstream>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>

#include "api.h"

TEST_CASE("docs/api.md examples are valid scenarios", "[docs]") {
  std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/docs/api.md");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  std::set<std::string> kinds;
  for (std::size_t at = doc.find("```json\n"); at != std::string::npos; at = doc.find("```json\n", at + 1)) {
    const std::size_t start = at + 8, end = doc.find("```", start);
    REQUIRE(end != std::string::npos);
    const std::string block = doc.substr(start, end - start);
    const auto scenario = nlohmann::json::parse(block, nullptr, false);
    if (scenario.is_discarded() || !scenario.contains("query")) continue;  // a result or mesh snippet
    kinds.insert(scenario["query"].value("kind", ""));
    const auto out = nlohmann::json::parse(scalescope::evaluate_json(block));
    INFO(block << "\n-> " << out["diagnostics"].dump());
    CHECK(out["ok"] == true);
  }
  // At least one runnable example per query kind.
  const auto presets = nlohmann::json::parse(scalescope::presets_json());  // keep it alive for the loop
  for (const auto& kind : presets["queries"]) {
    INFO("no example of query kind " << kind);
    CHECK(kinds.count(kind.get<std::string>()) == 1);
  }
}
