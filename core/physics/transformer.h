// Transformer accounting (spec/book.md §2.7, §2.8): parameters per component, FLOPs per token, KV-cache bytes,
// activation memory and recompute FLOPs per remat policy, utilisation from chip-hours. Allocation-free.
#pragma once
#include <optional>
#include <string_view>

#include "io/dtype.h"
#include "specs/model.h"

namespace scalescope {

struct ParamCounts {
  double mlp = 0;              // dense-layer MLPs plus every expert (routed + shared)
  double mlp_active = 0;       // dense-layer MLPs plus the k routed + shared experts a token uses
  double attention = 0;        // Q, K, V, O projections: L * 2D(N+K)H
  double router = 0;           // MoE gate: D x E per MoE layer (not in the book's formulas; tiny)
  double embeddings = 0;       // V D (tied) or 2 V D (untied)
  double norms = 0;            // 2 D per layer + D final (the book writes + D per layer; negligible either way)
  double total = 0;
  double active = 0;           // per token (§2.7 MoE: FLOPs scale with k)
};

// §2.7: gated MLP 3DF, plain 2DF; QKVO 2D(N+K)H; embeddings DV tied / 2DV untied; MoE 3·E·D·F per layer.
ParamCounts count_params(const ModelConfig& m);

// Which FLOPs a count includes. full: every matmul the model runs (the embedding lookup is a gather, not a
// matmul) plus the attention dot products (§2.7). six_nd: the book's 6 N D account (§2.8), 2 N_active per token
// forward, every parameter counted once and no attention.
enum class FlopAccount { full, six_nd };

// FLOPs for `tokens` tokens of sequences of length `seq_len` (§2.7). Matmul FLOPs exclude the embedding lookup,
// which is a gather, and include the unembedding: 2 x active non-embedding params + 2 D V per token forward.
struct FlopCounts {
  double matmul_forward = 0;      // 2 * tokens * (active params in matmuls)
  double attention_forward = 0;   // QK^T and AV: 4 * tokens * S_avg * N * H * L (S_avg = T/2 when causal)
  double forward = 0;
  double training = 0;            // 3 x forward (forward + dL/dX + dL/dW, §2.7 "6NPM")
  double attention_fraction = 0;  // attention / (attention + matmul), forward
};
FlopCounts count_flops(const ModelConfig& m, double tokens, double seq_len, bool causal,
                       FlopAccount account = FlopAccount::full);

// §2.7 KV cache: 2 (K and V) * L * K * H * bytes per token.
constexpr double kv_bytes_per_token(const ModelConfig& m, Dtype kv) {
  return 2.0 * m.layers * m.kv_heads * m.head_dim * bytes_per_element(kv);
}

// §2.7 self-attention arithmetic intensity with GQA group G = N/K, T queries against S keys (bf16):
// FLOPs 4BTSNH, bytes 4BTNH + 4BSKH => I = T S G / (T G + S).
constexpr double attention_intensity_flops_per_byte(const ModelConfig& m, double t, double s) {
  const double g = m.heads / m.kv_heads;
  return t * s * g / (t * g + s);
}

// §2.7 Q5: the sequence length at which self-attention's FLOPs (4 S_avg N H per token per layer, S_avg = T/2 when
// causal) equal the QKVO projections' 4 D (N + K) H (T = 2D for MHA, full attention), or all of a layer's matmuls,
// 2 x its parameters (T = 8D for F = 4D MHA). Causal masking doubles both.
double attention_equals_qkvo_seq_len(const ModelConfig& m, bool causal);
double attention_equals_matmuls_seq_len(const ModelConfig& m, bool causal);

// §2.7 remat policies (activation checkpointing).
enum class Remat { none, block, big_matmuls, mlp_matmuls, checkpoints };
std::optional<Remat> parse_remat(std::string_view name);
std::string_view remat_name(Remat r);
const char* remat_choices();

struct RematCost {
  double saved_width_per_layer = 0;  // sum of saved tensor widths per token per layer (elements)
  double activation_bytes = 0;       // bytes * tokens * width * L
  double extra_forward_flops = 0;    // recomputed FLOPs in the backward pass
};

// none: ~20 intermediates of width D per layer (§2.7); block: layer input only (width D, one extra forward);
// big_matmuls: the outputs of Q, K, V, O and the MLP matmuls (attention recomputed: 4 B T^2 N H per layer);
// mlp_matmuls: outputs of the MLP matmuls, D + 2F (§3.5 LLaMA-2 13B Q2); checkpoints: k tensors of width D (§2.8).
// Recompute FLOPs are counted in `account` (six_nd: block remat takes 6ND to ~8ND, §2.7).
RematCost remat_cost(const ModelConfig& m, Remat policy, double tokens, double seq_len, double checkpoints_per_layer,
                     Dtype activations, bool causal, FlopAccount account = FlopAccount::full);

// §2.8: utilisation = 6 N_active tokens / (chip-hours * 3600 * C).
constexpr double utilisation_from_chip_hours(double active_params, double tokens, double chip_hours,
                                             double peak_flops_per_s) {
  return 6.0 * active_params * tokens / (chip_hours * 3600.0 * peak_flops_per_s);
}

}  // namespace scalescope
