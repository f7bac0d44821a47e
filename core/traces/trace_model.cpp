#include "traces/trace_model.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "traces/op_costs.h"

namespace scalescope {

int Trace::intern(const std::string& name) {
  const auto [it, added] = name_ids_.try_emplace(name, static_cast<int>(names.size()));
  if (added) names.push_back(name);
  return it->second;
}

namespace {

// Numbers a hostile trace could make absurd stay in a range where every cast and sum is defined.
constexpr double kMaxTraceNumber = 1e17;

double number_in(const Json& object, const char* key, double fallback) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return fallback;
  const double v = it->get<double>();
  return std::isfinite(v) && std::fabs(v) <= kMaxTraceNumber ? v : fallback;
}

int small_int_in(const Json& object, const char* key, int fallback) {
  const double v = number_in(object, key, fallback);
  return std::fabs(v) < 1e9 ? static_cast<int>(v) : fallback;
}

// Kineto's ids and threads are numbers; other writers use strings ("stream 7"): hashed to a number.
std::int64_t id_in(const Json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end()) return -1;
  if (it->is_number_integer()) return it->get<std::int64_t>();
  if (it->is_number()) return static_cast<std::int64_t>(number_in(object, key, -1));
  if (it->is_string()) return static_cast<std::int64_t>(std::hash<std::string>{}(it->get<std::string>()) >> 1);
  return -1;
}

std::string string_in(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

OpShape shape_of(const Json& args) {
  OpShape shape;
  const auto dims = args.find("Input Dims");
  if (dims != args.end() && dims->is_array())
    for (const auto& input : *dims) {
      std::vector<double> sizes;
      if (input.is_array())
        for (const auto& size : input)
          if (size.is_number()) sizes.push_back(size.get<double>());
      shape.dims.push_back(std::move(sizes));
    }
  const auto types = args.find("Input type");
  if (types != args.end() && types->is_array())
    for (const auto& type : *types) shape.types.push_back(type.is_string() ? type.get<std::string>() : "");
  return shape;
}

CollectiveRecord collective_record(const Json& args) {
  CollectiveRecord record;
  record.name = string_in(args, "Collective name");
  record.dtype = string_in(args, "dtype");
  record.in_elements = number_in(args, "In msg nelems", 0);
  record.out_elements = number_in(args, "Out msg nelems", 0);
  record.group_size = small_int_in(args, "Group size", 0);
  return record;
}

bool is_launch(std::string_view category) {
  return category == "cuda_runtime" || category == "cuda_driver" || category == "hip_runtime" ||
         category == "hip_driver";
}

}  // namespace

bool trace_category_used(std::string_view c) {
  return c == "kernel" || c == "gpu_memcpy" || c == "gpu_memset" || c == "cpu_op" || c == "user_annotation" ||
         is_launch(c);
}

void collect_trace_value(const std::string& key, const Json& value, Trace& trace) {
  if (key == "deviceProperties")
    trace.device_properties = value;
  else if (key == "distributedInfo")
    trace.distributed_info = value;
  else if (key == "trace_id" && value.is_string())
    trace.trace_id = value.get<std::string>().substr(0, 64);
}

