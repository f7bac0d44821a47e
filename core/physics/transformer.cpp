#include "physics/transformer.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace scalescope {

namespace {

// Half the Q.K plus the V width of a head in a layer of `span`: attention's 2 (H_qk + H_v) FLOPs per key are the
// book's 4 H (scaling-book/transformers).
double mean_head_dim(const ModelConfig& m, AttentionSpan span) {
  return m.is_mla() ? (m.qk_head_dim() + m.v_head_dim()) / 2.0 : m.head_shape(span).head_dim;
}

// A standard softmax layer's projections for its head shape: Q, K (and V unless it is K), O, and a gated output's
// second query-sized projection.
double softmax_attention_params(const ModelConfig& m, const HeadShape& h) {
  const double q = m.heads * h.head_dim, kv = (h.k_eq_v ? 1.0 : 2.0) * h.kv_heads * h.head_dim;
  return m.d_model * (q + kv) + q * m.d_model + (m.attention_output_gate ? m.d_model * q : 0.0);
}

// One MoE (or, in a dense model, dense) layer's weights with their norms, and the share one token uses: what a
// multi-token prediction module's layer holds (DeepSeek-V3 §2.2 uses the model's MoE layer).
struct LayerParams {
  double total = 0, active = 0;
};
LayerParams layer_params(const ModelConfig& m, bool moe) {
  const double norms = 2.0 * m.d_model + (m.is_mla() ? m.mla.q_lora_rank + m.mla.kv_lora_rank : 0.0);
  const double base = attention_params_per_layer(m, AttentionSpan::full) + norms;
  if (!moe) {
    const double mlp = m.mlp_matrices() * m.d_model * m.d_ff;
    return {base + mlp, base + mlp};
  }
  const double always = base + m.d_model * m.experts + m.shared_experts * m.shared_expert_params() +
                        m.latent_projection_params();  // router, shared experts, latent projections
  return {always + m.experts * m.routed_expert_params(), always + m.active_experts * m.routed_expert_params()};
}

}  // namespace

double attention_params_per_layer(const ModelConfig& m, AttentionSpan span) {
  if (span == AttentionSpan::linear) return linear_attention_params_per_layer(m);
  const double indexer = m.has_sparse_attention() ? sparse_indexer_params_per_layer(m) : 0.0;
  if (!m.is_mla()) return softmax_attention_params(m, m.head_shape(span)) + indexer;
  const LatentAttention& a = m.mla;
  const double n = m.heads, d = m.d_model, qk = m.qk_head_dim();
  const double q = a.q_lora_rank > 0 ? d * a.q_lora_rank + a.q_lora_rank * n * qk : d * n * qk;
  const double kv =
      d * (a.kv_lora_rank + a.qk_rope_head_dim) + a.kv_lora_rank * n * (a.qk_nope_head_dim + a.v_head_dim);
  const double gate = m.attention_output_gate ? d * n * qk : 0.0;
  return q + kv + n * a.v_head_dim * d + gate + indexer;
}

double linear_attention_params_per_layer(const ModelConfig& m) {
  const LinearAttention& a = m.linear;
  const double d = m.d_model, projections = d * a.in_projection_width() + a.v_width() * d;
  const double conv = a.conv_channels() * a.conv_kernel;
  if (a.kind == LinearKind::mamba2)  // the convolution's bias, A, D and dt bias per head, the norm over d_inner
    return projections + conv + a.conv_channels() + 3.0 * a.value_heads + a.v_width();
  if (a.kind == LinearKind::kda)  // the gates' up-projections (the output gate's with a bias), A per head, the decay's
                                  // bias per key channel, the per-head norm
    return projections + conv + a.value_head_dim * a.gate_up_width() + a.v_width() + a.key_heads + a.qk_width() +
           a.value_head_dim;
  return projections + conv + 2.0 * a.value_heads + a.value_head_dim;  // A and dt bias per head, the per-head norm
}

