// Nemotron-H and Nemotron 3 (transformers' NemotronHConfig; NVIDIA's modeling_nemotron_h.py): the model is a list
// of blocks, each one mixer (Mamba-2 or attention) or one MLP (mixture-of-experts or dense), each with its own norm
// and residual. The engine's layer is a mixer and the MLP block after it, or none where the next block is another
// mixer: the same weights, FLOPs, norms and collectives, counted per layer kind.
#include <string>
#include <vector>

#include "io/json_text.h"
#include "io/text.h"
#include "specs/hf_config_reader.h"
#include "specs/layer_pattern.h"

namespace scalescope::hf {

namespace {

enum class Block { mamba, attention, moe, mlp };

// hybrid_override_pattern writes one character a block; layers_block_type (newer configs) one name.
std::optional<Block> block_of(const std::string& name) {
  if (name == "M" || name == "mamba") return Block::mamba;
  if (name == "*" || name == "attention") return Block::attention;
  if (name == "E" || name == "moe") return Block::moe;
  if (name == "-" || name == "mlp") return Block::mlp;
  return std::nullopt;
}

constexpr const char* kBlockChoices =
    "M or mamba (Mamba-2), * or attention (softmax attention), E or moe (mixture of experts), - or mlp (dense MLP)";

// The blocks as listed, as many as num_hidden_layers where the config gives it; nullopt (a diagnostic written)
// when they cannot be read.
std::optional<std::vector<Block>> read_blocks(ConfigReader& r, std::optional<std::int64_t> blocks,
                                              std::int64_t max_blocks) {
  Diagnostics& d = r.diagnostics();
  std::vector<std::string> names;
  std::string key = "hybrid_override_pattern";
  if (const Json* pattern = r.get(key)) {
    if (!pattern->is_string()) {
      add_diagnostic(d, r.path_of(key), "wrong_type",
                     "'" + key + "' is a string of one character a block: " + kBlockChoices);
      return std::nullopt;
    }
    for (char c : pattern->get<std::string>()) names.emplace_back(1, c);
  } else if (const Json* list = r.get(key = "layers_block_type")) {
    if (!list->is_array()) {
      add_diagnostic(d, r.path_of(key), "wrong_type", "'" + key + "' is a list of block names: " + kBlockChoices);
      return std::nullopt;
    }
    for (const Json& v : *list) names.push_back(v.is_string() ? v.get<std::string>() : std::string());
  } else {
    add_diagnostic(d, r.path_of("hybrid_override_pattern"), "missing_key",
                   "a nemotron_h config.json lists its blocks in 'hybrid_override_pattern' or 'layers_block_type'");
    return std::nullopt;
  }
  if (blocks && static_cast<std::int64_t>(names.size()) != *blocks) {
    add_diagnostic(d, r.path_of(key), "inconsistent",
                   "'" + key + "' lists " + std::to_string(names.size()) + " blocks; num_hidden_layers says " +
                       std::to_string(*blocks));
    return std::nullopt;
  }
  if (names.empty() || static_cast<std::int64_t>(names.size()) > max_blocks) {
    add_diagnostic(d, r.path_of(key), names.empty() ? "out_of_range" : "too_large",
                   "'" + key + "' lists " + std::to_string(names.size()) + " blocks; a model has 1 to " +
                       std::to_string(max_blocks));
    return std::nullopt;
  }
  std::vector<Block> out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto b = block_of(names[i]);
    if (!b) {
      add_diagnostic(d, json_pointer_child(r.path_of(key), i), "unknown_choice",
                     "block " + std::to_string(i) + " is " + quote(names[i]) + "; a block is one of: " + kBlockChoices);
      return std::nullopt;
    }
    out.push_back(*b);
  }
  return out;
}

// Mamba-2 as linear attention (model.h LinearAttention): C, B and x as q, k and v.
// The inner width is mamba_num_heads x mamba_head_dim (transformers' NemotronHMamba2Mixer), whatever `expand` says
// (Nemotron 3 Nano: expand 2 x 2688, heads 64 x 64).
Json mamba2_shape(ConfigReader& r) {
  Json a = {{"kind", "mamba2"}};
  const std::pair<const char*, const char*> keys[] = {{"key_heads", "n_groups"},
                                                      {"key_head_dim", "ssm_state_size"},
                                                      {"value_heads", "mamba_num_heads"},
                                                      {"value_head_dim", "mamba_head_dim"},
                                                      {"conv_kernel", "conv_kernel"}};
  for (const auto& [field, key] : keys)
    if (const auto v = r.count(key, "a Mamba-2 block's shape", true)) a[field] = *v;
  if (const auto chunk = r.count("chunk_size", "", false)) a["chunk_tokens"] = *chunk;
  read_state_dtype(r, "mamba_ssm_cache_dtype", a);
  return a;
}

// The experts of the MoE blocks, with Nemotron 3's latent width; a model without n_routed_experts is dense.
void read_block_experts(ConfigReader& r, bool any_moe, Json& m) {
  const auto experts = r.count("n_routed_experts", "routed experts per MoE block", any_moe);
  if (!experts || !any_moe) {
    for (const char* key : {"experts", "active_experts", "shared_experts", "dense_layers"}) m[key] = 0;
    return;
  }
  m["experts"] = *experts;
  if (const auto k = r.count("num_experts_per_tok", "experts each token is routed to", true)) m["active_experts"] = *k;
  const auto expert_ff = r.count("moe_intermediate_size", "MLP width of one expert", true);
  if (expert_ff) m["expert_d_ff"] = *expert_ff;
  // The shared expert runs at hidden_size, of moe_shared_expert_intermediate_size (times n_shared_experts).
  const auto copies = r.count("n_shared_experts", "", false, 0).value_or(1);
  const auto width = r.count("moe_shared_expert_intermediate_size", "", false, 0);
  m["shared_experts"] =
      shared_experts_of_width(r, "moe_shared_expert_intermediate_size",
                              width ? std::optional<std::int64_t>(*width * copies) : std::nullopt, expert_ff);
  if (const auto latent = r.count("moe_latent_size", "", false, 0); latent && *latent > 0)
    m["expert_latent_dim"] = *latent;
  m["dense_layers"] = 0;
}

}  // namespace

