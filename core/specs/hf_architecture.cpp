#include "specs/hf_config_reader.h"

namespace scalescope::hf {

std::optional<std::string> quantized_weights_dtype(const Json& config) {
  const auto q = config.find("quantization_config");
  if (q == config.end() || !q->is_object()) return std::nullopt;
  const auto method = q->find("quant_method");
  if (method == q->end() || !method->is_string()) return std::nullopt;
  const std::string name = method->get<std::string>();
  if (name == "fp8") return "fp8";
  if (name == "mxfp4") return "fp4";
  if (name == "gptq" || name == "awq") {
    const auto bits = q->find("bits");
    if (bits != q->end() && bits->is_number()) {
      if (bits->get<double>() == 4) return "int4";
      if (bits->get<double>() == 8) return "int8";
    }
  }
  // NVIDIA's ModelOpt checkpoints name the algorithm (Gemma 4 31B NVFP4, DeepSeek-V3.1 NVFP4).
  if (name == "modelopt") {
    const std::string algo = q->value("quant_algo", "");
    if (algo == "NVFP4") return "fp4";
    if (algo == "FP8") return "fp8";
  }
  // compressed-tensors names its integer weights per group of layers (Kimi-K2.5: int4 routed experts, the rest kept
  // in bf16); the engine has one weights dtype, the groups' when they all agree.
  if (name == "compressed-tensors") {
    const auto groups = q->find("config_groups");
    std::optional<std::string> dtype;
    for (auto g = groups != q->end() && groups->is_object() ? groups->begin() : q->end();
         groups != q->end() && groups->is_object() && g != groups->end(); ++g) {
      const Json* w = g->is_object() && g->contains("weights") ? &(*g)["weights"] : nullptr;
      const bool integer = w && w->is_object() && w->value("type", "") == "int";
      const double bits = w && w->is_object() && (*w)["num_bits"].is_number() ? (*w)["num_bits"].get<double>() : 0;
      const std::optional<std::string> here = integer && bits == 4   ? std::optional<std::string>("int4")
                                              : integer && bits == 8 ? std::optional<std::string>("int8")
                                                                     : std::nullopt;
      if (!here || (dtype && *dtype != *here)) return std::nullopt;
      dtype = here;
    }
    return dtype;
  }
  return std::nullopt;
}

void read_state_dtype(ConfigReader& r, const std::string& key, Json& shape) {
  const Json* dtype = r.get(key);
  if (!dtype) return;
  const std::string name = dtype->is_string() ? dtype->get<std::string>() : "";
  if (name == "float32")
    shape["state_dtype"] = "fp32";
  else if (name == "bfloat16" || name == "float16")
    shape["state_dtype"] = "bf16";
  else
    add_diagnostic(r.diagnostics(), r.path_of(key), "unknown_choice", key + " is one of: float32, bfloat16, float16");
}

// Qwen3-Next and Qwen3.5's Gated DeltaNet layers (linear_*) and gated softmax attention (attn_output_gate) into `m`.
void read_gated_deltanet(ConfigReader& r, Json& m) {
  Json a = Json::object();
  const std::pair<const char*, const char*> keys[] = {{"key_heads", "linear_num_key_heads"},
                                                      {"value_heads", "linear_num_value_heads"},
                                                      {"key_head_dim", "linear_key_head_dim"},
                                                      {"value_head_dim", "linear_value_head_dim"},
                                                      {"conv_kernel", "linear_conv_kernel_dim"}};
  for (const auto& [field, key] : keys)
    if (const auto v = r.count(key, "a Gated DeltaNet layer's shape", true)) a[field] = *v;
  // The state's dtype: Qwen3.5 pins float32 (mamba_ssm_dtype); the engines keep it in fp32 unless told otherwise.
  read_state_dtype(r, "mamba_ssm_dtype", a);
  m["linear_attention"] = a;
  // Qwen3NextAttention always gates its output; Qwen3.5 says so in attn_output_gate.
  m["attention_output_gate"] = r.flag("attn_output_gate").value_or(true);
}

// Multi-token prediction modules, as each family names them: DeepSeek's num_nextn_predict_layers, Qwen3.5's
// mtp_num_hidden_layers, MiniMax-M2's num_mtp_modules of mtp_transformer_layers each (when use_mtp).
void read_mtp(ConfigReader& r, Json& m) {
  std::int64_t layers = 0;
  if (const auto n = r.count("num_nextn_predict_layers", "", false, 0)) layers = *n;
  if (const auto n = r.count("mtp_num_hidden_layers", "", false, 0)) layers = *n;
  const auto modules = r.count("num_mtp_modules", "", false, 0);
  const auto per_module = r.count("mtp_transformer_layers", "", false, 0);
  if (r.flag("use_mtp").value_or(modules.has_value()) && modules) layers = *modules * per_module.value_or(1);
  if (layers > 0) m["mtp_layers"] = layers;
}

// Gemma 4's full layers' own heads (global_head_dim, num_global_key_value_heads, attention_k_eq_v) into `m`; a
// config that shares KV across layers (num_kv_shared_layers, Gemma 3n's scheme) is refused by name.
void read_global_attention(ConfigReader& r, Json& m) {
  const auto head_dim = r.count("global_head_dim", "", false);
  const auto kv_heads = r.count("num_global_key_value_heads", "", false);
  const bool k_eq_v = r.flag("attention_k_eq_v").value_or(false);
  if (head_dim || kv_heads) {
    Json g = Json::object();
    if (head_dim) g["head_dim"] = *head_dim;
    if (kv_heads) g["kv_heads"] = *kv_heads;
    g["k_eq_v"] = k_eq_v;
    m["global_attention"] = g;
  }
  if (const auto shared = r.count("num_kv_shared_layers", "", false, 0); shared && *shared > 0)
    add_diagnostic(r.diagnostics(), r.path_of("num_kv_shared_layers"), "not_modelled",
                   "layers that reuse another layer's KV cache (num_kv_shared_layers " + std::to_string(*shared) +
                       ") are not modelled: every layer keeps its own");
}

// DeepSeek-V3.2 and GLM-5's sparse attention indexer (index_*) into `m`.
void read_sparse_attention(ConfigReader& r, Json& m) {
  Json a = Json::object();
  const std::pair<const char*, const char*> keys[] = {
      {"index_heads", "index_n_heads"}, {"index_head_dim", "index_head_dim"}, {"index_topk", "index_topk"}};
  for (const auto& [field, key] : keys)
    if (const auto v = r.count(key, "the sparse attention indexer's shape", true)) a[field] = *v;
  m["sparse_attention"] = a;
}

// DeepSeek-V2/V3 and Kimi K2's latent attention into `m`.
void read_latent_attention(ConfigReader& r, Json& m) {
  const auto q_rank = r.count("q_lora_rank", "", false, 0);
  const auto kv_rank = r.count("kv_lora_rank", "latent width of the KV cache", true);
  const auto nope = r.count("qk_nope_head_dim", "query-key head width without RoPE", true, 0);
  const auto rope = r.count("qk_rope_head_dim", "query-key head width with RoPE", true, 0);
  const auto v = r.count("v_head_dim", "value head width", true);
  Json mla = Json::object();
  if (q_rank) mla["q_lora_rank"] = *q_rank;
  if (kv_rank) mla["kv_lora_rank"] = *kv_rank;
  if (nope) mla["qk_nope_head_dim"] = *nope;
  if (rope) mla["qk_rope_head_dim"] = *rope;
  if (v) mla["v_head_dim"] = *v;
  m["mla"] = mla;
}

}  // namespace scalescope::hf