double linear_recurrence_flops_per_token(const ModelConfig& m, bool decode) {
  const LinearAttention& a = m.linear;
  const double dk = a.key_head_dim, dv = a.value_head_dim, c = a.chunk_tokens;
  if (a.kind == LinearKind::mamba2)
    return decode ? a.value_heads * 5.0 * dk * dv
                  : a.key_heads * 2.0 * c * dk + a.value_heads * (2.0 * c * dv + 4.0 * dk * dv);
  // Gated DeltaNet's delta rule; KDA's decay per key channel is elementwise beside it (no more matmul work).
  return a.value_heads * (decode ? 7.0 * dk * dv : 2.0 * c * (3.0 * dk + 2.0 * dv) + 6.0 * dk * dv);
}

double linear_attention_flops_per_token(const ModelConfig& m, bool decode) {
  return linear_recurrence_flops_per_token(m, decode) + 2.0 * m.linear.conv_kernel * m.linear.conv_channels();
}

double sparse_indexer_params_per_layer(const ModelConfig& m) {
  const SparseAttention& a = m.sparse;
  const double q_in = m.is_mla() && m.mla.q_lora_rank > 0 ? m.mla.q_lora_rank : m.d_model;
  return q_in * a.index_heads * a.index_head_dim + m.d_model * a.index_head_dim + 2.0 * a.index_head_dim +
         m.d_model * a.index_heads;
}

double sparse_index_bytes_per_token_per_layer(const ModelConfig& m) {
  const double d = m.sparse.index_head_dim;
  return d * bytes_per_element(Dtype::fp8) + std::ceil(d / 128.0) * bytes_per_element(Dtype::fp32);
}

double recurrent_state_bytes(const ModelConfig& m) {
  const LinearAttention& a = m.linear;
  const double per_layer = a.value_heads * a.key_head_dim * a.value_head_dim * bytes_per_element(a.state_dtype) +
                           a.conv_channels() * std::max(0.0, a.conv_kernel - 1.0) * bytes_per_element(Dtype::bf16);
  return m.pattern.span_layers[static_cast<int>(AttentionSpan::linear)] * per_layer;
}

ParamCounts count_params(const ModelConfig& m) {
  ParamCounts p;
  const double dense_mlp = m.mlp_matrices() * m.d_model * m.d_ff;
  const double always_on = m.shared_experts * m.shared_expert_params() + m.latent_projection_params();
  p.mlp = m.dense_mlp_layers() * dense_mlp + m.moe_layers() * (m.experts * m.routed_expert_params() + always_on);
  p.mlp_active =
      m.dense_mlp_layers() * dense_mlp + m.moe_layers() * (m.active_experts * m.routed_expert_params() + always_on);
  for (int span = 0; span < kAttentionSpans; ++span)
    p.attention += m.pattern.span_layers[span] * attention_params_per_layer(m, static_cast<AttentionSpan>(span));
  p.router = m.moe_layers() * m.d_model * m.experts;
  p.embeddings = (m.tied_embeddings ? 1.0 : 2.0) * m.vocab * m.d_model;
  // MLA normalises its query and KV latents too (DeepSeek-V2 §2.1.2).
  p.norms = (m.blocks() + 1.0) * m.d_model + (m.is_mla() ? m.layers * (m.mla.q_lora_rank + m.mla.kv_lora_rank) : 0.0);
  p.total = p.mlp + p.attention + p.router + p.embeddings + p.norms;
  p.active = p.mlp_active + p.attention + p.router + p.embeddings + p.norms;
  if (m.mtp_layers > 0) {
    // Each module: its layer, the norms of the embedding and of the hidden state, the 2D x D projection and the
    // output head's norm (the embedding and head themselves are the model's).
    const LayerParams layer = layer_params(m, m.is_moe());
    const double own = 2.0 * m.d_model * m.d_model + 3.0 * m.d_model;
    p.mtp = m.mtp_layers * (layer.total + own);
    p.mtp_active = m.mtp_layers * (layer.active + own);
  }
  return p;
}

namespace {
// The keys a query sees through a window of the last `w` (or `w` selected ones): the first W queries see fewer.
double windowed_keys(double w, double s, bool causal, bool at_end) {
  if (at_end || !causal) return std::min(s, w);
  return s <= w ? s / 2.0 : w - w * w / (2.0 * s);
}
}  // namespace

