#include "specs/hf_config.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "specs/presets.h"

namespace scalescope {

namespace {

constexpr std::int64_t kMaxDim = 1'000'000'000;  // as in model.cpp: any real model dimension is far below this
constexpr std::size_t kMaxUnknownReported = 20;  // a config full of unknown keys gets 20 diagnostics and a count

// How a family lays out its experts (the keys differ per family; the book's E, k, shared experts, expert F).
enum class Experts { none, mixtral, qwen, deepseek };

struct Family {
  const char* model_type;
  Experts experts;
  bool tied_by_default;              // transformers' default for tie_word_embeddings in this family
  std::vector<const char*> silent;   // family keys that change nothing the book models
  std::int64_t default_vocab = 0;    // transformers' default vocab_size where configs leave it out (0: required)
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
      "max_window_layers", "layer_types", "bias", "qkv_bias", "use_qk_norm"};
  return keys;
}

const std::vector<Family>& families() {
  static const std::vector<const char*> gemma = {"query_pre_attn_scalar", "attn_logit_softcapping",
                                                 "final_logit_softcapping", "cache_implementation",
                                                 "sliding_window_size", "sliding_window_pattern",
                                                 "rope_local_base_freq"};
  static const std::vector<const char*> router = {"output_router_logits", "router_aux_loss_coef",
                                                  "router_jitter_noise", "norm_topk_prob"};
  static const std::vector<const char*> deepseek = {
      "aux_loss_alpha", "ep_size", "n_group", "topk_group", "topk_method", "norm_topk_prob",
      "routed_scaling_factor", "scoring_func", "seq_aux", "q_lora_rank",
      "qk_rope_head_dim", "qk_nope_head_dim", "rope_interleave"};
  static const std::vector<Family> all = {
      {"llama", Experts::none, false, {}},
      {"mistral", Experts::none, false, {}},
      {"qwen2", Experts::none, false, {}},
      {"qwen3", Experts::none, false, {}},
      {"gemma", Experts::none, true, gemma},
      {"gemma2", Experts::none, true, gemma},
      {"gemma3_text", Experts::none, true, gemma, 262208},  // Gemma3TextConfig; multimodal configs omit it
      {"mixtral", Experts::mixtral, false, router},
      {"qwen2_moe", Experts::qwen, false, router},
      {"qwen3_moe", Experts::qwen, false, router},
      {"deepseek_v2", Experts::deepseek, false, deepseek},
      {"deepseek_v3", Experts::deepseek, false, deepseek},
  };
  return all;
}

std::vector<std::string> model_types() {
  std::vector<std::string> out;
  for (const auto& f : families()) out.emplace_back(f.model_type);
  return out;
}

// One config.json object: typed reads that remember which keys were looked at, so the rest can be named.
class ConfigReader {
 public:
  ConfigReader(const Json& node, std::string path, std::string family, Diagnostics& d)
      : node_(node), path_(std::move(path)), family_(std::move(family)), d_(d) {}

  std::string path_of(const std::string& key) const { return json_pointer_child(path_, key); }

  // The value of a key (marked as read); nullptr when absent or null (transformers writes null for "unset").
  const Json* get(const std::string& key) {
    seen_.insert(key);
    auto it = node_.find(key);
    return it == node_.end() || it->is_null() ? nullptr : &*it;
  }

  // A whole number >= min; `meaning` says what it is, for the message when a required key is missing.
  std::optional<std::int64_t> count(const std::string& key, const char* meaning, bool required, std::int64_t min = 1) {
    const Json* v = get(key);
    if (!v) {
      if (required)
        add_diagnostic(d_, path_of(key), "missing_key",
                       "a " + family_ + " config.json needs '" + key + "' (" + meaning + ")");
      return std::nullopt;
    }
    return read_integer_value(*v, path_of(key), min, kMaxDim, d_);
  }

  std::optional<bool> flag(const std::string& key) {
    const Json* v = get(key);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) {
      add_diagnostic(d_, path_of(key), "wrong_type", "'" + key + "' must be true or false, got " + json_type_name(*v));
      return std::nullopt;
    }
    return v->get<bool>();
  }

  void silent(const std::vector<const char*>& keys) {
    for (const char* k : keys) seen_.insert(k);
  }

