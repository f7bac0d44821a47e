#include "api.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "calibration/query_kinds.h"
#include "frameworks/framework_query.h"
#include "io/format.h"
#include "io/json_pointer.h"
#include "io/json_text.h"
#include "io/limits.h"
#include "io/text.h"
#include "queries/mesh_lay_out.h"
#include "queries/nearest_fit.h"
#include "queries/query.h"
#include "queries/scenario.h"
#include "specs/calibration_profile.h"
#include "specs/model_json.h"
#include "specs/presets.h"
#include "specs/serving_backend.h"

namespace scalescope {

namespace {

std::span<const QueryKind> core_query_kinds() {
  static const QueryKind kinds[] = {
      {"summary", kNeedsHardware | kWantsModel | kWantsMesh, run_summary, true, Fidelity::calibrated},
      {"chip", kNeedsHardware, run_chip},
      {"roofline", kNeedsHardware, run_roofline},
      {"matmul", kNeedsHardware, run_matmul},
      {"topology", kNeedsHardware | kWantsMesh, run_topology},
      {"transfer", kNeedsHardware | kWantsMesh, run_transfer},
      {"collective", kNeedsHardware | kNeedsMesh, run_collective},
      {"array", kNeedsHardware | kNeedsMesh, run_array},
      {"sharded_matmul", kNeedsHardware | kNeedsMesh, run_sharded_matmul},
      {"transformer", kNeedsModel, run_transformer},
      {"model", kNeedsModel, run_model},
      {"utilization", kNeedsHardware | kWantsModel, run_utilization},
      {"bounds", kNeedsHardware | kWantsModel | kWantsMesh, run_bounds},
      {"training_step", kNeedsHardware | kNeedsModel | kNeedsMesh, run_training_step, true, Fidelity::calibrated},
      {"serving", kNeedsHardware | kNeedsModel | kNeedsMesh, run_serving, true, Fidelity::calibrated},
      {"mlp_roofline", kNeedsHardware | kWantsMesh, run_mlp_roofline},
      {"plan_search", kNeedsHardware | kNeedsModel | kNeedsMesh, run_plan_search, true, Fidelity::calibrated},
      {"serving_search", kNeedsHardware | kNeedsModel, run_serving_search, true, Fidelity::calibrated},
      {"plan_mesh", kNeedsHardware | kNeedsModel, run_plan_mesh},
      {"profile", kNeedsHardware, run_profile},
      // Asks whole scenarios, answered in run() before any spec is resolved (queries/nearest_fit.h): no handler.
      {"nearest_fit", kNeedsHardware | kNeedsModel | kNeedsMesh, nullptr},
  };
  return kinds;
}

}  // namespace

std::span<const QueryKind> query_kinds() {
  static const std::vector<QueryKind> kinds = [] {
    std::vector<QueryKind> all(core_query_kinds().begin(), core_query_kinds().end());
    all.insert(all.end(), framework_query_kinds().begin(), framework_query_kinds().end());
    all.insert(all.end(), calibration_query_kinds().begin(), calibration_query_kinds().end());
    return all;
  }();
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

// `query.fidelity`: "book" everywhere; "calibrated" where the kind offers it (docs/design.md, "Fidelity and
// calibration").
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

// At most kMaxDiagnostics are listed; one more says how many were dropped (an error if any dropped one was).
Json diagnostics_json(const Diagnostics& diagnostics) {
  Json out = Json::array();
  const std::size_t listed = std::min(diagnostics.size(), kMaxDiagnostics);
  for (std::size_t i = 0; i < listed; ++i) out.push_back(diagnostic_json(diagnostics[i]));
  if (diagnostics.size() > listed) {
    const Diagnostics dropped(diagnostics.begin() + static_cast<std::ptrdiff_t>(listed), diagnostics.end());
    out.push_back(
        diagnostic_json(Diagnostic{"", "too_many_diagnostics",
                                   std::to_string(dropped.size()) + " more diagnostics were dropped (at most " +
                                       std::to_string(kMaxDiagnostics) + " are listed)",
                                   !has_errors(dropped)}));
  }
  return out;
}

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && std::string_view(s).substr(s.size() - tail.size()) == tail;
}

// The fractions of a whole that hardware bounds by 1 (an error fraction, such as a calibration band's, may exceed it).
bool is_utilisation(const std::string& key) {
  return key == "mfu_frac" || key == "hfu_frac" || key == "utilization_frac" || key == "bubble_frac";
}

// docs/design.md: no NaN or Inf ever reaches a result (one that slipped through is an engine bug: a diagnostic and
// null). Issue 12: -0 becomes 0; a utilisation over 1 or a negative time or rate (*_s) is outside physics, a
// warning that names it.
// `key` is the number's own key (an array's entries share the array's).
void check_result(Json& node, const std::string& key, const std::string& path, int depth, Diagnostics& d) {
  if (node.is_number_float()) {
    const double x = node.get<double>();
    if (!std::isfinite(x)) {
      add_diagnostic(d, "/result" + path, "non_finite",
                     "the engine produced a non-finite number here; please report it");
      node = nullptr;
    } else if (x == 0) {
      node = 0.0;
    } else if (is_utilisation(key) && x > 1 + 1e-9) {
      add_warning(d, "/result" + path, "outside_physics",
                  "'" + key + "' is " + format_count(x) +
                      ", more than 1: the inputs ask more of the hardware than "
                      "its peak; check them");
    } else if (ends_with(key, "_s") && x < 0) {
      add_warning(d, "/result" + path, "outside_physics",
                  "'" + key + "' is negative, which no time or rate can be; please report it");
    }
  } else if (node.is_structured() && depth >= kMaxJsonDepth) {
    add_diagnostic(d, "/result" + path, "too_deep", "the result is nested deeper than the limit; please report it");
  } else if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it)
      check_result(it.value(), it.key(), json_pointer_child(path, it.key()), depth + 1, d);
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) check_result(node[i], key, json_pointer_child(path, i), depth + 1, d);
  }
}

