#include "traces/trace_events.h"

#include <utility>

#include "io/format.h"
#include "io/text.h"

namespace scalescope {

namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool ends_bare_scalar(char c) { return c == ',' || c == '}' || c == ']' || is_space(c); }

// An event's "cat" value, read from its text when it is a plain string after the first "cat" key; empty when it
// cannot be read so simply (then the event is parsed).
std::string_view category_of(std::string_view event) {
  const std::size_t key = event.find("\"cat\"");
  if (key == std::string_view::npos) return {};
  std::size_t at = key + 5;
  while (at < event.size() && (is_space(event[at]) || event[at] == ':')) ++at;
  if (at >= event.size() || event[at] != '"') return {};
  const std::size_t end = event.find_first_of("\"\\", at + 1);
  if (end == std::string_view::npos || event[end] != '"') return {};
  return event.substr(at + 1, end - at - 1);
}

}  // namespace

TraceEventStream::TraceEventStream(EventSink on_event, ValueSink on_value, CategoryFilter wanted)
    : on_event_(std::move(on_event)), on_value_(std::move(on_value)), wanted_(wanted) {}

void TraceEventStream::fail(std::string code, std::string message) {
  if (failed_) return;
  failed_ = true;
  add_diagnostic(diagnostics_, "/trace", std::move(code), message + " (at byte " + std::to_string(bytes_) + ")");
}

void TraceEventStream::fail_too_large() {
  fail("too_large", (state_ == State::events ? "event " + std::to_string(events_) : "the value of " + quote(key_)) +
                        " is over " + format_bytes(static_cast<double>(kMaxTraceValueBytes)));
}

bool TraceEventStream::feed(std::string_view chunk) {
  if (failed_) return false;
  if (bytes_ + chunk.size() > std::uint64_t{kMaxTraceBytes}) {
    fail("too_large", "the trace is over " + format_bytes(static_cast<double>(kMaxTraceBytes)) +
                          ", the most one read takes: cut it to fewer steps or ranks (the profiler's schedule: "
                          "wait, warmup, active=1)");
    return false;
  }
  for (std::size_t i = 0; i < chunk.size();) {
    if (capturing_ && in_string_ && !escaped_) {
      // Inside a string only a quote or a backslash matters: take the run up to one at once.
      const std::size_t end = std::min(chunk.find_first_of("\"\\", i), chunk.size());
      if (captured_.size() + (end - i) > kMaxTraceValueBytes) {
        fail_too_large();
        return false;
      }
      captured_.append(chunk.data() + i, end - i);
      bytes_ += end - i;
      i = end;
      if (i == chunk.size()) break;
    }
    step(chunk[i]);
    ++bytes_;
    ++i;
    if (failed_) return false;
  }
  return true;
}

void TraceEventStream::step(char c) {
  if (capturing_) {
    if (!scan_value(c)) return;
    const bool delimiter_left = bare_scalar_;
    end_value();
    if (delimiter_left && !failed_) step(c);  // the delimiter belongs to what encloses the scalar
    return;
  }
  if (is_space(c)) return;
  switch (state_) {
    case State::start:
      if (bytes_ < 3 && (c == '\xEF' || c == '\xBB' || c == '\xBF')) return;  // a UTF-8 byte order mark
      if (c == '{')
        state_ = State::key;
      else if (c == '[')
        root_is_array_ = true, state_ = State::events;
      else
        fail("not_a_trace",
             "a trace is a JSON object with 'traceEvents', or a JSON array of events; this text "
             "starts with " +
                 quote(std::string(1, c)));
      return;
    case State::key:
      if (c == '"') return begin_value(c);
      if (c == '}')
        state_ = State::done;
      else
        fail("bad_json", "expected a key in quotes or '}' in the trace's top-level object");
      return;
    case State::colon:
      if (c == ':')
        state_ = State::value;
      else
        fail("bad_json", "expected ':' after the key " + quote(key_));
      return;
    case State::value:
      if (key_ == "traceEvents" && c == '[')
        state_ = State::events;
      else
        begin_value(c);
      return;
    case State::after_value:
      if (c == ',')
        state_ = State::key;
      else if (c == '}')
        state_ = State::done;
      else
        fail("bad_json", "expected ',' or '}' after the value of " + quote(key_));
      return;
    case State::events:
      if (c == ']')
        state_ = root_is_array_ ? State::done : State::after_value;
      else
        begin_value(c);
      return;
    case State::after_event:
      if (c == ',')
        state_ = State::events;
      else if (c == ']')
        state_ = root_is_array_ ? State::done : State::after_value;
      else
        fail("bad_json", "expected ',' or ']' after event " + std::to_string(events_ - 1));
      return;
    case State::done:
      fail("trailing_text", "text after the end of the trace");
      return;
  }
}

