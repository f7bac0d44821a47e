#include "specs/hf_config.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "io/json_text.h"
#include "io/text.h"
#include "specs/hf_config_reader.h"
#include "specs/layer_pattern.h"
#include "specs/presets.h"

namespace scalescope {

namespace {

using namespace hf;  // the typed reader and the shared features' readers (specs/hf_config_reader.h)

// The most Transformer blocks a config.json may have: a patterned model's limit (layer_pattern.h), far above any
// published model (DeepSeek-V3: 61, Llama 3.1 405B: 126).
constexpr std::int64_t kMaxConfigLayers = static_cast<std::int64_t>(kMaxPatternLayers);

// How a family lays out its experts (the keys differ per family; the book's E, k, shared experts, expert F).
// nemotron_h: read with the blocks (hf_hybrid_blocks.cpp).
enum class Experts { none, mixtral, qwen, deepseek, llama4, gpt_oss, minimax, gemma4, nemotron_h };
// Which layers of a family attend to a window or a chunk instead of the whole sequence (`layer_types`, where a
// config lists it, overrides the family's rule; transformers' config classes give the same defaults).
enum class Windows {
  none,        // every layer full attention
  all,         // Mistral: `sliding_window` (when set) on every layer
  qwen,        // Qwen2/3: sliding from layer max_window_layers on, when use_sliding_window
  gemma2,      // even layers sliding, odd layers full
  gemma3,      // five sliding layers, then one full (sliding_window_pattern)
  llama4,      // chunked attention on RoPE layers, full on every no_rope_layer_interval-th (NoPE) layer
  layer_types  // gpt-oss: only what layer_types says
};

// The table below names a family's switches (designated initializers) where it sets any beyond the window rule.
struct Family {
  const char* model_type;
  Experts experts;
  bool tied_by_default;              // transformers' default for tie_word_embeddings in this family
  std::vector<const char*> silent;   // family keys that change nothing the book models
  std::int64_t default_vocab = 0;    // transformers' default vocab_size where configs leave it out (0: required)
  Windows windows = Windows::none;
  bool latent_attention = false;     // multi-head latent attention (DeepSeek-V2 §2.1)
  bool gated_deltanet = false;       // Gated DeltaNet layers beside gated softmax attention (Qwen3-Next, Qwen3.5)
  bool experts_only = false;         // every layer is MoE and the config has no dense intermediate_size (Qwen3.5)
  bool sparse_attention = false;     // DeepSeek Sparse Attention's indexer (DeepSeek-V3.2, GLM-5)
  bool hybrid_blocks = false;        // a list of mixer and MLP blocks, not of layers (Nemotron-H, Nemotron 3)
};

// Keys every family's config.json may carry that change nothing in the book's model (positions, norms, token ids,
// dtypes, dropout, loaders' bookkeeping).
const std::vector<const char*>& common_silent_keys() {
  static const std::vector<const char*> keys = {
      "architectures", "model_type", "_name_or_path", "torch_dtype", "dtype", "transformers_version",
      "bos_token_id", "eos_token_id", "pad_token_id", "rope_theta", "rope_scaling", "rope_parameters",
      "partial_rotary_factor", "max_position_embeddings", "rms_norm_eps", "layer_norm_eps", "initializer_range",
      "attention_bias", "attention_dropout", "mlp_bias", "pretraining_tp", "use_cache", "hidden_act",
      "hidden_activation", "_attn_implementation", "tokenizer_class", "auto_map", "quantization_config",
      "bias", "qkv_bias", "use_qk_norm",
      // transformers' PretrainedConfig attributes, written into every saved config.json by older versions:
      // generation settings, labels, encoder-decoder switches, output flags.
      "add_cross_attention", "bad_words_ids", "begin_suppress_tokens", "chunk_size_feed_forward",
      "cross_attention_hidden_size", "decoder_start_token_id", "diversity_penalty", "do_sample", "early_stopping",
      "encoder_no_repeat_ngram_size", "exponential_decay_length_penalty", "finetuning_task", "forced_bos_token_id",
      "forced_eos_token_id", "id2label", "is_decoder", "is_encoder_decoder", "label2id", "length_penalty",
      "max_length", "min_length", "no_repeat_ngram_size", "num_beam_groups", "num_beams", "num_return_sequences",
      "output_attentions", "output_hidden_states", "output_scores", "prefix", "problem_type", "pruned_heads",
      "remove_invalid_values", "repetition_penalty", "return_dict", "return_dict_in_generate", "sep_token_id",
      "suppress_tokens", "task_specific_params", "temperature", "tf_legacy_loss", "tie_encoder_decoder", "top_k",
      "top_p", "torchscript", "typical_p", "use_bfloat16"};
  return keys;
}

const std::vector<Family>& families() {
  static const std::vector<const char*> gemma = {"query_pre_attn_scalar", "attn_logit_softcapping",
                                                 "final_logit_softcapping", "cache_implementation",
                                                 "sliding_window_size", "rope_local_base_freq"};
  static const std::vector<const char*> router = {"output_router_logits", "router_aux_loss_coef",
                                                  "router_jitter_noise", "norm_topk_prob"};
  static const std::vector<const char*> deepseek = {
      "aux_loss_alpha", "ep_size", "n_group", "topk_group", "topk_method", "norm_topk_prob",
      "routed_scaling_factor", "scoring_func", "seq_aux", "rope_interleave"};
  static const std::vector<const char*> llama4 = {"output_router_logits", "router_aux_loss_coef", "router_jitter_noise",
                                                  "attn_temperature_tuning", "attn_scale", "floor_scale",
                                                  "for_llm_compressor"};
  static const std::vector<const char*> gpt_oss = {"output_router_logits", "router_aux_loss_coef", "swiglu_limit",
                                                   "initial_context_length"};
  // GLM-5 writes DeepSeek's keys, its query-key width (qk_nope + qk_rope) and its RoPE layout once more.
  static const std::vector<const char*> glm_dsa = {
      "aux_loss_alpha", "ep_size", "n_group", "topk_group", "topk_method", "norm_topk_prob", "routed_scaling_factor",
      "scoring_func", "seq_aux", "rope_interleave", "qk_head_dim", "indexer_rope_interleave"};
  // Gemma 4: Gemma's keys, its per-layer-input embeddings (hidden_size_per_layer_input 0 in the released sizes that
  // have them off), the vision-only bidirectional attention, the MLP's width switch for KV-shared layers.
  static const std::vector<const char*> gemma4 = {
      "query_pre_attn_scalar", "attn_logit_softcapping", "final_logit_softcapping", "cache_implementation",
      "hidden_size_per_layer_input", "vocab_size_per_layer_input", "use_bidirectional_attention",
      "use_double_wide_mlp", "expert_intermediate_size"};
  // MiniMax-M2: its rotary width, QK-norm layout and sigmoid routing with a bias change nothing the book models.
  static const std::vector<const char*> minimax = {"rotary_dim", "qk_norm_type", "use_routing_bias", "scoring_func",
                                                   "output_router_logits", "router_aux_loss_coef"};
  static const std::vector<const char*> qwen_hybrid = {"output_router_logits", "router_aux_loss_coef",
                                                       "norm_topk_prob", "mtp_use_dedicated_embeddings",
                                                       // no window is used (transformers' Qwen3NextConfig)
                                                       "use_sliding_window", "max_window_layers", "mlp_only_layers"};
  static const std::vector<Family> all = {
      {"llama", Experts::none, false, {}},
      {"mistral", Experts::none, false, {}, 0, Windows::all},
      {"qwen2", Experts::none, false, {}, 0, Windows::qwen},
      {"qwen3", Experts::none, false, {}, 0, Windows::qwen},
      {"gemma", Experts::none, true, gemma},
      {"gemma2", Experts::none, true, gemma, 0, Windows::gemma2},
      {"gemma3_text", Experts::none, true, gemma, 262208, Windows::gemma3},  // Gemma3TextConfig; multimodal configs omit it
      {"mixtral", Experts::mixtral, false, router, 0, Windows::all},
      {"qwen2_moe", Experts::qwen, false, router, 0, Windows::qwen},
      {"qwen3_moe", Experts::qwen, false, router, 0, Windows::qwen},
      {"deepseek_v2", Experts::deepseek, false, deepseek, 0, Windows::none, true},
      {"deepseek_v3", Experts::deepseek, false, deepseek, 0, Windows::none, true},
      {"kimi_k2", Experts::deepseek, false, deepseek, 0, Windows::none, true},  // DeepseekV3ForCausalLM's keys
      {.model_type = "deepseek_v32", .experts = Experts::deepseek, .tied_by_default = false, .silent = deepseek,
       .latent_attention = true, .sparse_attention = true},
      {.model_type = "glm_moe_dsa", .experts = Experts::deepseek, .tied_by_default = false, .silent = glm_dsa,
       .latent_attention = true, .sparse_attention = true},
      {"llama4_text", Experts::llama4, false, llama4, 0, Windows::llama4},
      {"gpt_oss", Experts::gpt_oss, false, gpt_oss, 0, Windows::layer_types},
      {"minimax_m2", Experts::minimax, false, minimax, 0, Windows::none},
      {"gemma4_text", Experts::gemma4, true, gemma4, 0, Windows::layer_types},
      {.model_type = "qwen3_next", .experts = Experts::qwen, .tied_by_default = false, .silent = qwen_hybrid,
       .windows = Windows::layer_types, .gated_deltanet = true},
      {.model_type = "qwen3_5_moe_text", .experts = Experts::qwen, .tied_by_default = false, .silent = qwen_hybrid,
       .windows = Windows::layer_types, .gated_deltanet = true, .experts_only = true},
      {.model_type = "qwen3_5_text", .experts = Experts::none, .tied_by_default = false, .silent = qwen_hybrid,
       .windows = Windows::layer_types, .gated_deltanet = true},
      {.model_type = "nemotron_h", .experts = Experts::nemotron_h, .tied_by_default = false, .silent = {},
       .hybrid_blocks = true},
  };
  return all;
}

// Multimodal configs name the whole model; their text_config is the family's (Gemma 3, Llama 4).
constexpr std::pair<const char*, const char*> kModelTypeAliases[] = {
    {"gemma3", "gemma3_text"}, {"llama4", "llama4_text"}, {"qwen3_5_moe", "qwen3_5_moe_text"}, {"qwen3_5", "qwen3_5_text"},
    {"gemma4", "gemma4_text"}};

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
  const char* experts_key = kind == Experts::qwen || kind == Experts::gemma4 ? "num_experts"
                            : kind == Experts::deepseek                     ? "n_routed_experts"
                                                                            : "num_local_experts";
  const auto experts = r.count(experts_key, "routed experts per MoE layer", true);
  auto active = r.count(kind == Experts::gemma4 ? "top_k_experts" : "num_experts_per_tok", "experts each token is routed to",
                        kind != Experts::gpt_oss);
  std::optional<std::int64_t> expert_ff = d_ff;
  std::int64_t shared = 0, dense_layers = 0;
  std::vector<bool> moe(static_cast<std::size_t>(std::max<std::int64_t>(layers, 0)), true);
  switch (kind) {
    case Experts::none:
    case Experts::nemotron_h:
    case Experts::mixtral: break;
    case Experts::gemma4:
      // Gemma 4: every layer runs the dense MLP (intermediate_size) beside its routed experts, the two summed
      // (aiconfigurator's Gemma4MixModel): the engine's shared experts of the routed width, the dense MLP's worth.
      expert_ff = r.count("moe_intermediate_size", "MLP width of one expert", true);
      shared = shared_experts_of_width(r, "intermediate_size", d_ff, expert_ff);
      break;
    case Experts::minimax:
      // MiniMax-M2: intermediate_size is one expert's width; a shared expert of shared_intermediate_size (0: none).
      shared = shared_experts_of_width(r, "shared_intermediate_size", r.count("shared_intermediate_size", "", false, 0),
                                       expert_ff);
      break;
    case Experts::gpt_oss:
      // OpenAI's original key for k beside transformers' num_experts_per_tok.
      if (const auto k = r.count("experts_per_token", "experts each token is routed to", !active); k && !active) active = k;
      break;
    case Experts::llama4: {
      // Llama 4: intermediate_size is one expert's width, intermediate_size_mlp the dense layers'; one shared
      // expert of the routed width beside the routed ones; MoE on every interleave_moe_layer_step-th layer.
      d_ff = r.count("intermediate_size_mlp", "MLP width of the dense layers", false).value_or(expert_ff.value_or(0));
      shared = 1;
      const std::int64_t step = r.count("interleave_moe_layer_step", "", false).value_or(1);
      for (std::int64_t i = 0; i < layers; ++i) moe[static_cast<std::size_t>(i)] = (i + 1) % step == 0;
      if (const auto listed = r.layer_set("moe_layers", layers)) moe = *listed;
      break;
    }
    case Experts::qwen: {
      expert_ff = r.count("moe_intermediate_size", "MLP width of one expert", true);
      // Qwen writes one shared expert of its own width; the engine counts shared experts of the routed width.
      shared = shared_experts_of_width(r, "shared_expert_intermediate_size",
                                       r.count("shared_expert_intermediate_size", "", false, 0), expert_ff);
      // transformers' Qwen2/3-MoE: layer i is MoE when it is not in mlp_only_layers and (i + 1) % step == 0.
      const std::int64_t step = r.count("decoder_sparse_step", "", false).value_or(1);
      for (std::int64_t i = 0; i < layers; ++i) moe[static_cast<std::size_t>(i)] = (i + 1) % step == 0;
      if (const auto dense = r.layer_set("mlp_only_layers", layers))
        for (std::size_t i = 0; i < moe.size(); ++i) moe[i] = moe[i] && !(*dense)[i];
      break;
    }
    case Experts::deepseek: {
      expert_ff = r.count("moe_intermediate_size", "MLP width of one expert", true);
      shared = r.count("n_shared_experts", "", false, 0).value_or(0);
      // DeepSeek: layer i is MoE when i >= first_k_dense_replace and i % moe_layer_freq == 0.
      dense_layers = r.count("first_k_dense_replace", "", false, 0).value_or(0);
      const std::int64_t freq = r.count("moe_layer_freq", "", false).value_or(1);
      for (std::int64_t i = 0; i < layers; ++i) moe[static_cast<std::size_t>(i)] = i >= dense_layers && i % freq == 0;
      break;
    }
  }
  // Leading dense layers (DeepSeek's first_k_dense_replace, Qwen's mlp_only_layers [0, ..., k-1]) are the engine's
  // dense_layers where the rest are all MoE; any other arrangement is a pattern.
  if (kind != Experts::deepseek)
    while (dense_layers < layers && !moe[static_cast<std::size_t>(dense_layers)]) ++dense_layers;
  if (std::none_of(moe.begin(), moe.end(), [](bool x) { return x; }) && layers > 0)
    add_diagnostic(d, r.path_of(experts_key), "inconsistent", "the config makes no layer an MoE layer");
  if (!d_ff) d_ff = expert_ff;  // no layer is dense: the unused dense width stands at an expert's
  if (experts) m["experts"] = *experts;
  if (active) m["active_experts"] = *active;
  if (expert_ff) m["expert_d_ff"] = *expert_ff;
  m["shared_experts"] = shared;
  if (write_mlp_pattern(moe, dense_layers, m) && kind != Experts::deepseek) dense_layers = 0;
  m["dense_layers"] = dense_layers;
}

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

// Which layers attend to a window or a chunk, with their sizes, into `m` (attention_pattern, sliding_window,
// attention_chunk).
void read_windows(ConfigReader& r, const Family& family, std::int64_t layers, Json& m) {
  const Windows rule = family.windows;
  Diagnostics& d = r.diagnostics();
  const auto window = r.count("sliding_window", "", false);
  const auto chunk = r.count("attention_chunk_size", "", false);
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
  switch (rule) {
    case Windows::none:
    case Windows::layer_types: break;
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
    case Windows::llama4: {
      // Layers with RoPE attend within chunks; every no_rope_layer_interval-th layer (NoPE) attends fully.
      const std::int64_t every = r.count("no_rope_layer_interval", "", false).value_or(4);
      for (std::int64_t i = 0; i < layers; ++i)
        spans[static_cast<std::size_t>(i)] = (i + 1) % every != 0 ? AttentionSpan::chunked : AttentionSpan::full;
      if (const auto rope = r.per_layer<bool>("no_rope_layers", layers, [&](const Json& v, const std::string& p) -> std::optional<bool> {
            if (v.is_number_integer() && (v.get<std::int64_t>() == 0 || v.get<std::int64_t>() == 1)) return v.get<std::int64_t>() == 1;
            add_diagnostic(d, p, "wrong_type", "no_rope_layers entries are 1 (RoPE) or 0 (no positional encoding)");
            return std::nullopt;
          }))
        for (std::size_t i = 0; i < spans.size(); ++i) spans[i] = (*rope)[i] ? AttentionSpan::chunked : AttentionSpan::full;
      if (!chunk)
        for (auto& s : spans) s = AttentionSpan::full;
      break;
    }
  }
  if (const auto listed = r.per_layer<AttentionSpan>("layer_types", layers, [&](const Json& v, const std::string& p) {
        return layer_type(v, p, d);
      }))
    spans = *listed;
  bool sliding = false, chunked = false, linear = false;
  for (AttentionSpan s : spans) {
    sliding = sliding || s == AttentionSpan::sliding;
    chunked = chunked || s == AttentionSpan::chunked;
    linear = linear || s == AttentionSpan::linear;
  }
  if (sliding && !window) add_diagnostic(d, r.path_of("sliding_window"), "missing_key", "sliding-window layers need 'sliding_window'");
  if (chunked && !chunk) add_diagnostic(d, r.path_of("attention_chunk_size"), "missing_key", "chunked layers need 'attention_chunk_size'");
  if (linear && !family.gated_deltanet)
    add_diagnostic(d, r.path_of("layer_types"), "unknown_choice",
                   "linear_attention layers are read for the Gated DeltaNet families (qwen3_next, qwen3_5, "
                   "qwen3_5_moe), not for a " + std::string(family.model_type) + " config.json");
  if (!sliding && !chunked && !linear) return;
  if (sliding && window) m["sliding_window"] = *window;
  if (chunked && chunk) m["attention_chunk"] = *chunk;
  Json list = Json::array();
  for (AttentionSpan s : shortest_cycle(spans)) list.push_back(attention_span_name(s));
  m["attention_pattern"] = list;
}

}  // namespace