Json rejected(const Diagnostics& d) {
  return Json{{"ok", false}, {"diagnostics", diagnostics_json(d)}, {"engine_version", kEngineVersion}};
}

// The second line of defence (issue 12): whatever escapes the engine becomes a diagnostic. The root causes are
// fixed so that nothing throws; under wasm (-sDISABLE_EXCEPTION_CATCHING=1) the catch is compiled out.
Json guarded(const std::function<Json()>& f) {
  try {
    return f();
  } catch (const std::exception& e) {
    Diagnostics d;
    add_diagnostic(d, "", "internal_error", "the engine failed (" + quote(e.what(), 200) + "); please report it");
    return rejected(d);
  } catch (...) {
    Diagnostics d;
    add_diagnostic(d, "", "internal_error", "the engine failed; please report it");
    return rejected(d);
  }
}

// guarded() and the text out; if even writing fails (memory), the fixed answer.
std::string guarded_text(const std::function<Json()>& f) {
  try {
    return to_text(guarded(f));
  } catch (...) {
    return failure_json();
  }
}

struct Prepared {
  const QueryKind* kind = nullptr;
  ScenarioSpecs specs;
  const Json* query = nullptr;
};

void prepare(const Json& scenario, Prepared& p, Diagnostics& d) {
  JsonReader top(scenario, "", d);
  if (!top.ok_object()) return;
  top.string("$schema", false);  // the JSON Schema an editor checks the file with (schema/scenario.schema.json)
  top.number("version", false);
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

// The answer to a query of `kind` (none: the kind could not be read): its result, checked, unless errors or
// `validate_only` leave it out.
Json answer_of(const char* kind, Json result, Diagnostics& d, bool validate_only) {
  Json out = Json::object();
  if (kind) out["query"] = kind;
  if (result.is_object()) check_result(result, "", "", 0, d);
  if (result.is_object() && !has_errors(d) && !validate_only) out["result"] = std::move(result);
  out["ok"] = !has_errors(d);
  out["diagnostics"] = diagnostics_json(d);
  out["engine_version"] = kEngineVersion;
  return out;
}

// Its candidates are whole scenarios, each asked of evaluate() as a caller would.
Json answer_nearest_fit(const Json& scenario, Diagnostics& d, bool validate_only) {
  return answer_of("nearest_fit", run_nearest_fit(scenario, evaluate, d), d, validate_only);
}

// `validate_only` answers the diagnostics without the result. The query still runs: its arguments are read as it
// runs, and a validate that skipped them passed `batch: -1` that evaluate rejects (issue 41).
Json run(const Json& scenario, Diagnostics& d, bool validate_only) {
  if (asks_nearest_fit(scenario)) return answer_nearest_fit(scenario, d, validate_only);
  if (asks_lay_out(scenario)) {
    const Json laid = lay_out_mesh(scenario, evaluate, d);
    if (!has_errors(d) && !asks_lay_out(laid)) return run(laid, d, validate_only);
    // No mesh: the query's kind is still named, or said to be wrong, as an answer whose query ran does.
    Json out = {{"ok", false}, {"engine_version", kEngineVersion}};
    const Json* query = scenario.contains("query") ? &scenario["query"] : nullptr;
    if (query && query->is_object())
      if (const auto kind = JsonReader(*query, "/query", d).choice("kind", true, query_names())) out["query"] = *kind;
    out["diagnostics"] = diagnostics_json(d);
    return out;
  }
  Prepared p;
  prepare(scenario, p, d);
  Json result;
  if (p.kind && p.kind->run && !has_errors(d)) {
    JsonReader args(*p.query, "/query", d);
    args.accept("kind");
    p.specs.ctx.fidelity = read_fidelity(args, *p.kind, d);
    result = p.kind->run(p.specs.ctx, args, d);
    args.finish();
    if (result.is_object()) result["fidelity"] = fidelity_name(p.specs.ctx.fidelity);
  }
  return answer_of(p.kind ? p.kind->name : nullptr, std::move(result), d, validate_only);
}

}  // namespace

