// `scalescope calibrate RUNS.json` and `scalescope validate RUNS.json`: the calibrate and validation queries over a
// published-runs file (tests/validation/published-runs.json's format), for people and for the project's own
// profiles and docs/validation.md.
#pragma once
#include <string>

namespace scalescope::cli {

// Both commands' usage (their --help).
extern const char* const kCalibrationUsage;

// The options of `calibrate` (priors, source, prefix, write_dir) and of `validate` (markdown), as parsed.
struct CalibrationOptions {
  std::string command;  // "calibrate" or "validate"
  std::string file, priors = "embedded", source, prefix, write_dir;
  bool markdown = false;
};

// Returns the process exit status.
int run_calibration_command(const CalibrationOptions& options);

}  // namespace scalescope::cli
