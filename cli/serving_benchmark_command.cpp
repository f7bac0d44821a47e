#include "serving_benchmark_command.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "calibration/serving_benchmarks.h"
#include "io/json_text.h"
#include "specs/serving_backend.h"

namespace scalescope::cli {

const char* const kServingBenchmarkUsage =
    "usage: scalescope validate-serving TABLE.csv [--markdown] [--write DIR]\n"
    "Predicts every row of a measured serving benchmark table (tests/serving/README.md: its columns and the rules\n"
    "that keep rows out) under its concurrency, and prints each row's errors and their statistics by backend,\n"
    "system, model and concurrency, with each backend's runtime refitted and held out by model and by system;\n"
    "--markdown prints docs/validation.md's serving tables; --write puts the fitted backends in DIR/backends.json.\n";

namespace {

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

std::string stats_cells(const Json& stats) {
  return percent(stats, "median_abs_frac") + " | " + percent(stats, "p90_abs_frac") + " | " +
         signed_percent(stats, "signed_median_frac");
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string markdown(const Json& report) {
  std::ostringstream out;
  out << "Error = predicted / measured − 1 (positive: pessimistic). *Held*: every other row of a backend in file "
         "order, never fitted (siblings of fitted rows: the same deployments at other concurrencies and lengths).\n\n";
  out << "#### Each backend's runtime, fitted on its fit rows\n\n| backend | rows | ";
  for (const ServingBackendParameter& p : serving_backend_parameters()) out << "`" << p.name << "` | ";
  out << "fit |\n|---|---|";
  for (std::size_t i = 0; i < serving_backend_parameters().size(); ++i) out << "---|";
  out << "---|\n";
  for (const Json& f : report["fits"]) {
    const Json& b = f["backend"];
    out << "| " << b["name"].get<std::string>() << " | " << f["rows"].get<double>() << " | ";
    for (const ServingBackendParameter& p : serving_backend_parameters()) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.3g", b[p.name].get<double>());
      out << buf << " | ";
    }
    out << f["stop"].get<std::string>() << " |\n";
  }
  out << "\n#### Held-out rows\n\n*Kernels' step*: the same load model without a backend's runtime; *one step*: what "
         "the serving query answered before it took a load (a decode step at batch = concurrency, one prompt "
         "prefilled alone).\n\n"
         "| by | value | held rows | TPOT median | TPOT p90 | TPOT signed | TTFT median | TTFT p90 | TTFT signed | "
         "kernels' step: TPOT / TTFT median | one step: TPOT / TTFT median |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Json& g : report["groups"])
    out << "| " << g["by"].get<std::string>() << " | " << g["value"].get<std::string>() << " | "
        << g["held"]["tpot"]["runs"].get<double>() << " | " << stats_cells(g["held"]["tpot"]) << " | "
        << stats_cells(g["held"]["ttft"]) << " | " << percent(g["kernels_step"]["tpot"], "median_abs_frac") << " / "
        << percent(g["kernels_step"]["ttft"], "median_abs_frac") << " | "
        << percent(g["one_step"]["tpot"], "median_abs_frac") << " / "
        << percent(g["one_step"]["ttft"], "median_abs_frac") << " |\n";
  out << "\n#### Transfer: each model and each system held out whole\n\nThe backend refitted on its other fit rows, "
         "then every row of the model or system held out predicted; per backend, the median of those medians.\n\n"
         "| backend | held out | value | rows | TPOT median | TPOT p90 | TTFT median | TTFT p90 |\n"
         "|---|---|---|---|---|---|---|---|\n";
  for (const Json& t : report["transfer"])
    for (const char* kind : {"model_held_out", "system_held_out"}) {
      std::vector<double> tpot, ttft;
      for (const Json& h : t[kind]) {
        out << "| " << t["backend"].get<std::string>() << " | " << (kind[0] == 'm' ? "model" : "system") << " | "
            << h["held_out"].get<std::string>() << " | " << h["tpot"]["runs"].get<double>() << " | "
            << percent(h["tpot"], "median_abs_frac") << " | " << percent(h["tpot"], "p90_abs_frac") << " | "
            << percent(h["ttft"], "median_abs_frac") << " | " << percent(h["ttft"], "p90_abs_frac") << " |\n";
        tpot.push_back(h["tpot"]["median_abs_frac"].get<double>());
        ttft.push_back(h["ttft"]["median_abs_frac"].get<double>());
      }
      char buf[160];
      std::snprintf(buf, sizeof buf, "| **%s** | **%s** | **median of medians** | | **%.1f%%** | | **%.1f%%** | |\n",
                    t["backend"].get<std::string>().c_str(), kind[0] == 'm' ? "model" : "system", 100 * median(tpot),
                    100 * median(ttft));
      out << buf;
    }
  out << "\nRows not predicted, by rule (tests/serving/README.md):\n\n| rule | rows |\n|---|---|\n";
  for (const auto& [code, n] : report["skipped"].items()) out << "| `" << code << "` | " << n.get<double>() << " |\n";
  return out.str();
}

// calibration_profiles/serving/backends.json from the fits (the file's `about` kept).
bool write_backends(const Json& report, const std::string& dir) {
  const std::string path = dir + "/backends.json";
  Json doc = {{"schema", "scalescope.serving_backends/1"}};
  {
    std::ifstream old(path);
    std::stringstream text;
    if (old && (text << old.rdbuf())) {
      const Json prior = Json::parse(text.str(), nullptr, false);
      if (prior.is_object() && prior.contains("about")) doc["about"] = prior["about"];
    }
  }
  doc["backends"] = Json::array();
  for (const Json& f : report["fits"]) {
    Json b = f["backend"];
    b["source"] = "fitted on " + std::to_string(f["rows"].get<long long>()) +
                  " fit rows of tests/serving/measured-serving.csv (ai-dynamo/aiconfigurator silicon_sample.csv @ "
                  "095f58a51c4c, Apache-2.0)";
    doc["backends"].push_back(b);
  }
  std::ofstream out(path);
  if (!(out << doc.dump(1) << "\n")) {
    std::cerr << "scalescope: cannot write '" << path << "'\n";
    return false;
  }
  std::cout << "wrote " << path << "\n";
  return true;
}

}  // namespace

int run_serving_benchmark_command(const ServingBenchmarkOptions& options) {
  const std::string& file = options.file;
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  if (file.empty() || !in || !(text << in.rdbuf())) {
    std::cerr << "scalescope: cannot read '" << file << "'\n" << kServingBenchmarkUsage;
    return 2;
  }
  std::string error;
  const auto rows = parse_benchmark_csv(text.str(), error);
  if (!error.empty()) {
    std::cerr << "scalescope: " << file << ": " << error << "\n";
    return 1;
  }
  const Json report = serving_benchmark_report(rows);
  if (!options.write_dir.empty()) return write_backends(report, options.write_dir) ? 0 : 2;
  if (options.markdown)
    std::cout << markdown(report);
  else
    std::cout << to_text(report, 1) << "\n";
  return 0;
}

}  // namespace scalescope::cli