  // Every key nobody read is an error naming it: it may change the architecture in a way the engine cannot know.
  void report_unknown() {
    std::size_t unknown = 0;
    for (auto it = node_.begin(); it != node_.end(); ++it) {
      if (seen_.count(it.key())) continue;
      if (++unknown <= kMaxUnknownReported)
        add_diagnostic(d_, path_of(it.key()), "unknown_key",
                       "unknown key '" + it.key() + "' in a " + family_ +
                           " config.json: the engine does not know what it changes; remove it if it does not change "
                           "the model's shape");
    }
    if (unknown > kMaxUnknownReported)
      add_diagnostic(d_, path_, "unknown_key",
                     std::to_string(unknown - kMaxUnknownReported) + " more unknown keys in this config.json");
  }

 private:
  const Json& node_;
  std::string path_;
  std::string family_;
  Diagnostics& d_;
  std::set<std::string> seen_;
};

// The expert fields of an MoE family into `m`; `d_ff` is the dense MLP width already read.
void read_experts(ConfigReader& r, Experts kind, std::int64_t d_ff, Json& m, Diagnostics& d) {
  if (kind == Experts::none) return;
  const char* experts_key = kind == Experts::mixtral ? "num_local_experts"
                            : kind == Experts::qwen  ? "num_experts"
                                                     : "n_routed_experts";
  const auto experts = r.count(experts_key, "routed experts per MoE layer", true);
  const auto active = r.count("num_experts_per_tok", "experts each token is routed to", true);
  std::optional<std::int64_t> expert_ff = d_ff;
  if (kind != Experts::mixtral) expert_ff = r.count("moe_intermediate_size", "MLP width of one expert", true);
  std::int64_t shared = 0, dense_layers = 0;
  if (kind == Experts::qwen) {
    // Qwen writes one shared expert of its own width; the engine counts shared experts of the routed width.
    if (const auto width = r.count("shared_expert_intermediate_size", "", false, 0); width && *width > 0 && expert_ff) {
      if (*width % *expert_ff != 0)
        add_diagnostic(d, r.path_of("shared_expert_intermediate_size"), "not_divisible",
                       "the shared expert's width " + std::to_string(*width) +
                           " is not a whole number of routed experts of width " + std::to_string(*expert_ff));
      else shared = *width / *expert_ff;
    }
    if (const auto step = r.count("decoder_sparse_step", "", false); step && *step != 1)
      add_diagnostic(d, r.path_of("decoder_sparse_step"), "not_applicable",
                     "MoE layers every " + std::to_string(*step) +
                         " layers are not modelled: the engine's MoE layers follow leading dense layers");
    if (const Json* dense = r.get("mlp_only_layers")) {
      // Only leading dense layers ([0, 1, ..., k-1]) are modelled (the engine's dense_layers).
      bool leading = dense->is_array();
      for (std::size_t i = 0; leading && i < dense->size(); ++i)
        leading = (*dense)[i].is_number_integer() && (*dense)[i].get<std::int64_t>() == static_cast<std::int64_t>(i);
      if (!leading)
        add_diagnostic(d, r.path_of("mlp_only_layers"), "not_applicable",
                       "dense layers must be the first ones ([0, 1, ..., k-1]); other patterns are not modelled");
      else dense_layers = static_cast<std::int64_t>(dense->size());
    }
  } else if (kind == Experts::deepseek) {
    shared = r.count("n_shared_experts", "", false, 0).value_or(0);
    dense_layers = r.count("first_k_dense_replace", "", false, 0).value_or(0);
    if (const auto freq = r.count("moe_layer_freq", "", false); freq && *freq != 1)
      add_diagnostic(d, r.path_of("moe_layer_freq"), "not_applicable",
                     "an MoE layer every " + std::to_string(*freq) + " layers is not modelled");
  }
  if (experts) m["experts"] = *experts;
  if (active) m["active_experts"] = *active;
  if (expert_ff) m["expert_d_ff"] = *expert_ff;
  m["shared_experts"] = shared;
  m["dense_layers"] = dense_layers;
}

}  // namespace

