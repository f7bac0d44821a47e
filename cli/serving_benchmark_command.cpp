#include "serving_benchmark_command.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>

#include "calibration/serving_benchmarks.h"
#include "io/json_text.h"

namespace scalescope::cli {

namespace {

constexpr const char* kUsage =
    "usage: scalescope validate-serving TABLE.csv [--markdown]\n"
    "Predicts every row of a measured serving benchmark table (tests/serving/README.md: its columns and the rules\n"
    "that keep rows out) under its concurrency, and prints each row's errors and their statistics by backend,\n"
    "system, model and concurrency; --markdown prints docs/validation.md's serving tables.\n";

std::string percent(const Json& stats, const char* key) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * stats.value(key, 0.0));
  return buf;
}

std::string signed_percent(const Json& stats, const char* key) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", 100.0 * stats.value(key, 0.0));
  return buf;
}

std::string markdown(const Json& report) {
  std::ostringstream out;
  out << "Each aggregated row predicted under its concurrency at the calibrated fidelity (the embedded profiles, "
         "never fitted on these rows). Error = predicted / measured - 1 (positive: pessimistic).\n\n";
  out << "| by | value | rows | TPOT median | TPOT p90 | TPOT signed median | TTFT median | TTFT p90 | TTFT signed median |\n";
  out << "|---|---|---|---|---|---|---|---|---|\n";
  for (const Json& g : report["groups"]) {
    const Json& tpot = g["tpot"];
    const Json& ttft = g["ttft"];
    out << "| " << g["by"].get<std::string>() << " | " << g["value"].get<std::string>() << " | "
        << tpot["runs"].get<double>() << " | " << percent(tpot, "median_abs_frac") << " | "
        << percent(tpot, "p90_abs_frac") << " | " << signed_percent(tpot, "signed_median_frac") << " | "
        << percent(ttft, "median_abs_frac") << " | " << percent(ttft, "p90_abs_frac") << " | "
        << signed_percent(ttft, "signed_median_frac") << " |\n";
  }
  out << "\nBefore and after the load model, every row: *one step* is what the serving query answered before it "
         "took a load (a decode step at batch = concurrency; one prompt prefilled alone).\n\n"
         "| answer | TPOT median | TPOT p90 | TPOT signed median | TTFT median | TTFT p90 | TTFT signed median |\n"
         "|---|---|---|---|---|---|---|\n";
  for (const Json& g : report["groups"])
    if (g["by"] == "all")
      for (const auto& [name, tpot, ttft] : {std::tuple{"one step", "one_step_tpot", "one_step_ttft"},
                                             std::tuple{"under load", "tpot", "ttft"}})
        out << "| " << name << " | " << percent(g[tpot], "median_abs_frac") << " | " << percent(g[tpot], "p90_abs_frac")
            << " | " << signed_percent(g[tpot], "signed_median_frac") << " | " << percent(g[ttft], "median_abs_frac")
            << " | " << percent(g[ttft], "p90_abs_frac") << " | " << signed_percent(g[ttft], "signed_median_frac")
            << " |\n";
  out << "\nRows not predicted, by rule (tests/serving/README.md):\n\n| rule | rows |\n|---|---|\n";
  for (const auto& [code, n] : report["skipped"].items()) out << "| `" << code << "` | " << n.get<double>() << " |\n";
  return out.str();
}

}  // namespace

int run_serving_benchmark_command(int argc, char** argv) {
  std::string file;
  bool as_markdown = false;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--markdown") as_markdown = true;
    else if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "scalescope: unknown option '" << arg << "'\n" << kUsage;
      return 2;
    } else if (file.empty()) file = arg;
    else {
      std::cerr << "scalescope: give one table\n" << kUsage;
      return 2;
    }
  }
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  if (file.empty() || !in || !(text << in.rdbuf())) {
    std::cerr << "scalescope: cannot read '" << file << "'\n" << kUsage;
    return 2;
  }
  std::string error;
  const auto rows = parse_benchmark_csv(text.str(), error);
  if (!error.empty()) {
    std::cerr << "scalescope: " << file << ": " << error << "\n";
    return 1;
  }
  const Json report = serving_benchmark_report(rows);
  if (as_markdown) std::cout << markdown(report);
  else std::cout << to_text(report, 1) << "\n";
  return 0;
}

}  // namespace scalescope::cli
