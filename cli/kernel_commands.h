// `scalescope kernels TABLES.json...`: the kernel_fit and kernel_family queries over measured kernel tables
// (tests/kernels/), for the calibration profiles' kernel models and docs/validation.md's kernel tables.
#pragma once

namespace scalescope::cli {

// argv[1] is "kernels"; returns the process exit status.
int run_kernel_command(int argc, char** argv);

}  // namespace scalescope::cli
