// scalescope._engine: the Python module's door into the engine, as wasm/bindings.cpp is the web's. JSON text in,
// JSON text out, as bytes (the engine's exact output, compared byte for byte with the CLI's); nothing here
// computes anything. The GIL is released while the engine runs, so threads of a sweep run in parallel.
#include <pybind11/pybind11.h>

#include <string>

#include "api.h"
#include "traces/trace_session.h"

namespace py = pybind11;

namespace {

// core/api.cpp turns anything it catches into a diagnostic; this is the last line before Python.
template <typename F>
py::bytes answer(F&& f) {
  std::string out;
  {
    py::gil_scoped_release released;
    try {
      out = f();
    } catch (...) {
      out = scalescope::failure_json();
    }
  }
  return py::bytes(out);
}

}  // namespace

PYBIND11_MODULE(_engine, m) {
  m.doc() = "Scalescope's C++ engine: JSON text (bytes) in, JSON text (bytes) out (docs/api.md).";
  m.def(
      "evaluate", [](const std::string& s) { return answer([&] { return scalescope::evaluate_json(s); }); },
      "One scenario; a plan search answers one chunk (as the wasm module's evaluate).");
  m.def(
      "evaluate_many", [](const std::string& s) { return answer([&] { return scalescope::evaluate_many_json(s); }); },
      "A JSON array of scenarios; the array of their answers.");
  m.def(
      "evaluate_fields",
      [](const std::string& s) { return answer([&] { return scalescope::evaluate_fields_json(s); }); },
      "{\"scenarios\": [...], \"fields\": [JSON pointers]}; each answer's ok, first error and fields (sweeps).");
  m.def(
      "validate", [](const std::string& s) { return answer([&] { return scalescope::validate_json(s); }); },
      "Checks a scenario without running it.");
  m.def(
      "presets", [] { return answer([] { return scalescope::presets_json(); }); },
      "The embedded hardware, model and calibration presets.");
  m.def(
      "model", [](const std::string& s) { return answer([&] { return scalescope::model_json(s); }); },
      "The model a scenario's `model` object resolves to (e.g. {\"hf_config\": {...}}).");
  // A profiler trace, fed in chunks as Python reads (and decompresses) the file: docs/api.md "Traces".
  py::class_<scalescope::TraceSession>(m, "TraceSession", "A profiler trace read as a stream (docs/api.md Traces).")
      .def(py::init<>())
      .def(
          "feed",
          [](scalescope::TraceSession& session, const py::bytes& chunk) {
            const std::string_view text = chunk;
            py::gil_scoped_release released;
            return session.feed(text);
          },
          "Reads the next chunk of the trace's text; False once the text is known to be bad.")
      .def(
          "finish",
          [](scalescope::TraceSession& session, const std::string& options) {
            return answer([&] { return session.finish(options); });
          },
          "Ends the text and answers with the analysis (options: hardware, top).");
  m.attr("engine_version") = scalescope::kEngineVersion;
}
