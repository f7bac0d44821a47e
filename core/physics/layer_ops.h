// Every op of one Transformer layer on one chip, with its FLOPs and HBM bytes (the calibrated fidelity's per-op
// accounting, after Korthikanti et al. 2022 "Reducing Activation Recomputation in Large Transformer Models" and
// Calculon's layer lists; FLOPs follow jax-ml.github.io/scaling-book/transformers exactly, so the matmuls add up to the
// book's 6ND). A layer is one of the model's kinds (specs/layer_pattern.h): dense or MoE, full, sliding-window, chunked
// or linear attention; standard or latent attention (MLA, DeepSeek-V2 §2.1.2: expanded for training and prefill,
// absorbed for decode), or a Gated DeltaNet (chunked for training and prefill, recurrent for decode); a sparse layer
// adds its lightning indexer (DeepSeek-V3.2). Allocation-free: a fixed array of ops per layer.
#pragma once
#include <array>

#include "io/dtype.h"
#include "physics/kernels.h"
#include "physics/transformer.h"
#include "specs/model.h"

namespace scalescope {

enum class OpKind { matmul, attention, elementwise };

// An attention op's shape as its kernel sees it (physics/kernels.h): the (sequence, head) pairs its query tiles run
// over, the keys each query attends to, the heads' widths.
struct AttentionDims {
  double sequences, query_len, heads, kv_heads, qk_dim, v_dim, mean_keys, max_keys;
  double window;  // a sliding window's keys (0: none): a causal query tile then spans its window and its own rows
  bool causal;
};

// The flash-attention kernel's shape for an attention op (its dtype and fused preprocessing left to the caller).
inline FlashAttentionShape flash_attention_shape(const AttentionDims& d) {
  FlashAttentionShape a;
  a.sequences = d.sequences;
  a.heads = d.heads;
  a.kv_heads = d.kv_heads;
  a.query_len = d.query_len;
  a.mean_keys = d.mean_keys;
  a.max_keys = d.max_keys;
  a.causal = d.causal;
  a.window = d.window;
  a.qk_head_dim = d.qk_dim;
  a.v_head_dim = d.v_dim;
  return a;
}

// What a decode attention op reads of each cached token on one chip: its local KV heads' keys and values, or latent
// attention's whole latent, shared by every head (DeepSeek-V2 §2.1: the absorbed decode reads the compressed cache).
struct DecodeKvRead {
  double heads, values_per_head;
};
inline DecodeKvRead decode_kv_read(const ModelConfig& m, const AttentionDims& d) {
  if (m.is_mla()) return {1.0, kv_values_per_token_per_layer(m)};
  return {d.kv_heads, d.qk_dim + d.v_dim};
}

// Plain data without default member values, so that a LayerOps (room for every op of a layer) costs nothing to
// create: the list writes each op whole as it adds it.
struct LayerOp {
  const char* name;
  OpKind kind;
  double m, k, n;  // a matmul [m,k] x [k,n] (per group)
  double groups;   // independent matmuls of that shape (the experts on this chip)
  double flops;    // forward FLOPs on this chip
  double bytes;    // forward HBM bytes on this chip: inputs read, outputs written, weights read
  bool linear;     // a weight matmul: runs in the training precision's matmul dtype (fp8 ...)
  bool attention_block;
  bool experts;             // a routed expert's grouped matmul (or its activation)
  bool routing;             // a permutation of the k copies around the dispatch and combine (gather / scatter)
  bool replicated;          // run whole on every TP rank (MLA's down-projections): the model counts it once
  bool reads_cache;         // in decode its HBM bytes are cache reads, the KV share: a linear layer's state (read and
                            // written back), a sparse layer's index keys
  bool fp8_serving;         // the serving engines run it in fp8 on a chip that has it (the sparse indexer's scores)
  AttentionDims attention;  // an attention op's shape (zeros for the others)
};

constexpr int kMaxLayerOps = 28;
struct LayerOps {
  std::array<LayerOp, kMaxLayerOps> op;  // the first `count` are set
  int count = 0;
};

// The shape one chip sees for one microbatch.
struct LayerShape {
  double tokens = 0;   // tokens of the microbatch on this model replica shard (after DP, FSDP, EP and CP)
  double seq_len = 0;  // full sequence: the keys each query may attend to
  bool causal = true;
  bool at_end = false;            // decode: the tokens are the last of `seq_len` keys (MLA then runs absorbed)
  double tensor = 1;              // TP degree: heads, d_ff and the vocabulary split over it
  bool sequence_parallel = true;  // norms and residuals on tokens / TP instead of all tokens
  double expert = 1;         // EP degree: routed experts split over it (with parallel folding, over TP x DP pieces)
  double expert_tensor = 0;  // ETP: the experts' d_ff split over it (0: the TP degree, Megatron's default)
  // Rows the busiest expert rank processes over the mean (load imbalance, capped by dropping at the capacity, or
  // the capacity itself when experts pad to it): the slowest rank sets the pace.
  double expert_load = 1;
  Dtype activations = Dtype::bf16;
  Dtype weights = Dtype::bf16;  // bytes of a weight read by a linear matmul
  AttentionImpl attention;      // flash or materialized scores, dropout (training only)