void TraceEventStream::begin_value(char c) {
  if (c == '}' || c == ']' || c == ',' || c == ':') {
    fail("bad_json", "unexpected " + quote(std::string(1, c)));
    return;
  }
  capturing_ = true;
  captured_.assign(1, c);
  in_string_ = c == '"';
  escaped_ = false;
  value_depth_ = (c == '{' || c == '[') ? 1 : 0;
  bare_scalar_ = !in_string_ && value_depth_ == 0;
}

bool TraceEventStream::scan_value(char c) {
  if (bare_scalar_) {
    if (ends_bare_scalar(c)) return true;
    captured_ += c;
    return captured_.size() > 64;  // no number or literal is this long: let the parser name it
  }
  if (captured_.size() >= kMaxTraceValueBytes) {
    fail_too_large();
    return false;
  }
  captured_ += c;
  if (in_string_) {
    if (escaped_)
      escaped_ = false;
    else if (c == '\\')
      escaped_ = true;
    else if (c == '"') {
      in_string_ = false;
      return value_depth_ == 0;
    }
    return false;
  }
  if (c == '"')
    in_string_ = true;
  else if (c == '{' || c == '[') {
    if (++value_depth_ > kMaxJsonDepth)
      fail("too_deep", "a value nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  } else if (c == '}' || c == ']') {
    return --value_depth_ == 0;
  }
  return false;
}

void TraceEventStream::end_value() {
  capturing_ = false;
  if (state_ == State::events && wanted_ && !failed_) {
    const std::string_view category = category_of(captured_);
    if (!category.empty() && !wanted_(category)) {
      ++events_, ++unparsed_;
      captured_.clear();
      state_ = State::after_event;
      return;
    }
  }
  const Json value = Json::parse(captured_, nullptr, false);
  const bool bad = value.is_discarded();
  const std::string text = std::move(captured_);
  captured_.clear();
  if (failed_) return;
  switch (state_) {
    case State::key:
      if (bad || !value.is_string()) return fail("bad_json", "a key that is not a JSON string");
      key_ = value.get<std::string>();
      state_ = State::colon;
      return;
    case State::value:
      if (bad) return fail("bad_json", "the value of " + quote(key_) + " is not JSON: " + quote(text));
      on_value_(key_, value);
      state_ = State::after_value;
      return;
    case State::events:
      if (bad || !value.is_object())
        return fail("bad_event", "event " + std::to_string(events_) + " is not a JSON object: " + quote(text));
      ++events_;
      on_event_(value);
      state_ = State::after_event;
      return;
    default:
      return;
  }
}

void TraceEventStream::finish() {
  if (failed_) return;
  if (capturing_ && bare_scalar_) end_value();
  const bool whole = state_ == State::done ||
                     (root_is_array_ && !capturing_ && (state_ == State::events || state_ == State::after_event));
  if (events_ == 0) {
    add_diagnostic(diagnostics_, "/trace", "no_events",
                   bytes_ == 0 ? "the trace is empty"
                               : "the trace has no events: 'traceEvents' is empty or missing" +
                                     std::string(whole ? "" : ", and the text ends early (cut short?)"));
    failed_ = true;
  } else if (!whole) {
    add_warning(diagnostics_, "/trace", "truncated",
                "the trace ends early (cut short?): the " + std::to_string(events_) + " whole events read are used");
  }
}

}  // namespace scalescope