void read_hybrid_blocks(ConfigReader& r, std::optional<std::int64_t> blocks, std::int64_t max_blocks, Json& m,
                        Json& not_modelled) {
  r.silent({"expand",
            "time_step_floor",
            "time_step_limit",
            "time_step_max",
            "time_step_min",
            "time_step_rank",
            "rescale_prenorm_residual",
            "residual_in_fp32",
            "use_mamba_kernels",
            "mamba_hidden_act",
            "mlp_hidden_act",
            "use_bias",
            "moe_shared_expert_overlap",
            "n_group",
            "topk_group",
            "norm_topk_prob",
            "routed_scaling_factor",
            "num_logits_to_keep",
            "hidden_dropout",
            "layer_norm_epsilon",
            "norm_eps",
            "sliding_window"});
  const auto listed = read_blocks(r, blocks, max_blocks);
  if (!listed) return;
  // Each mixer opens a layer; an MLP block closes the open one.
  std::vector<AttentionSpan> spans;
  std::vector<MlpLayer> mlps;
  bool open = false, any_mamba = false, any_moe = false;
  for (std::size_t i = 0; i < listed->size(); ++i) {
    const Block b = (*listed)[i];
    if (b == Block::mamba || b == Block::attention) {
      spans.push_back(b == Block::mamba ? AttentionSpan::linear : AttentionSpan::full);
      mlps.push_back(MlpLayer::none);
      open = true;
      any_mamba = any_mamba || b == Block::mamba;
      continue;
    }
    if (!open) {
      const char* key = r.get("hybrid_override_pattern") ? "hybrid_override_pattern" : "layers_block_type";
      const std::string list = r.path_of(key);
      add_diagnostic(r.diagnostics(), list, "inconsistent",
                     "block " + std::to_string(i) +
                         " is an MLP with no mixer before it: the engine's layer is a mixer "
                         "(Mamba-2 or attention) and at most one MLP after it");
      return;
    }
    mlps.back() = b == Block::moe ? MlpLayer::moe : MlpLayer::dense;
    any_moe = any_moe || b == Block::moe;
    open = false;
  }
  m["layers"] = spans.size();
  Json attention = Json::array(), mlp = Json::array();
  for (AttentionSpan s : shortest_cycle(spans)) attention.push_back(attention_span_name(s));
  for (MlpLayer x : shortest_cycle(mlps)) mlp.push_back(mlp_layer_name(x));
  m["attention_pattern"] = attention;
  m["mlp_pattern"] = mlp;
  // NemotronHMLP is up, activation (relu2), down: not gated, in the experts too.
  m["mlp"] = "plain";
  if (any_mamba) m["linear_attention"] = mamba2_shape(r);
  read_block_experts(r, any_moe, m);
  if (r.flag("mamba_proj_bias").value_or(false) || !r.flag("use_conv_bias").value_or(true))
    not_modelled.push_back(
        "The Mamba-2 projections' biases as configured: the engine counts the convolution's bias "
        "and none on the projections (under 0.01% of the weights).");
  // The prediction module is one attention block and one MoE block, as the engine's MTP layer is.
  for (const char* key : {"mtp_hybrid_override_pattern", "mtp_layers_block_type"})
    if (const Json* mtp = r.get(key); mtp && *mtp != Json("*E") && *mtp != Json::array({"attention", "moe"}))
      not_modelled.push_back(std::string("The prediction module's blocks (") + key + " " + quote(to_text(*mtp), 80) +
                             "): the engine counts one attention block and one MLP block.");
}

}  // namespace scalescope::hf
