// Measured serving benchmarks (issue 35): rows of a serving benchmark table (one deployment, one input and output
// length, one concurrency, the measured time to first token and time per output token) read into scenarios and
// predicted under their load (planners/serving_load.h). `scalescope validate-serving` prints the report; the
// fixture is tests/serving/measured-serving.csv (its README names the source, the licence and how each column is
// read).
#pragma once
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "calibration/robust_fit.h"
#include "io/json_reader.h"
#include "planners/serving_load.h"
#include "specs/serving_backend.h"

namespace scalescope {

using BenchmarkRow = std::map<std::string, std::string>;  // column name -> cell

// A comma-separated table with a header line and no quoting (the benchmark tables' format). `error` says why not.
std::vector<BenchmarkRow> parse_benchmark_csv(std::string_view text, std::string& error);

// The scenario (a `serving` query with `load`) that reproduces a row, or the rule that keeps it out: `skip_code`
// names the rule (tests/serving/README.md lists them), `skip_reason` says it in words.
struct BenchmarkScenario {
  Json scenario;
  std::string skip_code, skip_reason;
};
BenchmarkScenario benchmark_scenario(const BenchmarkRow& row, const std::string& fidelity = "calibrated");

// A row priced and ready to solve under any backend's runtime (planners/serving_load.h).
struct BenchmarkCase {
  std::string id, backend, system, model, mode;    // mode: "agg" or "disagg"
  double concurrency = 0, ttft_s = 0, tpot_s = 0;  // the measured means
  LoadParts parts;
  double one_step_ttft_s = 0, one_step_tpot_s = 0;  // what the serving query answered before it took a load
  bool fit = false;  // every other row of a backend in file order is fitted, the rest held out
};
// The rows that can be predicted; `skipped` counts the rest by rule ({code: rows}).
std::vector<BenchmarkCase> benchmark_cases(const std::vector<BenchmarkRow>& rows, Json& skipped);

// A backend's runtime fitted to `cases` (robust least squares on the log errors of TPOT and TTFT, from the
// parameters' priors: specs/serving_backend.h).
ServingBackend fit_serving_backend(const std::vector<const BenchmarkCase*>& cases, const std::string& id,
                                   FitResult* result);

// Every row predicted with `backends` (the shipped ones by default): {rows, skipped: {code: rows}, groups: [{by,
// value, held, fit, kernels_step, one_step}], fits: [each backend refitted on its fit rows], transfer: [per backend,
// each model and each system held out whole and refitted without]}. Errors are predicted / measured - 1
// (positive: pessimistic), the statistics error_stats_json's.
// `transfer` false leaves the leave-one-out refits out (what a check of the fits alone needs).
Json serving_benchmark_report(const std::vector<BenchmarkRow>& rows,
                              std::span<const ServingBackend> backends = embedded_serving_backends(),
                              bool transfer = true);

}  // namespace scalescope
