// `scalescope calibrate RUNS.json` and `scalescope validate RUNS.json`: the calibrate and validation queries over a
// published-runs file (tests/validation/published-runs.json's format), for people and for the project's own
// profiles and docs/validation.md.
#pragma once

namespace scalescope::cli {

// argv[1] is "calibrate" or "validate"; returns the process exit status.
int run_calibration_command(int argc, char** argv);

}  // namespace scalescope::cli