double mean_keys_per_query(const ModelConfig& m, AttentionSpan span, double s, bool causal, bool at_end) {
  switch (span) {
    case AttentionSpan::full:
      if (m.has_sparse_attention()) return windowed_keys(m.sparse.index_topk, s, causal, at_end);
      return every_key_per_query(s, causal, at_end);
    case AttentionSpan::sliding: {
      const double w = m.sliding_window;
      if (w <= 0) break;  // a model without a window has no sliding layers
      return windowed_keys(w, s, causal, at_end);
    }
    case AttentionSpan::chunked: {
      const double c = m.attention_chunk;
      if (c <= 0) break;
      if (at_end) {
        const double in_chunk = std::fmod(s, c);
        return s <= c ? s : in_chunk > 0 ? in_chunk : c;
      }
      const double whole = std::floor(s / c), rest = s - whole * c;
      return (causal ? 0.5 : 1.0) * (whole * c * c + rest * rest) / s;
    }
    case AttentionSpan::linear:
      return 0;
  }
  return every_key_per_query(s, causal, at_end);
}

double mixing_flops_per_token(const ModelConfig& m, AttentionSpan span, double s, bool causal, bool at_end) {
  if (span == AttentionSpan::linear) return linear_attention_flops_per_token(m, at_end);
  double flops = 4.0 * mean_keys_per_query(m, span, s, causal, at_end) * m.heads * mean_head_dim(m, span);
  if (span == AttentionSpan::full && m.has_sparse_attention())
    flops += 2.0 * m.sparse.index_heads * m.sparse.index_head_dim * every_key_per_query(s, causal, at_end);
  return flops;
}

FlopCounts count_flops(const ModelConfig& m, double tokens, double seq_len, bool causal, FlopAccount account,
                       double mtp_layers) {
  return count_flops(m, count_params(m), tokens, seq_len, causal, account, mtp_layers);
}

FlopCounts count_flops(const ModelConfig& m, const ParamCounts& p, double tokens, double seq_len, bool causal,
                       FlopAccount account, double mtp_layers) {
  FlopCounts f;
  const double matmul_params =
      account == FlopAccount::six_nd ? p.active : p.mlp_active + p.attention + p.router + m.vocab * m.d_model;
  f.matmul_forward = 2.0 * tokens * matmul_params;
  if (account == FlopAccount::full)
    for (int s = 0; s < kAttentionSpans; ++s)
      if (const double layers = m.pattern.span_layers[s]; layers > 0)
        f.attention_forward +=
            tokens * layers * mixing_flops_per_token(m, static_cast<AttentionSpan>(s), seq_len, causal);
  if (mtp_layers > 0 && m.mtp_layers > 0) {
    // Each trained module runs its layer (full attention), its projection and the shared output head once more.
    const double per_module = p.mtp_active / m.mtp_layers;
    const double matmuls = account == FlopAccount::six_nd ? per_module : per_module + m.vocab * m.d_model;
    const double attention =
        account == FlopAccount::six_nd ? 0.0 : tokens * mixing_flops_per_token(m, AttentionSpan::full, seq_len, causal);
    f.mtp_forward = mtp_layers * (2.0 * tokens * matmuls + attention);
  }
  f.forward = f.matmul_forward + f.attention_forward + f.mtp_forward;
  f.training = 3.0 * f.forward;
  f.attention_fraction = f.forward > 0 ? f.attention_forward / f.forward : 0.0;
  return f;
}

double kv_values_per_token_per_layer(const ModelConfig& m, AttentionSpan span) {
  if (span == AttentionSpan::linear) return 0;
  if (m.is_mla()) return m.mla.kv_lora_rank + m.mla.qk_rope_head_dim;
  const HeadShape h = m.head_shape(span);
  return 2.0 * h.kv_heads * h.head_dim;  // K and V, K = V or not: the cache keeps K after RoPE and V apart
}

double kv_values_per_token_per_layer(const ModelConfig& m) {
  return kv_values_per_token_per_layer(m, AttentionSpan::sliding);
}

namespace {
// A sparse model's index keys per token, over its full layers (0 for a dense-attention model).
double index_bytes_per_token(const ModelConfig& m) {
  if (!m.has_sparse_attention()) return 0;
  return m.pattern.span_layers[static_cast<int>(AttentionSpan::full)] * sparse_index_bytes_per_token_per_layer(m);
}
}  // namespace

