#include "traces/trace_session.h"

#include "io/json_text.h"
#include "io/text.h"
#include "io/version.h"
#include "specs/presets.h"
#include "traces/trace_plan.h"
#include "traces/trace_report.h"

namespace scalescope {

TraceSession::TraceSession()
    : events_(
          [this](const Json& event) {
            if (!collect_failed_ && !collect_trace_event(event, trace_, collect_diagnostics_)) collect_failed_ = true;
          },
          [this](const std::string& key, const Json& value) { collect_trace_value(key, value, trace_); },
          trace_category_used) {}

bool TraceSession::feed(std::string_view chunk) { return !collect_failed_ && events_.feed(chunk); }

namespace {

std::string device_name_of(const Trace& trace) {
  if (!trace.device_properties.is_array() || trace.device_properties.empty()) return {};
  const Json& first = trace.device_properties.front();
  return first.is_object() && first.contains("name") && first["name"].is_string() ? first["name"].get<std::string>()
                                                                                  : std::string();
}

// The chip the kernels are priced on: the one asked for (a preset id, or the scenario's {preset, overrides} or
// inline chip), else the preset the trace's device names. Returns where it came from, empty without one.
std::string choose_hardware(const Json* asked, const Trace& trace, bool read, Hardware& hardware, Diagnostics& d) {
  if (asked) {
    hardware = resolve_hardware(asked->is_string() ? Json{{"preset", *asked}} : *asked, "/hardware", d);
    return "query";
  }
  if (!read) return {};  // a trace that could not be read names no device worth a warning
  const std::string device = device_name_of(trace), preset = hardware_preset_for_device(device);
  if (device.empty()) {
    add_warning(d, "/hardware", "no_device",
                "the trace names no device (deviceProperties): give 'hardware' to price its kernels");
    return {};
  }
  if (preset.empty()) {
    add_warning(d, "/hardware", "unknown_device",
                "no preset matches the trace's device " + quote(device) +
                    ": give 'hardware' to price its kernels against a roofline (--hardware on the command line)");
    return {};
  }
  hardware = resolve_hardware(Json{{"preset", preset}}, "/hardware", d);
  return "deviceProperties";
}

Json answer(bool ok, Json result, const Diagnostics& diagnostics) {
  Json list = Json::array();
  for (const auto& d : diagnostics) list.push_back(diagnostic_json(d));
  return Json{{"ok", ok},
              {"query", "trace"},
              {"result", std::move(result)},
              {"diagnostics", std::move(list)},
              {"engine_version", kEngineVersion}};
}

}  // namespace

std::string TraceSession::finish(std::string_view options_text) {
  events_.finish();
  Diagnostics d = events_.diagnostics();
  for (const auto& x : collect_diagnostics_) d.push_back(x);
  const bool read = !has_errors(d);
  const Json options = options_text.empty() ? Json::object() : parse_document(options_text, d);
  JsonReader reader(options, "", d);
  TraceReportOptions report;
  Hardware hardware;
  report.hardware_from = choose_hardware(reader.value("hardware", false), trace_, read, hardware, d);
  if (const auto top = reader.integer("top", false, 1, 100)) report.top = static_cast<int>(*top);
  const Json* step = reader.value("step", false);
  const auto steps = reader.integer("steps", false, 1, 1'000'000);
  TraceKernelTables tables;
  if (reader.boolean("kernel_tables", false).value_or(false)) report.kernel_tables = &tables;
  reader.finish();
  if (has_errors(d) || trace_.kernels.empty()) {
    if (!has_errors(d))
      add_diagnostic(d, "/trace", "no_kernels",
                     "the trace has no GPU kernels (events with cat 'kernel'): profile with the CUDA activity on "
                     "(torch.profiler.ProfilerActivity.CUDA)");
    return to_text(answer(false, nullptr, d));
  }
  if (report.hardware_from.size()) report.hardware = &hardware;
  link_kernels(trace_);
  Json result = trace_report(trace_, report);
  if (report.kernel_tables) {
    if (report.hardware && report.hardware->kind == ChipKind::gpu && !tables.empty())
      result["kernel_tables"] = tables.json(report.hardware->id, trace_.trace_id);
    else
      add_warning(d, "/kernel_tables", "no_kernel_tables",
                  report.hardware ? "no GEMM or collective of this trace has a kernel model (bf16 or fp8 GEMMs with "
                                    "recorded shapes, NCCL collectives with their records, on a GPU)"
                                  : "kernel tables name their chip: give 'hardware'");
  }
  if (step) {
    const double held = steps ? static_cast<double>(*steps) : trace_.profiler_steps;
    const std::string from = steps ? "query" : trace_.profiler_steps ? "ProfilerStep annotations" : "the whole trace";
    result["plan"] = compare_with_step(result, *step, held, from, "/step", d);
    if (has_errors(d)) return to_text(answer(false, nullptr, d));
  }
  result["events"] = events_.events_read();
  result["events_skipped"] = trace_.events_skipped + events_.events_unparsed();
  return to_text(answer(true, std::move(result), d));
}

std::string analyze_trace_json(std::string_view trace_text, std::string_view options_text) {
  TraceSession session;
  session.feed(trace_text);
  return session.finish(options_text);
}

}  // namespace scalescope
