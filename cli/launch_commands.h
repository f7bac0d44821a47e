// `scalescope launch --for FRAMEWORK SCENARIO.json` writes a training_step or serving scenario's plan as the
// framework's launch configuration; `scalescope import --for FRAMEWORK CONFIG` reads one back into a scenario
// (docs/api.md "Framework launch configs"). The engine decides everything; this prints.
#pragma once
#include <string>

namespace scalescope::cli {

extern const char* const kLaunchUsage;
extern const char* const kImportUsage;

struct LaunchOptions {
  std::string framework, file;
  bool json = false;
};

struct ImportOptions {
  std::string framework, file, base_file;
  // The query's hints; 0: not given (the command line takes only positive numbers).
  double chips = 0, seq_len = 0, prompt_len = 0, generated_len = 0;
  bool json = false;
};

// Each returns the process exit status.
int run_launch_command(const LaunchOptions& options);
int run_import_command(const ImportOptions& options);

}  // namespace scalescope::cli
