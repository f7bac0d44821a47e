// Honest convergence (issue 18): a fit says whether it converged, stalled or stopped at a limit, with the
// objective's gradient where it stopped.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "api.h"
#include "calibration/robust_fit.h"

using namespace scalescope;

namespace {

// Two runs measured 2.0 and 2.2 of one smooth parameter: the least-squares optimum is their geometric mean.
FitProblem smooth_problem() {
  FitProblem p;
  p.parameters = {FitParameter{1, 0.01, 100, 1, 10}};
  p.residual_count = 2;
  p.residuals = [](const std::vector<double>& v, std::vector<double>& r, const std::vector<std::size_t>*) {
    r[0] = std::log(v[0] / 2.0);
    r[1] = std::log(v[0] / 2.2);
  };
  return p;
}

Json calibrate_suite(int max_iterations) {
  std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/tests/validation/published-runs.json");
  std::stringstream text;
  text << in.rdbuf();
  const Json runs = Json::parse(text.str())["runs"];
  const Json query = {{"query", {{"kind", "calibrate"}, {"runs", runs}, {"max_iterations", max_iterations}}}};
  return Json::parse(evaluate_json(query.dump()));
}

}  // namespace

TEST_CASE("a smooth fit converges with its gradient under the tolerance, at the optimum", "[issue18]") {
  const FitResult f = robust_fit(smooth_problem());
  CHECK(f.stop == FitStop::converged);
  CHECK(f.converged);
  CHECK(f.projected_gradient <= kFitGradientTolerance);
  CHECK(f.values[0] == Approx(std::sqrt(2.0 * 2.2)).epsilon(1e-3));  // the prior (sigma 10) barely pulls
  CHECK(f.message.rfind("converged after", 0) == 0);
}

TEST_CASE("a fit that settles on a kink with a large gradient says it stalled, not that it converged", "[issue18]") {
  // Every run's error is |log v| + 20%: the objective is a V with its point at v = 1, where no step lowers it but
  // the one-sided gradient is 2 x (0.2 / 0.1) / 0.1 = 40 (residual_scale 0.1).
  FitProblem p;
  p.parameters = {FitParameter{1.6, 0.01, 100, 1, 100}};
  p.residual_count = 1;
  p.residuals = [](const std::vector<double>& v, std::vector<double>& r, const std::vector<std::size_t>*) {
    r[0] = std::fabs(std::log(v[0])) + 0.2;
  };
  const FitResult f = robust_fit(p);
  CHECK(f.stop == FitStop::stalled);
  CHECK_FALSE(f.converged);
  CHECK(f.projected_gradient > 10 * kFitGradientTolerance);
  CHECK(std::fabs(std::log(f.values[0])) < 0.05);  // usable: next to the kink
  CHECK(f.message.find("stalled after") == 0);
  CHECK(f.message.find("usable, not optimal") != std::string::npos);
}

TEST_CASE("a gradient that pushes a parameter out through its bound is held by the bound: converged", "[issue18]") {
  FitProblem p = smooth_problem();
  p.parameters[0].hi = 1.5;  // the optimum, 2.1, lies beyond
  const FitResult f = robust_fit(p);
  CHECK(f.values[0] == 1.5);
  CHECK(f.stop == FitStop::converged);
  CHECK(f.projected_gradient == 0);
}

TEST_CASE("a fit out of iterations says so", "[issue18]") {
  FitProblem p = smooth_problem();
  p.parameters[0].value = 0.02;
  p.max_iterations = 1;
  const FitResult f = robust_fit(p);
  CHECK(f.stop == FitStop::iteration_limit);
  CHECK(f.message == "did not converge in 1 iterations");
}

TEST_CASE("calibrate reports each fit's stop and gradient; a stalled fit warns and keeps its profile", "[issue18]") {
  const Json out = calibrate_suite(200);
  REQUIRE(out["ok"] == true);
  int stalled = 0, warned = 0;
  for (const Json& f : out["result"]["fits"]) {
    const double g = f["projected_gradient"].get<double>();
    if (f["stop"] == "stalled") {
      ++stalled;
      CHECK(g > kFitGradientTolerance);
      CHECK(f["converged"] == false);
    } else {
      CHECK(f["stop"] == "converged");
      CHECK(g <= kFitGradientTolerance);
    }
  }
  for (const Json& d : out["diagnostics"])
    if (d["code"] == "fit_stalled") {
      ++warned;
      CHECK(d["severity"] == "warning");
    }
  CHECK(warned == stalled);
  CHECK(out["result"]["profiles"].size() >= 2);
  // Out of iterations, no profile: an error that names the fit and what to raise.
  const Json short_fit = calibrate_suite(1);
  CHECK(short_fit["ok"] == false);
  CHECK(short_fit["diagnostics"][0]["code"] == "fit_not_converged");
  CHECK(short_fit["diagnostics"][0]["message"].get<std::string>().find("max_iterations") != std::string::npos);
}