double kv_bytes_per_token(const ModelConfig& m, Dtype kv) {
  double values = 0;
  for (int span = 0; span < kAttentionSpans; ++span)
    values += m.pattern.span_layers[span] * kv_values_per_token_per_layer(m, static_cast<AttentionSpan>(span));
  return values * bytes_per_element(kv) + index_bytes_per_token(m);
}

double kv_cache_bytes(const ModelConfig& m, Dtype kv, double context) {
  if (m.pattern.all_full()) return kv_bytes_per_token(m, kv) * context;
  const LayerCounts& n = m.pattern.all;
  const auto values = [&](AttentionSpan span) { return n.span(span) * kv_values_per_token_per_layer(m, span); };
  const double held = values(AttentionSpan::full) * context +
                      values(AttentionSpan::sliding) * std::min(context, m.sliding_window) +
                      values(AttentionSpan::chunked) * std::min(context, m.attention_chunk);
  return held * bytes_per_element(kv) + recurrent_state_bytes(m) + index_bytes_per_token(m) * context;
}

double kv_cache_read_bytes(const ModelConfig& m, Dtype kv, double context) {
  const double held = kv_cache_bytes(m, kv, context);
  if (!m.has_sparse_attention()) return held;
  const double unread = std::max(0.0, context - m.sparse.index_topk);
  return held - m.pattern.span_layers[static_cast<int>(AttentionSpan::full)] * unread *
                    kv_values_per_token_per_layer(m, AttentionSpan::full) * bytes_per_element(kv);
}

double attention_intensity_flops_per_byte(const ModelConfig& m, double t, double s) {
  const double g = m.heads / m.kv_heads;
  return t * s * g / (t * g + s);
}

double absorbed_attention_intensity_flops_per_byte(const ModelConfig& m, double t, double s) {
  const double r = m.mla.kv_lora_rank, rope = m.mla.qk_rope_head_dim, n = m.heads;
  // FLOPs 2 t s n (2r + rope); bytes (bf16) 2 (s (r + rope) cached + t n (r + rope) queries + t n r outputs).
  return t * s * n * (2.0 * r + rope) / (s * (r + rope) + t * n * (2.0 * r + rope));
}

namespace {

// Attention's FLOPs per token at context s, every layer over its own span (sliding and chunked layers stop at their
// window), against `target` FLOPs per token: the context where they meet, found by bisection (attention only grows
// with s); nullopt when the windows keep attention below the target at any context (Mistral 7B against its matmuls).
std::optional<double> attention_crossover_seq_len(const ModelConfig& m, bool causal, double target) {
  const auto attention = [&](double s) {
    double flops = 0;
    for (int span = 0; span < kAttentionSpans; ++span)
      if (const double layers = m.pattern.span_layers[span]; layers > 0)
        flops += layers * mixing_flops_per_token(m, static_cast<AttentionSpan>(span), s, causal);
    return flops;
  };
  if (m.pattern.all_full() && !m.has_sparse_attention()) return target / attention(1.0);  // linear in s: exact
  constexpr double kLongest = 1e15;  // tokens: far past any context, so a capped model is told apart in ~50 doublings
  double hi = 1;
  while (attention(hi) < target)
    if ((hi *= 2) > kLongest) return std::nullopt;
  double lo = hi / 2;
  for (int i = 0; i < 60 && hi - lo > 1e-9 * hi; ++i) (attention((lo + hi) / 2) < target ? lo : hi) = (lo + hi) / 2;
  return hi;
}

}  // namespace

// scaling-book/transformers, Question 5: where attention's FLOPs catch up with the QKVO projections' (2 FLOPs per
// parameter per token).
std::optional<double> attention_equals_qkvo_seq_len(const ModelConfig& m, bool causal) {
  return attention_crossover_seq_len(m, causal, 2.0 * count_params(m).attention);
}

// ... and with all the layers' matmuls (the active MLP and the attention projections).
std::optional<double> attention_equals_matmuls_seq_len(const ModelConfig& m, bool causal) {
  const ParamCounts p = count_params(m);
  return attention_crossover_seq_len(m, causal, 2.0 * (p.mlp_active + p.attention));
}

namespace {
constexpr std::string_view kRematNames[] = {"none", "block", "big_matmuls", "mlp_matmuls", "checkpoints", "selective"};
}