namespace hf {
std::int64_t shared_experts_of_width(ConfigReader& r, const char* key, std::optional<std::int64_t> width,
                                     std::optional<std::int64_t> expert_ff) {
  if (!width || *width <= 0 || !expert_ff) return 0;
  if (*width % *expert_ff == 0) return *width / *expert_ff;
  add_diagnostic(r.diagnostics(), r.path_of(key), "not_divisible",
                 "the always-on MLP's width " + std::to_string(*width) + " (" + key +
                     ") is not a whole number of routed experts of width " + std::to_string(*expert_ff));
  return 0;
}
}  // namespace hf

Json hf_config_to_model(const Json& config, const std::string& path, Diagnostics& d) {
  if (!config.is_object()) {
    add_diagnostic(d, path, "wrong_type", "'hf_config' must be the object of a config.json, got " + json_type_name(config));
    return Json::object();
  }
  // Multimodal configs (Gemma 3, Llama 4, ...) keep the language model in `text_config`; the vision tower is not
  // modelled.
  const Json* text = &config;
  std::string text_path = path;
  auto nested = config.find("text_config");
  if (nested != config.end() && nested->is_object()) {
    text = &*nested;
    text_path = json_pointer_child(path, "text_config");
  }
  const Json* type_node = nullptr;
  for (const Json* where : {text, &config}) {
    auto it = where->find("model_type");
    if (!type_node && it != where->end()) type_node = &*it;
  }
  if (!type_node || !type_node->is_string()) {
    add_diagnostic(d, json_pointer_child(text_path, "model_type"), type_node ? "wrong_type" : "missing_key",
                   "a config.json names its family in 'model_type'; this engine reads " + join_choices(model_types()));
    return Json::object();
  }
  std::string type = type_node->get<std::string>();
  for (const auto& [alias, family] : kModelTypeAliases)
    if (type == alias) type = family;
  const auto family = std::find_if(families().begin(), families().end(), [&](const Family& f) { return type == f.model_type; });
  if (family == families().end()) {
    add_diagnostic(d, json_pointer_child(text_path, "model_type"), "unknown_choice",
                   "unknown model_type " + quote(type) + "; valid: " + join_choices(model_types()));
    return Json::object();
  }

  ConfigReader r(*text, text_path, type, d);
  r.silent(common_silent_keys());
  r.silent(family->silent);
  Json m = Json::object();
  Json not_modelled = Json::array();
  // The per-layer rules below (windows, MoE steps, layer lists) are expanded one entry per layer, so the count is
  // bounded before any of them runs: a 200-byte config with 1e9 layers must not allocate 1e9 entries (issue 41).
  // A block list may stand in for the count (Nemotron 3 Ultra's layers_block_type).
  const auto layers =
      r.count("num_hidden_layers", "Transformer blocks, L", !family->hybrid_blocks, 1, kMaxConfigLayers);
  const auto d_model = r.count("hidden_size", "residual width, D", true);
  auto d_ff = r.count("intermediate_size", "MLP width, F", !family->experts_only);
  const auto heads = r.count("num_attention_heads", "query heads, N", true);
  auto vocab = r.count("vocab_size", "vocabulary, V", family->default_vocab == 0);
  if (!vocab && family->default_vocab) vocab = family->default_vocab;
  // GQA: K defaults to N (plain multi-head attention) in every family's transformers config class.
  const auto kv_heads = r.count("num_key_value_heads", "", false).value_or(heads.value_or(0));
  std::optional<std::int64_t> head_dim = r.count("head_dim", "", false);
  if (!head_dim && family->hybrid_blocks) head_dim = r.count("attention_head_dim", "", false);  // Nemotron-H's name
  if (family->latent_attention) {
    read_latent_attention(r, m);
    if (heads && kv_heads != *heads)
      add_diagnostic(d, r.path_of("num_key_value_heads"), "inconsistent",
                     "latent attention up-projects K and V for every query head: num_key_value_heads must equal "
                     "num_attention_heads (" + std::to_string(*heads) + ")");
  } else {
    if (!head_dim && heads && d_model) {
      if (*d_model % *heads != 0)
        add_diagnostic(d, r.path_of("head_dim"), "missing_key",
                       "hidden_size " + std::to_string(*d_model) + " is not a multiple of num_attention_heads " +
                           std::to_string(*heads) + ": give 'head_dim'");
      else head_dim = *d_model / *heads;
    }
    if (heads && kv_heads > 0 && *heads % kv_heads != 0)
      add_diagnostic(d, r.path_of("num_key_value_heads"), "not_divisible",
                     "num_attention_heads " + std::to_string(*heads) + " is not a multiple of num_key_value_heads " +
                         std::to_string(kv_heads) + " (GQA groups)");
  }
  read_mtp(r, m);
  if (family->experts == Experts::deepseek)
    if (const auto groups = r.count("n_group", "", false); groups && *groups > 1)
      not_modelled.push_back("Node-limited routing (" + std::to_string(*groups) +
                             " expert groups): routing is uniform over the experts, and a training query's "
                             "load_imbalance says how far the busiest expert is above the mean.");
  if (family->experts == Experts::gpt_oss)
    not_modelled.push_back("Attention sinks, the projections' biases and the clamped SwiGLU: a few parameters and "
                           "elementwise operations per layer (under 0.1% of the FLOPs).");
  if (text != &config && config.contains("vision_config"))
    not_modelled.push_back("The vision tower (vision_config): only the language model is modelled.");
  if (family->sparse_attention) read_sparse_attention(r, m);
  if (family->experts == Experts::gemma4) read_global_attention(r, m);
  if (family->gated_deltanet) read_gated_deltanet(r, m);
  // A multimodal config may keep tie_word_embeddings beside text_config (Qwen3.5).
  std::optional<bool> tied_flag = r.flag("tie_word_embeddings");
  if (!tied_flag && text != &config)
    if (auto top = config.find("tie_word_embeddings"); top != config.end() && top->is_boolean()) tied_flag = top->get<bool>();
  const bool tied = tied_flag.value_or(family->tied_by_default);
  if (family->hybrid_blocks) read_hybrid_blocks(r, layers, kMaxConfigLayers, m, not_modelled);
  else if (layers) {
    read_experts(r, family->experts, *layers, d_ff, m);
    read_windows(r, *family, *layers, m);
  }
  r.report_unknown();

  std::string name = type + " (config.json)";
  if (auto p = config.find("_name_or_path"); p != config.end() && p->is_string() && !p->get<std::string>().empty())
    name = p->get<std::string>();
  m["id"] = "hf-" + type;
  m["name"] = name;
  if (layers && !m.contains("layers")) m["layers"] = *layers;  // a block list counts its own
  if (d_model) m["d_model"] = *d_model;
  if (d_ff) m["d_ff"] = *d_ff;
  if (heads) m["heads"] = *heads;
  if (!family->latent_attention) {
    m["kv_heads"] = kv_heads;
    if (head_dim) m["head_dim"] = *head_dim;
  }
  if (vocab) m["vocab"] = *vocab;
  m["tied_embeddings"] = tied;
  // Top level, even when multimodal, or in text_config (Kimi-K2.5).
  if (const auto dtype = text != &config && !config.contains("quantization_config") ? quantized_weights_dtype(*text)
                                                                                     : quantized_weights_dtype(config)) {
    m["weights_dtype"] = *dtype;
    const Json& q = text->contains("quantization_config") ? (*text)["quantization_config"] : config["quantization_config"];
    const bool partial = q.is_object() && q.contains("ignore") && q["ignore"].is_array() && q["ignore"].size() > 1;
    if (partial)  // beyond the output head, which every such list names
      not_modelled.push_back("The checkpoint leaves some layers out of its " + *dtype +
                             " quantization (its ignore list); the engine stores every weight in " + *dtype + ".");
  }
  if (!m.contains("mlp")) m["mlp"] = "gated";  // every family but Nemotron-H's uses a gated (SwiGLU / GeGLU) MLP
  if (family->experts == Experts::none) {
    m["experts"] = 0;
    m["active_experts"] = 0;
    m["shared_experts"] = 0;
    m["dense_layers"] = 0;
  }
  if (!not_modelled.empty()) m["not_modelled"] = not_modelled;
  return m;
}

