// Queries about a model: parameter, FLOP, KV-cache and remat accounting, and utilisation from chip-hours.
#include "physics/transformer.h"

#include <optional>
#include <string>

#include "physics/roofline.h"
#include "queries/query.h"
#include "specs/model_json.h"

namespace scalescope {

namespace {

Json params_json(const ParamCounts& p) {
  return {{"mlp", p.mlp},       {"mlp_active", p.mlp_active}, {"attention", p.attention},
          {"router", p.router}, {"embeddings", p.embeddings}, {"norms", p.norms},
          {"total", p.total},   {"active", p.active}};
}

// Every remat policy's saved activations and recompute at these tokens (checkpoints only with `k`), by name.
Json remat_policies_json(const ModelConfig& m, const FlopCounts& f, double tokens, double seq_len,
                         std::optional<double> k, Dtype act_dtype, bool causal) {
  Json remat_all = Json::object();
  for (Remat r :
       {Remat::none, Remat::block, Remat::big_matmuls, Remat::mlp_matmuls, Remat::checkpoints, Remat::selective}) {
    if (r == Remat::checkpoints && !k) continue;
    const RematCost c = remat_cost(m, r, tokens, seq_len, k.value_or(0), act_dtype, causal);
    remat_all[std::string(remat_name(r))] = {{"activation_bytes", c.activation_bytes},
                                             {"saved_width_per_layer", c.saved_width_per_layer},
                                             {"extra_forward_flops", c.extra_forward_flops},
                                             {"training_flops_with_remat", f.training + c.extra_forward_flops}};
  }
  return remat_all;
}

// Which form of attention each number uses: training and prefill expand MLA's latent into every head's K and V;
// decode keeps the cache latent and absorbs the up-projections into the query and the output (DeepSeek-V2 §2.1.2).
Json attention_form_json(const ModelConfig& m) {
  return m.is_mla() ? Json{{"kind", "mla"},
                           {"training_and_prefill", "expanded"},
                           {"decode", "absorbed"},
                           {"kv_values_per_token_per_layer", kv_values_per_token_per_layer(m)},
                           {"decode_flops_per_key_per_layer",
                            2.0 * m.heads * (2.0 * m.mla.kv_lora_rank + m.mla.qk_rope_head_dim)},
                           {"prefill_flops_per_key_per_layer", 2.0 * m.heads * (m.qk_head_dim() + m.v_head_dim())}}
                    : Json{{"kind", m.kv_heads == m.heads ? "mha"
                                    : m.kv_heads == 1     ? "mqa"
                                                          : "gqa"},
                           {"kv_values_per_token_per_layer", kv_values_per_token_per_layer(m)}};
}

// The decode batch above which the matmuls turn compute-bound (in tokens), where the chip has a peak for the
// activations' dtype.
void add_decode_compute_bound_batch(const Hardware& hw, const ModelConfig& m, Dtype act_dtype, Dtype param_dtype,
                                    const std::string& dtype_path, Json& out, Diagnostics& d) {
  // scaling-book/transformers, MoE, and scaling-book/inference: decode matmuls turn compute-bound at
  // B > (C/W) * bytes_per_param / 2, x E/k for MoE.
  const double c = peak_for(hw, act_dtype, dtype_path, d);
  if (c > 0) {
    const double moe = m.is_moe() ? (m.experts + m.shared_experts) / (m.active_experts + m.shared_experts) : 1.0;
    out["decode_compute_bound_batch_tokens"] =
        matmul_critical_batch(c, hw.hbm_bandwidth_bytes_per_s, param_dtype) * moe;
  }
}

}  // namespace

Json run_transformer(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const ModelConfig& m = *ctx.model;
  const double seq_len = args.number("seq_len", false).value_or(4096);
  const double tokens = args.number("tokens", false).value_or(seq_len);
  const bool causal = args.boolean("causal", false).value_or(true);
  const Dtype param_dtype = args.dtype("param_dtype", false).value_or(Dtype::bf16);
  const Dtype kv_dtype = args.dtype("kv_dtype", false).value_or(Dtype::bf16);
  const Dtype act_dtype = args.dtype("activation_dtype", false).value_or(Dtype::bf16);
  const auto remat_text = args.choice("remat", false, remat_names());
  const Remat remat = remat_text ? *parse_remat(*remat_text) : Remat::block;
  const auto k = args.number("checkpoints_per_layer", remat == Remat::checkpoints);
  if (has_errors(d)) return {};

  const ParamCounts p = count_params(m);
  const FlopCounts f = count_flops(m, tokens, seq_len, causal);
  const Json remat_all = remat_policies_json(m, f, tokens, seq_len, k, act_dtype, causal);
  Json out{{"params", params_json(p)},
           {"param_bytes", p.total * bytes_per_element(param_dtype)},
           // scaling-book/training, memory: bf16 params + fp32 Adam moments = 10 bytes per parameter (no fp32 master
           // copy).
           {"params_and_adam_bytes", 10.0 * p.total},
           {"tokens", tokens},
           {"seq_len", seq_len},
           {"forward_flops", f.forward},
           {"forward_matmul_flops", f.matmul_forward},
           {"forward_attention_flops", f.attention_forward},
           {"training_flops", f.training},
           {"attention_flops_fraction", f.attention_fraction},
           {"six_n_flops_per_token", 6.0 * p.active},  // scaling-book/transformers: 6 N per token (MoE: active N)
           {"six_n_flops", 6.0 * p.active * tokens},
           {"training_flops_per_token", f.training / tokens},
           {"kv_cache_bytes_per_token", kv_bytes_per_token(m, kv_dtype)},
           // Sliding-window and chunked layers hold only their window or chunk of the sequence; linear layers a state.
           {"kv_cache_bytes_per_sequence", kv_cache_bytes(m, kv_dtype, seq_len)},
           // scaling-book/transformers, Question 4: prefill T = S = seq_len; decode one query against seq_len keys
           // (MLA: absorbed, in the latent).
           {"attention_intensity_prefill_flops_per_byte", attention_intensity_flops_per_byte(m, seq_len, seq_len)},
           {"attention_intensity_decode_flops_per_byte",
            m.is_mla() ? absorbed_attention_intensity_flops_per_byte(m, 1, seq_len)
                       : attention_intensity_flops_per_byte(m, 1, seq_len)},
           {"remat", std::string(remat_name(remat))},
           {"activation_bytes", remat_all[std::string(remat_name(remat))]["activation_bytes"]},
           {"remat_policies", remat_all}};
  out["model"] = model_config_json(m);
  out["attention"] = attention_form_json(m);
  // scaling-book/transformers, Question 5: where attention's FLOPs catch up with the QKVO's, or all the layers' matmuls
  // (x2 when causal); left out where sliding or chunked windows keep attention below them at any context.
  if (const auto s = attention_equals_qkvo_seq_len(m, causal)) out["attention_equals_qkvo_seq_len"] = *s;
  if (const auto s = attention_equals_matmuls_seq_len(m, causal)) out["attention_equals_matmuls_seq_len"] = *s;
  out["layers"] = layer_counts_json(m.pattern.all);
  if (m.has_linear_attention()) out["recurrent_state_bytes_per_sequence"] = recurrent_state_bytes(m);
  // What a token's matmuls use (2 FLOPs each): the active parameters without the embedding lookup and the norms,
  // the unembedding in (gpt-oss's model card counts "active" so).
  out["params"]["active_in_matmuls"] = p.mlp_active + p.attention + p.router + m.vocab * m.d_model;
  // Multi-token prediction modules are outside the model's own total (DeepSeek-V3's 671e9 leaves them out).
  if (p.mtp > 0) out["params"]["mtp"] = p.mtp;
  if (ctx.hw)
    add_decode_compute_bound_batch(*ctx.hw, m, act_dtype, param_dtype, args.path_of("activation_dtype"), out, d);
  return out;
}

Json run_utilization(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const double chip_hours = args.number("chip_hours", true).value_or(0);
  const double tokens = args.number("tokens", true).value_or(0);
  const Dtype dtype = args.dtype("dtype", false).value_or(Dtype::bf16);
  auto active = args.number("active_params", !ctx.model);
  if (!active && ctx.model) active = count_params(*ctx.model).active;
  const double c = peak_for(*ctx.hw, dtype, args.path_of("dtype"), d);
  if (has_errors(d) || !active) return {};
  const double available = chip_hours * 3600.0 * c;
  const double used = 6.0 * *active * tokens;  // scaling-book/transformers, Question 7
  return {{"utilization_frac", utilisation_from_chip_hours(*active, tokens, chip_hours, c)},
          {"available_flops", available},
          {"used_flops", used},
          {"active_params", *active},
          {"peak_flops_per_s", c}};
}

}  // namespace scalescope