std::optional<Remat> parse_remat(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kRematNames); ++i)
    if (kRematNames[i] == name) return static_cast<Remat>(i);
  return std::nullopt;
}
std::string_view remat_name(Remat r) { return kRematNames[static_cast<int>(r)]; }
const std::vector<std::string>& remat_names() {
  static const std::vector<std::string> names(std::begin(kRematNames), std::end(kRematNames));
  return names;
}

const std::vector<Remat>& settable_remats() {
  static const std::vector<Remat> all{Remat::none, Remat::big_matmuls, Remat::mlp_matmuls, Remat::block,
                                      Remat::selective};
  return all;
}

const std::vector<std::string>& settable_remat_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (Remat r : settable_remats()) out.emplace_back(remat_name(r));
    return out;
  }();
  return names;
}

RematCost remat_cost(const ModelConfig& m, Remat policy, double tokens, double seq_len, double k, Dtype act,
                     bool causal, FlopAccount account) {
  return remat_cost(m, count_params(m), policy, tokens, seq_len, k, act, causal, account);
}

RematCost remat_cost(const ModelConfig& m, const ParamCounts& params, Remat policy, double tokens, double seq_len,
                     double k, Dtype act, bool causal, FlopAccount account) {
  return remat_cost(m, params, count_flops(m, params, tokens, seq_len, causal, account, 0), policy, tokens, k, act);
}

RematCost remat_cost(const ModelConfig& m, const ParamCounts& params, const FlopCounts& fwd, Remat policy,
                     double tokens, double k, Dtype act) {
  RematCost r;
  r.saved_width_per_layer = remat_saved_width(m, policy, k);
  r.activation_bytes = remat_activation_bytes(m, policy, tokens, k, act);
  const double layers_forward = fwd.forward - 2.0 * tokens * m.vocab * m.d_model;  // the unembedding is not redone
  switch (policy) {
    case Remat::none:
      break;
    case Remat::block:  // scaling-book/transformers: 6ND -> 8ND
    case Remat::checkpoints:
      r.extra_forward_flops = layers_forward;
      break;
    case Remat::big_matmuls:  // scaling-book/transformers: QK^T and AV are recomputed, 4 B T^2 N H per layer
    case Remat::selective:
      r.extra_forward_flops = fwd.attention_forward;
      break;
    case Remat::mlp_matmuls:  // attention block recomputed from the saved MLP outputs
      r.extra_forward_flops = fwd.attention_forward + 2.0 * tokens * params.attention;
      break;
  }
  return r;
}

double remat_saved_width(const ModelConfig& m, Remat policy, double k) {
  const double d = m.d_model, f = m.is_moe() ? m.expert_d_ff : m.d_ff;
  const double mlp_in = (m.mlp == MlpKind::gated ? 2.0 : 1.0) * f;
  switch (policy) {
    case Remat::none:
      return 20.0 * d;  // scaling-book/transformers, "≈20 intermediates per layer"
    case Remat::block:
      return d;
    case Remat::big_matmuls:
      return m.heads * m.qk_head_dim() + m.kv_heads * (m.qk_head_dim() + m.v_head_dim()) + d + mlp_in + d;
    case Remat::mlp_matmuls:
      return d + mlp_in;
    case Remat::checkpoints:
      return k * d;
    case Remat::selective:
      return 20.0 * d;  // Korthikanti et al. 2022 §4.2: everything kept but the S x S scores
  }
  return 20.0 * d;
}

double remat_activation_bytes(const ModelConfig& m, Remat policy, double tokens, double k, Dtype act) {
  return bytes_per_element(act) * tokens * remat_saved_width(m, policy, k) * m.layers;
}

double attention_scores_saved_bytes_per_token(const AttentionImpl& a, Remat remat, double heads, double keys,
                                              Dtype act) {
  if (a.kernel != AttentionKernel::materialized || remat != Remat::none) return 0;
  const double per_score = bytes_per_element(act) * (a.dropout ? 2.0 : 1.0) + (a.dropout ? 1.0 : 0.0);
  return heads * keys * per_score;
}

double dropout_masks_saved_bytes_per_token(const AttentionImpl& a, Remat remat, double width) {
  const bool keeps_elementwise_inputs =
      remat == Remat::none || remat == Remat::big_matmuls || remat == Remat::selective;
  return a.dropout && keeps_elementwise_inputs ? 2.0 * width : 0.0;
}

}  // namespace scalescope
