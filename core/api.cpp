#include "api.h"

#include <cmath>

#include "specs/calibration_profile.h"
#include "specs/presets.h"
#include "queries/query.h"
#include "queries/scenario.h"

namespace scalescope {

std::span<const QueryKind> query_kinds() {
  static const QueryKind kinds[] = {
      {"summary", kNeedsHardware | kWantsModel | kWantsMesh, run_summary},
      {"chip", kNeedsHardware, run_chip},
      {"roofline", kNeedsHardware, run_roofline},
      {"matmul", kNeedsHardware, run_matmul},
      {"topology", kNeedsHardware | kWantsMesh, run_topology},
      {"transfer", kNeedsHardware | kWantsMesh, run_transfer},
      {"collective", kNeedsHardware | kNeedsMesh, run_collective},
      {"array", kNeedsHardware | kNeedsMesh, run_array},
      {"sharded_matmul", kNeedsHardware | kNeedsMesh, run_sharded_matmul},
      {"transformer", kNeedsModel, run_transformer},
      {"utilization", kNeedsHardware | kWantsModel, run_utilization},
      {"bounds", kNeedsHardware | kWantsModel | kWantsMesh, run_bounds},
      {"training_step", kNeedsHardware | kNeedsModel | kNeedsMesh, run_training_step, true, Fidelity::calibrated},
      {"serving", kNeedsHardware | kNeedsModel | kNeedsMesh, run_serving, true, Fidelity::calibrated},
      {"mlp_roofline", kNeedsHardware | kWantsMesh, run_mlp_roofline},
      {"plan_search", kNeedsHardware | kNeedsModel | kNeedsMesh, run_plan_search, true, Fidelity::calibrated},
      {"validation", 0, run_validation},
      {"calibrate", 0, run_calibrate},
      {"serving_search", kNeedsHardware | kNeedsModel, run_serving_search, true, Fidelity::calibrated},
  };
  return kinds;
}

namespace {

std::vector<std::string> query_names() {
  std::vector<std::string> names;
  for (const auto& k : query_kinds()) names.emplace_back(k.name);
  return names;
}

std::string calibrated_kinds() {
  std::vector<std::string> names;
  for (const auto& k : query_kinds())
    if (k.offers_calibrated) names.emplace_back(k.name);
  return names.empty() ? "none yet" : join_choices(names);
}

// `query.fidelity`: "book" everywhere; "calibrated" where the kind offers it (DESIGN.md "Fidelity and calibration").
Fidelity read_fidelity(JsonReader& args, const QueryKind& kind, Diagnostics& d) {
  const auto name = args.choice("fidelity", false, {"book", "calibrated"});
  if (!name) return kind.default_fidelity;
  if (*name == "calibrated" && !kind.offers_calibrated) {
    add_diagnostic(d, args.path_of("fidelity"), "not_applicable",
                   std::string("query '") + kind.name + "' has the book fidelity only; 'calibrated' is offered by " +
                       calibrated_kinds());
    return Fidelity::book;
  }
  return *name == "calibrated" ? Fidelity::calibrated : Fidelity::book;
}

Json diagnostics_json(const Diagnostics& diagnostics) {
  Json out = Json::array();
  for (const auto& d : diagnostics)
    out.push_back({{"path", d.path},
                   {"code", d.code},
                   {"message", d.message},
                   {"severity", d.warning ? "warning" : "error"}});
  return out;
}

// DESIGN.md: no NaN or Inf ever reaches a result. Any that slipped through become a diagnostic and null.
void scrub_non_finite(Json& node, const std::string& path, Diagnostics& d) {
  if (node.is_number_float() && !std::isfinite(node.get<double>())) {
    add_diagnostic(d, "/result" + path, "non_finite", "the engine produced a non-finite number here; please report it");
    node = nullptr;
  } else if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) scrub_non_finite(it.value(), json_pointer_child(path, it.key()), d);
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) scrub_non_finite(node[i], json_pointer_child(path, i), d);
  }
}

// A malformed document: ask nlohmann's SAX parser where it broke, without exceptions.
struct ErrorFinder : nlohmann::json_sax<Json> {
  std::string message;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception&) override {
    message = "malformed JSON at byte " + std::to_string(position) + " near '" + token.substr(0, 40) + "'";
    return false;
  }
};

std::string describe_parse_error(std::string_view text) {
  ErrorFinder finder;
  Json::sax_parse(text, &finder, nlohmann::detail::input_format_t::json, true);
  return finder.message.empty() ? "malformed JSON" : finder.message;
}

