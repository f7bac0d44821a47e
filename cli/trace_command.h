// `scalescope trace TRACE.json[.gz]...`: a profiler trace (PyTorch/Kineto Chrome-trace JSON) against the roofline
// of its chip (core/traces/), one answer per file, as a table for people or as the engine's JSON.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace scalescope::cli {

extern const char* const kTraceUsage;

struct TraceOptions {
  std::vector<std::string> files;
  // As given, or absent; --top and --steps go to the engine as numbers when they are digits, else as text (the
  // engine names what is wrong with them).
  std::optional<std::string> hardware, top, steps, scenario;
  std::string kernel_tables;  // --kernel-tables OUT.json
  bool json = false;
};

// Returns the process exit status.
int run_trace_command(const TraceOptions& options);

}  // namespace scalescope::cli
