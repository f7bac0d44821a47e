#include "scenario_command.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>

#include "api.h"
#include "io/json_text.h"
#include "json_file.h"
#include "search_progress.h"
#include "specs/calibration_profile.h"
#include "specs/presets.h"
#include "specs/serving_backend.h"
#include "summary.h"
#include "table.h"

namespace scalescope::cli {

const char* const kScenarioUsage =
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

namespace {

// Every embedded preset, profile and serving backend checked; the problems on stderr.
int check_presets() {
  auto d = validate_presets();
  for (auto& x : validate_calibration_profiles()) d.push_back(x);
  for (auto& x : validate_serving_backends()) d.push_back(x);
  for (const auto& x : d) std::cerr << x.path << ": " << x.code << ": " << x.message << "\n";
  std::cout << (d.empty() ? "all presets valid\n" : "");
  return d.empty() ? 0 : 1;
}

// The file's text, or stdin's when the file is empty or "-"; false when the file cannot be read.
bool read_scenario_text(const std::string& file, std::string& text) {
  if (file.empty() || file == "-") {
    read_input_text(std::cin, text);
    return true;
  }
  std::ifstream in(file, std::ios::binary);
  return in && read_input_text(in, text);
}

// The config.json itself is the model object's hf_config, read within the engine's limits (size, NUL, depth: a file
// nested 100,000 deep must not reach a recursive copy or dump).
int print_hf_model(const std::string& file, const std::string& text) {
  Diagnostics d;
  const auto config = parse_document(text, d);
  for (const auto& x : d) std::cerr << file << ": " << x.code << ": " << x.message << "\n";
  if (!d.empty()) return 1;
  const auto out = nlohmann::json::parse(model_json(nlohmann::json{{"hf_config", config}}.dump()));
  std::cout << out.dump(2) << "\n";
  return out.value("ok", false) ? 0 : 1;
}

int print_answer(const ScenarioOptions& options, const std::string& text) {
  std::string result;
  if (options.validate) {
    result = validate_json(text);
  } else {
    const bool terminal = isatty(fileno(stderr));
    SearchProgressLine line(std::cerr, terminal && !options.progress);
    result =
        evaluate_whole_json(text, terminal || options.progress ? SearchProgress(std::ref(line)) : SearchProgress{});
  }
  const auto json = nlohmann::json::parse(result, nullptr, false);
  Diagnostics ignored;  // the engine's answer names what is wrong with the text
  if (options.summary)
    std::cout << render_summary(parse_document(text, ignored), json);
  else if (options.table)
    std::cout << render_table(json);
  else
    std::cout << to_text(json, 2) << "\n";
  return json.value("ok", false) ? 0 : 1;
}

}  // namespace

int run_scenario_command(const ScenarioOptions& options) {
  if (options.version) {
    std::cout << "scalescope " << kEngineVersion << "\n";
    return 0;
  }
  if (options.presets) {
    std::cout << presets_json() << "\n";
    return 0;
  }
  if (options.check_presets) return check_presets();
  std::string text;
  if (!read_scenario_text(options.file, text)) {
    std::cerr << "scalescope: cannot read '" << options.file << "'\n";
    return 2;
  }
  if (options.hf_model) return print_hf_model(options.file, text);
  return print_answer(options, text);
}

}  // namespace scalescope::cli