struct Prepared {
  const QueryKind* kind = nullptr;
  ScenarioSpecs specs;
  const Json* query = nullptr;
};

void prepare(const Json& scenario, Prepared& p, Diagnostics& d) {
  JsonReader top(scenario, "", d);
  if (!top.ok_object()) return;
  top.integer("version", false, 1, 1);
  const Json* hardware = top.value("hardware", false);
  const Json* model = top.value("model", false);
  const Json* mesh = top.value("mesh", false);
  p.query = top.object("query", true);
  top.finish();
  if (!p.query) return;
  const auto kind_name = JsonReader(*p.query, "/query", d).choice("kind", true, query_names());
  if (!kind_name) return;
  for (const auto& k : query_kinds())
    if (*kind_name == k.name) p.kind = &k;
  const unsigned needs = p.kind->needs;
  auto require = [&](const Json* node, unsigned flag, const char* key) {
    if (!node && (needs & flag))
      add_diagnostic(d, std::string("/") + key, "missing_key",
                     std::string("query '") + p.kind->name + "' needs '" + key + "'");
  };
  require(hardware, kNeedsHardware, "hardware");
  require(model, kNeedsModel, "model");
  require(mesh, kNeedsMesh, "mesh");
  resolve_scenario_specs(hardware, model, mesh, p.specs, d);
}

Json run(const Json& scenario, Diagnostics& d, bool validate_only) {
  Json out;
  Prepared p;
  prepare(scenario, p, d);
  if (p.kind) out["query"] = p.kind->name;
  if (p.kind && !has_errors(d) && !validate_only) {
    JsonReader args(*p.query, "/query", d);
    args.accept("kind");
    p.specs.ctx.fidelity = read_fidelity(args, *p.kind, d);
    Json result = p.kind->run(p.specs.ctx, args, d);
    args.finish();
    if (result.is_object()) result["fidelity"] = fidelity_name(p.specs.ctx.fidelity);
    scrub_non_finite(result, "", d);
    if (!has_errors(d)) out["result"] = std::move(result);
  }
  out["ok"] = !has_errors(d);
  out["diagnostics"] = diagnostics_json(d);
  out["engine_version"] = kEngineVersion;
  return out;
}

Json parse_document(std::string_view text, Diagnostics& d) {
  Json scenario = Json::parse(text, nullptr, false);
  if (scenario.is_discarded()) add_diagnostic(d, "", "malformed_json", describe_parse_error(text));
  return scenario;
}

}  // namespace

Json evaluate(const Json& scenario) {
  Diagnostics d;
  return run(scenario, d, false);
}

std::string evaluate_json(std::string_view text) {
  Diagnostics d;
  Json scenario = parse_document(text, d);
  if (!d.empty()) return Json{{"ok", false}, {"diagnostics", diagnostics_json(d)}, {"engine_version", kEngineVersion}}.dump();
  return run(scenario, d, false).dump();
}

std::string evaluate_many_json(std::string_view text) {
  Diagnostics d;
  Json scenarios = parse_document(text, d);
  if (d.empty() && !scenarios.is_array()) add_diagnostic(d, "", "wrong_type", "expected an array of scenarios");
  if (!d.empty()) return Json{{"ok", false}, {"diagnostics", diagnostics_json(d)}, {"engine_version", kEngineVersion}}.dump();
  Json out = Json::array();
  for (const Json& scenario : scenarios) out.push_back(evaluate(scenario));
  return out.dump();
}

std::string validate_json(std::string_view text) {
  Diagnostics d;
  Json scenario = parse_document(text, d);
  if (d.empty()) return run(scenario, d, true).dump();
  return Json{{"ok", false}, {"diagnostics", diagnostics_json(d)}, {"engine_version", kEngineVersion}}.dump();
}

std::string presets_json() {
  Json out{{"hardware", Json::array()}, {"models", Json::array()}, {"queries", query_names()}};
  for (const auto& p : hardware_preset_texts()) out["hardware"].push_back(preset_json(p));
  for (const auto& p : model_preset_texts()) out["models"].push_back(preset_json(p));
  out["calibration_profiles"] = Json::array();
  for (const auto& p : embedded_calibration_profiles()) out["calibration_profiles"].push_back(calibration_profile_json(p));
  out["engine_version"] = kEngineVersion;
  return out.dump();
}

}  // namespace scalescope
