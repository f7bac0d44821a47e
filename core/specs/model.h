// A Transformer's shape in the book's symbols (its notation, jax-ml.github.io/scaling-book): L, D, F, N, K, H, V, E, k;
// and what the book's symbols leave out but today's models have (docs/design.md "Models are described exactly"):
// multi-head latent attention (DeepSeek-V2 §2.1), per-layer kinds (dense or MoE MLPs, full, sliding-window, chunked or
// linear attention), multi-token prediction modules (DeepSeek-V3 §2.2) and gated attention outputs (Qwen3-Next,
// Qwen3.5).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "io/diagnostics.h"
#include "io/dtype.h"
#include "io/json_reader.h"
#include "specs/layer_pattern.h"

namespace scalescope {

enum class MlpKind { gated, plain };

// Multi-head latent attention (DeepSeek-V2 §2.1.2, DeepSeek-V3): K and V are up-projected per head from one
// compressed latent of kv_lora_rank values per token, which (with one shared RoPE key of qk_rope_head_dim) is all
// the KV cache holds; the query goes through a low-rank q_lora_rank bottleneck (0: a full-rank projection).
struct LatentAttention {
  double q_lora_rank = 0;
  double kv_lora_rank = 0;  // 0: the model has no latent attention
  double qk_nope_head_dim = 0, qk_rope_head_dim = 0, v_head_dim = 0;
};

// Linear attention: a recurrent layer whose state replaces the KV cache. Each value head keeps a key_head_dim x
// value_head_dim state, and a short causal convolution keeps the last conv_kernel - 1 inputs of q, k and v. Queries
// and keys have key_heads heads, shared by value_heads / key_heads value heads each (as GQA shares K and V).
//  - Gated DeltaNet (Yang, Kautz and Hatamizadeh 2024, arXiv 2412.06464): Qwen3-Next and Qwen3.5, on three of every
//    four layers.
//  - Mamba-2 (Dao and Gu 2024, "Transformers are SSMs", arXiv 2405.21060): Nemotron-H and Nemotron 3. Its state
//    space dual is linear attention with C as the query, B as the key and x as the value: key_heads are its B/C
//    groups (n_groups), key_head_dim its state size (d_state), value_heads its heads and value_head_dim their
//    width (d_inner = value_heads x value_head_dim).
//  - Kimi Delta Attention (KDA; Kimi Linear, arXiv 2510.26692): Gated DeltaNet with a decay per key channel, not per
//    head. Its q, k and v have projections of their own, and its decay and output gate come from low-rank
//    projections through value_head_dim (flash-linear-attention's KimiDeltaAttention).
enum class LinearKind : unsigned char { gated_deltanet, mamba2, kda };
const char* linear_kind_name(LinearKind kind);  // "gated_deltanet", "mamba2", "kda": the schema's names
struct LinearAttention {
  LinearKind kind = LinearKind::gated_deltanet;
  double key_heads = 0, value_heads = 0;  // value_heads 0: the model has no linear layers
  double key_head_dim = 0, value_head_dim = 0;
  double conv_kernel = 0;
  // Tokens per chunk of the chunked kernel (prefill, training): within a chunk it runs like attention, across
  // chunks it carries the state. flash-linear-attention's chunk_gated_delta_rule fixes 64; Mamba-2's
  // mamba_chunk_scan_combined takes the config's chunk_size (mamba_ssm's default 256).
  double chunk_tokens = 64;
  Dtype state_dtype = Dtype::fp32;  // the recurrent state (Qwen3.5's config: mamba_ssm_dtype float32)

