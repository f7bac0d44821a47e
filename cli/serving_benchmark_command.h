// `scalescope validate-serving TABLE.csv [--markdown]`: every row of a measured serving benchmark table predicted
// under its load (core/calibration/serving_benchmarks.h); --markdown prints docs/validation.md's serving tables.
#pragma once

namespace scalescope::cli {

int run_serving_benchmark_command(int argc, char** argv);

}  // namespace scalescope::cli
