#include "specs/model.h"

#include <cmath>


namespace scalescope {

ModelConfig parse_model(const Json& node, const std::string& path, bool require_sources, Diagnostics& d) {
  ModelConfig m;
  JsonReader r(node, path, d);
  if (!r.ok_object()) return m;
  r.choice("schema", require_sources, {"scalescope.model/1"});
  m.id = r.string("id", require_sources).value_or("custom");
  m.name = r.string("name", require_sources).value_or("custom model");
  // Ranges (whole numbers, 0 allowed for the MoE counts): io/ranges.cpp.
  auto dim = [&](const char* key, bool required = true) { return r.number(key, required).value_or(0); };
  m.layers = dim("layers");
  m.d_model = dim("d_model");
  m.d_ff = dim("d_ff");
  m.heads = dim("heads");
  m.kv_heads = dim("kv_heads");
  m.head_dim = dim("head_dim");
  m.vocab = dim("vocab");
  m.tied_embeddings = r.boolean("tied_embeddings", true).value_or(false);
  m.mlp = r.choice("mlp", true, {"gated", "plain"}).value_or("gated") == "plain" ? MlpKind::plain : MlpKind::gated;
  m.experts = dim("experts");
  m.active_experts = dim("active_experts");
  m.shared_experts = dim("shared_experts");
  m.dense_layers = dim("dense_layers");
  m.expert_d_ff = dim("expert_d_ff", m.experts > 0);
  r.array("not_modelled", false);
  r.array("notes", false);
  const Json* sources = r.object("sources", require_sources);
  if (require_sources) check_sources(node, path, sources, d);
  r.finish();

  if (m.heads > 0 && m.kv_heads > 0 && std::fmod(m.heads, m.kv_heads) != 0)
    add_diagnostic(d, r.path_of("kv_heads"), "not_divisible", "'heads' must be a multiple of 'kv_heads' (GQA groups)");
  if (m.experts > 0 && (m.active_experts < 1 || m.active_experts > m.experts))
    add_diagnostic(d, r.path_of("active_experts"), "out_of_range", "'active_experts' must be from 1 to 'experts'");
  if (m.experts == 0 && (m.active_experts != 0 || m.shared_experts != 0 || m.dense_layers != 0))
    add_diagnostic(d, r.path_of("experts"), "inconsistent",
                   "a dense model ('experts' 0) has no active/shared experts and no separate dense layers");
  if (m.dense_layers > m.layers)
    add_diagnostic(d, r.path_of("dense_layers"), "out_of_range", "'dense_layers' cannot exceed 'layers'");
  return m;
}

}  // namespace scalescope
