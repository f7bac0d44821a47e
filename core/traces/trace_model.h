// The parts of a profiler trace the analysis uses, kept compactly as the events stream by: GPU kernels, copies and
// sets; the CPU ops that launched them (with their recorded input shapes where they can be priced); the runtime
// launches that tie the two (Kineto's `correlation`); and the trace's device properties and distributed info.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "io/json_reader.h"
#include "io/limits.h"
#include "traces/kernel_classes.h"

namespace scalescope {

// A profiler's record of a collective (Kineto's kernel or record_param_comms args).
struct CollectiveRecord {
  std::string name, dtype;  // "_allgather_base", "BFloat16"
  double in_elements = 0, out_elements = 0;
  int group_size = 0;  // 0 = not recorded
};

struct TraceKernel {
  int name = 0;      // index into Trace::names
  int category = 0;  // index into Trace::names ("kernel", "gpu_memcpy", "gpu_memset")
  int device = 0;
  std::int64_t stream = 0;
  double start_us = 0, duration_us = 0;  // start from Trace::origin_us
  std::int64_t correlation = -1, external_id = -1;
  double bytes = 0;                   // a copy's or set's bytes, when recorded
  int collective = -1;                // index into Trace::collectives
  int op = -1;                        // the launching CPU op (index into Trace::ops), once linked
  OpClass op_class = OpClass::other;  // once linked
};

struct TraceOp {
  int name = 0;
  std::int64_t thread = 0;
  double start_us = 0, end_us = 0;
  std::int64_t external_id = -1;
  int shape = -1;  // index into Trace::shapes, for the ops the analysis prices
};

struct OpShape {
  std::vector<std::vector<double>> dims;  // "Input Dims"
  std::vector<std::string> types;         // "Input type"
};

struct TraceLaunch {  // a runtime call that launched a kernel (cudaLaunchKernel, hipLaunchKernel, ...)
  std::int64_t thread = 0;
  double start_us = 0;
  std::int64_t external_id = -1;
};

struct Trace {
  std::vector<std::string> names;
  std::vector<TraceKernel> kernels;
  std::vector<TraceOp> ops;
  std::vector<OpShape> shapes;
  std::vector<CollectiveRecord> collectives;
  std::unordered_map<std::int64_t, TraceLaunch> launches;  // by correlation
  Json device_properties, distributed_info;
  std::string trace_id;  // the profiler's, when it has one
  double origin_us = 0;
  bool has_origin = false;
  std::uint64_t events_skipped = 0;  // events the analysis does not use (python frames, flows, annotations)
  int profiler_steps = 0;            // PyTorch's "ProfilerStep#N" annotations: the steps the trace holds

  int intern(const std::string& name);
  const std::string& name_of(int id) const { return names[static_cast<std::size_t>(id)]; }

 private:
  std::unordered_map<std::string, int> name_ids_;
};

// Whether the analysis reads events of this category (kernels, copies, sets, CPU ops, runtime launches).
bool trace_category_used(std::string_view category);

// Takes one event at a time from TraceEventStream. False when a limit is reached (the diagnostic says which).
bool collect_trace_event(const Json& event, Trace& trace, Diagnostics& diagnostics);
void collect_trace_value(const std::string& key, const Json& value, Trace& trace);

// Ties each kernel to the CPU op that launched it, and classes it: by the runtime launch's External id where the
// trace records it (PyTorch 2.x), else by the innermost op of the launching thread that encloses the launch (as
// HTA's call stacks do for older traces), else by the kernel's own External id.
void link_kernels(Trace& trace);

}  // namespace scalescope
