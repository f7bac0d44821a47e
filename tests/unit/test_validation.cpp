// The calibrated fidelity against the published runs of tests/validation/published-runs.json (docs/validation.md):
// out-of-sample accuracy bars, profiles fitted only on the runs marked fit, and the shipped profiles equal to what
// the fit gives today. Runs natively and, the same suite, as wasm.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>

#include "api.h"
#include "specs/calibration_profile.h"

using nlohmann::json;

namespace {

const json& suite_runs() {
  static const json runs = [] {
    std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/tests/validation/published-runs.json");
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str())["runs"];
  }();
  return runs;
}

json evaluate_query(const json& query) { return json::parse(scalescope::evaluate_json(json{{"query", query}}.dump())); }

const json& validation() {
  static const json out = evaluate_query({{"kind", "validation"}, {"runs", suite_runs()}});
  return out;
}

double median_abs(std::vector<double> v) {
  for (double& x : v) x = std::fabs(x);
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Calibrated errors of the held-out runs in scope (not excluded), filtered by kind ("" = any) and task.
std::vector<double> held_in_scope(const std::string& kind, const std::string& task) {
  std::vector<double> e;
  for (const auto& r : validation()["result"]["runs"])
    if (r["split"] == "held" && r["excluded"] == "" && (kind.empty() || r["kind"] == kind) && r["task"] == task)
      e.push_back(r["calibrated_error_frac"].get<double>());
  return e;
}

}  // namespace

TEST_CASE("every published run of the suite is read and predicted at both fidelities", "[validation]") {
  const json& out = validation();
  INFO(out["diagnostics"].dump());
  REQUIRE(out["ok"] == true);
  CHECK(out["result"]["runs"].size() == suite_runs().size());
  for (const auto& r : out["result"]["runs"]) {
    INFO(r["id"]);
    CHECK(r["profile"] != "");
    CHECK(std::isfinite(r["calibrated"].get<double>()));
  }
}

TEST_CASE("calibrated out-of-sample error stays below its bars", "[validation]") {
  // Regression bars just above what the model reaches (docs/validation.md, held out and in scope); the issue's
  // targets are 10% (TPU) and 12% (GPU) median for training, 25% p90, 20% median for serving (reached: 4.9%,
  // 4.9%, p90 13.4%, serving 13.3% over 7 runs).
  const auto tpu = held_in_scope("tpu", "training"), gpu = held_in_scope("gpu", "training");
  const auto serving = held_in_scope("", "serving");
  REQUIRE(tpu.size() >= 15);
  REQUIRE(gpu.size() >= 5);
  REQUIRE(serving.size() >= 5);
  CHECK(median_abs(tpu) <= 0.06);
  CHECK(median_abs(gpu) <= 0.06);
  CHECK(median_abs(serving) <= 0.14);
  std::vector<double> training = tpu;
  training.insert(training.end(), gpu.begin(), gpu.end());
  std::vector<double> abs_training;
  for (double x : training) abs_training.push_back(std::fabs(x));
  std::sort(abs_training.begin(), abs_training.end());
  CHECK(abs_training[static_cast<std::size_t>(std::ceil(0.9 * abs_training.size())) - 1] <= 0.15);
  // No systematic sign: between 35% and 65% of the held training runs are optimistic.
  const double optimistic = static_cast<double>(std::count_if(training.begin(), training.end(), [](double e) { return e < 0; }));
  CHECK(optimistic / training.size() >= 0.35);
  CHECK(optimistic / training.size() <= 0.65);
}

TEST_CASE("the calibrated model beats the book on every held-out family in scope", "[validation]") {
  std::map<std::string, std::vector<double>> book, calibrated;
  for (const auto& r : validation()["result"]["runs"]) {
    if (r["split"] != "held" || r["excluded"] != "") continue;
    book[r["family"]].push_back(r["book_error_frac"].get<double>());
    calibrated[r["family"]].push_back(r["calibrated_error_frac"].get<double>());
  }
  for (const auto& [family, errors] : calibrated) {
    INFO(family);
    CHECK(median_abs(errors) < median_abs(book[family]));
  }
}

TEST_CASE("the shipped profiles were fitted only on runs marked fit, never on held or excluded ones", "[validation]") {
  std::set<std::string> fittable;
  for (const auto& r : suite_runs())
    if (r.value("split", "") == "fit" && !r.contains("excluded")) fittable.insert(r["id"].get<std::string>());
  REQUIRE(!scalescope::embedded_calibration_profiles().empty());
  for (const auto& p : scalescope::embedded_calibration_profiles()) {
    INFO(p.id);
    CHECK(!p.fitted_on.empty());
    for (const auto& id : p.fitted_on) {
      INFO(id);
      CHECK(fittable.count(id) == 1);
    }
  }
  const auto d = scalescope::validate_calibration_profiles();
  for (const auto& x : d) INFO(x.path << ": " << x.message);
  CHECK(d.empty());
}

TEST_CASE("the shipped profiles are what the fit gives today (refit after changing the model)", "[validation]") {
  // `scalescope calibrate tests/validation/published-runs.json --priors literature --write calibration_profiles`
  const json out = evaluate_query({{"kind", "calibrate"}, {"runs", suite_runs()}, {"priors", "literature"}});
  INFO(out["diagnostics"].dump());
  REQUIRE(out["ok"] == true);
  std::map<std::string, json> fitted;
  for (const auto& p : out["result"]["profiles"]) fitted[p["id"]] = p;
  for (const auto& p : scalescope::embedded_calibration_profiles()) {
    INFO(p.id);
    REQUIRE(fitted.count(p.id) == 1);
    for (const auto& q : scalescope::profile_parameters()) {
      INFO(q.key);
      // Relative 1e-3: the fit is deterministic, but wasm's libm may differ from glibc's in the last bits.
      CHECK(fitted[p.id]["parameters"][q.key].get<double>() == Approx(p.*q.field).epsilon(1e-3));
    }
  }
}
