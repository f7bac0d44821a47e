// The profile page's door into the trace analysis (core/traces/, docs/api.md "Traces"): a module apart from the
// explorer's engine, loaded only when a trace is dropped, in a worker (web/src/profile/trace-worker.ts). The worker
// feeds the decompressed file in chunks (a Uint8Array is a std::string to Embind) and asks for the answer once.
// Nothing here computes anything; nothing in core/traces/ throws (the module has no exception catching).
#include <emscripten/bind.h>

#include <string>

#include "traces/trace_session.h"

namespace {

bool feed(scalescope::TraceSession& session, const std::string& chunk) { return session.feed(chunk); }
std::string finish(scalescope::TraceSession& session, const std::string& options) { return session.finish(options); }
double bytes_read(const scalescope::TraceSession& session) { return static_cast<double>(session.bytes_read()); }

}  // namespace

EMSCRIPTEN_BINDINGS(scalescope_trace) {
  emscripten::class_<scalescope::TraceSession>("TraceSession")
      .constructor<>()
      .function("feed", &feed)
      .function("finish", &finish)
      .function("bytesRead", &bytes_read);
}
