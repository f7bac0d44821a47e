#include "trace_command.h"

#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "api.h"
#include "io/json_text.h"
#include "json_file.h"
#include "table.h"
#include "traces/trace_session.h"

namespace scalescope::cli {

const char* const kTraceUsage =
    "usage: scalescope trace TRACE.json[.gz]... [--hardware PRESET] [--top N] [--scenario PLAN.json [--steps N]]\n"
    "                        [--kernel-tables OUT.json] [--json]\n"
    "Reads a PyTorch profiler trace (Kineto's Chrome-trace JSON, whole or gzipped), classes each kernel (matmul,\n"
    "attention, MoE, collective, copy, ...), prices the ones whose shapes were recorded (record_shapes=True) against\n"
    "the roofline of the trace's chip (its deviceProperties, or --hardware), and prints the time by class, the\n"
    "exposed communication and idle time per device, and the ops that lose the most time, with the reason.\n"
    "--scenario: the training_step scenario the trace ran (docs/api.md), its predicted step beside the measured one\n"
    "per step and device, part by part; the steps are the trace's ProfilerStep annotations, or --steps.\n"
    "--kernel-tables: the trace's GEMMs and collectives as kernel tables (one trace), for `scalescope kernels\n"
    "OUT.json`: the chip's kernel models fitted to this cluster's own kernels.\n"
    "--json prints the engine's answer (docs/api.md \"Traces\"). Exit status: 0 when every trace was read,\n"
    "1 when one has diagnostics, 2 on a usage or file error.\n";

namespace {

// Streams the file through zlib (which reads plain text as it is) into the session, 1 MB at a time.
bool feed_file(const std::string& path, TraceSession& session) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) return false;
  std::vector<char> buffer(1 << 20);
  bool ok = true;
  for (;;) {
    const int n = gzread(file, buffer.data(), static_cast<unsigned>(buffer.size()));
    if (n < 0) {
      ok = false;
      break;
    }
    if (n == 0 || !session.feed(std::string_view(buffer.data(), static_cast<std::size_t>(n)))) break;
  }
  gzclose(file);
  return ok;
}

std::string seconds(double s) { return format_with_unit("time_s", s); }
std::string share(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100 * x);
  return text;
}

void print_report(const std::string& path, const nlohmann::json& answer) {
  std::cout << path << "\n";
  for (const auto& d : answer["diagnostics"])
    std::cout << "  " << d.value("severity", "error") << ": " << d.value("message", "") << "\n";
  if (!answer.value("ok", false)) return;
  const auto& r = answer["result"];
  if (r["hardware"].is_object())
    std::cout << "  chip: " << r["hardware"].value("name", "") << " (from " << r["hardware"].value("from", "") << ")\n";
  std::cout << "  kernels: " << r["kernels"].get<long long>() << ", " << seconds(r["kernel_time_s"].get<double>())
            << "; classified " << share(r["classified_share"].get<double>()) << ", priced against the roofline "
            << share(r["priced_share"].get<double>()) << "\n";
  for (const auto& d : r["devices"])
    std::cout << "  device " << d["device"].get<int>() << ": window " << seconds(d["window_s"].get<double>())
              << ", idle " << seconds(d["idle_s"].get<double>()) << ", communication "
              << seconds(d["communication_s"].get<double>()) << " (exposed "
              << seconds(d["exposed_communication_s"].get<double>()) << ")\n";
  std::cout << "  by class:\n";
  for (const auto& c : r["classes"]) {
    std::cout << "    " << c["class"].get<std::string>() << ": " << seconds(c["time_s"].get<double>()) << " ("
              << share(c["share"].get<double>()) << ")";
    if (c["achieved_fraction"].is_number())
      std::cout << ", " << share(c["achieved_fraction"].get<double>()) << " of the roofline on the priced "
                << seconds(c["priced_time_s"].get<double>());
    std::cout << "\n";
  }
  if (r.contains("plan") && r["plan"].is_object()) {
    const auto& p = r["plan"];
    std::cout << "  against the plan (" << p["fidelity"].get<std::string>() << " step; per step and device, "
              << p["steps"].get<double>() << " step(s) from " << p["steps_from"].get<std::string>() << "):\n";
    for (const auto& row : p["rows"]) {
      std::cout << "    " << row["part"].get<std::string>() << ": predicted "
                << seconds(row["predicted_s"].get<double>());
      if (row["measured_s"].is_number()) std::cout << ", measured " << seconds(row["measured_s"].get<double>());
      if (row["measured_over_predicted"].is_number())
        std::cout << " (" << share(row["measured_over_predicted"].get<double>()) << " of the prediction)";
      std::cout << "\n";
    }
  }
  std::cout << "  where the time goes (lost to the roofline):\n";
  for (const auto& g : r["gaps"]) {
    std::cout << "    " << seconds(g["lost_s"].get<double>()) << "  " << g["class"].get<std::string>();
    if (g.contains("op") && g["op"].is_string()) std::cout << " " << g["op"].get<std::string>();
    if (g.contains("shape") && g["shape"].is_string()) std::cout << " [" << g["shape"].get<std::string>() << "]";
    std::cout << ": " << g["reason"].value("message", "") << "\n";
  }
}

