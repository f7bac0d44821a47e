// Shared by the unit tests: presets by id, parsed once.
#pragma once
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "api.h"
#include "io/json_text.h"
#include "physics/mesh.h"
#include "planners/serving.h"
#include "specs/hardware.h"
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

// A published config.json kept under tests/hf_configs/ (its README names each one's source), read as the engine
// reads a document (Python's Infinity and NaN literals too).
inline Json hf_config_file(const std::string& file) {
  std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/tests/hf_configs/" + file);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  Diagnostics d;
  const Json j = parse_document(text.str(), d);
  REQUIRE(d.empty());
  return j;
}

// A book-fidelity serving replica of `m` on `mesh`, TP over `tp` of its chips, weights in `weights`, no comms.
inline ServingInput serving_replica(const Hardware& hw, const ModelConfig& m, const Mesh& mesh, double tp,
                                    Dtype weights) {
  ServingInput in;
  in.hw = &hw;
  in.model = &m;
  in.mesh = &mesh;
  in.weights = weights;
  in.tensor.degree = tp;
  in.include_comms = false;
  return in;
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

// The transformer query's result for `model` at `seq_len` tokens (REQUIREd ok).
inline Json transformer_result(const Json& model, double seq_len) {
  const Json out = run_json({{"model", model}, {"query", {{"kind", "transformer"}, {"seq_len", seq_len}}}});
  INFO(out["diagnostics"].dump());
  REQUIRE(out["ok"] == true);
  return out["result"];
}

// A serving query on 8 chips of `chip`, TP over all of them, with `query`'s arguments; its result (REQUIREd ok).
inline Json serving_on_8(const char* chip, const Json& model, Json query) {
  query["kind"] = "serving";
  query["parallelism"] = {{"tensor", {"X"}}};
  const Json out =
      run_json({{"hardware", {{"preset", chip}}}, {"model", model}, {"mesh", {{"shape", {8}}}}, {"query", query}});
  INFO(chip << ": " << out["diagnostics"].dump());
  REQUIRE(out["ok"] == true);
  return out["result"];
}

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
