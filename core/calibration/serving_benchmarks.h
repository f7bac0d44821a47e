// Measured serving benchmarks (issue 35): rows of a serving benchmark table (one deployment, one input and output
// length, one concurrency, the measured time to first token and time per output token) read into scenarios and
// predicted under their load (planners/serving_load.h). `scalescope validate-serving` prints the report; the
// fixture is tests/serving/measured-serving.csv (its README names the source, the licence and how each column is
// read).
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "io/json_reader.h"

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

// Every row predicted: {rows: [...], skipped: {code: count}, groups: [{by, value, rows, tpot, ttft}]}, the errors
// predicted / measured - 1 (positive: pessimistic), the statistics as error_stats_json's.
Json serving_benchmark_report(const std::vector<BenchmarkRow>& rows);

}  // namespace scalescope
