// The command line: every option and subcommand of `scalescope`, parsed by one CLI11 App, and the command it names
// run. Help is each command's usage text, on stdout (exit 0); a usage error names the bad argument, prints the
// command's usage on stderr and exits with status 2.
#pragma once

namespace scalescope::cli {

// Returns the process exit status.
int run_command_line(int argc, char** argv);

}  // namespace scalescope::cli
