#include "frameworks/framework.h"

#include "specs/presets.h"

namespace scalescope {

std::span<const Framework> frameworks() {
  static const Framework all[] = {
      megatron_framework(), megatron_bridge_framework(), maxtext_framework(), deepspeed_framework(),
      vllm_framework(),     sglang_framework(),          trtllm_framework()};
  return all;
}

const Framework* find_framework(std::string_view name) {
  for (const Framework& f : frameworks())
    if (name == f.name) return &f;
  return nullptr;
}

std::vector<std::string> framework_names() {
  std::vector<std::string> names;
  for (const Framework& f : frameworks()) names.emplace_back(f.name);
  return names;
}

ModelConfig imported_model() {
  ModelConfig m;
  m.id = m.name = "imported";
  m.vocab = 32000;
  return m;
}

double import_chips(const ImportContext& ctx, ImportResult& out, const char* where) {
  if (ctx.chips > 0) return ctx.chips;
  out.problems.push_back(std::string("the config does not say how many chips run it (") + where +
                         "): give the scenario's mesh or the query's chips");
  return 0;
}

double import_layers(const ImportContext& ctx, const ImportResult& out) {
  if (ctx.model) return ctx.model->layers;
  if (out.model.is_object() && out.model.contains("layers")) return out.model["layers"].get<double>();
  if (out.model.is_object() && out.model.contains("preset")) {
    Diagnostics ignored;
    return resolve_model(out.model, "/model", ignored).layers;
  }
  return 0;
}

}  // namespace scalescope