  double etp() const { return expert_tensor > 0 ? expert_tensor : tensor; }
};

// HBM bytes of `groups` matmuls [m,k] x [k,n]: both operands read (a linear layer's weight in the shape's weight
// dtype) and the result written.
double matmul_bytes(double groups, double m, double k, double n, bool linear, const LayerShape& s);

// Routed-expert rows on this chip: the tokens of the EP x ETP group, k copies each, spread over EP x ETP chips
// (each expert's rows on all ETP chips of its slice), times the busiest rank's load.
double expert_rows(const ModelConfig& m, const LayerShape& s);

// One layer's forward ops: attention block (norm, QKV or MLA's projections, rotary, attention, output projection,
// residual) and the MLP block (norm, up/gate, activation, down, residual), or for an MoE layer the router and its
// top-k, the permutations that group tokens by expert around dispatch and combine, the experts (grouped matmuls of
// tokens x k x EP / E rows each) and the shared experts; a layer of MLP kind none stops after its attention block.
// `kind` is layer_kind(mlp, span).
LayerOps layer_ops(const ModelConfig& m, int kind, const LayerShape& s);

// The ops outside the layers, once per microbatch: embedding lookup (first pipeline stage), final norm, logits
// and the softmax cross-entropy in fp32 (last stage). `first` and `last` select the stage's share.
LayerOps head_ops(const ModelConfig& m, const LayerShape& s, bool first, bool last);

// Backward work relative to forward: a matmul's dL/dX and dL/dW are two matmuls of its size (scaling-book/transformers:
// 4NPM); flash attention's backward recomputes the scores and runs four matmuls (2.5x the forward's two: Dao 2023,
// FlashAttention-2 §3.1), while a materialized kernel kept the probabilities and runs only the four (dV, dP, dQ,
// dK: 2x); an elementwise op reads its input and the output's gradient and writes one gradient.
constexpr double backward_flops_factor(OpKind k, AttentionKernel kernel = AttentionKernel::flash) {
  if (k != OpKind::attention) return 2.0;
  return kernel == AttentionKernel::flash ? 2.5 : 2.0;
}
constexpr double backward_bytes_factor(OpKind k) { return k == OpKind::elementwise ? 1.5 : 2.0; }

// Whether `remat` recomputes op `o` in the backward pass: block and checkpoints redo the whole layer; big_matmuls
// saves the matmul outputs and redoes the attention core and the elementwise ops between them; mlp_matmuls saves the
// MLP matmuls' outputs and redoes the attention block and the MLP's elementwise ops.
bool recomputed(const LayerOp& o, Remat remat);

// Bytes one layer of `kind` (layer_kind(mlp, span)) saves for the backward pass on one chip, per Korthikanti et al.
// (table 2) generalised to GQA, MLA, linear attention, gated MLPs and layers without an MLP; norms, residuals and
// their dropout masks divided by TP under sequence parallelism. A flash kernel keeps no s^2 term; a materialized one
// keeps the scores of every head over the whole sequence.
double saved_activation_bytes(const ModelConfig& m, int kind, const LayerShape& s, Remat remat,
                              double checkpoints_per_layer);

}  // namespace scalescope
