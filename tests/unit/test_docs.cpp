// Every scenario example in docs/api.md runs and is valid, every diagnostic code and every limit is documented:
// the documentation cannot drift from the engine.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "api.h"
#include "io/limits.h"
#include "io/ranges.h"

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

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string api_md() { return read_text(std::string(SCALESCOPE_SOURCE_DIR) + "/docs/api.md"); }

// docs/api.md's "## Limits" section, up to the next "## " heading.
std::string limits_section() {
  const std::string doc = api_md();
  const std::size_t start = doc.find("\n## Limits");
  if (start == std::string::npos) return "";
  return doc.substr(start, doc.find("\n## ", start + 1) - start);
}

std::string g(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

TEST_CASE("docs/api.md lists every diagnostic code the engine can emit", "[docs]") {
  // Issue 12 #8 (nothing_fits was missing). The codes are the literals an add_diagnostic / add_warning / need /
  // Diagnostic{} statement (or a `code = ...` choice) passes after a comma, '?', ':' or '=': a key given to
  // path_of("...") follows a parenthesis and is not one.
  const std::string doc = api_md();
  const std::regex statement(R"((add_diagnostic\(|add_warning\(|Diagnostic\{|\bneed\(|\bcode = ))");
  const std::regex code(R"([,?:=]\s*"([a-z]+(?:_[a-z]+)*)\")");
  std::set<std::string> codes;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::string(SCALESCOPE_SOURCE_DIR) + "/core")) {
    if (entry.path().extension() != ".cpp") continue;
    const std::string source = read_text(entry.path().string());
    for (auto it = std::sregex_iterator(source.begin(), source.end(), statement); it != std::sregex_iterator(); ++it) {
      const auto begin = source.begin() + it->position();
      const auto end = source.begin() + static_cast<std::ptrdiff_t>(source.find(';', it->position()));
      for (auto c = std::sregex_iterator(begin, end, code); c != std::sregex_iterator(); ++c) codes.insert((*c)[1]);
    }
  }
  CHECK(codes.size() >= 50);
  for (const auto& c : codes) {
    INFO("diagnostic code " << c << " is not in docs/api.md");
    CHECK(doc.find("`" + c + "`") != std::string::npos);
  }
}

TEST_CASE("docs/api.md states every limit and every number's range", "[docs]") {
  // Issue 12: a stated limit on every size the caller controls, and the range of every number (core/io/ranges.cpp).
  const std::string limits = limits_section();
  REQUIRE(!limits.empty());
  for (const std::size_t limit : {scalescope::kMaxInputBytes,
                                  std::size_t(scalescope::kMaxJsonDepth),
                                  scalescope::kMaxScenariosPerCall,
                                  scalescope::kMaxArrayLength,
                                  scalescope::kMaxStringBytes,
                                  scalescope::kMaxConfigTextBytes,
                                  scalescope::kMaxObjectKeys,
                                  scalescope::kMaxDiagnostics,
                                  scalescope::kMaxUnknownKeysListed,
                                  scalescope::kMaxSweepPoints,
                                  scalescope::kMaxPublishedRuns,
                                  scalescope::kMaxArrayDims,
                                  scalescope::kMaxFatTreeLevels,
                                  scalescope::kMaxAnswerBytes,
                                  scalescope::kMaxFittedRuns,
                                  std::size_t(scalescope::kMaxLayoutsPerPlan),
                                  std::size_t(scalescope::kMaxSearchLayouts),
                                  std::size_t(scalescope::kMaxSearchWorkPerCall),
                                  std::size_t(scalescope::kMaxFitWork),
                                  std::size_t(scalescope::kMaxServingSearchPoints),
                                  scalescope::kMaxTraceBytes,
                                  scalescope::kMaxTraceValueBytes,
                                  scalescope::kMaxTraceKernels,
                                  scalescope::kMaxTraceOps}) {
    INFO("limit " << limit << " is not stated in docs/api.md ## Limits");
    CHECK(limits.find(" " + std::to_string(limit) + " ") != std::string::npos);
  }
  for (const auto& r : scalescope::number_ranges()) {
    const std::string row = "| `" + std::string(r.field) + "` | " + (r.zero_ok ? "0 or " : "") + g(r.min) + " | " +
                            g(r.max) + " | " + (r.whole ? "whole" : "") + " | " + std::string(r.unit) + " |";
    INFO("docs/api.md ## Limits has no row " << row);
    CHECK(limits.find(row) != std::string::npos);
  }
}
