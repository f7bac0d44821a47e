// `scalescope [--summary | --table] [--validate] [--progress] [SCENARIO.json | -]`: a scenario (file or stdin)
// answered as JSON, as a table or as a ten-second summary; `--hf-model` turns a Hugging Face config.json into the
// engine's model; `--presets`, `--check-presets` and `--version` answer without a scenario.
#pragma once
#include <string>

namespace scalescope::cli {

// The top-level usage (`scalescope --help`), which names every subcommand.
extern const char* const kScenarioUsage;

struct ScenarioOptions {
  bool summary = false, table = false, validate = false, progress = false, hf_model = false;
  bool presets = false, check_presets = false, version = false;
  std::string file;  // empty or "-": stdin
};

// Returns the process exit status.
int run_scenario_command(const ScenarioOptions& options);

}  // namespace scalescope::cli
