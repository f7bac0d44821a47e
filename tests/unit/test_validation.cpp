// The calibrated fidelity against the published runs of tests/validation/published-runs.json (docs/validation.md):
// out-of-sample accuracy bars, profiles fitted only on the runs marked fit, and the shipped profiles equal to what
// the fit gives today. Runs natively and, the same suite, as wasm.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

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
  static const json out = evaluate_query({{"kind", "validation"}, {"runs", suite_runs()}, {"family_holdout", true}});
  return out;
}

// The suite fitted as the shipped profiles are made (literature priors).
json literature_fit(const json& runs) {
  return evaluate_query({{"kind", "calibrate"}, {"runs", runs}, {"priors", "literature"}});
}
const json& suite_literature_fit() {
  static const json out = literature_fit(suite_runs());
  return out;
}

double median_abs(std::vector<double> v) {
  for (double& x : v) x = std::fabs(x);
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Calibrated errors of the held-out runs in scope (not excluded), filtered by kind ("" = any), task and
// architecture ("dense", "moe"; "" = any).
std::vector<double> held_in_scope(const std::string& kind, const std::string& task,
                                  const std::string& architecture = "") {
  std::vector<double> e;
  for (const auto& r : validation()["result"]["runs"])
    if (r["split"] == "held" && r["excluded"] == "" && (kind.empty() || r["kind"] == kind) && r["task"] == task &&
        (architecture.empty() || r["architecture"] == architecture))
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
  // Regression bars a little above what the model reaches (docs/validation.md, held out and in scope, issue 34's
  // kernel-grounded model; serving runs under their benchmark's load, issue 35): dense training 5.0% (TPU) and 7.2%
  // (GPU) median, dense serving 12.6%, MoE serving 28.0% (optimistic: docs/validation.md).
  // They gate a rise; the goals are the transfer figure's (the next test cases).
  const auto tpu = held_in_scope("tpu", "training", "dense"), gpu = held_in_scope("gpu", "training", "dense");
  const auto serving = held_in_scope("", "serving", "dense"), moe_serving = held_in_scope("", "serving", "moe");
  REQUIRE(tpu.size() >= 15);
  REQUIRE(gpu.size() >= 5);
  REQUIRE(serving.size() >= 5);
  REQUIRE(moe_serving.size() >= 5);
  CHECK(median_abs(tpu) <= 0.065);
  CHECK(median_abs(gpu) <= 0.09);
  CHECK(median_abs(serving) <= 0.14);
  CHECK(median_abs(moe_serving) <= 0.31);
  std::vector<double> abs_training;
  for (const auto* part : {&tpu, &gpu})
    for (double x : *part) abs_training.push_back(std::fabs(x));
  std::sort(abs_training.begin(), abs_training.end());
  CHECK(abs_training[static_cast<std::size_t>(std::ceil(0.9 * abs_training.size())) - 1] <= 0.20);
  // No systematic sign: between 35% and 65% of the held training runs are optimistic.
  std::vector<double> training = held_in_scope("", "training");
  const double optimistic =
      static_cast<double>(std::count_if(training.begin(), training.end(), [](double e) { return e < 0; }));
  CHECK(optimistic / training.size() >= 0.35);
  CHECK(optimistic / training.size() <= 0.65);
}

TEST_CASE("a serving run that states its benchmark's load is predicted as the serving query answers that load",
          "[validation][issue35]") {
  // TensorRT-LLM's perf-overview runs are trtllm-bench's offline throughput: every request sent at once, at most
  // 4096 batched, on TensorRT-LLM's runtime (docs/validation.md). The suite's prediction must be the `serving`
  // query's own `load` answer, so that a reader reproduces it from the run's scenario: the calibrated one on the
  // fitted runtime, the book's on the kernels' step as it is (the book takes no runtime).
  int checked = 0;
  for (const auto& run : suite_runs()) {
    const json& query = run["scenario"]["query"];
    if (!query.contains("load")) continue;
    INFO(run["id"]);
    json predicted;
    for (const auto& r : validation()["result"]["runs"])
      if (r["id"] == run["id"]) predicted = r;
    REQUIRE(predicted.is_object());
    const double replicas = run.value("replicas", 1.0);
    json calibrated = run["scenario"];
    calibrated["query"]["fidelity"] = "calibrated";
    const json c = json::parse(scalescope::evaluate_json(calibrated.dump()));
    REQUIRE(c["ok"] == true);
    CHECK_THAT(replicas * c["result"]["load"]["output_tokens_per_s"].get<double>(),
               Catch::Matchers::WithinRel(predicted["calibrated"].get<double>(), 1e-12));
    if (query["load"].contains("backend"))
      CHECK(c["result"]["load"]["backend"]["id"] == query["load"]["backend"]);
    else
      CHECK(c["result"]["load"]["backend"].is_null());
    json book = run["scenario"];
    book["query"]["fidelity"] = "book";
    book["query"]["load"].erase("backend");
    const json b = json::parse(scalescope::evaluate_json(book.dump()));
    REQUIRE(b["ok"] == true);
    CHECK_THAT(replicas * b["result"]["load"]["output_tokens_per_s"].get<double>(),
               Catch::Matchers::WithinRel(predicted["book"].get<double>(), 1e-12));
    ++checked;
  }
  CHECK(checked >= 25);  // every TensorRT-LLM and JetStream serving run
}

TEST_CASE("MoE training: held-out runs within the issue's bars, and each MoE family held out whole", "[validation]") {
  // Issue 17: on runs the fit never saw, MoE training at most 15% median and no run off by more than 2x (a step
  // time error in [-0.5, +1]). Reached: 6.6% over 19 runs, the worst +36% (Z8, Megatron-Bridge's MoE tables).
  const auto moe = held_in_scope("", "training", "moe");
  REQUIRE(moe.size() >= 12);
  CHECK(median_abs(moe) <= 0.15);
  for (double e : moe) {
    CHECK(e <= 1.0);
    CHECK(e >= -0.5);
  }
  // Each MoE family held out whole (the profiles refitted without it): regression bars above what the model
  // reaches, and no family's worst run off by more than 2x.
  int families = 0;
  std::vector<double> medians;
  for (const auto& f : validation()["result"]["family_holdout"]) {
    if (f["architecture"] != "moe" || f["calibrated"].is_null()) continue;
    INFO(f["family"]);
    ++families;
    const double median = f["calibrated"]["median_abs_frac"].get<double>();
    medians.push_back(median);
    CHECK(median <= 0.95);
    CHECK(f["calibrated"]["max_abs_frac"].get<double>() <= 1.0);
  }
  CHECK(families >= 7);
  CHECK(median_abs(medians) <= 0.30);
}

TEST_CASE("Korthikanti et al. 2022 Table 5: GPT 22B to 1T on A100 without a cap on large GEMMs",
          "[validation][issue22]") {
  // Issue 22 item 24: on these 8 runs (end-to-end iteration times, arXiv 2205.05198 Table 5) the calibrated step
  // was pessimistic in all 8, +2-9% at 22B and 175B and +16-19% at 1T, the A100's large-GEMM rate fitted near 56%
  // of peak while the 1T run reached 56% MFU for the whole step. Now the runs state their attention (materialized,
  // dropout; selective recompute as `selective`) and the fit sees them: each held run within 10%, the held runs'
  // errors of both signs, and the family held out whole (the A100 refitted without it) within 10% median.
  const std::string family = "Korthikanti et al. 2022 Table 5 (A100)";
  int held = 0, held_pessimistic = 0, runs = 0;
  for (const auto& r : validation()["result"]["runs"]) {
    if (r["family"] != family) continue;
    INFO(r["id"]);
    const double e = r["calibrated_error_frac"].get<double>();
    ++runs;
    if (r["split"] == "held") {
      ++held;
      held_pessimistic += e > 0;
      CHECK(std::fabs(e) <= 0.12);
    }
  }
  CHECK(runs == 8);
  CHECK(held == 4);
  CHECK(held_pessimistic > 0);  // errors of both signs on the runs the fit never saw
  CHECK(held_pessimistic < held);
  bool found = false;
  for (const auto& f : validation()["result"]["family_holdout"])
    if (f["family"] == family) {
      found = true;
      CHECK(f["calibrated"]["median_abs_frac"].get<double>() <= 0.10);
    }
  CHECK(found);
}

TEST_CASE("leave one family out: the transfer figure, every family counted once, training and serving apart",
          "[validation][issue18][issue34]") {
  // Issue 34 item 4: the gated transfer figure is the median of the families' own medians, each family held out
  // whole (refitted without it, then predicted), so that a few large families that look alike cannot carry it;
  // beside it the worst family and the runs off by more than 2x. The goals: at most 10% for training and
  // 15% for serving, no family over 25%, no run off by 2x. Today (docs/validation.md "Transfer"): training 8.8%
  // (met), serving 18.0% (30.1% before the serving collectives carried bf16 and JetStream's static caches were
  // stated; 34.6% before the serving runs were priced under their benchmark's load), the worst families
  // Megatron-Bridge's MoE tables (25.1%) and TensorRT-LLM's v1.0 MoE rows (26.3%), one serving run off by 2x. The bars
  // hold what is reached (a rise fails the build); the goals the model misses are listed in docs/validation.md with
  // why.
  const json& rows = validation()["result"]["transfer"];
  const json* training = nullptr;
  const json* serving = nullptr;
  for (const auto& r : rows) {
    if (r["kind"] != "all") continue;
    (r["task"] == "training" ? training : serving) = &r;
  }
  REQUIRE(training);
  REQUIRE(serving);
  CHECK((*training)["families"].get<double>() >= 20);
  CHECK((*serving)["families"].get<double>() >= 4);
  CHECK((*training)["median_of_family_medians_frac"].get<double>() <= 0.10);  // the goal, met
  CHECK((*serving)["median_of_family_medians_frac"].get<double>() <= 0.20);
  CHECK((*training)["worst_family_median_frac"].get<double>() <= 0.30);
  CHECK((*serving)["worst_family_median_frac"].get<double>() <= 0.29);
  CHECK((*training)["runs_off_by_2x"].get<double>() == 0);
  CHECK((*serving)["runs_off_by_2x"].get<double>() <= 1);
  // The figure is each family's own median: recompute it from the families held out whole.
  std::vector<double> medians;
  for (const auto& f : validation()["result"]["family_holdout"])
    if (f["task"] == "training" && f["calibrated"].is_object())
      medians.push_back(f["calibrated"]["median_abs_frac"].get<double>());
  CHECK(median_abs(medians) == Approx((*training)["median_of_family_medians_frac"].get<double>()));
  // The interpolation figure is not the transfer figure: the sibling-held median is below the family one.
  std::vector<double> tpu_training;
  for (const auto& f : validation()["result"]["family_holdout"])
    if (f["task"] == "training")
      for (const auto& r : f["runs"])
        if (!r["excluded"].get<bool>() && r["kind"] == "tpu")
          tpu_training.push_back(r["calibrated_error_frac"].get<double>());
  CHECK(median_abs(held_in_scope("tpu", "training")) < median_abs(tpu_training));
}

// The suite's runs with every run that `doubled` selects measured at twice its value.
json with_doubled_measurements(const std::function<bool(const json&)>& doubled) {
  json runs = suite_runs();
  for (auto& r : runs)
    if (doubled(r)) r["measured"] = 2.0 * r["measured"].get<double>();
  return runs;
}

TEST_CASE("no leak: held and excluded runs' measurements do not move a fitted parameter", "[validation][issue18]") {
  // Issue 18 item 3: multiply every held run's measured value by 2 and refit; the profiles must not change. The
  // excluded runs are doubled too: they are never fitted either.
  const auto profiles = [](const json& out) {
    INFO(out["diagnostics"].dump());
    REQUIRE(out["ok"] == true);
    std::map<std::string, json> fitted;
    for (const auto& p : out["result"]["profiles"]) fitted[p["id"]] = json{p["parameters"], p["fitted_on"]};
    return fitted;
  };
  const auto as_published = profiles(suite_literature_fit());
  const auto doubled = profiles(literature_fit(with_doubled_measurements(
      [](const json& r) { return r.value("split", "") == "held" || r.contains("excluded"); })));
  REQUIRE(as_published.size() >= 4);
  for (const auto& [id, profile] : as_published) {
    INFO(id);
    REQUIRE(doubled.count(id) == 1);
    CHECK(doubled.at(id).dump() == profile.dump());  // bit for bit
  }
  // And the check can fail: doubling the fit runs moves the profiles.
  CHECK(profiles(literature_fit(
            with_doubled_measurements([](const json& r) { return r.value("split", "") == "fit"; }))) != as_published);
}

TEST_CASE("no leak: a family held out whole is predicted without its own measurements", "[validation][issue18]") {
  // The leave-one-family-out refit must not see the family it predicts: doubling that family's measurements leaves
  // its predictions (measured x (1 + error)) unchanged. One family: each costs a whole family-held-out validation
  // (about 12 s under the sanitizers).
  const std::string family = "Megatron-LM 2021 (A100)";
  const auto predictions = [&](const json& out, const json& runs) {
    REQUIRE(out["ok"] == true);
    std::map<std::string, double> measured, predicted;
    for (const auto& r : runs) measured[r["id"]] = r["measured"].get<double>();
    for (const auto& f : out["result"]["family_holdout"])
      if (f["family"] == family)
        for (const auto& r : f["runs"])
          predicted[r["id"]] = measured[r["id"]] * (1.0 + r["calibrated_error_frac"].get<double>());
    return predicted;
  };
  const json doubled_runs = with_doubled_measurements([&](const json& r) { return r["family"] == family; });
  const auto as_published = predictions(validation(), suite_runs());
  const auto doubled = predictions(
      evaluate_query({{"kind", "validation"}, {"runs", doubled_runs}, {"family_holdout", true}}), doubled_runs);
  REQUIRE(as_published.size() >= 3);
  REQUIRE(doubled.size() == as_published.size());
  for (const auto& [id, value] : as_published) {
    INFO(id);
    CHECK(doubled.at(id) == Approx(value).epsilon(1e-12));
  }
}

TEST_CASE("the suite's runs must say their split; a team's own runs are all fit runs, as calibrate documents",
          "[validation][issue18]") {
  json runs = suite_runs();
  runs[0].erase("split");
  const json out = evaluate_query({{"kind", "validation"}, {"runs", runs}});
  REQUIRE(out["ok"] == false);
  bool named = false;
  for (const auto& d : out["diagnostics"]) named |= d["path"] == "/query/runs/0/split" && d["code"] == "missing_key";
  CHECK(named);
}

TEST_CASE("every exclusion cites a rule written in docs/validation.md, and no excluded run is fitted",
          "[validation][issue18]") {
  // Issue 18 item 2: exclusions follow a written rule, decided before the run is seen, never the run's error.
  std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/docs/validation.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const std::string table = doc.substr(doc.find("Exclusion rules"));
  int excluded = 0;
  for (const auto& r : suite_runs()) {
    if (!r.contains("excluded")) continue;
    ++excluded;
    const std::string reason = r["excluded"].get<std::string>();
    const std::string code = reason.substr(0, reason.find(':'));
    INFO(r["id"].get<std::string>() << ": " << reason);
    CHECK(reason.find(':') != std::string::npos);
    CHECK(table.find("| `" + code + "` |") != std::string::npos);
    CHECK(r["split"] == "held");
  }
  CHECK(excluded >= 1);
}

TEST_CASE("the calibrated model beats the book on every held-out family in scope", "[validation]") {
  // DeepSeek-V3's report on 2,048 H800s was the exception (calibrated 83% slow, the book's ideal 21% fast) while the
  // head was priced on its busiest stage rather than on the last one, which its 61 layers over 16 stages leave short.
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
  const json& out = suite_literature_fit();
  INFO(out["diagnostics"].dump());
  REQUIRE(out["ok"] == true);
  std::map<std::string, json> fitted;
  for (const auto& p : out["result"]["profiles"]) fitted[p["id"]] = p;
  for (const auto& p : scalescope::embedded_calibration_profiles()) {
    INFO(p.id);
    REQUIRE(fitted.count(p.id) == 1);
    scalescope::Diagnostics d;
    const scalescope::CalibrationProfile refit = scalescope::parse_calibration_profile(fitted[p.id], "", d);
    REQUIRE(d.empty());
    for (const auto& q : scalescope::profile_parameters()) {
      INFO(q.key);
      // Relative 1e-3: the fit is deterministic, but wasm's libm may differ from glibc's in the last bits.
      CHECK(q.value(refit) == Approx(q.value(p)).epsilon(1e-3));
    }
    // The span of the runs behind it, which decides where its band holds (issue 18), and the bands themselves.
    const json shipped = scalescope::calibration_profile_json(p);
    CHECK(fitted[p.id]["fitted_scope"] == shipped["fitted_scope"]);
    for (const auto& [task, band] : shipped["error_bands"].items())
      for (const char* key : {"runs", "median_frac", "p90_frac", "max_frac", "signed_median_frac"}) {
        INFO(task << " " << key);
        CHECK(fitted[p.id]["error_bands"][task][key].get<double>() == Approx(band[key].get<double>()).epsilon(1e-3));
      }
  }
}

namespace {

// The validation query with the runs file's memory checks (issue 34); no refits, so cheap.
const json& memory_validation() {
  static const json out = [] {
    std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/tests/validation/published-runs.json");
    std::stringstream text;
    text << in.rdbuf();
    const json file = json::parse(text.str());
    return evaluate_query({{"kind", "validation"}, {"runs", file["runs"]}, {"memory_checks", file["memory_checks"]}});
  }();
  return out;
}

}  // namespace

TEST_CASE("a run that ran must fit: every training run that states its plan fits or names what it cannot express",
          "[validation][memory][issue34]") {
  const json& v = memory_validation();
  INFO(v["diagnostics"].dump());
  REQUIRE(v["ok"] == true);
  int stated = 0, automatic = 0;
  for (const auto& r : v["result"]["runs"]) {
    if (r["task"] != "training") continue;
    INFO(r["id"].get<std::string>());
    REQUIRE(r.contains("memory"));
    const json& m = r["memory"];
    if (m["remat_auto"].get<bool>()) {
      // remat_auto takes the lightest policy that fits; block must fit a run that ran.
      ++automatic;
      CHECK(m["fits"] == true);
      continue;
    }
    ++stated;
    CHECK((m["fits"].get<bool>() || m.contains("unexpressed")));
  }
  CHECK(stated >= 80);  // the suite's runs that state their plan (83 when this was written)
  CHECK(automatic > 0);
  const json& s = v["result"]["memory_summary"];
  CHECK(s["stated_fit"].get<double>() + s["stated_unexpressed"].get<double>() == s["stated_runs"].get<double>());
}

TEST_CASE("measured peak memories per chip within 10%, or within the bar their current error sets",
          "[validation][memory][issue34]") {
  // Issue 34's target is 10%. Where the engine misses it, the bar holds today's error so that it cannot grow, and
  // docs/validation.md says why: X5, torchtitan's reserved pool over an engine without its eager fp32 loss; X11 and
  // MT4, torchtitan with TP, Float8, AsyncTP and torch.compile, whose reserved peak the engine's account falls far
  // below and whose source gives no breakdown.
  const std::map<std::string, double> bars = {{"S4", 0.10}, {"S5", 0.10},  {"X2", 0.10},
                                              {"X5", 0.11}, {"X11", 0.31}, {"MT4", 0.51}};
  const json& v = memory_validation();
  REQUIRE(v["ok"] == true);
  std::set<std::string> seen;
  auto check = [&](const std::string& id, const json& m) {
    if (!m.contains("measured_bytes")) return;
    INFO(id << ": predicted " << m["total_bytes"].get<double>() << " B, measured "
            << m["measured_bytes"].get<double>());
    REQUIRE(bars.count(id) == 1);  // a new measured figure gets its bar here
    CHECK(std::fabs(m["error_frac"].get<double>()) <= bars.at(id));
    CHECK(m["error_frac"].get<double>() ==
          Approx(m["total_bytes"].get<double>() / m["measured_bytes"].get<double>() - 1));
    seen.insert(id);
  };
  for (const auto& r : v["result"]["runs"])
    if (r.contains("memory")) check(r["id"], r["memory"]);
  for (const auto& c : v["result"]["memory_checks"]) check(c["id"], c["memory"]);
  CHECK(seen.size() == bars.size());
  // Most figures meet the 10%, and the summary counts them.
  const json& s = v["result"]["memory_summary"];
  CHECK(s["measured"]["runs"].get<double>() == bars.size());
  CHECK(s["measured_within_10pct"].get<double>() >= 3);
}