// A count as the engine takes it: a number when it is one (of fewer than `digits` digits), else the text, which the
// engine names as wrong.
nlohmann::json count(const std::string& value, std::size_t digits) {
  if (value.find_first_not_of("0123456789") == std::string::npos && value.size() < digits) return std::stoi(value);
  return value;
}

// The engine's options for the traces; false (and the problem on stderr) when --scenario cannot be read.
bool engine_options(const TraceOptions& options, nlohmann::json& out) {
  out = nlohmann::json::object();
  if (!options.kernel_tables.empty()) out["kernel_tables"] = true;
  if (options.hardware) out["hardware"] = *options.hardware;
  if (options.top) out["top"] = count(*options.top, 4);
  if (options.steps) out["steps"] = count(*options.steps, 8);
  if (options.scenario) {
    // The plan's own step, at the fidelity the scenario asks: the engine's answer goes in as the option.
    std::string text;
    std::ifstream in(*options.scenario, std::ios::binary);
    if (!in || !read_input_text(in, text)) {
      std::cerr << "scalescope trace: cannot read '" << *options.scenario << "'\n";
      return false;
    }
    out["step"] = nlohmann::json::parse(evaluate_whole_json(text));
  }
  return true;
}

}  // namespace

int run_trace_command(const TraceOptions& options) {
  const std::vector<std::string>& files = options.files;
  const std::string& tables_path = options.kernel_tables;
  const bool json = options.json;
  if (files.empty() || (!tables_path.empty() && files.size() > 1)) {
    std::cerr << "scalescope trace: give a trace file" << (files.empty() ? "" : " (one, with --kernel-tables)") << "\n"
              << kTraceUsage;
    return 2;
  }
  nlohmann::json engine;
  if (!engine_options(options, engine)) return 2;
  int status = 0;
  nlohmann::json answers = nlohmann::json::array();
  for (const auto& path : files) {
    TraceSession session;
    if (!feed_file(path, session)) {
      std::cerr << "scalescope trace: cannot read '" << path << "'\n";
      return 2;
    }
    auto answer = nlohmann::json::parse(session.finish(engine.dump()));
    if (!answer.value("ok", false)) status = 1;
    if (!tables_path.empty() && answer["result"].is_object() && answer["result"].contains("kernel_tables")) {
      std::ofstream out(tables_path, std::ios::binary);
      out << to_text(answer["result"]["kernel_tables"], 1) << "\n";
      if (!out) {
        std::cerr << "scalescope trace: cannot write '" << tables_path << "'\n";
        return 2;
      }
      if (!json) std::cout << "kernel tables written to " << tables_path << "\n";
    }
    if (json)
      answers.push_back(answer);
    else
      print_report(path, answer);
  }
  if (json) std::cout << to_text(answers.size() == 1 ? answers[0] : answers, 2) << "\n";
  return status;
}

}  // namespace scalescope::cli
