// `scalescope launch --for FRAMEWORK SCENARIO.json` writes a training_step or serving scenario's plan as the
// framework's launch configuration; `scalescope import --for FRAMEWORK CONFIG` reads one back into a scenario
// (docs/api.md "Framework launch configs"). The engine decides everything; this prints.
#pragma once

namespace scalescope::cli {

// argv[1] is "launch"; returns the process exit status.
int run_launch_command(int argc, char** argv);
// argv[1] is "import"; returns the process exit status.
int run_import_command(int argc, char** argv);

}  // namespace scalescope::cli
