// scalescope: the engine on the command line. cli/arguments.cpp reads the arguments (one CLI11 App: the scenario's
// options and every subcommand's) and runs the command they name.
#include "arguments.h"

int main(int argc, char** argv) { return scalescope::cli::run_command_line(argc, argv); }
