// scalescope: reads a scenario (file or stdin), prints the engine's result as JSON, as a table with --table, or as a
// ten-second summary with --summary; --hf-model turns a Hugging Face config.json into the engine's model.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>

#include "api.h"
#include "calibration_commands.h"
#include "io/json_text.h"
#include "json_file.h"
#include "kernel_commands.h"
#include "launch_commands.h"
#include "search_progress.h"
#include "serving_benchmark_command.h"
#include "specs/calibration_profile.h"
#include "specs/hf_config.h"
#include "specs/presets.h"
#include "specs/serving_backend.h"
#include "summary.h"
#include "table.h"
#include "trace_command.h"

namespace {

constexpr const char* kUsage =
    "usage: scalescope [--summary | --table] [--validate] [--progress] [SCENARIO.json | -]\n"
    "       scalescope --hf-model CONFIG.json\n"
    "       scalescope --presets | --check-presets | --version | --help\n"
    "       scalescope calibrate RUNS.json ... | scalescope validate RUNS.json ... (scalescope calibrate --help)\n"
    "       scalescope kernels TABLES.json... [--markdown] [--write DIR] (kernel models from measured kernel tables)\n"
    "       scalescope validate-serving TABLE.csv [--markdown] (measured serving benchmarks under their load)\n"
    "       scalescope trace TRACE.json[.gz]... [--hardware PRESET] [--json] (a profile against the roofline)\n"
    "       scalescope launch --for FRAMEWORK SCENARIO.json (the plan as a framework's launch config)\n"
    "       scalescope import --for FRAMEWORK CONFIG [--scenario BASE.json] (a launch config as a scenario)\n"
    "Reads a scenario (docs/api.md) from the file, or from stdin when the file is '-' or absent, and prints the\n"
    "result as JSON (SI units, the unit in every key). --summary prints the headline numbers, what binds, whether\n"
    "it fits and what to try next; --table prints every number for people. A plan search too large for one call of\n"
    "the engine shows how far it is on stderr when stderr is a terminal (--progress: a line per call, wherever\n"
    "stderr goes); stdout holds only the answer. --hf-model prints the model the engine reads from a Hugging Face\n"
    "config.json (use it as {\"model\": {\"hf_config\": ...}} in a scenario). Exit status: 0 when the scenario is\n"
    "valid, 1 when it has diagnostics (a scenario with warnings only is valid), 2 on a usage or file error.\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && (std::string(argv[1]) == "calibrate" || std::string(argv[1]) == "validate"))
    return scalescope::cli::run_calibration_command(argc, argv);
  if (argc > 1 && std::string(argv[1]) == "trace") return scalescope::cli::run_trace_command(argc, argv);
  if (argc > 1 && std::string(argv[1]) == "kernels") return scalescope::cli::run_kernel_command(argc, argv);
  if (argc > 1 && std::string(argv[1]) == "launch") return scalescope::cli::run_launch_command(argc, argv);
  if (argc > 1 && std::string(argv[1]) == "import") return scalescope::cli::run_import_command(argc, argv);
  if (argc > 1 && std::string(argv[1]) == "validate-serving")
    return scalescope::cli::run_serving_benchmark_command(argc, argv);
  bool table = false, summary = false, validate = false, hf_model = false, progress = false;
  std::string file;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--table")
      table = true;
    else if (arg == "--summary")
      summary = true;
    else if (arg == "--hf-model")
      hf_model = true;
    else if (arg == "--validate")
      validate = true;
    else if (arg == "--progress")
      progress = true;
    else if (arg == "--version") {
      std::cout << "scalescope " << scalescope::kEngineVersion << "\n";
      return 0;
    } else if (arg == "--presets") {
      std::cout << scalescope::presets_json() << "\n";
      return 0;
    } else if (arg == "--check-presets") {
      auto d = scalescope::validate_presets();
      for (auto& x : scalescope::validate_calibration_profiles()) d.push_back(x);
      for (auto& x : scalescope::validate_serving_backends()) d.push_back(x);
      for (const auto& x : d) std::cerr << x.path << ": " << x.code << ": " << x.message << "\n";
      std::cout << (d.empty() ? "all presets valid\n" : "");
      return d.empty() ? 0 : 1;
    } else if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      std::cerr << "scalescope: unknown option '" << arg << "'\n" << kUsage;
      return 2;
    } else if (file.empty())
      file = arg;
    else {
      std::cerr << "scalescope: give one scenario file\n" << kUsage;
      return 2;
    }
  }
  std::string text;
  if (file.empty() || file == "-") {
    scalescope::cli::read_input_text(std::cin, text);
  } else {
    std::ifstream in(file, std::ios::binary);
    if (!in || !scalescope::cli::read_input_text(in, text)) {
      std::cerr << "scalescope: cannot read '" << file << "'\n";
      return 2;
    }
  }
  if (hf_model) {
    // The config.json itself is the model object's hf_config, read within the engine's limits (size, NUL, depth:
    // a file nested 100,000 deep must not reach a recursive copy or dump).
    scalescope::Diagnostics d;
    const auto config = scalescope::parse_document(text, d);
    for (const auto& x : d) std::cerr << file << ": " << x.code << ": " << x.message << "\n";
    if (!d.empty()) return 1;
    const auto out =
        nlohmann::json::parse(scalescope::resolve_model_json(nlohmann::json{{"hf_config", config}}.dump()));
    std::cout << out.dump(2) << "\n";
    return out.value("ok", false) ? 0 : 1;
  }
  std::string result;
  if (validate) {
    result = scalescope::validate_json(text);
  } else {
    const bool terminal = isatty(fileno(stderr));
    scalescope::cli::SearchProgressLine line(std::cerr, terminal && !progress);
    result = scalescope::evaluate_whole_json(
        text, terminal || progress ? scalescope::SearchProgress(std::ref(line)) : scalescope::SearchProgress{});
  }
  const auto json = nlohmann::json::parse(result, nullptr, false);
  scalescope::Diagnostics ignored;  // the engine's answer names what is wrong with the text
  if (summary)
    std::cout << scalescope::cli::render_summary(scalescope::parse_document(text, ignored), json);
  else if (table)
    std::cout << scalescope::cli::render_table(json);
  else
    std::cout << scalescope::to_text(json, 2) << "\n";
  return json.value("ok", false) ? 0 : 1;
}