Json evaluate(const Json& scenario) {
  return guarded([&] {
    Diagnostics d;
    // A document handed over as a value has not been through parse_document's depth limit.
    if (!check_depth(scenario, "", d)) return rejected(d);
    return run(scenario, d, false);
  });
}

std::string evaluate_json(std::string_view text) {
  return guarded_text([&] {
    Diagnostics d;
    const Json scenario = parse_document(text, d);
    return d.empty() ? run(scenario, d, false) : rejected(d);
  });
}

namespace {

// A plan search stops at the per-call work limit with a cursor (docs/api.md "Limits"); a caller that did not ask
// for chunks gets the search resumed until it is whole.
bool stopped_by_work_limit(const Json& scenario, const Json& answer) {
  const Json* query = scenario.is_object() && scenario.contains("query") ? &scenario["query"] : nullptr;
  if (!query || !query->is_object()) return false;
  // The query is still the reader's JSON: its kind may be a number (issue 41: value("kind", "") threw on one and
  // answered internal_error).
  const auto kind = query->find("kind");
  return kind != query->end() && *kind == "plan_search" && !query->contains("chunk_plans") &&
         answer.value("ok", false) && answer.contains("result") &&
         answer["result"].value("stopped_by", "") == "work_limit";
}

}  // namespace

std::string evaluate_whole_json(std::string_view text, const SearchProgress& progress) {
  return guarded_text([&] {
    Diagnostics d;
    Json scenario = parse_document(text, d);
    if (!d.empty()) return rejected(d);
    Json answer = run(scenario, d, false);
    while (stopped_by_work_limit(scenario, answer)) {
      if (progress) progress(answer["result"]);
      scenario["query"]["resume"] = answer["result"]["cursor"];
      Diagnostics next;
      answer = run(scenario, next, false);
    }
    return answer;
  });
}

std::string evaluate_many_json(std::string_view text) {
  try {
    Diagnostics d;
    const Json scenarios = parse_document(text, d);
    if (d.empty() && !scenarios.is_array()) add_diagnostic(d, "", "wrong_type", "expected an array of scenarios");
    if (d.empty() && scenarios.size() > kMaxScenariosPerCall)
      add_diagnostic(d, "", "too_large",
                     "the array holds " + std::to_string(scenarios.size()) + " scenarios; the limit is " +
                         std::to_string(kMaxScenariosPerCall) + " per call");
    if (!d.empty()) return to_text(rejected(d));
    // The answers are written one by one, and once they pass kMaxAnswerBytes the scenarios left are not run
    // (issue 22: 273 serving sweeps under the 1 MiB input asked for 623 MB).
    std::string out = "[";
    bool full = false;
    for (std::size_t i = 0; i < scenarios.size(); ++i) {
      std::string one = full ? "" : guarded_text([&] { return evaluate(scenarios[i]); });
      full = full || out.size() + one.size() > kMaxAnswerBytes;
      if (full) {
        Diagnostics over;
        add_diagnostic(over, "", "too_large",
                       "this call's answers passed " + format_count(static_cast<double>(kMaxAnswerBytes)) +
                           " bytes (the limit) by scenario " + std::to_string(i) +
                           "; evaluate it and the rest in another call");
        one = to_text(rejected(over));
      }
      out += (i ? "," : "") + one;
    }
    return out + "]";
  } catch (...) {
    return failure_json();
  }
}

namespace {

// Each field of a fields request as its reference tokens, or a diagnostic at /fields/i.
std::vector<std::vector<std::string>> read_fields(const Json& fields, Diagnostics& d) {
  std::vector<std::vector<std::string>> out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string path = "/fields/" + std::to_string(i);
    const auto tokens = fields[i].is_string() ? parse_json_pointer(fields[i].get<std::string>()) : std::nullopt;
    if (tokens)
      out.push_back(*tokens);
    else
      add_diagnostic(d, path, "wrong_type",
                     "expected a JSON pointer into the result (RFC 6901: \"\" or \"/\"-separated keys, ~0 for ~ and ~1 "
                     "for /), such as \"/time/step_s\"");
  }
  return out;
}

