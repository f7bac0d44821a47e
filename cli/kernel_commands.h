// `scalescope kernels TABLES.json...`: the kernel_fit and kernel_family queries over measured kernel tables
// (tests/kernels/), for the calibration profiles' kernel models and docs/validation.md's kernel tables.
#pragma once
#include <string>
#include <vector>

namespace scalescope::cli {

extern const char* const kKernelUsage;

struct KernelOptions {
  std::vector<std::string> files;
  std::string write_dir;
  bool markdown = false;
};

// Returns the process exit status.
int run_kernel_command(const KernelOptions& options);

}  // namespace scalescope::cli
