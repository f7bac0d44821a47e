// Every op of one Transformer layer on one chip, with its FLOPs and HBM bytes (the calibrated fidelity's per-op
// accounting, after Korthikanti et al. 2022 "Reducing Activation Recomputation in Large Transformer Models" and
// Calculon's layer lists; FLOPs follow spec/book.md §2.7 exactly, so the matmuls add up to the book's 6ND).
// Allocation-free: a fixed array of ops per layer.
#pragma once
#include <array>

#include "io/dtype.h"
#include "physics/transformer.h"
#include "specs/model.h"

namespace scalescope {

enum class OpKind { matmul, attention, elementwise };

struct LayerOp {
  const char* name = "";
  OpKind kind = OpKind::elementwise;
  double m = 0, k = 0, n = 0;  // a matmul [m,k] x [k,n] (per group)
  double groups = 1;           // independent matmuls of that shape (the experts on this chip)
  double flops = 0;            // forward FLOPs on this chip
  double bytes = 0;            // forward HBM bytes on this chip: inputs read, outputs written, weights read
  bool linear = false;         // a weight matmul: runs in the training precision's matmul dtype (fp8 ...)
  bool attention_block = false;
};

constexpr int kMaxLayerOps = 20;
struct LayerOps {
  std::array<LayerOp, kMaxLayerOps> op{};
  int count = 0;
};

// The shape one chip sees for one microbatch.
struct LayerShape {
  double tokens = 0;       // tokens of the microbatch on this model replica shard (after DP, FSDP, EP and CP)
  double seq_len = 0;      // full sequence: the keys each query may attend to
  bool causal = true;
  double tensor = 1;       // TP degree: heads, d_ff, experts' d_ff and the vocabulary split over it
  bool sequence_parallel = true;  // norms and residuals on tokens / TP instead of all tokens
  double expert = 1;       // EP degree: routed experts split over it
  Dtype activations = Dtype::bf16;
  Dtype weights = Dtype::bf16;     // bytes of a weight read by a linear matmul
};

// One layer's forward ops: attention block (norm, QKV, rotary, attention, output projection, residual) and the
// MLP block (norm, up/gate, activation, down, residual), or for an MoE layer the router, dispatch, experts (grouped
// matmuls of tokens x k x EP / E rows each), shared experts and combine (a dense model's layers are all dense).
LayerOps layer_ops(const ModelConfig& m, bool moe_layer, const LayerShape& s);

// The ops outside the layers, once per microbatch: embedding lookup (first pipeline stage), final norm, logits
// and the softmax cross-entropy in fp32 (last stage). `first` and `last` select the stage's share.
LayerOps head_ops(const ModelConfig& m, const LayerShape& s, bool first, bool last);

// Backward work relative to forward: a matmul's dL/dX and dL/dW are two matmuls of its size (§2.7: 4NPM); flash
// attention's backward recomputes the scores and runs four matmuls (2.5x the forward's two: Dao 2023,
// FlashAttention-2 §3.1); an elementwise op reads its input and the output's gradient and writes one gradient.
constexpr double backward_flops_factor(OpKind k) { return k == OpKind::attention ? 2.5 : 2.0; }
constexpr double backward_bytes_factor(OpKind k) { return k == OpKind::elementwise ? 1.5 : 2.0; }

// Whether `remat` recomputes op `o` in the backward pass: block and checkpoints redo the whole layer; big_matmuls
// saves the matmul outputs and redoes the attention core and the elementwise ops between them; mlp_matmuls saves the
// MLP matmuls' outputs and redoes the attention block and the MLP's elementwise ops.
bool recomputed(const LayerOp& o, Remat remat);

// Bytes one layer saves for the backward pass on one chip, per Korthikanti et al. (table 2, with flash attention:
// no s^2 term) generalised to GQA and gated MLPs; norms and residuals divided by TP under sequence parallelism.
double saved_activation_bytes(const ModelConfig& m, bool moe_layer, const LayerShape& s, Remat remat,
                              double checkpoints_per_layer);

}  // namespace scalescope
