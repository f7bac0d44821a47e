#include "specs/hf_families.h"

#include <algorithm>

namespace scalescope::hf {

namespace {

std::optional<AttentionSpan> layer_type(const Json& v, const std::string& path, Diagnostics& d) {
  if (v.is_string()) {
    const std::string t = v.get<std::string>();
    if (t == "full_attention") return AttentionSpan::full;
    if (t == "sliding_attention") return AttentionSpan::sliding;
    if (t == "chunked_attention") return AttentionSpan::chunked;
    if (t == "linear_attention") return AttentionSpan::linear;
  }
  add_diagnostic(d, path, v.is_string() ? "unknown_choice" : "wrong_type",
                 "a layer type is one of: full_attention, sliding_attention, chunked_attention, linear_attention");
  return std::nullopt;
}

}  // namespace

std::int64_t shared_experts_of_width(ConfigReader& r, const char* key, std::optional<std::int64_t> width,
                                     std::optional<std::int64_t> expert_ff) {
  if (!width || *width <= 0 || !expert_ff) return 0;
  if (*width % *expert_ff == 0) return *width / *expert_ff;
  add_diagnostic(r.diagnostics(), r.path_of(key), "not_divisible",
                 "the always-on MLP's width " + std::to_string(*width) + " (" + key +
                     ") is not a whole number of routed experts of width " + std::to_string(*expert_ff));
  return 0;
}

// Keys every family's config.json may carry that change nothing in the book's model (positions, norms, token ids,
// dtypes, dropout, loaders' bookkeeping).
const std::vector<const char*>& common_silent_keys() {
  static const std::vector<const char*> keys = {
      "architectures", "model_type", "_name_or_path", "torch_dtype", "dtype", "transformers_version", "bos_token_id",
      "eos_token_id", "pad_token_id", "rope_theta", "rope_scaling", "rope_parameters", "partial_rotary_factor",
      "max_position_embeddings", "rms_norm_eps", "layer_norm_eps", "initializer_range", "attention_bias",
      "attention_dropout", "mlp_bias", "pretraining_tp", "use_cache", "hidden_act", "hidden_activation",
      "_attn_implementation", "tokenizer_class", "auto_map", "quantization_config", "bias", "qkv_bias", "use_qk_norm",
      // transformers' PretrainedConfig attributes, written into every saved config.json by older versions:
      // generation settings, labels, encoder-decoder switches, output flags.
      "add_cross_attention", "bad_words_ids", "begin_suppress_tokens", "chunk_size_feed_forward",
      "cross_attention_hidden_size", "decoder_start_token_id", "diversity_penalty", "do_sample", "early_stopping",
      "encoder_no_repeat_ngram_size", "exponential_decay_length_penalty", "finetuning_task", "forced_bos_token_id",
      "forced_eos_token_id", "id2label", "is_decoder", "is_encoder_decoder", "label2id", "length_penalty", "max_length",
      "min_length", "no_repeat_ngram_size", "num_beam_groups", "num_beams", "num_return_sequences", "output_attentions",
      "output_hidden_states", "output_scores", "prefix", "problem_type", "pruned_heads", "remove_invalid_values",
      "repetition_penalty", "return_dict", "return_dict_in_generate", "sep_token_id", "suppress_tokens",
      "task_specific_params", "temperature", "tf_legacy_loss", "tie_encoder_decoder", "top_k", "top_p", "torchscript",
      "typical_p", "use_bfloat16"};
  return keys;
}

namespace {

// The keys each group of families writes that change nothing the book models (Family::silent).
struct SilentKeys {
  std::vector<const char*> gemma, router, deepseek, llama4, gpt_oss, glm_dsa, gemma4, minimax, qwen_hybrid, kimi_linear;
};

const SilentKeys& silent_keys() {
  static const SilentKeys keys = [] {
    SilentKeys k;
    k.gemma = {"query_pre_attn_scalar", "attn_logit_softcapping", "final_logit_softcapping",
               "cache_implementation",  "sliding_window_size",    "rope_local_base_freq"};
    k.router = {"output_router_logits", "router_aux_loss_coef", "router_jitter_noise", "norm_topk_prob"};
    k.deepseek = {"aux_loss_alpha",        "ep_size",      "n_group", "topk_group",     "topk_method", "norm_topk_prob",
                  "routed_scaling_factor", "scoring_func", "seq_aux", "rope_interleave"};
    k.llama4 = {"output_router_logits", "router_aux_loss_coef", "router_jitter_noise", "attn_temperature_tuning",
                "attn_scale",           "floor_scale",          "for_llm_compressor"};
    k.gpt_oss = {"output_router_logits", "router_aux_loss_coef", "swiglu_limit", "initial_context_length"};
    // GLM-5 writes DeepSeek's keys, its query-key width (qk_nope + qk_rope) and its RoPE layout once more.
    k.glm_dsa = {"aux_loss_alpha",
                 "ep_size",
                 "n_group",
                 "topk_group",
                 "topk_method",
                 "norm_topk_prob",
                 "routed_scaling_factor",
                 "scoring_func",
                 "seq_aux",
                 "rope_interleave",
                 "qk_head_dim",
                 "indexer_rope_interleave"};
    // Gemma 4: Gemma's keys, its per-layer-input embeddings (hidden_size_per_layer_input 0 in the released sizes that
    // have them off), the vision-only bidirectional attention, the MLP's width switch for KV-shared layers.
    k.gemma4 = {"query_pre_attn_scalar",       "attn_logit_softcapping",      "final_logit_softcapping",
                "cache_implementation",        "hidden_size_per_layer_input", "vocab_size_per_layer_input",
                "use_bidirectional_attention", "use_double_wide_mlp",         "expert_intermediate_size"};
    // MiniMax-M2: its rotary width, QK-norm layout and sigmoid routing with a bias change nothing the book models.
    k.minimax = {"rotary_dim",   "qk_norm_type",         "use_routing_bias",
                 "scoring_func", "output_router_logits", "router_aux_loss_coef"};
    k.qwen_hybrid = {"output_router_logits", "router_aux_loss_coef", "norm_topk_prob", "mtp_use_dedicated_embeddings",
                     // no window is used (transformers' Qwen3NextConfig)
                     "use_sliding_window", "max_window_layers", "mlp_only_layers"};
    // Kimi Linear: its MLA without RoPE on the nope part, its sigmoid router's grouping, scaling and renormalising.
    k.kimi_linear = {"mla_use_nope",     "moe_renormalize", "moe_router_activation_func", "routed_scaling_factor",
                     "num_expert_group", "topk_group",      "use_grouped_topk",           "topk_method"};
    return k;
  }();
  return keys;
}

}  // namespace

const std::vector<Family>& families() {
  const SilentKeys& k = silent_keys();
  static const std::vector<Family> all = {
      {"llama", Experts::none, false, {}},
      {"mistral", Experts::none, false, {}, 0, Windows::all},
      {"qwen2", Experts::none, false, {}, 0, Windows::qwen},
      {"qwen3", Experts::none, false, {}, 0, Windows::qwen},
      {"gemma", Experts::none, true, k.gemma},
      {"gemma2", Experts::none, true, k.gemma, 0, Windows::gemma2},
      {"gemma3_text", Experts::none, true, k.gemma, 262208,
       Windows::gemma3},  // Gemma3TextConfig; multimodal configs omit it
      {"mixtral", Experts::mixtral, false, k.router, 0, Windows::all},
      {"qwen2_moe", Experts::qwen, false, k.router, 0, Windows::qwen},
      {"qwen3_moe", Experts::qwen, false, k.router, 0, Windows::qwen},
      {"deepseek_v2", Experts::deepseek, false, k.deepseek, 0, Windows::none, true},
      {"deepseek_v3", Experts::deepseek, false, k.deepseek, 0, Windows::none, true},
      {"kimi_k2", Experts::deepseek, false, k.deepseek, 0, Windows::none, true},  // DeepseekV3ForCausalLM's keys
      {.model_type = "deepseek_v32",
       .experts = Experts::deepseek,
       .tied_by_default = false,
       .silent = k.deepseek,
       .latent_attention = true,
       .sparse_attention = true},
      {.model_type = "glm_moe_dsa",
       .experts = Experts::deepseek,
       .tied_by_default = false,
       .silent = k.glm_dsa,
       .latent_attention = true,
       .sparse_attention = true},
      {"llama4_text", Experts::llama4, false, k.llama4, 0, Windows::llama4},
      {"gpt_oss", Experts::gpt_oss, false, k.gpt_oss, 0, Windows::layer_types},
      {"minimax_m2", Experts::minimax, false, k.minimax, 0, Windows::none},
      {"gemma4_text", Experts::gemma4, true, k.gemma4, 0, Windows::layer_types},
      {.model_type = "qwen3_next",
       .experts = Experts::qwen,
       .tied_by_default = false,
       .silent = k.qwen_hybrid,
       .windows = Windows::layer_types,
       .gated_deltanet = true},
      {.model_type = "qwen3_5_moe_text",
       .experts = Experts::qwen,
       .tied_by_default = false,
       .silent = k.qwen_hybrid,
       .windows = Windows::layer_types,
       .gated_deltanet = true,
       .experts_only = true},
      {.model_type = "qwen3_5_text",
       .experts = Experts::none,
       .tied_by_default = false,
       .silent = k.qwen_hybrid,
       .windows = Windows::layer_types,
       .gated_deltanet = true},
      {.model_type = "kimi_linear",
       .experts = Experts::kimi,
       .tied_by_default = false,
       .silent = k.kimi_linear,
       .latent_attention = true,
       .kimi_delta = true},
      {.model_type = "nemotron_h",
       .experts = Experts::nemotron_h,
       .tied_by_default = false,
       .silent = {},
       .hybrid_blocks = true},
  };
  return all;
}

// Every model_type the engine reads, the multimodal names too (the valid list a message gives, as schema/ does).
std::vector<std::string> model_types() {
  std::vector<std::string> out;
  for (const auto& f : families()) out.emplace_back(f.model_type);
  for (const auto& [alias, family] : kModelTypeAliases) out.emplace_back(alias);
  return out;
}

// `mlp_pattern` from each layer's MLP (true: MoE), unless every layer after the first `dense_layers` is MoE (the
// default); the cycle starts at layer 0, so it agrees with the leading dense layers too. Whether it was written.
bool write_mlp_pattern(const std::vector<bool>& moe, std::int64_t dense_layers, Json& m) {
  const auto first = std::min<std::ptrdiff_t>(dense_layers, static_cast<std::ptrdiff_t>(moe.size()));
  if (std::all_of(moe.begin() + first, moe.end(), [](bool x) { return x; })) return false;
  Json list = Json::array();
  for (bool x : shortest_cycle(moe)) list.push_back(mlp_layer_name(x ? MlpLayer::moe : MlpLayer::dense));
  m["mlp_pattern"] = list;
  return true;
}

namespace {

// An MoE family's experts beyond their count: one expert's MLP width, the shared experts (of that width), the leading
// dense layers and which layers are MoE.
struct ExpertLayout {
  std::optional<std::int64_t> expert_ff;
  std::int64_t shared = 0, dense_layers = 0;
  std::vector<bool> moe;
};

// Each family's own keys for the layout (`d_ff`: the dense width, which Llama 4 reads here; `active`: gpt-oss's k
// under OpenAI's key).
ExpertLayout read_expert_layout(ConfigReader& r, Experts kind, std::int64_t layers, std::optional<std::int64_t>& d_ff,
                                std::optional<std::int64_t>& active) {
  ExpertLayout e{d_ff, 0, 0, std::vector<bool>(static_cast<std::size_t>(std::max<std::int64_t>(layers, 0)), true)};
  switch (kind) {
    case Experts::none:
    case Experts::nemotron_h:
    case Experts::mixtral:
      break;
    case Experts::gemma4:
      // Gemma 4: every layer runs the dense MLP (intermediate_size) beside its routed experts, the two summed
      // (aiconfigurator's Gemma4MixModel): the engine's shared experts of the routed width, the dense MLP's worth.
      e.expert_ff = r.count("moe_intermediate_size", "MLP width of one expert", true);
      e.shared = shared_experts_of_width(r, "intermediate_size", d_ff, e.expert_ff);
      break;
    case Experts::minimax:
      // MiniMax-M2: intermediate_size is one expert's width; a shared expert of shared_intermediate_size (0: none).
      e.shared = shared_experts_of_width(r, "shared_intermediate_size",
                                         r.count("shared_intermediate_size", "", false, 0), e.expert_ff);
      break;
    case Experts::gpt_oss:
      // OpenAI's original key for k beside transformers' num_experts_per_tok.
      if (const auto k = r.count("experts_per_token", "experts each token is routed to", !active); k && !active)
        active = k;
      break;
    case Experts::llama4: {
      // Llama 4: intermediate_size is one expert's width, intermediate_size_mlp the dense layers'; one shared
      // expert of the routed width beside the routed ones; MoE on every interleave_moe_layer_step-th layer.
      d_ff = r.count("intermediate_size_mlp", "MLP width of the dense layers", false).value_or(e.expert_ff.value_or(0));
      e.shared = 1;
      const std::int64_t step = r.count("interleave_moe_layer_step", "", false).value_or(1);
      for (std::int64_t i = 0; i < layers; ++i) e.moe[static_cast<std::size_t>(i)] = (i + 1) % step == 0;
      if (const auto listed = r.layer_set("moe_layers", layers)) e.moe = *listed;
      break;
    }
    case Experts::qwen: {
      e.expert_ff = r.count("moe_intermediate_size", "MLP width of one expert", true);
      // Qwen writes one shared expert of its own width; the engine counts shared experts of the routed width.
      e.shared = shared_experts_of_width(r, "shared_expert_intermediate_size",
                                         r.count("shared_expert_intermediate_size", "", false, 0), e.expert_ff);
      // transformers' Qwen2/3-MoE: layer i is MoE when it is not in mlp_only_layers and (i + 1) % step == 0.
      const std::int64_t step = r.count("decoder_sparse_step", "", false).value_or(1);
      for (std::int64_t i = 0; i < layers; ++i) e.moe[static_cast<std::size_t>(i)] = (i + 1) % step == 0;
      if (const auto dense = r.layer_set("mlp_only_layers", layers))
        for (std::size_t i = 0; i < e.moe.size(); ++i) e.moe[i] = e.moe[i] && !(*dense)[i];
      break;
    }
    case Experts::deepseek:
    case Experts::kimi: {
      e.expert_ff = r.count("moe_intermediate_size", "MLP width of one expert", true);
      e.shared = r.count(kind == Experts::kimi ? "num_shared_experts" : "n_shared_experts", "", false, 0).value_or(0);
      // DeepSeek: layer i is MoE when i >= first_k_dense_replace and i % moe_layer_freq == 0.
      e.dense_layers = r.count("first_k_dense_replace", "", false, 0).value_or(0);
      const std::int64_t freq = r.count("moe_layer_freq", "", false).value_or(1);
      for (std::int64_t i = 0; i < layers; ++i)
        e.moe[static_cast<std::size_t>(i)] = i >= e.dense_layers && i % freq == 0;
      break;
    }
  }
  return e;
}

}  // namespace

// The expert fields of an MoE family into `m`; `d_ff` is the dense MLP width already read.
void read_experts(ConfigReader& r, Experts kind, std::int64_t layers, std::optional<std::int64_t>& d_ff, Json& m) {
  Diagnostics& d = r.diagnostics();
  if (kind == Experts::none) return;
  // Gemma 4 may be dense: its MoE block is on only with enable_moe_block.
  if (kind == Experts::gemma4 && !r.flag("enable_moe_block").value_or(false)) {
    r.silent({"num_experts", "top_k_experts", "moe_intermediate_size"});
    for (const char* key : {"experts", "active_experts", "shared_experts", "dense_layers"}) m[key] = 0;
    return;
  }
  const char* experts_key = kind == Experts::qwen || kind == Experts::gemma4 || kind == Experts::kimi ? "num_experts"
                            : kind == Experts::deepseek ? "n_routed_experts"
                                                        : "num_local_experts";
  const auto experts = r.count(experts_key, "routed experts per MoE layer", true);
  const char* active_key = kind == Experts::gemma4 ? "top_k_experts"
                           : kind == Experts::kimi ? "num_experts_per_token"
                                                   : "num_experts_per_tok";
  auto active = r.count(active_key, "experts each token is routed to", kind != Experts::gpt_oss);
  ExpertLayout e = read_expert_layout(r, kind, layers, d_ff, active);
  // Leading dense layers (DeepSeek's first_k_dense_replace, Qwen's mlp_only_layers [0, ..., k-1]) are the engine's
  // dense_layers where the rest are all MoE; any other arrangement is a pattern.
  const bool leading_rule = kind == Experts::deepseek || kind == Experts::kimi;
  if (!leading_rule)
    while (e.dense_layers < layers && !e.moe[static_cast<std::size_t>(e.dense_layers)]) ++e.dense_layers;
  if (std::none_of(e.moe.begin(), e.moe.end(), [](bool x) { return x; }) && layers > 0)
    add_diagnostic(d, r.path_of(experts_key), "inconsistent", "the config makes no layer an MoE layer");
  if (!d_ff) d_ff = e.expert_ff;  // no layer is dense: the unused dense width stands at an expert's
  if (experts) m["experts"] = *experts;
  if (active) m["active_experts"] = *active;
  if (e.expert_ff) m["expert_d_ff"] = *e.expert_ff;
  m["shared_experts"] = e.shared;
  if (write_mlp_pattern(e.moe, e.dense_layers, m) && !leading_rule) e.dense_layers = 0;
  m["dense_layers"] = e.dense_layers;
}

namespace {

// Llama 4: layers with RoPE attend within chunks; every no_rope_layer_interval-th layer (NoPE), or those
// no_rope_layers marks 0, attends fully; without a chunk size every layer does.
void read_llama4_spans(ConfigReader& r, std::int64_t layers, bool chunked, std::vector<AttentionSpan>& spans) {
  Diagnostics& d = r.diagnostics();
  const std::int64_t every = r.count("no_rope_layer_interval", "", false).value_or(4);
  for (std::int64_t i = 0; i < layers; ++i)
    spans[static_cast<std::size_t>(i)] = (i + 1) % every != 0 ? AttentionSpan::chunked : AttentionSpan::full;
  if (const auto rope =
          r.per_layer<bool>("no_rope_layers", layers, [&](const Json& v, const std::string& p) -> std::optional<bool> {
            if (v.is_number_integer() && (v.get<std::int64_t>() == 0 || v.get<std::int64_t>() == 1))
              return v.get<std::int64_t>() == 1;
            add_diagnostic(d, p, "wrong_type", "no_rope_layers entries are 1 (RoPE) or 0 (no positional encoding)");
            return std::nullopt;
          }))
    for (std::size_t i = 0; i < spans.size(); ++i) spans[i] = (*rope)[i] ? AttentionSpan::chunked : AttentionSpan::full;
  if (!chunked)
    for (auto& s : spans) s = AttentionSpan::full;
}

// Each layer's span by the family's rule (before layer_types, which overrides it).
std::vector<AttentionSpan> spans_by_rule(ConfigReader& r, const Family& family, std::int64_t layers, bool window,
                                         bool chunk) {
  std::vector<AttentionSpan> spans(static_cast<std::size_t>(std::max<std::int64_t>(layers, 0)), AttentionSpan::full);
  auto each = [&](auto sliding) {
    for (std::int64_t i = 0; i < layers; ++i)
      if (sliding(i)) spans[static_cast<std::size_t>(i)] = AttentionSpan::sliding;
  };
  if (family.gated_deltanet) {
    // transformers' Qwen3NextConfig: without layer_types, every full_attention_interval-th layer is full attention
    // and the others Gated DeltaNet.
    const std::int64_t every = r.count("full_attention_interval", "", false).value_or(4);
    for (std::int64_t i = 0; i < layers; ++i)
      spans[static_cast<std::size_t>(i)] = (i + 1) % every == 0 ? AttentionSpan::full : AttentionSpan::linear;
  }
  switch (family.windows) {
    case Windows::none:
    case Windows::layer_types:
      break;
    case Windows::all:
      if (window) each([](std::int64_t) { return true; });
      break;
    case Windows::qwen: {
      // Qwen writes a window it does not use unless use_sliding_window.
      const bool used = r.flag("use_sliding_window").value_or(false);
      const std::int64_t from = r.count("max_window_layers", "", false, 0).value_or(0);
      if (used && window) each([&](std::int64_t i) { return i >= from; });
      break;
    }
    case Windows::gemma2:
      if (window) each([](std::int64_t i) { return i % 2 == 0; });
      break;
    case Windows::gemma3: {
      const std::int64_t every = r.count("sliding_window_pattern", "", false).value_or(6);
      if (window) each([&](std::int64_t i) { return (i + 1) % every != 0; });
      break;
    }
    case Windows::llama4:
      read_llama4_spans(r, layers, chunk, spans);
      break;
  }
  return spans;
}

}  // namespace

// Which layers attend to a window or a chunk, with their sizes, into `m` (attention_pattern, sliding_window,
// attention_chunk).
void read_windows(ConfigReader& r, const Family& family, std::int64_t layers, Json& m) {
  Diagnostics& d = r.diagnostics();
  const auto window = r.count("sliding_window", "", false);
  const auto chunk = r.count("attention_chunk_size", "", false);
  std::vector<AttentionSpan> spans = spans_by_rule(r, family, layers, window.has_value(), chunk.has_value());
  if (const auto listed = r.per_layer<AttentionSpan>(
          "layer_types", layers, [&](const Json& v, const std::string& p) { return layer_type(v, p, d); }))
    spans = *listed;
  bool sliding = false, chunked = false, linear = false;
  for (AttentionSpan s : spans) {
    sliding = sliding || s == AttentionSpan::sliding;
    chunked = chunked || s == AttentionSpan::chunked;
    linear = linear || s == AttentionSpan::linear;
  }
  if (sliding && !window)
    add_diagnostic(d, r.path_of("sliding_window"), "missing_key", "sliding-window layers need 'sliding_window'");
  if (chunked && !chunk)
    add_diagnostic(d, r.path_of("attention_chunk_size"), "missing_key", "chunked layers need 'attention_chunk_size'");
  if (linear && !family.gated_deltanet)
    add_diagnostic(d, r.path_of("layer_types"), "unknown_choice",
                   "linear_attention layers are read for the Gated DeltaNet families (qwen3_next, qwen3_5, "
                   "qwen3_5_moe), not for a " +
                       std::string(family.model_type) + " config.json");
  if (!sliding && !chunked && !linear) return;
  if (sliding && window) m["sliding_window"] = *window;
  if (chunked && chunk) m["attention_chunk"] = *chunk;
  Json list = Json::array();
  for (AttentionSpan s : shortest_cycle(spans)) list.push_back(attention_span_name(s));
  m["attention_pattern"] = list;
}

namespace {

// Kimi Linear's 1-based layer list (`kda_layers`, `full_attn_layers`) marking `span` in `spans`; false on a diagnostic.
bool mark_layers(ConfigReader& r, const char* key, std::int64_t layers, AttentionSpan span,
                 std::vector<AttentionSpan>& spans, std::vector<bool>& marked) {
  const Json* v = r.get(key);
  if (!v || !v->is_array()) {
    add_diagnostic(r.diagnostics(), r.path_of(key), v ? "wrong_type" : "missing_key",
                   std::string("a kimi_linear config.json lists its layers in linear_attn_config's '") + key +
                       "' (numbered from 1)");
    return false;
  }
  for (std::size_t i = 0; i < v->size(); ++i) {
    const auto n = read_integer_value((*v)[i], json_pointer_child(r.path_of(key), i), 1, layers, r.diagnostics());
    if (!n) return false;
    const auto at = static_cast<std::size_t>(*n - 1);
    if (marked[at]) {
      add_diagnostic(r.diagnostics(), json_pointer_child(r.path_of(key), i), "inconsistent",
                     "layer " + std::to_string(*n) + " is listed twice in kda_layers and full_attn_layers");
      return false;
    }
    marked[at] = true;
    spans[at] = span;
  }
  return true;
}

}  // namespace

void read_kimi_delta(ConfigReader& r, std::int64_t layers, Json& m) {
  Diagnostics& d = r.diagnostics();
  const Json* node = r.get("linear_attn_config");
  if (!node || !node->is_object()) {
    add_diagnostic(d, r.path_of("linear_attn_config"), node ? "wrong_type" : "missing_key",
                   "a kimi_linear config.json describes its KDA layers in the object 'linear_attn_config'");
    return;
  }
  ConfigReader c(*node, r.path_of("linear_attn_config"), "kimi_linear linear_attn_config", d);
  const auto heads = c.count("num_heads", "KDA heads", true);
  const auto head_dim = c.count("head_dim", "a KDA head's width", true);
  const auto conv = c.count("short_conv_kernel_size", "the short convolution's taps", false).value_or(4);
  // A full-rank decay projection (Kimi K3's use_full_rank_gate) has parameters the low-rank form does not.
  if (c.flag("use_full_rank_gate").value_or(false))
    add_diagnostic(d, c.path_of("use_full_rank_gate"), "not_modelled",
                   "KDA's decay projection is read as low-rank (through head_dim), as Kimi Linear's; a full-rank one "
                   "is not modelled");
  c.silent({"gate_lower_bound"});
  std::vector<AttentionSpan> spans(static_cast<std::size_t>(std::max<std::int64_t>(layers, 0)), AttentionSpan::full);
  std::vector<bool> marked(spans.size(), false);
  const bool listed = mark_layers(c, "kda_layers", layers, AttentionSpan::linear, spans, marked) &&
                      mark_layers(c, "full_attn_layers", layers, AttentionSpan::full, spans, marked);
  if (listed && std::find(marked.begin(), marked.end(), false) != marked.end())
    add_diagnostic(d, c.path_of("kda_layers"), "inconsistent",
                   "kda_layers and full_attn_layers together must list every layer once");
  c.report_unknown();
  if (!heads || !head_dim || !listed) return;
  m["linear_attention"] = {{"kind", "kda"},
                           {"key_heads", *heads},
                           {"value_heads", *heads},
                           {"key_head_dim", *head_dim},
                           {"value_head_dim", *head_dim},
                           {"conv_kernel", conv}};
  Json pattern = Json::array();
  for (AttentionSpan s : shortest_cycle(spans)) pattern.push_back(attention_span_name(s));
  m["attention_pattern"] = pattern;
}

}  // namespace scalescope::hf