Json hf_config_to_model(const Json& config, const std::string& path, Diagnostics& d) {
  if (!config.is_object()) {
    add_diagnostic(d, path, "wrong_type", "'hf_config' must be the object of a config.json, got " + json_type_name(config));
    return Json::object();
  }
  // Multimodal configs (Gemma 3, ...) keep the language model in `text_config`; the vision tower is not modelled.
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
  if (type == "gemma3") type = "gemma3_text";
  const auto family = std::find_if(families().begin(), families().end(), [&](const Family& f) { return type == f.model_type; });
  if (family == families().end()) {
    add_diagnostic(d, json_pointer_child(text_path, "model_type"), "unknown_choice",
                   "unknown model_type '" + type + "'; valid: " + join_choices(model_types()));
    return Json::object();
  }

  ConfigReader r(*text, text_path, type, d);
  r.silent(common_silent_keys());
  r.silent(family->silent);
  Json m = Json::object();
  Json not_modelled = Json::array();
  const auto layers = r.count("num_hidden_layers", "Transformer blocks, L", true);
  const auto d_model = r.count("hidden_size", "residual width, D", true);
  const auto d_ff = r.count("intermediate_size", "MLP width, F", true);
  const auto heads = r.count("num_attention_heads", "query heads, N", true);
  auto vocab = r.count("vocab_size", "vocabulary, V", family->default_vocab == 0);
  if (!vocab && family->default_vocab) vocab = family->default_vocab;
  // GQA: K defaults to N (plain multi-head attention) in every family's transformers config class.
  const auto kv_heads = r.count("num_key_value_heads", "", false).value_or(heads.value_or(0));
  std::optional<std::int64_t> head_dim = r.count("head_dim", "", false);
  if (family->experts == Experts::deepseek) {
    // Multi-head latent attention: the engine's MHA stand-in with H = v_head_dim (as the deepseek-v3 preset).
    head_dim = r.count("v_head_dim", "value head width of latent attention", true);
    if (const auto rank = r.count("kv_lora_rank", "", false))
      not_modelled.push_back("Multi-head latent attention (kv_lora_rank " + std::to_string(*rank) +
                             "): modelled as multi-head attention with " + std::to_string(kv_heads) +
                             " KV heads, so KV cache and attention cost are over-estimates.");
  }
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
  const bool windowed = r.flag("use_sliding_window").value_or(true);  // Qwen writes a window it does not use
  if (const Json* window = r.get("sliding_window"); windowed && window && window->is_number() && window->get<double>() > 0)
    not_modelled.push_back("Sliding-window attention (" + window->dump() +
                           " tokens): every layer is treated as global attention, so long-context attention cost "
                           "and KV cache are over-estimates.");
  if (const Json* mtp = r.get("num_nextn_predict_layers"); mtp && mtp->is_number() && mtp->get<double>() > 0)
    not_modelled.push_back("Multi-token prediction (" + mtp->dump() + " extra layer): not counted.");
  if (text != &config && config.contains("vision_config"))
    not_modelled.push_back("The vision tower (vision_config): only the language model is modelled.");
  const bool tied = r.flag("tie_word_embeddings").value_or(family->tied_by_default);
  read_experts(r, family->experts, d_ff.value_or(0), m, d);
  r.report_unknown();

  std::string name = type + " (config.json)";
  if (auto p = config.find("_name_or_path"); p != config.end() && p->is_string() && !p->get<std::string>().empty())
    name = p->get<std::string>();
  m["id"] = "hf-" + type;
  m["name"] = name;
  if (layers) m["layers"] = *layers;
  if (d_model) m["d_model"] = *d_model;
  if (d_ff) m["d_ff"] = *d_ff;
  if (heads) m["heads"] = *heads;
  m["kv_heads"] = kv_heads;
  if (head_dim) m["head_dim"] = *head_dim;
  if (vocab) m["vocab"] = *vocab;
  m["tied_embeddings"] = tied;
  m["mlp"] = "gated";  // every family here uses a gated (SwiGLU / GeGLU) MLP
  if (family->experts == Experts::none) {
    m["experts"] = 0;
    m["active_experts"] = 0;
    m["shared_experts"] = 0;
    m["dense_layers"] = 0;
  }
  if (!not_modelled.empty()) m["not_modelled"] = not_modelled;
  return m;
}

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
  if (!overrides) return parse_model(model, r.path_of("hf_config"), false, d);
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
  return out;
}

std::string resolve_model_json(std::string_view text) {
  Diagnostics d;
  Json out = {{"ok", false}};
  const Json node = Json::parse(text, nullptr, false);
  if (node.is_discarded()) {
    add_diagnostic(d, "/model", "malformed_json", "the model is not valid JSON");
  } else {
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