bool collect_trace_event(const Json& event, Trace& trace, Diagnostics& diagnostics) {
  const std::string category = string_in(event, "cat");
  const bool device_event = category == "kernel" || category == "gpu_memcpy" || category == "gpu_memset";
  const bool op_event = category == "cpu_op";
  const bool launch = is_launch(category);
  if (category == "user_annotation") {  // torch.profiler's schedule marks each step it records
    if (string_in(event, "name").rfind("ProfilerStep#", 0) == 0) ++trace.profiler_steps;
    ++trace.events_skipped;
    return true;
  }
  if ((!device_event && !op_event && !launch) || string_in(event, "ph") != "X") {
    ++trace.events_skipped;
    return true;
  }
  static const Json kNoArgs = Json::object();
  const auto args_it = event.find("args");
  const Json& args = args_it != event.end() && args_it->is_object() ? *args_it : kNoArgs;
  const double ts = number_in(event, "ts", 0);  // µs; beyond the range, 0 like a missing one
  if (!trace.has_origin) trace.origin_us = ts, trace.has_origin = true;
  const double start = ts - trace.origin_us;
  const double duration = std::min(std::max(0.0, number_in(event, "dur", 0)), 1e12);  // at most 11.6 days
  if (launch) {
    const std::int64_t correlation = id_in(args, "correlation");
    if (correlation >= 0) trace.launches[correlation] = {id_in(event, "tid"), start, id_in(args, "External id")};
    return true;
  }
  const std::string name = string_in(event, "name");
  if (op_event) {
    if (trace.ops.size() >= kMaxTraceOps) {
      add_diagnostic(diagnostics, "/trace", "too_large",
                     "the trace has over " + std::to_string(kMaxTraceOps) + " CPU ops; profile fewer steps");
      return false;
    }
    TraceOp op{trace.intern(name), id_in(event, "tid"), start, start + duration, id_in(args, "External id"), -1};
    if (op_has_cost_model(name) && args.contains("Input Dims")) {
      op.shape = static_cast<int>(trace.shapes.size());
      trace.shapes.push_back(shape_of(args));
    }
    trace.ops.push_back(op);
    return true;
  }
  if (trace.kernels.size() >= kMaxTraceKernels) {
    add_diagnostic(diagnostics, "/trace", "too_large",
                   "the trace has over " + std::to_string(kMaxTraceKernels) + " kernels; profile fewer steps");
    return false;
  }
  TraceKernel kernel;
  kernel.name = trace.intern(name);
  kernel.category = trace.intern(category);
  kernel.device = small_int_in(args, "device", small_int_in(event, "pid", 0));
  kernel.stream = id_in(args, "stream");
  kernel.start_us = start;
  kernel.duration_us = duration;
  kernel.correlation = id_in(args, "correlation");
  kernel.external_id = id_in(args, "External id");
  kernel.bytes = number_in(args, "bytes", 0);
  if (args.contains("In msg nelems")) {
    kernel.collective = static_cast<int>(trace.collectives.size());
    trace.collectives.push_back(collective_record(args));
  }
  trace.kernels.push_back(kernel);
  return true;
}

namespace {

// The innermost op of `thread` that encloses `t`, among ops sorted by (thread, start): the latest-starting one
// still open at t. Walks back at most 256 ops (siblings that ended before t), past which it gives up.
int enclosing_op(const Trace& trace, const std::vector<int>& by_start, std::int64_t thread, double t) {
  auto it = std::upper_bound(by_start.begin(), by_start.end(), std::pair{thread, t},
                             [&](const std::pair<std::int64_t, double>& key, int i) {
                               const auto& op = trace.ops[static_cast<std::size_t>(i)];
                               return key.first != op.thread ? key.first < op.thread : key.second < op.start_us;
                             });
  for (int steps = 0; it != by_start.begin() && steps < 256; ++steps) {
    --it;
    const auto& op = trace.ops[static_cast<std::size_t>(*it)];
    if (op.thread != thread) break;
    if (op.end_us >= t) return *it;
  }
  return -1;
}

}  // namespace

void link_kernels(Trace& trace) {
  std::unordered_map<std::int64_t, int> by_external_id;
  for (std::size_t i = 0; i < trace.ops.size(); ++i)
    if (trace.ops[i].external_id >= 0) by_external_id.try_emplace(trace.ops[i].external_id, static_cast<int>(i));
  std::vector<int> by_start(trace.ops.size());
  for (std::size_t i = 0; i < by_start.size(); ++i) by_start[i] = static_cast<int>(i);
  std::sort(by_start.begin(), by_start.end(), [&](int a, int b) {
    const auto &x = trace.ops[static_cast<std::size_t>(a)], &y = trace.ops[static_cast<std::size_t>(b)];
    return x.thread != y.thread ? x.thread < y.thread : x.start_us < y.start_us;
  });
  auto op_by_id = [&](std::int64_t id) {
    const auto it = by_external_id.find(id);
    return it == by_external_id.end() ? -1 : it->second;
  };
  for (auto& kernel : trace.kernels) {
    const auto launch = trace.launches.find(kernel.correlation);
    if (launch != trace.launches.end()) {
      // The id must name an op that encloses the launch: older traces give the correlation as External id.
      const TraceLaunch& at = launch->second;
      kernel.op = op_by_id(at.external_id);
      if (kernel.op >= 0) {
        const auto& op = trace.ops[static_cast<std::size_t>(kernel.op)];
        if (op.thread != at.thread || at.start_us < op.start_us || at.start_us > op.end_us) kernel.op = -1;
      }
      if (kernel.op < 0) kernel.op = enclosing_op(trace, by_start, at.thread, at.start_us);
    } else {
      kernel.op = op_by_id(kernel.external_id);
    }
    const std::string& op_name =
        kernel.op >= 0 ? trace.name_of(trace.ops[static_cast<std::size_t>(kernel.op)].name) : std::string();
    kernel.op_class = classify_kernel(trace.name_of(kernel.name), trace.name_of(kernel.category), op_name);
  }
}

}  // namespace scalescope
