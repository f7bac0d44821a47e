// `scalescope validate-serving TABLE.csv [--markdown]`: every row of a measured serving benchmark table predicted
// under its load (core/calibration/serving_benchmarks.h); --markdown prints docs/validation.md's serving tables.
#pragma once
#include <string>

namespace scalescope::cli {

extern const char* const kServingBenchmarkUsage;

struct ServingBenchmarkOptions {
  std::string file, write_dir;
  bool markdown = false;
};

// Returns the process exit status.
int run_serving_benchmark_command(const ServingBenchmarkOptions& options);

}  // namespace scalescope::cli
