#include "physics/layer_ops.h"

#include <algorithm>

namespace scalescope {

namespace {

struct OpList {
  LayerOps& out;
  bool attention_block = true;

  void add(const char* name, OpKind kind, double flops, double bytes) {
    if (out.count >= kMaxLayerOps) return;
    LayerOp& o = out.op[out.count++];
    o.name = name;
    o.kind = kind;
    o.flops = flops;
    o.bytes = bytes;
    o.attention_block = attention_block;
  }
  // `groups` matmuls [m,k] x [k,n]: 2mkn FLOPs each (§2.1); reads both operands and writes the result.
  void matmul(const char* name, double groups, double m, double k, double n, bool linear, const LayerShape& s) {
    const double a = bytes_per_element(s.activations), w = bytes_per_element(linear ? s.weights : s.activations);
    add(name, OpKind::matmul, groups * 2.0 * m * k * n, groups * (a * m * k + w * k * n + a * m * n));
    LayerOp& o = out.op[out.count - 1];
    o.m = m;
    o.k = k;
    o.n = n;
    o.groups = groups;
    o.linear = linear;
  }
  // An elementwise op over `elements` values that reads `reads` tensors of that size and writes one.
  void elementwise(const char* name, double elements, double reads, double flops_per_element, const LayerShape& s) {
    add(name, OpKind::elementwise, flops_per_element * elements,
        bytes_per_element(s.activations) * elements * (reads + 1.0));
  }
};

// Per-chip heads under TP: query heads split; KV heads split until there are fewer than TP ranks, then replicated.
double local_kv_heads(const ModelConfig& m, double tp) { return std::max(m.kv_heads / tp, 1.0); }

// Norms and residuals run on the sequence-parallel shard of the tokens.
double norm_tokens(const LayerShape& s) { return s.sequence_parallel ? s.tokens / s.tensor : s.tokens; }

void mlp(OpList& ops, const char* up, const char* act, const char* down, double groups, double tokens, double d_ff,
         const ModelConfig& m, const LayerShape& s) {
  const double gate = m.mlp == MlpKind::gated ? 2.0 : 1.0;
  const double f = d_ff / s.tensor;
  ops.matmul(up, groups, tokens, m.d_model, gate * f, true, s);
  ops.elementwise(act, groups * tokens * f, gate, m.mlp == MlpKind::gated ? 6.0 : 8.0, s);  // SiLU x gate, or GeLU
  ops.matmul(down, groups, tokens, f, m.d_model, true, s);
}

}  // namespace

LayerOps layer_ops(const ModelConfig& m, bool moe_layer, const LayerShape& s) {
  LayerOps out;
  moe_layer = moe_layer && m.is_moe();
  OpList ops{out};
  const double b = s.tokens, ts = norm_tokens(s), d = m.d_model, h = m.head_dim;
  const double nq = m.heads / s.tensor, nkv = local_kv_heads(m, s.tensor);
  // Attention block (§2.7: QKVO 2D(N+K)H parameters; QK^T and AV 4 T S N H FLOPs, S/2 keys per query when causal).
  ops.elementwise("attention_norm", ts * d, 1.0, 4.0, s);
  ops.matmul("qkv_projection", 1, b, d, (nq + 2.0 * nkv) * h, true, s);
  ops.elementwise("rotary", b * (nq + nkv) * h, 1.0, 6.0, s);
  const double keys = s.causal ? s.seq_len / 2.0 : s.seq_len;
  ops.add("attention", OpKind::attention, 4.0 * b * keys * nq * h,
          bytes_per_element(s.activations) * b * (2.0 * nq + 2.0 * nkv) * h);
  ops.matmul("output_projection", 1, b, nq * h, d, true, s);
  ops.elementwise("attention_residual", ts * d, 2.0, 1.0, s);
  // MLP block.
  ops.attention_block = false;
  ops.elementwise("mlp_norm", ts * d, 1.0, 4.0, s);
  if (!moe_layer) {
    mlp(ops, "mlp_up", "mlp_activation", "mlp_down", 1, b, m.d_ff, m, s);
  } else {
    // Each token goes to k routed experts: b k copies per chip under balanced routing, over the E / EP experts
    // held here (grouped matmuls of b k EP / E rows each).
    const double copies = b * m.active_experts, local_experts = m.experts / s.expert;
    ops.matmul("router", 1, ts, d, m.experts, false, s);
    ops.elementwise("dispatch", copies * d, 1.0, 0.0, s);
    mlp(ops, "experts_up", "experts_activation", "experts_down", local_experts, copies / local_experts,
        m.expert_d_ff, m, s);
    ops.elementwise("combine", copies * d, 1.0, 2.0, s);
    if (m.shared_experts > 0)
      mlp(ops, "shared_up", "shared_activation", "shared_down", 1, b, m.shared_experts * m.expert_d_ff, m, s);
  }
  ops.elementwise("mlp_residual", ts * d, 2.0, 1.0, s);
  return out;
}

LayerOps head_ops(const ModelConfig& m, const LayerShape& s, bool first, bool last) {
  LayerOps out;
  OpList ops{out};
  ops.attention_block = false;
  const double b = s.tokens, d = m.d_model, v = m.vocab / s.tensor;  // vocabulary-parallel (Megatron)
  if (first) ops.elementwise("embedding", b * d, 1.0, 0.0, s);
  if (last) {
    ops.elementwise("final_norm", norm_tokens(s) * d, 1.0, 4.0, s);
    ops.matmul("logits", 1, b, d, v, false, s);  // frameworks keep the output layer in bf16 under fp8 recipes
    // Softmax cross-entropy upcasts the logits to fp32: max, exp-sum and the loss read them; ~5 FLOPs each.
    ops.add("loss", OpKind::elementwise, 5.0 * b * v, (bytes_per_element(s.activations) + 3.0 * 4.0) * b * v);
  }
  return out;
}

bool recomputed(const LayerOp& o, Remat remat) {
  switch (remat) {
    case Remat::none: return false;
    case Remat::block:
    case Remat::checkpoints: return true;
    case Remat::big_matmuls: return o.kind != OpKind::matmul;
    case Remat::mlp_matmuls: return o.attention_block || o.kind != OpKind::matmul;
  }
  return false;
}

double saved_activation_bytes(const ModelConfig& m, bool moe_layer, const LayerShape& s, Remat remat,
                              double checkpoints_per_layer) {
  const double b = s.tokens, ts = norm_tokens(s), d = m.d_model, h = m.head_dim;
  const double nq = m.heads / s.tensor, nkv = local_kv_heads(m, s.tensor);
  const double gate = m.mlp == MlpKind::gated ? 2.0 : 1.0;
  moe_layer = moe_layer && m.is_moe();
  const double experts = moe_layer ? 1.0 : 0.0;
  // MLP rows and width: an MoE layer's k copies per token through F_e (+ the shared experts on every token).
  const double mlp_rows_x_width = moe_layer ? b * m.active_experts * m.expert_d_ff + b * m.shared_experts * m.expert_d_ff
                                            : b * m.d_ff;
  const double up_out = gate * mlp_rows_x_width / s.tensor, act_out = mlp_rows_x_width / s.tensor;
  const double qkv_out = b * (nq + 2.0 * nkv) * h, attn_out = b * nq * h;
  double elements = 0;
  switch (remat) {
    case Remat::none:  // inputs of both norms and both matmul blocks, q k v, flash's O (+ its row statistics)
      elements = 4.0 * ts * d + qkv_out + attn_out + up_out + act_out + experts * 2.0 * b * m.active_experts * d;
      break;
    case Remat::block: elements = ts * d; break;
    case Remat::checkpoints: elements = checkpoints_per_layer * ts * d; break;
    case Remat::big_matmuls: elements = 3.0 * ts * d + qkv_out + up_out; break;
    case Remat::mlp_matmuls: elements = 2.0 * ts * d + up_out; break;
  }
  return bytes_per_element(s.activations) * elements;
}

}  // namespace scalescope
