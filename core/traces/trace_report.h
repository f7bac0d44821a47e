// A trace held against the roofline (the book's profiling chapter, live): each kernel's class, its measured time,
// the FLOPs and bytes its recorded shapes imply and so its roofline time on the chip, the time by class, the
// exposed communication and idle time per device, and the ops that lose the most time, each with the book's reason.
#pragma once
#include <string>

#include "io/json_reader.h"
#include "specs/hardware.h"
#include "traces/trace_kernel_tables.h"
#include "traces/trace_model.h"

namespace scalescope {

// The preset a trace's deviceProperties name ("NVIDIA B200", "NVIDIA H100 80GB HBM3", "AMD Instinct MI300X"), or
// empty when no preset matches.
std::string hardware_preset_for_device(const std::string& device_name);

struct TraceReportOptions {
  const Hardware* hardware = nullptr;          // nullptr: no roofline (the chip is not known)
  std::string hardware_from;                   // "query" or "deviceProperties"
  int top = 10;                                // rows of the op and gap tables
  TraceKernelTables* kernel_tables = nullptr;  // when set, every priced GEMM and collective is added to it
};

// `trace` is linked (link_kernels).
Json trace_report(const Trace& trace, const TraceReportOptions& options);

}  // namespace scalescope
