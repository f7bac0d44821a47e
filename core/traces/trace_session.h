// The trace analysis's entry point, for every front end (CLI, Python, the page's worker): the trace's text goes in
// as chunks of any size (decompressed: gzip is the caller's, natively zlib, in the browser DecompressionStream),
// then finish() reads the options and answers as the engine does:
// {"ok": bool, "query": "trace", "result": {...}, "diagnostics": [...], "engine_version": "..."}.
#pragma once
#include <string>
#include <string_view>

#include "traces/trace_events.h"
#include "traces/trace_model.h"

namespace scalescope {

class TraceSession {
 public:
  TraceSession();
  TraceSession(const TraceSession&) = delete;
  TraceSession& operator=(const TraceSession&) = delete;

  // False once the text is known to be bad; the rest need not be sent.
  bool feed(std::string_view chunk);
  std::uint64_t bytes_read() const { return events_.bytes_read(); }
  // Options: {"hardware": a preset id or {preset, overrides} (default: the trace's deviceProperties), "top": rows
  // of the op and gap tables, 1-100 (default 10)}. Once per session.
  std::string finish(std::string_view options_text);

 private:
  Trace trace_;
  Diagnostics collect_diagnostics_;
  bool collect_failed_ = false;
  TraceEventStream events_;
};

// One whole trace text and options in, the answer out (the tests' and small callers' form).
std::string analyze_trace_json(std::string_view trace_text, std::string_view options_text);

}  // namespace scalescope
