// libFuzzer target (issue 12): any bytes into the engine's text entry points. Every answer must be sound
// (tests/invariants.h: it parses, no NaN or Inf, no engine failure, every diagnostic with a path, a code and a
// message); ASan and UBSan watch the rest. A finding aborts, and libFuzzer saves the input: copy it into
// tests/fuzz/regressions/, which scripts/test.sh replays on every run. Built with clang only (CMake preset fuzz).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "api.h"
#include "invariants.h"
#include "traces/trace_session.h"

namespace {

void require_sound(const char* entry, std::string_view input, const std::string& answer) {
  const auto problems = scalescope::invariants::answer_problems(answer);
  if (problems.empty()) return;
  std::fprintf(stderr, "%s answered %zu-byte input unsoundly:\n", entry, input.size());
  for (const auto& p : problems) std::fprintf(stderr, "  %s\n", p.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  require_sound("evaluate_json", text, scalescope::evaluate_json(text));
  // evaluate_many shares the parser; run it where it does something else (an array of scenarios).
  if (!text.empty() && text.front() == '[')
    require_sound("evaluate_many_json", text, scalescope::evaluate_many_json(text));
  // validate stops before the query runs: a cheap second look at every tenth input.
  if (size % 10 == 0) require_sound("validate_json", text, scalescope::validate_json(text));
  // The trace reader (issue 37) has its own streaming parser: any text that could be a trace, whole and then fed
  // in two chunks cut where the input's first byte says (the same answer either way is the unit tests' job).
  if (text.find("traceEvents") != std::string_view::npos || (!text.empty() && text.front() == '[')) {
    require_sound("analyze_trace_json", text, scalescope::analyze_trace_json(text, "{}"));
    scalescope::TraceSession session;
    const std::size_t cut = size ? data[0] % size : 0;
    session.feed(text.substr(0, cut));
    session.feed(text.substr(cut));
    require_sound("TraceSession", text, session.finish(R"({"top": 3})"));
  }
  return 0;
}
