// A Chrome-trace JSON document read as a stream (Kineto/PyTorch profiler, Perfetto JSON from JAX/XProf): the text
// arrives in chunks of any size, and each element of `traceEvents` is parsed on its own as soon as it is whole, so
// a trace of hundreds of MB never sits in memory as one JSON tree. The other top-level keys (`deviceProperties`,
// `distributedInfo`, ...) come out whole. The array form (a bare `[event, ...]`, its closing `]` optional as the
// format allows) is read too. Chrome's Trace Event Format:
// docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "io/diagnostics.h"
#include "io/json_reader.h"
#include "io/limits.h"

namespace scalescope {

class TraceEventStream {
 public:
  using EventSink = std::function<void(const Json& event)>;
  using ValueSink = std::function<void(const std::string& key, const Json& value)>;
  // Whether an event of this `cat` is wanted: the others are counted, not parsed (a PyTorch trace's Python frames
  // are most of its events). An event whose category cannot be read without parsing it is parsed.
  using CategoryFilter = bool (*)(std::string_view category);
  TraceEventStream(EventSink on_event, ValueSink on_value, CategoryFilter wanted = nullptr);

  // False once the text is known to be bad (the diagnostic says where); later chunks are ignored.
  bool feed(std::string_view chunk);
  // Ends the text. A trace cut short keeps the events read so far, with a warning (a crashed job's trace is still
  // worth reading); no event at all is an error.
  void finish();

  const Diagnostics& diagnostics() const { return diagnostics_; }
  bool failed() const { return failed_; }
  std::uint64_t bytes_read() const { return bytes_; }
  std::uint64_t events_read() const { return events_; }
  std::uint64_t events_unparsed() const { return unparsed_; }

 private:
  enum class State { start, key, colon, value, after_value, events, after_event, done };
  void step(char c);
  void begin_value(char c);
  bool scan_value(char c);  // true when the value being captured is whole (c included unless it is a delimiter)
  void end_value();
  void fail(std::string code, std::string message);
  void fail_too_large();

  EventSink on_event_;
  ValueSink on_value_;
  CategoryFilter wanted_;
  Diagnostics diagnostics_;
  State state_ = State::start;
  bool root_is_array_ = false;
  bool failed_ = false;
  bool capturing_ = false;
  bool in_string_ = false, escaped_ = false, bare_scalar_ = false;
  int value_depth_ = 0;
  std::string key_;       // the top-level key whose value is being read
  std::string captured_;  // the value or event being read
  std::uint64_t bytes_ = 0, events_ = 0, unparsed_ = 0;
};

}  // namespace scalescope