namespace {

// The config.json keys an engine field is read from, by family (the first the config holds names it).
const std::vector<std::pair<std::string, std::vector<const char*>>>& config_keys_of_fields() {
  static const std::vector<std::pair<std::string, std::vector<const char*>>> table = {
      {"layers", {"num_hidden_layers"}},
      {"d_model", {"hidden_size"}},
      {"d_ff", {"intermediate_size_mlp", "intermediate_size"}},
      {"heads", {"num_attention_heads"}},
      {"kv_heads", {"num_key_value_heads", "num_attention_heads"}},
      {"head_dim", {"head_dim", "hidden_size"}},
      {"vocab", {"vocab_size"}},
      {"mtp_layers", {"num_nextn_predict_layers", "mtp_num_hidden_layers", "num_mtp_modules"}},
      {"experts", {"n_routed_experts", "num_experts", "num_local_experts"}},
      {"active_experts", {"num_experts_per_tok", "experts_per_token"}},
      {"shared_experts", {"n_shared_experts", "shared_expert_intermediate_size"}},
      {"expert_d_ff", {"moe_intermediate_size", "intermediate_size"}},
      {"dense_layers", {"first_k_dense_replace", "mlp_only_layers"}},
      {"sliding_window", {"sliding_window"}},
      {"attention_chunk", {"attention_chunk_size"}},
      {"mla", {"kv_lora_rank"}},
      {"linear_attention", {"linear_num_value_heads", "mamba_num_heads"}},
      {"expert_latent_dim", {"moe_latent_size"}},
      {"mlp_pattern", {"hybrid_override_pattern", "layers_block_type"}},
      {"attention_pattern", {"hybrid_override_pattern", "layers_block_type", "layer_types"}},
      {"sparse_attention", {"index_topk"}},
      {"global_attention", {"global_head_dim"}},
  };
  return table;
}

// A diagnostic of the model read from a config.json names the engine's field (/…/hf_config/mtp_layers); the reader
// wrote the config's key (num_nextn_predict_layers), so the path is moved to it where the config holds one (issue 41).
std::string config_key_path(const Json& config, const std::string& hf_path, const std::string& path) {
  const std::string prefix = hf_path + "/";
  if (path.rfind(prefix, 0) != 0) return path;
  const bool nested = config.contains("text_config") && config["text_config"].is_object();
  const Json& text = nested ? config["text_config"] : config;
  const std::string base = nested ? json_pointer_child(hf_path, "text_config") : hf_path;
  std::string rest = path.substr(prefix.size());
  const std::string field = rest.substr(0, rest.find('/'));
  if (field == "mla" && rest.size() > 4) {  // latent attention's keys are the config's own, at its top level
    const std::string key = rest.substr(4, rest.find('/', 4) == std::string::npos ? std::string::npos : rest.find('/', 4) - 4);
    return text.contains(key) ? json_pointer_child(base, key) : path;
  }
  for (const auto& [name, keys] : config_keys_of_fields())
    if (name == field)
      for (const char* key : keys)
        if (text.contains(key)) return json_pointer_child(base, key);
  return path;
}

}  // namespace

