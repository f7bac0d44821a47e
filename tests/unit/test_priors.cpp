// The calibration priors as data (issue 18: "every prior in the data file has a source"): the embedded file
// (calibration_profiles/priors/literature.json) is complete and cites a source for every value; a malformed file
// is named at its path; and a fit with the literature priors depends on the priors and the fit runs only, never on
// the profiles it replaces (a refit of the shipped profiles is a fixed point).
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "calibration/priors.h"
#include "calibration/profile_fit.h"
#include "io/json_text.h"
#include "specs/calibration_profile.h"

using nlohmann::json;
using scalescope::Diagnostics;

namespace {

json embedded_priors() { return json::parse(std::string(scalescope::literature_priors_text())); }

Diagnostics parse(const json& file) {
  Diagnostics d;
  scalescope::parse_calibration_priors(file, "", d);
  return d;
}

bool has(const Diagnostics& d, const std::string& path, const std::string& code) {
  for (const auto& x : d)
    if (x.path == path && x.code == code) return true;
  return false;
}

}  // namespace

TEST_CASE("the embedded priors cover every parameter of both chip kinds, each with a source", "[priors][issue18]") {
  const Diagnostics d = parse(embedded_priors());
  for (const auto& x : d) INFO(x.path << ": " << x.message);
  CHECK(d.empty());
  const scalescope::CalibrationPriors& priors = scalescope::literature_priors();
  const auto table = scalescope::profile_parameters();
  REQUIRE(priors.parameters.size() == table.size());
  for (std::size_t i = 0; i < table.size(); ++i)
    for (const char* kind : {"tpu", "gpu"}) {
      INFO(table[i].key << " " << kind);
      const scalescope::Prior& p = priors.of(i, kind);
      CHECK(p.value >= table[i].lo);
      CHECK(p.value <= table[i].hi);
      CHECK(p.log_sigma > 0);
      CHECK(!p.note.empty());
      const scalescope::PriorSource* s = priors.source(p.source);
      REQUIRE(s != nullptr);
      CHECK(!s->cite.empty());
      // A cited value has an address to check it at; an uninformative prior admits it has none, and is wide
      // (narrower than 0.3 in log it would claim knowledge), unless its note says why it is held narrow.
      CHECK((s->kind == "uninformative" || !s->url.empty()));
      if (s->kind == "uninformative" && p.log_sigma < 0.3) CHECK(p.note.find("narrow") != std::string::npos);
    }
}

TEST_CASE("a malformed priors file is named at its path", "[priors][issue18]") {
  SECTION("a source the file does not list") {
    json f = embedded_priors();
    f["parameters"]["overlap_frac"]["tpu"]["source"] = "hearsay";
    CHECK(has(parse(f), "/parameters/overlap_frac/tpu/source", "unknown_choice"));
  }
  SECTION("a value outside the parameter's range") {
    json f = embedded_priors();
    f["parameters"]["slow_link_frac"]["gpu"]["value"] = 3.0;
    CHECK(has(parse(f), "/parameters/slow_link_frac/gpu/value", "too_large"));
  }
  SECTION("a parameter left out, and one the model does not have") {
    json f = embedded_priors();
    f["parameters"].erase("overlap_frac");
    f["parameters"]["magic_frac"] = f["parameters"]["slow_link_frac"];
    const Diagnostics d = parse(f);
    CHECK(has(d, "/parameters/overlap_frac", "missing_key"));
    CHECK(has(d, "/parameters/magic_frac", "unknown_key"));
  }
  SECTION("a cited source without an address, and one of no known kind") {
    json f = embedded_priors();
    f["sources"]["calculon"].erase("url");
    f["sources"]["book-tpus"]["kind"] = "rumour";
    const Diagnostics d = parse(f);
    CHECK(has(d, "/sources/calculon/url", "missing_key"));
    CHECK(has(d, "/sources/book-tpus/kind", "unknown_choice"));
  }
  SECTION("a width of zero") {
    json f = embedded_priors();
    f["parameters"]["step_overhead_s"]["tpu"]["log_sigma"] = 0;
    CHECK(has(parse(f), "/parameters/step_overhead_s/tpu/log_sigma", "not_positive"));
  }
}

TEST_CASE("a literature fit does not depend on the profiles it replaces", "[priors][issue18][validation]") {
  std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/tests/validation/published-runs.json");
  std::stringstream text;
  text << in.rdbuf();
  Diagnostics d;
  long long layout_budget = scalescope::kMaxQueryLayouts;
  const auto runs = scalescope::read_published_runs(json::parse(text.str())["runs"], "/runs", true, layout_budget, d);
  REQUIRE(d.empty());
  const auto embedded = scalescope::embedded_calibration_profiles();
  const std::vector<scalescope::CalibrationProfile> shipped(embedded.begin(), embedded.end());
  // Every parameter the literature fit sets moved to the far end of its range, those it does not fit on these runs
  // too (the TPUs' sustained clock once kept a stale value this way): the templates give only identity, tiling and
  // the kernel models their chips' tables measured (themselves a function of those tables alone).
  std::vector<scalescope::CalibrationProfile> moved = shipped;
  int moved_unfitted = 0;
  for (auto& p : moved)
    for (const auto& q : scalescope::profile_parameters())
      if (q.set_by_refit(p)) {
        q.set(p, q.value(p) > 0.5 * (q.lo + q.hi) ? q.lo : q.hi);
        moved_unfitted += !q.fitted_on_runs(p);
      }
  CHECK(moved_unfitted > 0);
  scalescope::FitBudget a = scalescope::query_fit_budget(), b = scalescope::query_fit_budget();
  const auto from_shipped = scalescope::fit_profiles(runs, shipped, true, 200, a);
  const auto from_moved = scalescope::fit_profiles(runs, moved, true, 200, b);
  REQUIRE(from_shipped.profiles.size() == from_moved.profiles.size());
  for (std::size_t i = 0; i < from_shipped.profiles.size(); ++i)
    for (const auto& q : scalescope::profile_parameters()) {
      INFO(from_shipped.profiles[i].id << " " << q.key);
      CHECK(q.value(from_shipped.profiles[i]) == q.value(from_moved.profiles[i]));
    }
  // It can fail: without the literature priors, the templates are the start and the priors.
  scalescope::FitBudget c = scalescope::query_fit_budget();
  const auto nudged = scalescope::fit_profiles(runs, moved, false, 200, c);
  bool any_differs = false;
  for (std::size_t i = 0; i < nudged.profiles.size(); ++i)
    any_differs = any_differs || nudged.profiles[i].step_overhead_s != from_shipped.profiles[i].step_overhead_s;
  CHECK(any_differs);
}
