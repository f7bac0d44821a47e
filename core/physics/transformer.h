// Transformer accounting (jax-ml.github.io/scaling-book/transformers and .../training): parameters per component, FLOPs
// per token, KV-cache bytes, activation memory and recompute FLOPs per remat policy, utilisation from chip-hours.
// Layers are counted by kind (dense or MoE MLP; full, sliding-window or chunked attention) and attention is standard
// (MHA/GQA) or latent (MLA, DeepSeek-V2 §2.1). Allocation-free.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/dtype.h"
#include "specs/model.h"

namespace scalescope {

struct ParamCounts {
  double mlp = 0;         // dense-layer MLPs plus every expert (routed + shared)
  double mlp_active = 0;  // dense-layer MLPs plus the k routed + shared experts a token uses
  double attention = 0;   // Q, K, V, O projections: L * 2D(N+K)H (MLA: its down-, up- and output projections)
  double router = 0;      // MoE gate: D x E per MoE layer (not in the book's formulas; tiny)
  double embeddings = 0;  // V D (tied) or 2 V D (untied)
  double norms = 0;       // 2 D per layer + D final (the book writes + D per layer; negligible either way)
  double total = 0;
  double active = 0;  // per token (scaling-book/transformers, MoE: FLOPs scale with k)
  // Multi-token prediction modules (DeepSeek-V3 §2.2: each a layer, two norms and a 2D x D projection, sharing the
  // embedding and the output head): not in `total`, as the model's own count leaves them out (671e9).
  double mtp = 0, mtp_active = 0;
};

// scaling-book/transformers: gated MLP 3DF, plain 2DF; QKVO 2D(N+K)H; embeddings DV tied / 2DV untied; MoE 3·E·D·F per
// layer.
ParamCounts count_params(const ModelConfig& m);
// One layer's attention projections, by its span: a softmax layer's Q, K and V (V none when it is K) and O for its
// head shape (MLA: q down and up, or a full-rank q; kv down to the latent and its RoPE key; kv up to every head's K
// and V; the output projection), a gated output's second query-sized projection and a sparse layer's indexer; a
// linear-attention layer's own (linear_attention_params_per_layer).
double attention_params_per_layer(const ModelConfig& m, AttentionSpan span);
// One linear-attention layer's parameters: the input projection (D x in_projection_width), the causal
// convolution's taps (channels x kernel) and the output projection (v D), plus per kind
//  - Gated DeltaNet (transformers' Qwen3NextGatedDeltaNet): the decay's A and dt bias (2 Nv), the per-head gated
//    norm (Hv);
//  - Mamba-2 (transformers' NemotronHMamba2Mixer): the convolution's bias (channels), A, D and dt bias (3 Nv), the
//    gated norm over d_inner (v).
double linear_attention_params_per_layer(const ModelConfig& m);

// FLOPs one token costs in one linear-attention layer's recurrence (no book formula: the book predates these
// layers), with C the chunk (chunk_tokens), dk and dv the head widths:
//  - Gated DeltaNet, per value head. Prefill and training (chunked form, Yang et al. 2024 §3.3): within the chunk
//    the scores Q K^T and K K^T, the WY products of K and V, and the scores times the values, 2C (3 dk + 2 dv);
//    across chunks the query, the WY keys and the state update each multiply the dk x dv state, 6 dk dv. Decode
//    (recurrent form): decay the state, read it with k, write the update, read it with q: 7 dk dv.
//  - Mamba-2 (the SSD algorithm, Dao and Gu 2024 §6). Prefill: per group the chunk's C B^T scores, 2C dk; per head
//    the scores times x, 2C dv, the chunk's state B^T x and the output from the carried state C h, 4 dk dv. Decode:
//    decay the state and add the x B^T outer product, then read it with C: 5 dk dv per head.
double linear_recurrence_flops_per_token(const ModelConfig& m, bool decode);
// The same plus the causal convolution, 2 x kernel per channel.
double linear_attention_flops_per_token(const ModelConfig& m, bool decode);
// Bytes one sequence's linear layers keep whatever its length: every value head's dk x dv state (state_dtype) and
// the convolution's last kernel - 1 inputs of q, k and v (bf16, the activations').
double recurrent_state_bytes(const ModelConfig& m);

// DeepSeek Sparse Attention's lightning indexer in one layer (DeepSeek-V3.2-Exp, deepseek-ai/DeepSeek-V3.2-Exp
// inference/model.py, Indexer): the index queries from the query latent (MLA's q_lora_rank, else the input),
// index_heads x index_head_dim; one index key per token from the input, with its LayerNorm; the heads' weights
// from the input.
double sparse_indexer_params_per_layer(const ModelConfig& m);
// Bytes one token adds to one layer's index-key cache: index_head_dim fp8 values and one fp32 scale per 128 of them
// (the same Indexer: k_cache in float8_e4m3fn, k_scale_cache in float32 per 128-value block).
double sparse_index_bytes_per_token_per_layer(const ModelConfig& m);

// Which FLOPs a count includes. full: every matmul the model runs (the embedding lookup is a gather, not a
// matmul) plus the attention dot products (scaling-book/transformers). six_nd: the book's 6 N D account
// (scaling-book/transformers, training FLOPs), 2 N_active per token forward, every parameter counted once and no
// attention.
enum class FlopAccount { full, six_nd };

// Keys one query attends to on average in a layer of `span` over sequences of `seq_len` tokens: causal S/2 over the
// whole sequence (scaling-book/transformers), a sliding window's last W (W - W^2 / 2S once S > W), a chunk's earlier
// tokens; without the mask every key of the window or chunk; none in a linear layer, which reads its state instead.
// Sparse attention attends to its index_topk selected keys, counted as a window of that many (only the count matters
// here). `at_end`: one query at the end of `seq_len` keys (a decode step).
double mean_keys_per_query(const ModelConfig& m, AttentionSpan span, double seq_len, bool causal, bool at_end = false);
// Keys one query sees when it may see every earlier one: the whole sequence at its end or without the mask, half of
// it on average under the causal mask (scaling-book/transformers).
constexpr double every_key_per_query(double seq_len, bool causal, bool at_end) {
  return at_end || !causal ? seq_len : seq_len / 2.0;
}

// FLOPs one token costs in one layer of `span` beyond its weight matmuls: QK^T and AV over the keys its span allows
// (scaling-book/transformers: 4 S_avg N H, the head width the mean of the query-key and value widths); a sparse layer's
// indexer scoring every earlier key, 2 index_heads index_head_dim each (the book has no formula: DeepSeek-V3.2-Exp
// §2.1); a linear layer's recurrence and convolution (linear_attention_flops_per_token).
double mixing_flops_per_token(const ModelConfig& m, AttentionSpan span, double seq_len, bool causal,
                              bool at_end = false);

// FLOPs for `tokens` tokens of sequences of length `seq_len` (scaling-book/transformers). Matmul FLOPs exclude the
// embedding lookup, which is a gather, and include the unembedding: 2 x active non-embedding params + 2 D V per token
// forward.
struct FlopCounts {
  double matmul_forward = 0;     // 2 * tokens * (active params in matmuls)
  double attention_forward = 0;  // QK^T and AV: 2 * tokens * S_avg * N * (H_qk + H_v) per layer (S_avg per span);
                                 // a linear layer's recurrence and convolution (linear_attention_flops_per_token)
  double mtp_forward = 0;        // `mtp_layers` prediction modules: a layer, the projection and another logits
  double forward = 0;
  double training = 0;            // 3 x forward (forward + dL/dX + dL/dW, scaling-book/transformers, "6NPM")
  double attention_fraction = 0;  // attention / (attention + matmul), forward
};
FlopCounts count_flops(const ModelConfig& m, double tokens, double seq_len, bool causal,
                       FlopAccount account = FlopAccount::full, double mtp_layers = 0);
// The same with the model's parameter counts at hand (a step evaluation counts them once).
FlopCounts count_flops(const ModelConfig& m, const ParamCounts& params, double tokens, double seq_len, bool causal,
                       FlopAccount account, double mtp_layers);

// scaling-book/transformers, KV cache. Values one layer of `span` caches per token: K and V, 2 K H of its head shape
// (Gemma 4's full layers their own); MLA its latent and shared RoPE key, kv_lora_rank + qk_rope_head_dim
// (DeepSeek-V3: 576); a linear layer none. Without a span: the model's own head shape (every layer's but Gemma 4's
// full ones).
double kv_values_per_token_per_layer(const ModelConfig& m, AttentionSpan span);
double kv_values_per_token_per_layer(const ModelConfig& m);
// Bytes one token adds to every softmax-attention layer's cache (while the context is shorter than every window).
double kv_bytes_per_token(const ModelConfig& m, Dtype kv);
// Bytes one sequence's cache holds at `context` tokens: full layers every token, sliding-window layers the last
// W, chunked layers the current chunk (at most C), and linear layers their fixed state (recurrent_state_bytes); a
// sparse model's index keys beside its full layers' cache.
double kv_cache_bytes(const ModelConfig& m, Dtype kv, double context);
// Bytes a decode step reads of that cache: all of it (scaling-book/inference), except that sparse attention reads every
// index key but only its index_topk selected entries of the cache itself.
double kv_cache_read_bytes(const ModelConfig& m, Dtype kv, double context);

// scaling-book/transformers, self-attention arithmetic intensity with GQA group G = N/K, T queries against S keys
// (bf16): FLOPs 4BTSNH, bytes 4BTNH + 4BSKH => I = T S G / (T G + S). MLA in the absorbed form (decode: scores and
// values in the latent space, DeepSeek-V2 §2.1.2) does 2 T S N (2 r + r_rope) FLOPs on S (r + r_rope) cached values.
double attention_intensity_flops_per_byte(const ModelConfig& m, double t, double s);
double absorbed_attention_intensity_flops_per_byte(const ModelConfig& m, double t, double s);

// scaling-book/transformers, Question 5: the sequence length at which self-attention's FLOPs (4 S_avg N H per token per
// layer, S_avg = T/2 when causal) equal the QKVO projections' 4 D (N + K) H (T = 2D for MHA, full attention), or all of
// a layer's matmuls, 2 x its parameters (T = 8D for F = 4D MHA). Causal masking doubles both.
// Where attention's FLOPs per token equal the QKVO projections' or all the matmuls' (sliding and chunked layers over
// their windows); nullopt when the windows keep attention below them at any context.
std::optional<double> attention_equals_qkvo_seq_len(const ModelConfig& m, bool causal);
std::optional<double> attention_equals_matmuls_seq_len(const ModelConfig& m, bool causal);

// scaling-book/transformers, remat policies (activation checkpointing).
// selective: Korthikanti et al. 2022 §4.2, the attention core (QK^T, softmax, dropout, AV) recomputed, all else kept.
enum class Remat { none, block, big_matmuls, mlp_matmuls, checkpoints, selective };
std::optional<Remat> parse_remat(std::string_view name);
std::string_view remat_name(Remat r);
// Every policy's name, in the enum's order: the values a reader accepts.
const std::vector<std::string>& remat_names();
// The policies a plan may be given without more settings (all but `checkpoints`, whose count the caller chooses):
// what plan_search searches by default and nearest_fit tries.
const std::vector<Remat>& settable_remats();
const std::vector<std::string>& settable_remat_names();

struct RematCost {
  double saved_width_per_layer = 0;  // sum of saved tensor widths per token per layer (elements)
  double activation_bytes = 0;       // bytes * tokens * width * L
  double extra_forward_flops = 0;    // recomputed FLOPs in the backward pass
};

// none: ~20 intermediates of width D per layer (scaling-book/transformers); block: layer input only (width D, one extra
// forward); big_matmuls: the outputs of Q, K, V, O and the MLP matmuls (attention recomputed: 4 B T^2 N H per layer);
// mlp_matmuls: outputs of the MLP matmuls, D + 2F (scaling-book/training, Question 2); checkpoints: k tensors of width
// D (scaling-book/training). Recompute FLOPs are counted in `account` (six_nd: block remat takes 6ND to ~8ND,
// scaling-book/transformers).
RematCost remat_cost(const ModelConfig& m, Remat policy, double tokens, double seq_len, double checkpoints_per_layer,
                     Dtype activations, bool causal, FlopAccount account = FlopAccount::full);
RematCost remat_cost(const ModelConfig& m, const ParamCounts& params, Remat policy, double tokens, double seq_len,
                     double checkpoints_per_layer, Dtype activations, bool causal, FlopAccount account);
// The same with the forward's FLOPs of these tokens given (count_flops without MTP modules): a plan search counts
// them once for every plan of its space.
RematCost remat_cost(const ModelConfig& m, const ParamCounts& params, const FlopCounts& forward, Remat policy,
                     double tokens, double checkpoints_per_layer, Dtype activations);
// A policy's saved width per token per layer (elements), and its saved bytes over `tokens` and every layer.
double remat_saved_width(const ModelConfig& m, Remat policy, double checkpoints_per_layer);
double remat_activation_bytes(const ModelConfig& m, Remat policy, double tokens, double checkpoints_per_layer,
                              Dtype activations);

// How attention and dropout run, for the saved activations (Korthikanti et al. 2022, Table 2). The default is
// today's: a fused flash kernel that keeps no S x S scores, and no dropout. Runs of the GPT-3 / Megatron era kept
// the softmax probabilities and dropout masks, which the setting lets a scenario express.
enum class AttentionKernel { flash, materialized };
struct AttentionImpl {
  AttentionKernel kernel = AttentionKernel::flash;
  bool dropout = false;  // dropout after attention, after the MLP and (materialized) on the probabilities
};
// Bytes one token keeps per layer beyond the flash, dropout-free count, over `heads` local heads of `keys` keys each
// and `width` residual-stream values: the probabilities (activation dtype) and, with dropout, the dropped copy and
// a 1-byte mask, when `remat` keeps the attention core (their 5 a s^2 b); a 1-byte mask per residual dropout when
// `remat` keeps the layer's elementwise inputs (their 2 s b h). Heads and width are per chip.
double attention_scores_saved_bytes_per_token(const AttentionImpl& a, Remat remat, double heads, double keys,
                                              Dtype act);
double dropout_masks_saved_bytes_per_token(const AttentionImpl& a, Remat remat, double width);

// scaling-book/transformers, Question 7: utilisation = 6 N_active tokens / (chip-hours * 3600 * C).
constexpr double utilisation_from_chip_hours(double active_params, double tokens, double chip_hours,
                                             double peak_flops_per_s) {
  return 6.0 * active_params * tokens / (chip_hours * 3600.0 * peak_flops_per_s);
}

}  // namespace scalescope