ModelConfig resolve_hf_model(const Json& node, const std::string& path, Diagnostics& d) {
  JsonReader r(node, path, d);
  if (!r.ok_object()) return ModelConfig{};
  const Json* config = r.value("hf_config", true);
  const Json* overrides = r.object("overrides", false);
  const auto name = r.string("name", false);
  r.finish();
  if (!config) return ModelConfig{};
  const std::size_t mark = d.size();
  Json model = hf_config_to_model(*config, r.path_of("hf_config"), d);
  for (std::size_t i = mark; i < d.size(); ++i)
    if (!d[i].warning) return ModelConfig{};
  if (name) model["name"] = *name;
  if (!overrides) {
    const std::size_t from = d.size();
    const ModelConfig m = parse_model(model, r.path_of("hf_config"), false, d);
    for (std::size_t i = from; i < d.size(); ++i) {
      const std::string moved = config_key_path(*config, r.path_of("hf_config"), d[i].path);
      if (moved == d[i].path) continue;
      // "'mtp_layers' must be ..." names the key the reader wrote, too.
      const auto last = [](const std::string& p) { return "'" + p.substr(p.rfind('/') + 1) + "'"; };
      if (const auto at = d[i].message.find(last(d[i].path)); at != std::string::npos)
        d[i].message.replace(at, last(d[i].path).size(), last(moved));
      d[i].path = moved;
    }
    return m;
  }
  model.merge_patch(*overrides);
  return parse_model(model, r.path_of("overrides"), false, d);
}

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
    out["mla"] = {{"q_lora_rank", whole(m.mla.q_lora_rank)}, {"kv_lora_rank", whole(m.mla.kv_lora_rank)},
                  {"qk_nope_head_dim", whole(m.mla.qk_nope_head_dim)},
                  {"qk_rope_head_dim", whole(m.mla.qk_rope_head_dim)}, {"v_head_dim", whole(m.mla.v_head_dim)}};
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
    out["linear_attention"] = {{"kind", linear_kind_name(m.linear.kind)},
                               {"key_heads", whole(m.linear.key_heads)},
                               {"value_heads", whole(m.linear.value_heads)},
                               {"key_head_dim", whole(m.linear.key_head_dim)},
                               {"value_head_dim", whole(m.linear.value_head_dim)},
                               {"conv_kernel", whole(m.linear.conv_kernel)},
                               {"chunk_tokens", whole(m.linear.chunk_tokens)},
                               {"state_dtype", dtype_name(m.linear.state_dtype)}};
  if (m.attention_output_gate) out["attention_output_gate"] = true;
  if (m.global.head_dim > 0)
    out["global_attention"] = {{"head_dim", whole(m.global.head_dim)}, {"kv_heads", whole(m.global.kv_heads)},
                               {"k_eq_v", m.global.k_eq_v}};
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
      // What the engine approximates: from the config.json, or the preset's own list.
      Json notes = Json::array();
      if (node.is_object() && node.contains("hf_config")) {
        Diagnostics ignored;
        notes = hf_config_to_model(node["hf_config"], "", ignored).value("not_modelled", Json::array());
      } else if (const auto id = node.is_object() ? node.find("preset") : node.end(); id != node.end() && id->is_string()) {
        if (const PresetText* p = find_preset(model_preset_texts(), id->get<std::string>()))
          notes = preset_json(*p).value("not_modelled", Json::array());
      }
      out["model"]["not_modelled"] = notes;
    }
  }
  Json diagnostics = Json::array();
  for (const auto& x : d)
    diagnostics.push_back({{"path", x.path}, {"code", x.code}, {"message", x.message}, {"severity", x.warning ? "warning" : "error"}});
  out["diagnostics"] = diagnostics;
  return out.dump();
}

}  // namespace scalescope
