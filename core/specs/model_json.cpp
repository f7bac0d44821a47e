#include "specs/model_json.h"

#include <cstdint>

#include "io/json_text.h"
#include "specs/hf_config.h"
#include "specs/presets.h"

namespace scalescope {

Json model_config_json(const ModelConfig& m) {
  const auto whole = [](double v) { return static_cast<std::int64_t>(v); };  // every shape field is a whole number
  Json out = {{"id", m.id},
              {"name", m.name},
              {"layers", whole(m.layers)},
              {"d_model", whole(m.d_model)},
              {"d_ff", whole(m.d_ff)},
              {"heads", whole(m.heads)},
              {"kv_heads", whole(m.kv_heads)},
              {"head_dim", whole(m.head_dim)},
              {"vocab", whole(m.vocab)},
              {"tied_embeddings", m.tied_embeddings},
              {"mlp", m.mlp == MlpKind::gated ? "gated" : "plain"},
              {"experts", whole(m.experts)},
              {"active_experts", whole(m.active_experts)},
              {"shared_experts", whole(m.shared_experts)},
              {"dense_layers", whole(m.dense_layers)}};
  if (m.is_moe()) out["expert_d_ff"] = whole(m.expert_d_ff);
  if (m.expert_latent_dim > 0) out["expert_latent_dim"] = whole(m.expert_latent_dim);
  if (m.is_mla())
    out["mla"] = {{"q_lora_rank", whole(m.mla.q_lora_rank)},
                  {"kv_lora_rank", whole(m.mla.kv_lora_rank)},
                  {"qk_nope_head_dim", whole(m.mla.qk_nope_head_dim)},
                  {"qk_rope_head_dim", whole(m.mla.qk_rope_head_dim)},
                  {"v_head_dim", whole(m.mla.v_head_dim)}};
  if (!m.mlp_pattern.empty()) {
    Json list = Json::array();
    for (MlpLayer x : m.mlp_pattern) list.push_back(mlp_layer_name(x));
    out["mlp_pattern"] = list;
  }
  if (!m.attention_pattern.empty()) {
    Json list = Json::array();
    for (AttentionSpan x : m.attention_pattern) list.push_back(attention_span_name(x));
    out["attention_pattern"] = list;
  }
  if (m.has_linear_attention())
    out["linear_attention"] = {
        {"kind", linear_kind_name(m.linear.kind)},          {"key_heads", whole(m.linear.key_heads)},
        {"value_heads", whole(m.linear.value_heads)},       {"key_head_dim", whole(m.linear.key_head_dim)},
        {"value_head_dim", whole(m.linear.value_head_dim)}, {"conv_kernel", whole(m.linear.conv_kernel)},
        {"chunk_tokens", whole(m.linear.chunk_tokens)},     {"state_dtype", dtype_name(m.linear.state_dtype)}};
  if (m.attention_output_gate) out["attention_output_gate"] = true;
  if (m.global.head_dim > 0)
    out["global_attention"] = {
        {"head_dim", whole(m.global.head_dim)}, {"kv_heads", whole(m.global.kv_heads)}, {"k_eq_v", m.global.k_eq_v}};
  if (m.has_sparse_attention())
    out["sparse_attention"] = {{"index_heads", whole(m.sparse.index_heads)},
                               {"index_head_dim", whole(m.sparse.index_head_dim)},
                               {"index_topk", whole(m.sparse.index_topk)}};
  if (m.sliding_window > 0) out["sliding_window"] = whole(m.sliding_window);
  if (m.attention_chunk > 0) out["attention_chunk"] = whole(m.attention_chunk);
  if (m.mtp_layers > 0) out["mtp_layers"] = whole(m.mtp_layers);
  if (m.weights_dtype) out["weights_dtype"] = dtype_name(*m.weights_dtype);
  return out;
}

Json layer_counts_json(const LayerCounts& counts) {
  Json out = Json::object();
  for (int k = 0; k < kLayerKinds; ++k)
    if (counts.n[k] > 0) out[layer_kind_name(k)] = counts.n[k];
  return out;
}

Json model_not_modelled(const Json& node) {
  if (node.is_object() && node.contains("hf_config")) {
    Diagnostics ignored;
    return hf_config_to_model(node["hf_config"], "", ignored).value("not_modelled", Json::array());
  }
  if (const auto id = node.is_object() ? node.find("preset") : node.end(); id != node.end() && id->is_string())
    if (const PresetText* p = find_preset(model_preset_texts(), id->get<std::string>()))
      return preset_json(*p).value("not_modelled", Json::array());
  if (node.is_object() && node.contains("not_modelled") && node["not_modelled"].is_array()) return node["not_modelled"];
  return Json::array();
}

std::string resolve_model_json(std::string_view text) {
  Diagnostics d;
  Json out = {{"ok", false}};
  // The limits of any document (io/limits.h: 1 MiB, no NUL, 32 levels), and its diagnostic (issue 22).
  const Json node = parse_document(text, d);
  if (!has_errors(d)) {
    const ModelConfig m = resolve_model(node, "/model", d);
    if (!has_errors(d)) {
      out["ok"] = true;
      out["model"] = model_config_json(m);
      out["model"]["not_modelled"] = model_not_modelled(node);
    }
  }
  Json diagnostics = Json::array();
  for (const auto& x : d)
    diagnostics.push_back(
        {{"path", x.path}, {"code", x.code}, {"message", x.message}, {"severity", x.warning ? "warning" : "error"}});
  out["diagnostics"] = diagnostics;
  return out.dump();
}

}  // namespace scalescope
