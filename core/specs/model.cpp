#include "specs/model.h"

#include <algorithm>
#include <cmath>

#include "io/format.h"
#include "specs/model_resize.h"

namespace scalescope {

const char* linear_kind_name(LinearKind kind) {
  return kind == LinearKind::mamba2 ? "mamba2" : kind == LinearKind::kda ? "kda" : "gated_deltanet";
}

namespace {

// Each entry of a cyclic pattern must be one of `choices`; returns their indices (empty on any error).
std::vector<int> read_pattern(JsonReader& r, const char* key, const std::vector<std::string>& choices, Diagnostics& d) {
  std::vector<int> out;
  const Json* list = r.array(key, false, static_cast<std::size_t>(kMaxPatternLength));
  if (!list) return out;
  if (list->empty()) {
    add_diagnostic(d, r.path_of(key), "too_small", "'" + std::string(key) + "' lists at least one layer kind");
    return out;
  }
  bool ok = true;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const Json& v = (*list)[i];
    int found = -1;
    for (std::size_t c = 0; c < choices.size() && v.is_string(); ++c)
      if (v.get<std::string>() == choices[c]) found = static_cast<int>(c);
    if (found < 0) {
      add_diagnostic(d, json_pointer_child(r.path_of(key), i), v.is_string() ? "unknown_choice" : "wrong_type",
                     "a layer kind in '" + std::string(key) + "' is one of: " + join_choices(choices));
      ok = false;
    }
    out.push_back(found);
  }
  if (!ok) out.clear();
  return out;
}

void read_latent_attention(JsonReader& r, ModelConfig& m, Diagnostics& d) {
  const Json* node = r.object("mla", false);
  if (!node) return;
  JsonReader s(*node, r.path_of("mla"), d);
  m.mla.q_lora_rank = s.number("q_lora_rank", false).value_or(0);
  m.mla.kv_lora_rank = s.number("kv_lora_rank", true).value_or(0);
  m.mla.qk_nope_head_dim = s.number("qk_nope_head_dim", true).value_or(0);
  m.mla.qk_rope_head_dim = s.number("qk_rope_head_dim", true).value_or(0);
  m.mla.v_head_dim = s.number("v_head_dim", true).value_or(0);
  s.finish();
}

void read_linear_attention(JsonReader& r, ModelConfig& m, Diagnostics& d) {
  const Json* node = r.object("linear_attention", false);
  if (!node) return;
  JsonReader s(*node, r.path_of("linear_attention"), d);
  LinearAttention& a = m.linear;
  const std::string kind = s.choice("kind", false,
                                    {linear_kind_name(LinearKind::gated_deltanet), linear_kind_name(LinearKind::mamba2),
                                     linear_kind_name(LinearKind::kda)})
                               .value_or(linear_kind_name(LinearKind::gated_deltanet));
  for (LinearKind k : {LinearKind::gated_deltanet, LinearKind::mamba2, LinearKind::kda})
    if (kind == linear_kind_name(k)) a.kind = k;
  a.key_heads = s.number("key_heads", true).value_or(0);
  a.value_heads = s.number("value_heads", true).value_or(0);
  a.key_head_dim = s.number("key_head_dim", true).value_or(0);
  a.value_head_dim = s.number("value_head_dim", true).value_or(0);
  a.conv_kernel = s.number("conv_kernel", true).value_or(0);
  a.chunk_tokens = s.number("chunk_tokens", false).value_or(a.kind == LinearKind::mamba2 ? 256 : 64);
  a.state_dtype = s.dtype("state_dtype", false).value_or(Dtype::fp32);
  s.finish();
  if (a.key_heads > 0 && a.value_heads > 0 && std::fmod(a.value_heads, a.key_heads) != 0)
    add_diagnostic(
        d, s.path_of("value_heads"), "not_divisible",
        "'value_heads' must be a multiple of 'key_heads' (each query-key head serves a group of value heads)");
}

void read_global_attention(JsonReader& r, ModelConfig& m, Diagnostics& d) {
  const Json* node = r.object("global_attention", false);
  if (!node) return;
  JsonReader s(*node, r.path_of("global_attention"), d);
  m.global.head_dim = s.number("head_dim", true).value_or(0);
  m.global.kv_heads = s.number("kv_heads", true).value_or(0);
  m.global.k_eq_v = s.boolean("k_eq_v", false).value_or(false);
  s.finish();
  if (m.global.kv_heads > 0 && m.heads > 0 && std::fmod(m.heads, m.global.kv_heads) != 0)
    add_diagnostic(d, s.path_of("kv_heads"), "not_divisible",
                   "'heads' must be a multiple of the global layers' 'kv_heads'");
}

void read_sparse_attention(JsonReader& r, ModelConfig& m, Diagnostics& d) {
  const Json* node = r.object("sparse_attention", false);
  if (!node) return;
  JsonReader s(*node, r.path_of("sparse_attention"), d);
  m.sparse.index_heads = s.number("index_heads", true).value_or(0);
  m.sparse.index_head_dim = s.number("index_head_dim", true).value_or(0);
  m.sparse.index_topk = s.number("index_topk", true).value_or(0);
  s.finish();
}

// The per-layer patterns as read (indices into their names), before they become the model's layer kinds.
struct ModelPatterns {
  std::vector<int> mlp, attention;
};

// Every key of a model object into `m`, each in its range (io/ranges.cpp); the patterns are returned as read.
ModelPatterns read_model_fields(JsonReader& r, const Json& node, const std::string& path, bool require_sources,
                                ModelConfig& m, Diagnostics& d) {
  r.choice("schema", require_sources, {"scalescope.model/1"});
  m.id = r.string("id", require_sources).value_or("custom");
  m.name = r.string("name", require_sources).value_or("custom model");
  // Ranges (whole numbers, 0 allowed for the MoE counts): io/ranges.cpp.
  auto dim = [&](const char* key, bool required = true) { return r.number(key, required).value_or(0); };
  read_latent_attention(r, m, d);
  read_linear_attention(r, m, d);
  read_sparse_attention(r, m, d);
  m.attention_output_gate = r.boolean("attention_output_gate", false).value_or(false);
  m.layers = dim("layers");
  m.d_model = dim("d_model");
  m.d_ff = dim("d_ff");
  m.heads = dim("heads");
  // Latent attention up-projects K and V for every head: no separate KV heads, and H is the value width.
  m.kv_heads = dim("kv_heads", !m.is_mla());
  m.head_dim = dim("head_dim", !m.is_mla());
  m.vocab = dim("vocab");
  read_global_attention(r, m, d);
  m.tied_embeddings = r.boolean("tied_embeddings", true).value_or(false);
  m.mlp = r.choice("mlp", true, {"gated", "plain"}).value_or("gated") == "plain" ? MlpKind::plain : MlpKind::gated;
  m.experts = dim("experts");
  m.active_experts = dim("active_experts");
  m.shared_experts = dim("shared_experts");
  m.dense_layers = dim("dense_layers");
  m.expert_d_ff = dim("expert_d_ff", m.experts > 0);
  m.expert_latent_dim = dim("expert_latent_dim", false);
  m.sliding_window = dim("sliding_window", false);
  m.attention_chunk = dim("attention_chunk", false);
  m.mtp_layers = dim("mtp_layers", false);
  m.weights_dtype = r.dtype("weights_dtype", false);
  ModelPatterns p;
  p.mlp = read_pattern(r, "mlp_pattern", {"dense", "moe", "none"}, d);
  p.attention = read_pattern(r, "attention_pattern", {"full", "sliding", "chunked", "linear"}, d);
  r.array("not_modelled", false);
  r.array("notes", false);
  const Json* sources = r.object("sources", require_sources);
  if (require_sources) check_sources(node, path, sources, d);
  r.finish();
  return p;
}

// Attention heads and experts that contradict each other; latent attention's head counts and widths set.
void check_heads_and_experts(JsonReader& r, ModelConfig& m, Diagnostics& d) {
  if (m.is_mla()) {
    if (r.has("kv_heads") && m.kv_heads != m.heads)
      add_diagnostic(d, r.path_of("kv_heads"), "inconsistent",
                     "latent attention gives every head its own K and V: 'kv_heads' must equal 'heads' or be left out");
    if (r.has("head_dim") && m.head_dim != m.mla.v_head_dim)
      add_diagnostic(d, r.path_of("head_dim"), "inconsistent",
                     "with latent attention the head widths are in 'mla' (qk_nope_head_dim, qk_rope_head_dim, "
                     "v_head_dim): leave 'head_dim' out");
    m.kv_heads = m.heads;
    m.head_dim = m.mla.v_head_dim;
    if (m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim <= 0)
      add_diagnostic(d, r.path_of("mla") + "/qk_nope_head_dim", "out_of_range",
                     "a query-key head needs a width: qk_nope_head_dim + qk_rope_head_dim must be at least 1");
  }
  if (m.heads > 0 && m.kv_heads > 0 && std::fmod(m.heads, m.kv_heads) != 0)
    add_diagnostic(d, r.path_of("kv_heads"), "not_divisible", "'heads' must be a multiple of 'kv_heads' (GQA groups)");
  if (m.experts > 0 && (m.active_experts < 1 || m.active_experts > m.experts))
    add_diagnostic(d, r.path_of("active_experts"), "out_of_range", "'active_experts' must be from 1 to 'experts'");
  if (m.experts == 0 && m.expert_latent_dim > 0)
    add_diagnostic(d, r.path_of("expert_latent_dim"), "inconsistent",
                   "a latent width is for routed experts: this model has none ('experts' 0)");
  if (m.experts == 0 && (m.active_experts != 0 || m.shared_experts != 0 || m.dense_layers != 0))
    add_diagnostic(d, r.path_of("experts"), "inconsistent",
                   "a dense model ('experts' 0) has no active/shared experts and no separate dense layers");
  if (m.dense_layers > m.layers)
    add_diagnostic(d, r.path_of("dense_layers"), "out_of_range", "'dense_layers' cannot exceed 'layers'");
}

// Per-layer kinds: the patterns repeat over the layers (a pattern as long as the model lists every layer); a window
// or a chunk without a pattern applies to every layer.
void set_layer_patterns(JsonReader& r, const ModelPatterns& p, ModelConfig& m, Diagnostics& d) {
  bool any_moe = false;
  for (int k : p.mlp) {
    m.mlp_pattern.push_back(static_cast<MlpLayer>(k));
    any_moe = any_moe || m.mlp_pattern.back() == MlpLayer::moe;
  }
  for (int k : p.attention) m.attention_pattern.push_back(static_cast<AttentionSpan>(k));
  if (any_moe && m.experts == 0)
    add_diagnostic(d, r.path_of("mlp_pattern"), "inconsistent", "MoE layers need 'experts' (this model is dense)");
  if (!m.mlp_pattern.empty() && m.experts > 0 && !any_moe)
    add_diagnostic(d, r.path_of("mlp_pattern"), "inconsistent",
                   "an MoE model's 'mlp_pattern' needs at least one 'moe' layer (set 'experts' 0 for a dense model)");
  if (m.attention_pattern.empty()) {
    // A window or a chunk without a pattern applies to every layer (Mistral 7B v0.1 slides on all of them).
    if (m.sliding_window > 0 && m.attention_chunk > 0)
      add_diagnostic(d, r.path_of("attention_pattern"), "missing_key",
                     "a model with both 'sliding_window' and 'attention_chunk' says which layers use which in "
                     "'attention_pattern' (full, sliding, chunked)");
    else if (m.sliding_window > 0)
      m.attention_pattern = {AttentionSpan::sliding};
    else if (m.attention_chunk > 0)
      m.attention_pattern = {AttentionSpan::chunked};
  }
}

// The layers' spans against the attention fields they need or exclude.
void check_attention_spans(JsonReader& r, const ModelConfig& m, Diagnostics& d) {
  auto uses = [&](AttentionSpan s) {
    return std::find(m.attention_pattern.begin(), m.attention_pattern.end(), s) != m.attention_pattern.end();
  };
  if (uses(AttentionSpan::sliding) && m.sliding_window <= 0)
    add_diagnostic(d, r.path_of("sliding_window"), "missing_key",
                   "sliding-window layers need 'sliding_window' (tokens)");
  if (uses(AttentionSpan::chunked) && m.attention_chunk <= 0)
    add_diagnostic(d, r.path_of("attention_chunk"), "missing_key",
                   "chunked-attention layers need 'attention_chunk' (tokens)");
  if (uses(AttentionSpan::linear) && !m.has_linear_attention())
    add_diagnostic(d, r.path_of("linear_attention"), "missing_key",
                   "linear-attention layers need 'linear_attention' (key_heads, value_heads, key_head_dim, "
                   "value_head_dim, conv_kernel)");
  if (m.has_linear_attention() && !uses(AttentionSpan::linear))
    add_diagnostic(d, r.path_of("attention_pattern"), "inconsistent",
                   "'linear_attention' describes layers that 'attention_pattern' never names: list them as 'linear'");
  if (m.global.head_dim > 0 && m.is_mla())
    add_diagnostic(
        d, r.path_of("global_attention"), "inconsistent",
        "'global_attention' gives the full layers their own standard heads: not with latent attention ('mla')");
  if (m.has_sparse_attention() &&
      (uses(AttentionSpan::sliding) || uses(AttentionSpan::chunked) || uses(AttentionSpan::linear)))
    add_diagnostic(d, r.path_of("sparse_attention"), "inconsistent",
                   "sparse attention applies to full-attention layers: a model with 'sparse_attention' has no "
                   "sliding, chunked or linear layers");
}

}  // namespace

ModelConfig parse_model(const Json& node, const std::string& path, bool require_sources, Diagnostics& d) {
  if (node.is_object() && node.contains("resize"))
    return parse_model(resize_model(node, path, d), path, require_sources, d);
  ModelConfig m;
  JsonReader r(node, path, d);
  if (!r.ok_object()) return m;
  r.accept("resize");  // (applied above; named among the valid keys)
  const ModelPatterns patterns = read_model_fields(r, node, path, require_sources, m, d);
  check_heads_and_experts(r, m, d);
  set_layer_patterns(r, patterns, m, d);
  check_attention_spans(r, m, d);
  const bool patterned = m.mlp_pattern.size() > 1 || m.attention_pattern.size() > 1;
  if (patterned && m.layers > kMaxPatternLayers)
    add_diagnostic(d, r.path_of("layers"), "too_large",
                   "a model with a per-layer pattern has at most " + format_count(kMaxPatternLayers) +
                       " layers (this one " + format_count(m.layers) + ")");
  m.pattern =
      build_layer_pattern(m.layers, m.is_moe() ? m.dense_layers : 0, m.is_moe(), m.mlp_pattern, m.attention_pattern);
  return m;
}

}  // namespace scalescope