// One answer as a row: ok, its first error ("path: code: message"), the value at each field (null where absent).
// `bytes` counts what the row's objects and arrays will write, so that fields of whole results stay under
// kMaxAnswerBytes as evaluate_many_json's answers do.
Json fields_row(const Json& answer, const std::vector<std::vector<std::string>>& fields, std::size_t& bytes) {
  Json row = Json::array({answer.value("ok", false), nullptr});
  for (const Json& diagnostic : answer.value("diagnostics", Json::array()))
    if (diagnostic.value("severity", "error") == "error") {
      row[1] =
          diagnostic.value("path", "") + ": " + diagnostic.value("code", "") + ": " + diagnostic.value("message", "");
      break;
    }
  // A refused answer has no result: its fields are null (the pointer "" too).
  const auto result = answer.find("result");
  for (const auto& field : fields) {
    const Json* value = result != answer.end() ? find_at(*result, field) : nullptr;
    row.push_back(value ? *value : Json());
    if (row.back().is_structured()) bytes += row.back().dump().size();
  }
  return row;
}

}  // namespace

std::string evaluate_fields_json(std::string_view text) {
  return guarded_text([&] {
    Diagnostics d;
    const Json request = parse_document(text, d);
    if (!d.empty()) return rejected(d);
    JsonReader top(request, "", d);
    const Json* scenarios = top.array("scenarios", true, kMaxScenariosPerCall);
    const Json* fields = top.array("fields", true);
    top.finish();
    const std::vector<std::vector<std::string>> pointers = fields ? read_fields(*fields, d) : decltype(pointers){};
    if (!d.empty() || !scenarios) return rejected(d);
    Json rows = Json::array();
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < scenarios->size(); ++i) {
      if (bytes > kMaxAnswerBytes) {
        Diagnostics over;
        add_diagnostic(over, "", "too_large",
                       "this call's fields passed " + format_count(static_cast<double>(kMaxAnswerBytes)) +
                           " bytes by scenario " + std::to_string(i) + "; evaluate it and the rest in another call");
        rows.push_back(fields_row(rejected(over), pointers, bytes));
        continue;
      }
      rows.push_back(fields_row(guarded([&] { return evaluate((*scenarios)[i]); }), pointers, bytes));
    }
    return Json{{"ok", true}, {"fields", *fields}, {"rows", std::move(rows)}, {"engine_version", kEngineVersion}};
  });
}

std::string validate_json(std::string_view text) {
  return guarded_text([&] {
    Diagnostics d;
    const Json scenario = parse_document(text, d);
    return d.empty() ? run(scenario, d, true) : rejected(d);
  });
}

std::string failure_json() {
  return R"({"diagnostics":[{"code":"internal_error","message":"the engine failed; please report it","path":"",)"
         R"("severity":"error"}],"engine_version":")" +
         std::string(kEngineVersion) + R"(","ok":false})";
}

std::string model_json(std::string_view model_text) { return resolve_model_json(model_text); }

std::string presets_json() {
  return guarded_text([] {
    Json out{{"hardware", Json::array()}, {"models", Json::array()}, {"queries", query_names()}};
    for (const auto& p : hardware_preset_texts()) out["hardware"].push_back(preset_json(p));
    for (const auto& p : model_preset_texts()) {
      // The file as written, with the shape fields the engine derives (latent attention's kv_heads and head_dim),
      // so a page reads every model's shape the same way.
      Json model = preset_json(p);
      Diagnostics ignored;
      const Json resolved = model_config_json(parse_model(model, "", false, ignored));
      for (auto it = resolved.begin(); it != resolved.end(); ++it)
        if (!model.contains(it.key())) model[it.key()] = it.value();
      out["models"].push_back(model);
    }
    out["calibration_profiles"] = Json::array();
    for (const auto& p : embedded_calibration_profiles())
      out["calibration_profiles"].push_back(calibration_profile_json(p));
    // The serving engines whose runtime the serving query's `load.backend` can apply (issue 35).
    out["serving_backends"] = Json::array();
    for (const ServingBackend& b : embedded_serving_backends())
      out["serving_backends"].push_back(serving_backend_json(b));
    out["engine_version"] = kEngineVersion;
    return out;
  });
}

}  // namespace scalescope
