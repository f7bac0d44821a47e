// `scalescope trace TRACE.json[.gz]...`: a profiler trace (PyTorch/Kineto Chrome-trace JSON) against the roofline
// of its chip (core/traces/), one answer per file, as a table for people or as the engine's JSON.
#pragma once

namespace scalescope::cli {

// argv[1] is "trace"; returns the process exit status.
int run_trace_command(int argc, char** argv);

}  // namespace scalescope::cli
