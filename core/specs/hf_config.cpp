#include "specs/hf_config.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "io/json_text.h"
#include "io/text.h"
#include "specs/hf_config_reader.h"
#include "specs/hf_families.h"
#include "specs/layer_pattern.h"
#include "specs/presets.h"

namespace scalescope {

// The typed reader, the shared features' readers (specs/hf_config_reader.h) and the families' rules
// (specs/hf_families.h).
using namespace hf;

namespace {

// The language model's part of a config.json: multimodal configs (Gemma 3, Llama 4, ...) keep it in `text_config`;
// the vision tower is not modelled.
struct ConfigText {
  const Json* json;
  std::string path;
};

ConfigText language_model_of(const Json& config, const std::string& path) {
  auto nested = config.find("text_config");
  if (nested != config.end() && nested->is_object()) return {&*nested, json_pointer_child(path, "text_config")};
  return {&config, path};
}

// The family `model_type` names (an alias resolved into `type`), or null with a diagnostic.
const Family* family_of(const Json& config, const ConfigText& text, std::string& type, Diagnostics& d) {
  const Json* type_node = nullptr;
  for (const Json* where : {text.json, &config}) {
    auto it = where->find("model_type");
    if (!type_node && it != where->end()) type_node = &*it;
  }
  if (!type_node || !type_node->is_string()) {
    add_diagnostic(d, json_pointer_child(text.path, "model_type"), type_node ? "wrong_type" : "missing_key",
                   "a config.json names its family in 'model_type'; this engine reads " + join_choices(model_types()));
    return nullptr;
  }
  type = type_node->get<std::string>();
  for (const auto& [alias, family] : kModelTypeAliases)
    if (type == alias) type = family;
  const auto family =
      std::find_if(families().begin(), families().end(), [&](const Family& f) { return type == f.model_type; });
  if (family == families().end()) {
    add_diagnostic(d, json_pointer_child(text.path, "model_type"), "unknown_choice",
                   "unknown model_type " + quote(type) + "; valid: " + join_choices(model_types()));
    return nullptr;
  }
  return &*family;
}

// The dimensions every family has (absent where the config lacks them and a diagnostic says so).
struct CoreDims {
  std::optional<std::int64_t> layers, d_model, d_ff, heads, vocab, head_dim;
  std::int64_t kv_heads = 0;
};

CoreDims read_core_dims(ConfigReader& r, const Family& family) {
  CoreDims c;
  // The per-layer rules below (windows, MoE steps, layer lists) are expanded one entry per layer, so the count is
  // bounded before any of them runs: a 200-byte config with 1e9 layers must not allocate 1e9 entries (issue 41).
  // A block list may stand in for the count (Nemotron 3 Ultra's layers_block_type).
  c.layers = r.count("num_hidden_layers", "Transformer blocks, L", !family.hybrid_blocks, 1, kMaxConfigLayers);
  c.d_model = r.count("hidden_size", "residual width, D", true);
  c.d_ff = r.count("intermediate_size", "MLP width, F", !family.experts_only);
  c.heads = r.count("num_attention_heads", "query heads, N", true);
  c.vocab = r.count("vocab_size", "vocabulary, V", family.default_vocab == 0);
  if (!c.vocab && family.default_vocab) c.vocab = family.default_vocab;
  // GQA: K defaults to N (plain multi-head attention) in every family's transformers config class.
  c.kv_heads = r.count("num_key_value_heads", "", false).value_or(c.heads.value_or(0));
  c.head_dim = r.count("head_dim", "", false);
  if (!c.head_dim && family.hybrid_blocks) c.head_dim = r.count("attention_head_dim", "", false);  // Nemotron-H's
  return c;
}

// Latent attention's fields into `m`, or the head dimension GQA needs; the heads checked against each other.
void read_attention_heads(ConfigReader& r, const Family& family, CoreDims& c, Json& m, Diagnostics& d) {
  if (family.latent_attention) {
    read_latent_attention(r, m);
    if (c.heads && c.kv_heads != *c.heads)
      add_diagnostic(d, r.path_of("num_key_value_heads"), "inconsistent",
                     "latent attention up-projects K and V for every query head: num_key_value_heads must equal "
                     "num_attention_heads (" +
                         std::to_string(*c.heads) + ")");
    return;
  }
  if (!c.head_dim && c.heads && c.d_model) {
    if (*c.d_model % *c.heads != 0)
      add_diagnostic(d, r.path_of("head_dim"), "missing_key",
                     "hidden_size " + std::to_string(*c.d_model) + " is not a multiple of num_attention_heads " +
                         std::to_string(*c.heads) + ": give 'head_dim'");
    else
      c.head_dim = *c.d_model / *c.heads;
  }
  if (c.heads && c.kv_heads > 0 && *c.heads % c.kv_heads != 0)
    add_diagnostic(d, r.path_of("num_key_value_heads"), "not_divisible",
                   "num_attention_heads " + std::to_string(*c.heads) + " is not a multiple of num_key_value_heads " +
                       std::to_string(c.kv_heads) + " (GQA groups)");
}

// What the family's configs carry that the engine does not model, said in `not_modelled`.
void note_unmodelled(ConfigReader& r, const Family& family, const Json& config, const Json* text, Json& not_modelled) {
  if (family.experts == Experts::deepseek)
    if (const auto groups = r.count("n_group", "", false); groups && *groups > 1)
      not_modelled.push_back("Node-limited routing (" + std::to_string(*groups) +
                             " expert groups): routing is uniform over the experts, and a training query's "
                             "load_imbalance says how far the busiest expert is above the mean.");
  if (family.experts == Experts::gpt_oss)
    not_modelled.push_back(
        "Attention sinks, the projections' biases and the clamped SwiGLU: a few parameters and "
        "elementwise operations per layer (under 0.1% of the FLOPs).");
  if (text != &config && config.contains("vision_config"))
    not_modelled.push_back("The vision tower (vision_config): only the language model is modelled.");
}

// Whether the output head shares the embedding. A multimodal config may keep tie_word_embeddings beside text_config
// (Qwen3.5).
bool read_tied(ConfigReader& r, const Family& family, const Json& config, const Json* text) {
  std::optional<bool> tied_flag = r.flag("tie_word_embeddings");
  if (!tied_flag && text != &config)
    if (auto top = config.find("tie_word_embeddings"); top != config.end() && top->is_boolean())
      tied_flag = top->get<bool>();
  return tied_flag.value_or(family.tied_by_default);
}

// The model's name and dimensions into `m`.
void write_core_fields(const Json& config, const std::string& type, const Family& family, const CoreDims& c, bool tied,
                       Json& m) {
  std::string name = type + " (config.json)";
  if (auto p = config.find("_name_or_path"); p != config.end() && p->is_string() && !p->get<std::string>().empty())
    name = p->get<std::string>();
  m["id"] = "hf-" + type;
  m["name"] = name;
  if (c.layers && !m.contains("layers")) m["layers"] = *c.layers;  // a block list counts its own
  if (c.d_model) m["d_model"] = *c.d_model;
  if (c.d_ff) m["d_ff"] = *c.d_ff;
  if (c.heads) m["heads"] = *c.heads;
  if (!family.latent_attention) {
    m["kv_heads"] = c.kv_heads;
    if (c.head_dim) m["head_dim"] = *c.head_dim;
  }
  if (c.vocab) m["vocab"] = *c.vocab;
  m["tied_embeddings"] = tied;
}

// The checkpoint's quantized weights dtype into `m`: at the top level, even when multimodal, or in text_config
// (Kimi-K2.5).
void write_weights_dtype(const Json& config, const Json* text, Json& m, Json& not_modelled) {
  const auto dtype = text != &config && !config.contains("quantization_config") ? quantized_weights_dtype(*text)
                                                                                : quantized_weights_dtype(config);
  if (!dtype) return;
  m["weights_dtype"] = *dtype;
  const Json& q =
      text->contains("quantization_config") ? (*text)["quantization_config"] : config["quantization_config"];
  const bool partial = q.is_object() && q.contains("ignore") && q["ignore"].is_array() && q["ignore"].size() > 1;
  if (partial)  // beyond the output head, which every such list names
    not_modelled.push_back("The checkpoint leaves some layers out of its " + *dtype +
                           " quantization (its ignore list); the engine stores every weight in " + *dtype + ".");
}

}  // namespace

Json hf_config_to_model(const Json& config, const std::string& path, Diagnostics& d) {
  if (!config.is_object()) {
    add_diagnostic(d, path, "wrong_type",
                   "'hf_config' must be the object of a config.json, got " + json_type_name(config));
    return Json::object();
  }
  const ConfigText text = language_model_of(config, path);
  std::string type;
  const Family* family = family_of(config, text, type, d);
  if (!family) return Json::object();

  ConfigReader r(*text.json, text.path, type, d);
  r.silent(common_silent_keys());
  r.silent(family->silent);
  Json m = Json::object();
  Json not_modelled = Json::array();
  CoreDims dims = read_core_dims(r, *family);
  read_attention_heads(r, *family, dims, m, d);
  read_mtp(r, m);
  note_unmodelled(r, *family, config, text.json, not_modelled);
  if (family->sparse_attention) read_sparse_attention(r, m);
  if (family->experts == Experts::gemma4) read_global_attention(r, m);
  if (family->gated_deltanet) read_gated_deltanet(r, m);
  const bool tied = read_tied(r, *family, config, text.json);
  if (family->hybrid_blocks)
    read_hybrid_blocks(r, dims.layers, kMaxConfigLayers, m, not_modelled);
  else if (dims.layers) {
    read_experts(r, family->experts, *dims.layers, dims.d_ff, m);
    read_windows(r, *family, *dims.layers, m);
    if (family->kimi_delta) read_kimi_delta(r, *dims.layers, m);
  }
  r.report_unknown();

  write_core_fields(config, type, *family, dims, tied, m);
  write_weights_dtype(config, text.json, m, not_modelled);
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
    const std::string key =
        rest.substr(4, rest.find('/', 4) == std::string::npos ? std::string::npos : rest.find('/', 4) - 4);
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

}  // namespace scalescope
