#include "specs/serving_backend.h"

#include <algorithm>

#include "io/json_text.h"
#include "io/ranges.h"

namespace scalescope {

std::span<const ServingBackendParameter> serving_backend_parameters() {
  // Priors: the kernels' step as the chip's tables measured it (1), a millisecond of host work a step, no front-end
  // cost, no burst and a gate that opens every step; each wide enough for the rows to decide, each bounded to what the
  // mechanism can be.
  static const ServingBackendParameter kParameters[] = {
      {"launch_frac", &ServingBackend::launch_frac, 0.01, 1.5, 1.0, 1.0,
       "the kernels' launch floors and per-op host gaps kept: below 1 where CUDA graphs replay a step"},
      {"comms_frac", &ServingBackend::comms_frac, 0.2, 2.0, 1.0, 0.5,
       "the TP all-reduces' time kept: below 1 with fused all-reduce kernels, above with slower ones"},
      {"step_overhead_s", &ServingBackend::step_overhead_s, 1e-5, 0.01, 1e-3, 1.0,
       "host work per decode step (scheduling, sampling, detokenising)"},
      {"prefill_stall_frac", &ServingBackend::prefill_stall_frac, 0.05, 1.5, 1.0, 0.5,
       "the share of a step's prefill the decode tokens in it wait for (chunked prefill, overlap)"},
      {"request_overhead_s", &ServingBackend::request_overhead_s, 1e-4, 1.0, 0.02, 1.5,
       "per request before its prefill: the front end's tokenising, routing and first-token streaming"},
      {"burst_frac", &ServingBackend::burst_frac, 1e-4, 1.0, 0.05, 1.5,
       "the in-flight requests whose prompts arrive with a new one (a benchmark starts every client at once and "
       "fixed lengths keep them in step); the new one waits for half their prefills"},
      {"dp_gate_steps", &ServingBackend::dp_gate_steps, 0.01, 1000.0, 1.0, 2.0,
       "with attention data parallelism, the decode steps the gate that admits new prompts stays shut until every "
       "rank has one (a balancer's timeout); a prompt waits for half the gate's cycle"},
  };
  return kParameters;
}

ServingBackend parse_serving_backend(const Json& node, const std::string& path, Diagnostics& d) {
  ServingBackend b;
  JsonReader r(node, path, d);
  if (!r.ok_object()) return b;
  b.id = r.string("id", true).value_or("");
  b.name = r.string("name", false).value_or(b.id);
  for (const ServingBackendParameter& p : serving_backend_parameters())
    b.*p.field = r.number(p.name, true, NumberRange{p.name, p.lo, p.hi, false, ""}).value_or(b.*p.field);
  b.source = r.string("source", false).value_or("");
  for (auto [key, into] :
       {std::pair{"fitted_on_systems", &b.fitted_on_systems}, std::pair{"fitted_on_models", &b.fitted_on_models}})
    if (const Json* list = r.array(key, false))
      for (const Json& x : *list)
        if (x.is_string()) into->push_back(x.get<std::string>());
  r.finish();
  return b;
}

Json serving_backend_json(const ServingBackend& b) {
  Json out = {{"id", b.id}, {"name", b.name}};
  for (const ServingBackendParameter& p : serving_backend_parameters()) out[p.name] = b.*p.field;
  out["source"] = b.source;
  out["fitted_on_systems"] = b.fitted_on_systems;
  out["fitted_on_models"] = b.fitted_on_models;
  return out;
}

namespace {

std::vector<ServingBackend> read_embedded(Diagnostics& d) {
  std::vector<ServingBackend> out;
  const Json doc = parse_document(serving_backends_text(), d);
  JsonReader top(doc, "", d);
  top.string("schema", true);
  top.accept("about");
  if (const Json* list = top.array("backends", true))
    for (std::size_t i = 0; i < list->size(); ++i)
      out.push_back(parse_serving_backend((*list)[i], "/backends/" + std::to_string(i), d));
  top.finish();
  return out;
}

}  // namespace

Diagnostics validate_serving_backends() {
  Diagnostics d;
  read_embedded(d);
  for (Diagnostic& x : d) x.path = "calibration_profiles/serving/backends.json" + x.path;
  return d;
}

std::span<const ServingBackend> embedded_serving_backends() {
  static const std::vector<ServingBackend> backends = [] {
    Diagnostics d;
    std::vector<ServingBackend> out = read_embedded(d);
    if (!d.empty()) out.clear();  // a broken file is caught by --check-presets; never half a family
    return out;
  }();
  return backends;
}

const ServingBackend* serving_backend(std::string_view id) {
  for (const ServingBackend& b : embedded_serving_backends())
    if (b.id == id) return &b;
  return nullptr;
}

std::vector<std::string> serving_backend_ids() {
  std::vector<std::string> ids;
  for (const ServingBackend& b : embedded_serving_backends()) ids.push_back(b.id);
  return ids;
}

}  // namespace scalescope
