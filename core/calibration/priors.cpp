#include "calibration/priors.h"

#include "io/json_text.h"
#include "io/ranges.h"
#include "specs/calibration_profile.h"

namespace scalescope {

namespace {

constexpr const char* kKinds[] = {"tpu", "gpu"};

void read_sources(JsonReader& r, CalibrationPriors& out, Diagnostics& d) {
  const Json* node = r.object("sources", true);
  if (!node) return;
  for (const auto& [id, value] : node->items()) {
    JsonReader s(value, json_pointer_child(r.path_of("sources"), id), d);
    if (!s.ok_object()) continue;
    PriorSource src;
    src.id = id;
    src.kind =
        s.choice("kind", true, {"book", "paper", "model", "framework", "vendor", "microbenchmark", "uninformative"})
            .value_or("");
    src.cite = s.string("cite", true).value_or("");
    src.url = s.string("url", src.kind != "uninformative").value_or("");
    s.finish();
    out.sources.push_back(std::move(src));
  }
}

Prior read_prior(JsonReader& s, const ProfileParameter& q, const CalibrationPriors& priors, Diagnostics& d) {
  Prior p;
  p.value = s.number("value", true, NumberRange{q.key, q.lo, q.hi, false, ""}).value_or(1);
  p.log_sigma = s.number("log_sigma", true, NumberRange{"log_sigma", 0.01, 10, false, ""}).value_or(1);
  p.source = s.string("source", true).value_or("");
  p.note = s.string("note", true).value_or("");
  if (!p.source.empty() && !priors.source(p.source)) {
    std::vector<std::string> ids;
    for (const auto& src : priors.sources) ids.push_back(src.id);
    add_diagnostic(d, s.path_of("source"), "unknown_choice",
                   "unknown source '" + p.source + "'; valid: " + join_choices(ids));
  }
  return p;
}

}  // namespace

const PriorSource* CalibrationPriors::source(std::string_view id) const {
  for (const auto& s : sources)
    if (s.id == id) return &s;
  return nullptr;
}

CalibrationPriors parse_calibration_priors(const Json& node, const std::string& path, Diagnostics& d) {
  CalibrationPriors out;
  JsonReader r(node, path, d);
  if (!r.ok_object()) return out;
  r.accept("schema");
  r.accept("about");
  read_sources(r, out, d);
  const auto table = profile_parameters();
  out.parameters.resize(table.size());
  if (const Json* params = r.object("parameters", true)) {
    JsonReader all(*params, r.path_of("parameters"), d);
    for (std::size_t i = 0; i < table.size(); ++i) {
      const Json* per_kind = all.object(table[i].key, true);
      if (!per_kind) continue;
      JsonReader kinds(*per_kind, all.path_of(table[i].key), d);
      for (std::size_t k = 0; k < 2; ++k)
        if (const Json* one = kinds.object(kKinds[k], true)) {
          JsonReader s(*one, kinds.path_of(kKinds[k]), d);
          out.parameters[i][k] = read_prior(s, table[i], out, d);
          s.finish();
        }
      kinds.finish();
    }
    all.finish();
  }
  r.finish();
  return out;
}

Json calibration_priors_json(const CalibrationPriors& priors) {
  Json sources = Json::object();
  for (const auto& s : priors.sources) {
    sources[s.id] = {{"kind", s.kind}, {"cite", s.cite}};
    if (!s.url.empty()) sources[s.id]["url"] = s.url;
  }
  Json parameters = Json::object();
  const auto table = profile_parameters();
  for (std::size_t i = 0; i < table.size() && i < priors.parameters.size(); ++i)
    for (std::size_t k = 0; k < 2; ++k) {
      const Prior& p = priors.parameters[i][k];
      parameters[table[i].key][kKinds[k]] = {
          {"value", p.value}, {"log_sigma", p.log_sigma}, {"source", p.source}, {"note", p.note}};
    }
  return {{"schema", "scalescope.calibration_priors/1"}, {"sources", sources}, {"parameters", parameters}};
}

const CalibrationPriors& literature_priors() {
  // The embedded file is checked by the test suite (test_priors); a broken one leaves its defaults here.
  static const CalibrationPriors priors = [] {
    Diagnostics d;
    return parse_calibration_priors(parse_document(literature_priors_text(), d), "", d);
  }();
  return priors;
}

}  // namespace scalescope
