#include "golden_cases.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace scalescope::golden {

using nlohmann::json;

std::string golden_dir() { return std::string(SCALESCOPE_SOURCE_DIR) + "/tests/golden"; }

std::vector<Case> load_cases(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  std::vector<Case> cases;
  for (const auto& path : files) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const std::string file = std::filesystem::path(path).filename().string();
    json doc = json::parse(text.str(), nullptr, false);
    if (doc.is_discarded() || !doc.contains("cases") || !doc["cases"].is_array()) {
      cases.push_back(Case{file, "LOAD ERROR: not a {\"cases\": [...]} document", "", {}, {}, {}});
      continue;
    }
    for (const auto& c : doc["cases"]) {
      Case k;
      k.file = file;
      k.name = c.value("name", "(unnamed)");
      k.citation = c.value("citation", "");
      k.scenario = c.value("scenario", json::object());
      k.expect = c.value("expect", json::array());
      k.expect_diagnostics = c.value("expect_diagnostics", json::array());
      if (k.citation.empty() || (k.expect.empty() && k.expect_diagnostics.empty()))
        k.name = "LOAD ERROR: " + k.name + " needs a citation and at least one expectation";
      cases.push_back(std::move(k));
    }
  }
  return cases;
}

std::vector<std::string> check(const Case& c, const json& evaluation) {
  std::vector<std::string> failures;
  if (c.name.rfind("LOAD ERROR", 0) == 0) return {c.name};
  for (const auto& e : c.expect) {
    const std::string path = e.value("path", "");
    const json::json_pointer pointer(path);
    if (!evaluation.contains(pointer)) {
      failures.push_back(path + ": missing from the result " +
                         (evaluation.contains("diagnostics") ? evaluation["diagnostics"].dump() : std::string()));
      continue;
    }
    const json& got = evaluation[pointer];
    if (e.contains("equals")) {
      if (got != e["equals"]) failures.push_back(path + ": expected " + e["equals"].dump() + ", got " + got.dump());
      continue;
    }
    const double want = e.value("value", 0.0), tol = e.value("rel_tol", 0.01);
    if (!got.is_number()) {
      failures.push_back(path + ": expected a number, got " + got.dump());
      continue;
    }
    const double v = got.get<double>();
    const double err = want == 0 ? std::fabs(v) : std::fabs(v - want) / std::fabs(want);
    if (!(err <= tol))
      failures.push_back(path + ": expected " + std::to_string(want) + " (rel tol " + std::to_string(tol) + "), got " +
                         std::to_string(v));
  }
  for (const auto& e : c.expect_diagnostics) {
    const auto& diags = evaluation.value("diagnostics", json::array());
    const bool found = std::any_of(diags.begin(), diags.end(), [&](const json& d) {
      return d.value("path", "") == e.value("path", "") && d.value("code", "") == e.value("code", "");
    });
    if (!found) failures.push_back("expected diagnostic " + e.dump() + ", got " + diags.dump());
  }
  if (!c.expect_diagnostics.empty() && evaluation.value("ok", true))
    failures.push_back("expected the scenario to be rejected, but it was accepted");
  return failures;
}

}  // namespace scalescope::golden
