// Shared by the unit tests: presets by id, parsed once.
#pragma once
#include <catch2/catch.hpp>

#include "api.h"
#include "specs/hardware.h"
#include "physics/mesh.h"
#include "specs/model.h"
#include "specs/presets.h"

namespace scalescope::test {

inline Hardware hardware(const char* id) {
  Diagnostics d;
  const Hardware hw = parse_hardware(Json::parse(find_preset(hardware_preset_texts(), id)->json), "", true, d);
  REQUIRE(d.empty());
  return hw;
}

inline ModelConfig model(const char* id) {
  Diagnostics d;
  const ModelConfig m = parse_model(Json::parse(find_preset(model_preset_texts(), id)->json), "", true, d);
  REQUIRE(d.empty());
  return m;
}

inline Mesh mesh_of(const Hardware& hw, const Json& spec) {
  Diagnostics d;
  Mesh m = parse_mesh(spec, "/mesh", hw, d);
  REQUIRE(d.empty());
  return m;
}

inline bool has_code(const Diagnostics& d, const std::string& code, const std::string& path = "") {
  for (const auto& x : d)
    if (x.code == code && (path.empty() || x.path == path)) return true;
  return false;
}

// A scenario through the JSON entry point, its answer parsed.
inline Json run_json(const Json& scenario) { return Json::parse(evaluate_json(scenario.dump())); }

// A plan_search resumed from each answer's cursor until it completes (or `max_calls` calls in all); `first` is
// the first call's answer. Returns the last answer; `calls` counts every call, the first included.
inline Json resume_search(Json scenario, Json first, int max_calls, int& calls) {
  calls = 1;
  while (first["ok"] == true && first["result"]["complete"] == false && calls < max_calls) {
    scenario["query"]["resume"] = first["result"]["cursor"];
    first = run_json(scenario);
    ++calls;
  }
  return first;
}

}  // namespace scalescope::test
