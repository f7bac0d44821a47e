// The web's door into the engine: six stateless functions, JSON text in, JSON text out (docs/api.md).
// Nothing here computes anything; it only forwards to core/api.h. The TypeScript types that describe these
// functions are written by hand in web/src/engine/types.ts (Emscripten 3.1.6 has no --emit-tsd) and checked
// against this module by web/test/engine-types.test.ts.
#include <emscripten/bind.h>

#include <string>

#include "api.h"

namespace {

// core/api.cpp already turns anything it catches into a diagnostic; this is the last line before JavaScript.
// The module is built without exception catching (wasm/CMakeLists.txt: it would cost size and speed), so under
// wasm these handlers are compiled out and the engine's guarantee is that nothing throws (issue 12).
template <typename F>
std::string answer(F&& f) {
  try {
    return f();
  } catch (...) {
    return scalescope::failure_json();
  }
}

std::string evaluate(const std::string& s) {
  return answer([&] { return scalescope::evaluate_json(s); });
}
std::string evaluate_many(const std::string& s) {
  return answer([&] { return scalescope::evaluate_many_json(s); });
}
std::string presets() {
  return answer([] { return scalescope::presets_json(); });
}
std::string validate(const std::string& s) {
  return answer([&] { return scalescope::validate_json(s); });
}
std::string version() { return scalescope::kEngineVersion; }
// The model a scenario's `model` object resolves to (e.g. a pasted config.json), for the explorer's controls.
std::string model_json(const std::string& model_text) {
  return answer([&] { return scalescope::model_json(model_text); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(scalescope) {
  emscripten::function("evaluate", &evaluate);
  emscripten::function("evaluate_many", &evaluate_many);
  emscripten::function("presets", &presets);
  emscripten::function("validate", &validate);
  emscripten::function("version", &version);
  emscripten::function("model_json", &model_json);
}