  double qk_width() const { return key_heads * key_head_dim; }  // one of q or k, all heads
  double v_width() const { return value_heads * value_head_dim; }
  double conv_channels() const { return 2.0 * qk_width() + v_width(); }  // q, k and v go through the convolution
  // The input projection's outputs: q, k, v and the output gate z, then per value head Gated DeltaNet's decay and
  // write strength, or Mamba-2's one step size dt. KDA: q, k, v, the write strength per head, and the low-rank
  // first halves of its decay and its output gate (value_head_dim wide each).
  double in_projection_width() const {
    if (kind == LinearKind::kda) return 2.0 * qk_width() + v_width() + value_heads + 2.0 * value_head_dim;
    return 2.0 * qk_width() + 2.0 * v_width() + (kind == LinearKind::mamba2 ? 1.0 : 2.0) * value_heads;
  }
  // KDA's low-rank second halves: from value_head_dim up to the decay of every key channel and the output gate of
  // every value channel (0 for the other kinds).
  double gate_up_width() const { return kind == LinearKind::kda ? qk_width() + v_width() : 0.0; }
};

// DeepSeek Sparse Attention (DeepSeek-V3.2-Exp tech report, 2025; GLM-5): a lightning indexer scores every cached
// token with index_heads small fp8 heads of index_head_dim (its own key cache: one index_head_dim key per token per
// layer), and the layer's attention then reads only the index_topk best keys. The cache still holds every token.
struct SparseAttention {
  double index_heads = 0, index_head_dim = 0;
  double index_topk = 0;  // 0: the model's attention is dense
};

// Gemma 4's full-attention ("global") layers beside its sliding ones: their own head width and KV heads, and K
// equal to V (attention_k_eq_v: one projection gives both, though the cache keeps K after RoPE and V apart).
struct GlobalAttention {
  double head_dim = 0;  // 0: full layers have the model's head_dim and kv_heads
  double kv_heads = 0;
  bool k_eq_v = false;
};

// One softmax-attention layer's head shape (standard attention; latent attention has its own, in `mla`).
struct HeadShape {
  double kv_heads, head_dim;
  bool k_eq_v;  // V is K's projection: no separate V weights
};

struct ModelConfig {
  std::string id, name;
  double layers = 0;    // L
  double d_model = 0;   // D
  double d_ff = 0;      // F of a dense MLP layer
  double heads = 0;     // N
  double kv_heads = 0;  // K (MLA: N, each head has its own up-projected K and V)
  double head_dim = 0;  // H (MLA: v_head_dim, the width of one head's values)
  double vocab = 0;     // V
  bool tied_embeddings = false;
  MlpKind mlp = MlpKind::gated;
  double experts = 0;         // E routed experts per MoE layer; 0 = dense model
  double active_experts = 0;  // k
  double shared_experts = 0;
  double expert_d_ff = 0;  // F of one expert
  // Latent MoE (Nemotron 3's moe_latent_size): the routed experts read and write this width, projected down from D
  // before the dispatch and back up after the combine; the router and the shared experts stay at D. 0: none.
  double expert_latent_dim = 0;
  double dense_layers = 0;  // leading dense layers of an MoE model
  LatentAttention mla;
  LinearAttention linear;
  SparseAttention sparse;  // applies to the softmax layers of full span (DeepSeek-V3.2, GLM-5: every layer)
  GlobalAttention global;  // the full layers' own head shape (Gemma 4)
  // Softmax-attention layers gate their output by a sigmoid of another query-sized projection of the input
  // (Qwen3-Next and Qwen3.5's attn_output_gate): the query projection is twice as wide.
  bool attention_output_gate = false;
  double sliding_window = 0;   // keys a sliding-window layer attends to (its own token included); 0: none
  double attention_chunk = 0;  // tokens per chunk of a chunked-attention layer (Llama 4); 0: none
  double mtp_layers = 0;       // multi-token prediction modules (DeepSeek-V3: 1), each a layer and a projection
  // The dtype its published checkpoint stores the weights in (DeepSeek-V3: fp8, gpt-oss: fp4 experts): a serving
  // query's weights dtype when it gives none. Empty: bf16, the dtype the book serves in.
  std::optional<Dtype> weights_dtype;
  // The cyclic patterns the model was given (empty: the defaults), and every layer's kind from them.
  std::vector<MlpLayer> mlp_pattern;
  std::vector<AttentionSpan> attention_pattern;
  LayerPattern pattern;

  bool is_moe() const { return experts > 0; }
  // The width routed experts read and write, dispatched between ranks: the latent where there is one, else D.
  double expert_io_dim() const { return expert_latent_dim > 0 ? expert_latent_dim : d_model; }
  // One routed expert's weights, one shared expert's, and an MoE layer's latent down and up projections.
  double routed_expert_params() const { return mlp_matrices() * expert_io_dim() * expert_d_ff; }
  double shared_expert_params() const { return mlp_matrices() * d_model * expert_d_ff; }
  double latent_projection_params() const { return 2.0 * d_model * expert_latent_dim; }
  bool is_mla() const { return mla.kv_lora_rank > 0; }
  bool has_linear_attention() const { return linear.value_heads > 0; }
  bool has_sparse_attention() const { return sparse.index_topk > 0; }
  // The head shape of a softmax layer of `span`: Gemma 4's full layers their own, every other layer the model's.
  HeadShape head_shape(AttentionSpan span) const {
    if (span == AttentionSpan::full && global.head_dim > 0) return {global.kv_heads, global.head_dim, global.k_eq_v};
    return {kv_heads, head_dim, false};
  }
  double moe_layers() const { return pattern.moe_layers; }
  double dense_mlp_layers() const { return pattern.dense_layers; }
  // The attention (or mixer) and MLP blocks the layers hold: two a layer, one in a layer without an MLP. Each has
  // its norm and, under TP, its activation collectives.
  double blocks() const { return 2.0 * layers - pattern.no_mlp_layers; }
  double mlp_matrices() const { return mlp == MlpKind::gated ? 3.0 : 2.0; }
  // Width of one head's query and key (MLA: the non-rotary and rotary parts), and of its value.
  double qk_head_dim() const { return is_mla() ? mla.qk_nope_head_dim + mla.qk_rope_head_dim : head_dim; }
  double v_head_dim() const { return is_mla() ? mla.v_head_dim : head_dim; }
};

// Parses a model object: a preset file (`require_sources`), or a scenario's inline model / preset + overrides.
// Also checks the shape makes sense (heads divisible by kv heads, active <= routed experts, MLA ranks, patterns
// that name their windows, ...).
ModelConfig parse_model(const Json& node, const std::string& path, bool require_sources, Diagnostics& diagnostics);

}  // namespace scalescope
