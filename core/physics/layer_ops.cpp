#include "physics/layer_ops.h"

#include <algorithm>

namespace scalescope {

namespace {

struct OpList {
  LayerOps& out;
  bool attention_block = true;

  LayerOp* add(const char* name, OpKind kind, double flops, double bytes) {
    if (out.count >= kMaxLayerOps) return nullptr;
    LayerOp& o = out.op[out.count++];
    o = LayerOp{name, kind, 0, 0, 0, 1, flops, bytes, false, attention_block, false, false, false, false, false, {}};
    return &o;
  }
  // `groups` matmuls [m,k] x [k,n]: 2mkn FLOPs each (scaling-book/roofline).
  LayerOp* matmul(const char* name, double groups, double m, double k, double n, bool linear, const LayerShape& s) {
    LayerOp* o = add(name, OpKind::matmul, groups * 2.0 * m * k * n, matmul_bytes(groups, m, k, n, linear, s));
    if (!o) return nullptr;
    o->m = m;
    o->k = k;
    o->n = n;
    o->groups = groups;
    o->linear = linear;
    return o;
  }
  // An elementwise op over `elements` values that reads `reads` tensors of that size and writes one.
  LayerOp* elementwise(const char* name, double elements, double reads, double flops_per_element, const LayerShape& s) {
    return add(name, OpKind::elementwise, flops_per_element * elements,
               bytes_per_element(s.activations) * elements * (reads + 1.0));
  }
};

// Per-chip heads under TP: query heads split; KV heads split until there are fewer than TP ranks, then replicated.
double local_kv_heads(double kv_heads, double tp) { return std::max(kv_heads / tp, 1.0); }

// The sequences a shape's tokens belong to: one token each in decode, else whole sequences (or one piece of one).
double sequences_of(const LayerShape& s) {
  return s.at_end ? s.tokens : s.tokens / std::max(1.0, std::min(s.tokens, s.seq_len));
}

// Norms and residuals run on the sequence-parallel shard of the tokens.
double norm_tokens(const LayerShape& s) { return s.sequence_parallel ? s.tokens / s.tensor : s.tokens; }

void mlp(OpList& ops, const char* up, const char* act, const char* down, double groups, double tokens, double f,
         double width, const ModelConfig& m, const LayerShape& s, bool experts) {
  const double gate = m.mlp == MlpKind::gated ? 2.0 : 1.0;
  LayerOp* ops_of[3] = {ops.matmul(up, groups, tokens, width, gate * f, true, s),
                        // SiLU x gate, or GeLU
                        ops.elementwise(act, groups * tokens * f, gate, m.mlp == MlpKind::gated ? 6.0 : 8.0, s),
                        ops.matmul(down, groups, tokens, f, width, true, s)};
  for (LayerOp* o : ops_of)
    if (o) o->experts = experts;
}

// A materialized kernel's extra HBM traffic over flash's, forward: QK^T writes the scores, the softmax reads them
// and writes the probabilities, AV reads them; dropout reads them once more and writes the dropped copy and its
// 1-byte mask. Every head's queries against the whole sequence: the masked half is computed too.
double materialized_scores_bytes(const LayerShape& s, double heads) {
  if (s.attention.kernel != AttentionKernel::materialized) return 0;
  const double passes = s.attention.dropout ? 6.0 : 4.0, mask = s.attention.dropout ? 1.0 : 0.0;
  return s.tokens * heads * s.seq_len * (passes * bytes_per_element(s.activations) + mask);
}

// The keys a layer's queries attend to: on average, and the sliding window's width (0: none).
struct Keys {
  double mean, window;
};

// The attention op's shape on this chip: whole sequences of the microbatch (or, under context parallelism, this
// rank's piece of one) attending to `keys.mean` keys on average, at most the whole sequence, the sliding window,
// or, under a causal chunk, twice the mean.
AttentionDims attention_dims(const LayerShape& s, double heads, double kv_heads, double qk_dim, double v_dim,
                             Keys keys) {
  const double query_len = std::max(1.0, std::min(s.tokens, s.seq_len));
  const bool causal = s.causal && !s.at_end;
  const double max_keys = !causal ? keys.mean : std::min(s.seq_len, keys.window > 0 ? keys.window : 2.0 * keys.mean);
  return AttentionDims{s.tokens / query_len,       query_len, heads, kv_heads, qk_dim, v_dim, keys.mean, max_keys,
                       causal ? keys.window : 0.0, causal};
}

// Standard attention (MHA / GQA / MQA) with the layer's head shape: QKVO 2D(N+K)H parameters (K = V: one
// projection for both); QK^T and AV 4 T S N H FLOPs (scaling-book/transformers).
void standard_attention(OpList& ops, const ModelConfig& m, const LayerShape& s, Keys keys, const HeadShape& shape) {
  const double b = s.tokens, d = m.d_model, h = shape.head_dim;
  const double nq = m.heads / s.tensor, nkv = local_kv_heads(shape.kv_heads, s.tensor);
  const double gate = m.attention_output_gate ? 1.0 : 0.0;  // a second query-sized projection, the output's gate
  ops.matmul("qkv_projection", 1, b, d, ((1.0 + gate) * nq + (shape.k_eq_v ? 1.0 : 2.0) * nkv) * h, true, s);
  ops.elementwise("rotary", b * (nq + nkv) * h, 1.0, 6.0, s);
  if (LayerOp* o =
          ops.add("attention", OpKind::attention, 4.0 * b * keys.mean * nq * h,
                  bytes_per_element(s.activations) * b * (2.0 * nq + 2.0 * nkv) * h + materialized_scores_bytes(s, nq)))
    o->attention = attention_dims(s, nq, nkv, h, h, keys);
  if (gate > 0) ops.elementwise("output_gate", b * nq * h, 2.0, 5.0, s);  // sigmoid, then the product
  ops.matmul("output_projection", 1, b, nq * h, d, true, s);
}

// Multi-head latent attention (DeepSeek-V2 §2.1.2). The down-projections to the query and KV latents are replicated
// on every TP rank (Megatron-Core's MLA); the up-projections and the heads are split. Training and prefill expand
// the latent into every head's K and V; decode (`at_end`) keeps it latent and absorbs the K up-projection into the
// query and the V up-projection into the output, so attention reads r + r_rope values per cached token.
void latent_attention(OpList& ops, const ModelConfig& m, const LayerShape& s, Keys keys) {
  const LatentAttention& a = m.mla;
  const double b = s.tokens, d = m.d_model, nq = m.heads / s.tensor, qk = m.qk_head_dim();
  const double act = bytes_per_element(s.activations);
  auto replicated = [](LayerOp* o) {
    if (o) o->replicated = true;
  };
  if (a.q_lora_rank > 0) {
    replicated(ops.matmul("q_down_projection", 1, b, d, a.q_lora_rank, true, s));
    replicated(ops.elementwise("q_latent_norm", b * a.q_lora_rank, 1.0, 4.0, s));
    ops.matmul("q_up_projection", 1, b, a.q_lora_rank, nq * qk, true, s);
  } else {
    ops.matmul("q_projection", 1, b, d, nq * qk, true, s);
  }
  replicated(ops.matmul("kv_down_projection", 1, b, d, a.kv_lora_rank + a.qk_rope_head_dim, true, s));
  replicated(ops.elementwise("kv_latent_norm", b * a.kv_lora_rank, 1.0, 4.0, s));
  ops.elementwise("rotary", b * (nq + 1.0) * a.qk_rope_head_dim, 1.0, 6.0, s);
  if (!s.at_end) {
    ops.matmul("kv_up_projection", 1, b, a.kv_lora_rank, nq * (a.qk_nope_head_dim + a.v_head_dim), true, s);
    if (LayerOp* o = ops.add("attention", OpKind::attention, 4.0 * b * keys.mean * nq * (qk + a.v_head_dim) / 2.0,
                             act * b * nq * (2.0 * qk + 2.0 * a.v_head_dim) + materialized_scores_bytes(s, nq)))
      o->attention = attention_dims(s, nq, nq, qk, a.v_head_dim, keys);
  } else {
    const double r = a.kv_lora_rank;
    ops.matmul("q_absorb_k_up", nq, b, a.qk_nope_head_dim, r, true, s);
    // Scores against r + r_rope latent values and the weighted sum of r per key; the caller sets the KV reads.
    if (LayerOp* o = ops.add("attention", OpKind::attention, 2.0 * b * keys.mean * nq * (2.0 * r + a.qk_rope_head_dim),
                             act * b * nq * (2.0 * r + a.qk_rope_head_dim)))
      o->attention = attention_dims(s, nq, 1.0, r + a.qk_rope_head_dim, r, keys);
    ops.matmul("v_up_absorbed", nq, b, r, a.v_head_dim, true, s);
  }
  ops.matmul("output_projection", 1, b, nq * a.v_head_dim, d, true, s);
}

// A Gated DeltaNet layer (transformers' Qwen3NextGatedDeltaNet; the serving engines run flash-linear-attention's
// kernels) or a Mamba-2 layer (NemotronHMamba2Mixer; mamba_ssm's kernels), value and query-key heads split over
// TP. The input projection gives q, k, v (Mamba-2: C, B, x), the output gate z and the per-head decay and write
// strength (Mamba-2: its step dt); the causal convolution runs over q, k and v; the recurrence runs chunk by
// chunk (prefill, training: each chunk's queries against its own keys like attention, then the chunk's keys into
// the carried state, whose per-chunk copies go to HBM for the backward and the next chunk) or one token at a time
// (decode: each sequence's state read, updated and written back); a gated norm and the output projection follow.
void linear_attention(OpList& ops, const ModelConfig& m, const LayerShape& s) {
  const LinearAttention& a = m.linear;
  const double b = s.tokens, d = m.d_model, tp = s.tensor;
  const double qk = a.qk_width() / tp, v = a.v_width() / tp, heads = a.value_heads / tp;
  const double act = bytes_per_element(s.activations);
  ops.matmul("linear_in_projection", 1, b, d, a.in_projection_width() / tp, true, s);
  if (a.gate_up_width() > 0) ops.matmul("gate_up_projection", 1, b, a.value_head_dim, a.gate_up_width() / tp, true, s);
  ops.elementwise("causal_conv", b * (2.0 * qk + v), 1.0, 2.0 * a.conv_kernel, s);
  const double state = heads * a.key_head_dim * a.value_head_dim * bytes_per_element(a.state_dtype);
  const double sequences = sequences_of(s);
  const double chunks = s.at_end ? 0.0 : std::max(sequences, b / a.chunk_tokens);
  const double state_bytes = 2.0 * (s.at_end ? sequences : chunks) * state;
  const double flops = b * linear_recurrence_flops_per_token(m, s.at_end) / tp;
  // Decode multiplies each state by vectors: a streaming op on the vector units, as long as its state's bytes.
  // Prefill runs one kernel of small matmuls on the matrix units, every chunk's and head's tiles filling the chip:
  // its efficiency is that of a matmul with a row per token and head against a head's dk x dv state.
  const OpKind kind = s.at_end ? OpKind::elementwise : OpKind::matmul;
  if (LayerOp* o =
          ops.add("linear_attention", kind, flops, act * b * (2.0 * qk + 2.0 * v + 2.0 * heads) + state_bytes)) {
    if (!s.at_end) {
      o->m = b * heads;
      o->k = a.key_head_dim;
      o->n = a.value_head_dim;
    }
    o->reads_cache = true;
  }
  ops.elementwise("gated_norm", b * v, 2.0, 6.0, s);
  ops.matmul("output_projection", 1, b, v, d, true, s);
}

// DeepSeek Sparse Attention's lightning indexer (DeepSeek-V3.2-Exp §2.1; the serving engines run DeepGEMM's fp8
// MQA-logits kernel): index queries from the query latent, one index key per token, the heads' weights; then every
// query's fp8 scores against every earlier index key, summed over its heads into one logit each (written out),
// and the top-k of them. Its heads are not split over TP: every rank runs it whole and selects the same keys
// (vLLM's Indexer in vllm/model_executor/models/deepseek_v2.py: "no tensor parallel, just replicated"; SGLang's
// too), which is why a long prompt under TP pays for it on every rank and deployments split attention by data.
void sparse_indexer(OpList& ops, const ModelConfig& m, const LayerShape& s) {
  const SparseAttention& a = m.sparse;
  const double b = s.tokens, d = m.d_model;
  const double q_in = m.is_mla() && m.mla.q_lora_rank > 0 ? m.mla.q_lora_rank : d;
  for (LayerOp* o : {ops.matmul("indexer_q_projection", 1, b, q_in, a.index_heads * a.index_head_dim, true, s),
                     ops.matmul("indexer_k_projection", 1, b, d, a.index_head_dim, true, s),
                     ops.matmul("indexer_weights", 1, b, d, a.index_heads, true, s)})
    if (o) o->replicated = true;
  const double keys = every_key_per_query(s.seq_len, s.causal, s.at_end);  // scored per query, on average
  const double sequences = sequences_of(s);
  const double bytes = sequences * s.seq_len * sparse_index_bytes_per_token_per_layer(m) +
                       b * a.index_heads * a.index_head_dim * bytes_per_element(Dtype::fp8) +
                       b * keys * bytes_per_element(Dtype::fp32);
  if (LayerOp* o =
          ops.add("indexer_scores", OpKind::matmul, 2.0 * b * a.index_heads * a.index_head_dim * keys, bytes)) {
    o->m = b * a.index_heads;
    o->k = a.index_head_dim;
    o->n = keys;
    o->replicated = true;
    o->reads_cache = true;
    o->fp8_serving = true;
  }
  ops.elementwise("indexer_top_k", b * keys, 0.0, 2.0, s);
}

// The MoE block's routing (Megatron-Core's token dispatcher): the router and its top-k on this rank's tokens, the k
// copies permuted into their destinations' order before the dispatch all-to-all and regrouped by local expert after
// it, and the reverse around the combine, which also sums each token's k weighted outputs.
// A latent MoE (Nemotron 3) projects each token down to the latent before the router's copies are permuted and
// back up after the combine, both split over TP as the MLP's matmuls are (aiconfigurator's NemotronH model).
void moe_mlp(OpList& ops, const ModelConfig& m, const LayerShape& s) {
  const double routed = norm_tokens(s), copies = routed * m.active_experts, d = m.d_model, w = m.expert_io_dim();
  const double rows = expert_rows(m, s), local_experts = m.experts / s.expert;
  auto routing = [&](const char* name, double elements, double flops) {
    if (LayerOp* o = ops.elementwise(name, elements, 1.0, flops, s)) o->routing = true;
  };
  ops.matmul("router", 1, routed, d, m.experts, false, s);
  ops.elementwise("router_top_k", routed * m.experts, 1.0, 8.0, s);  // softmax or sigmoid, top-k, renormalise
  if (m.expert_latent_dim > 0) ops.matmul("latent_down_projection", 1, s.tokens, d, w / s.tensor, true, s);
  routing("permute", copies * w, 0.0);
  routing("group_by_expert", rows * w, 0.0);
  mlp(ops, "experts_up", "experts_activation", "experts_down", local_experts, rows / local_experts,
      m.expert_d_ff / s.etp(), w, m, s, true);
  routing("ungroup", rows * w, 0.0);
  routing("combine", copies * w, 2.0);
  if (m.expert_latent_dim > 0) ops.matmul("latent_up_projection", 1, s.tokens, w / s.tensor, d, true, s);
  if (m.shared_experts > 0)
    mlp(ops, "shared_up", "shared_activation", "shared_down", 1, s.tokens, m.shared_experts * m.expert_d_ff / s.tensor,
        d, m, s, false);
}

}  // namespace

double matmul_bytes(double groups, double m, double k, double n, bool linear, const LayerShape& s) {
  const double a = bytes_per_element(s.activations), w = bytes_per_element(linear ? s.weights : s.activations);
  return groups * (a * m * k + w * k * n + a * m * n);
}

double expert_rows(const ModelConfig& m, const LayerShape& s) {
  return s.tokens * m.active_experts * s.etp() / s.tensor * s.expert_load;
}

LayerOps layer_ops(const ModelConfig& m, int kind, const LayerShape& s) {
  LayerOps out;
  const MlpLayer mlp_kind = kind_mlp(kind);
  OpList ops{out};
  const double ts = norm_tokens(s), d = m.d_model;
  const AttentionSpan span = kind_span(kind);
  const bool sparse = span == AttentionSpan::full && m.has_sparse_attention();
  // A sparse layer's query sees its top-k keys: counted, and tiled, as a window of that many.
  const Keys keys{mean_keys_per_query(m, span, s.seq_len, s.causal, s.at_end), span == AttentionSpan::sliding
                                                                                   ? m.sliding_window
                                                                               : sparse ? m.sparse.index_topk
                                                                                        : 0.0};
  // Attention block.
  ops.elementwise("attention_norm", ts * d, 1.0, 4.0, s);
  if (sparse) sparse_indexer(ops, m, s);
  if (span == AttentionSpan::linear)
    linear_attention(ops, m, s);
  else if (m.is_mla())
    latent_attention(ops, m, s, keys);
  else
    standard_attention(ops, m, s, keys, m.head_shape(span));
  ops.elementwise("attention_residual", ts * d, 2.0, 1.0, s);
  // MLP block, if the layer has one.
  if (mlp_kind == MlpLayer::none) return out;
  ops.attention_block = false;
  ops.elementwise("mlp_norm", ts * d, 1.0, 4.0, s);
  if (mlp_kind == MlpLayer::moe && m.is_moe())
    moe_mlp(ops, m, s);
  else
    mlp(ops, "mlp_up", "mlp_activation", "mlp_down", 1, s.tokens, m.d_ff / s.tensor, d, m, s, false);
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
    case Remat::none:
      return false;
    case Remat::block:
    case Remat::checkpoints:
      return true;
    case Remat::big_matmuls:
      return o.kind != OpKind::matmul;
    case Remat::mlp_matmuls:
      return o.attention_block || o.kind != OpKind::matmul;
    case Remat::selective:
      return o.kind == OpKind::attention;
  }
  return false;
}

namespace {

// What a layer's mixer keeps for its backward (elements on this chip): its projections' outputs, q, k and v (MLA:
// expanded per head, plus its two latents; Gemma 4's full layers: their own heads; a linear layer: its input
// projection's outputs and the convolution's q, k and v, its chunked kernels recomputing the states in the backward
// as flash attention recomputes the scores), and the output before the output projection.
struct MixerSaved {
  double projected, output;
};
MixerSaved mixer_saved(const ModelConfig& m, AttentionSpan span, const LayerShape& s) {
  const double b = s.tokens, tp = s.tensor, nq = m.heads / tp;
  if (span == AttentionSpan::linear) {
    const LinearAttention& a = m.linear;
    return {b * (a.in_projection_width() + a.gate_up_width() + a.conv_channels()) / tp, b * a.v_width() / tp};
  }
  if (m.is_mla()) {
    const double latents = b * (m.mla.q_lora_rank + m.mla.kv_lora_rank + m.mla.qk_rope_head_dim);
    return {b * nq * (2.0 * m.qk_head_dim() + m.v_head_dim()) + latents, b * nq * m.v_head_dim()};
  }
  const HeadShape h = m.head_shape(span);
  return {b * (nq + 2.0 * local_kv_heads(h.kv_heads, tp)) * h.head_dim, b * nq * h.head_dim};
}

}  // namespace

double saved_activation_bytes(const ModelConfig& m, int kind, const LayerShape& s, Remat remat,
                              double checkpoints_per_layer) {
  const double b = s.tokens, ts = norm_tokens(s), d = m.d_model;
  const MlpLayer mlp_kind = kind_mlp(kind);
  const AttentionSpan span = kind_span(kind);
  const double gate = m.mlp == MlpKind::gated ? 2.0 : 1.0;
  const bool moe_layer = mlp_kind == MlpLayer::moe && m.is_moe();
  // A layer without an MLP keeps neither the MLP block's norm and matmul inputs nor its outputs.
  const double mlp_blocks = mlp_kind == MlpLayer::none ? 0.0 : 1.0;
  // MLP rows and width: an MoE layer's expert rows through F_e / ETP (+ the shared experts on every token, / TP).
  const double up_out = mlp_blocks * (moe_layer ? gate * (expert_rows(m, s) * m.expert_d_ff / s.etp() +
                                                          b * m.shared_experts * m.expert_d_ff / s.tensor)
                                                : gate * b * m.d_ff / s.tensor);
  const double act_out = up_out / gate;
  const MixerSaved mixer = mixer_saved(m, span, s);
  const double qkv_out = mixer.projected, attn_out = mixer.output;
  // The permuted expert inputs and outputs.
  const double routed = moe_layer ? 2.0 * expert_rows(m, s) * m.expert_io_dim() : 0.0;
  double elements = 0;
  switch (remat) {
    case Remat::none:       // inputs of both norms and both matmul blocks, q k v, flash's O (+ its row statistics)
    case Remat::selective:  // the same, as the attention core is redone from q, k and v
      elements = (2.0 + 2.0 * mlp_blocks) * ts * d + qkv_out + attn_out + up_out + act_out + routed;
      break;
    case Remat::block:
      elements = ts * d;
      break;
    case Remat::checkpoints:
      elements = checkpoints_per_layer * ts * d;
      break;
    // The book's seven matmul outputs (scaling-book/transformers), the layer's input (the remat boundary) standing in
    // for the down projection's: that one feeds only the residual sum, whose backward reads no input, so it is never a
    // saved residual (jax.checkpoint keeps only what the backward uses); the output projection's is, as the second
    // norm's input is rebuilt from it.
    case Remat::big_matmuls:
      elements = (1.0 + mlp_blocks) * ts * d + qkv_out + up_out;
      break;
    case Remat::mlp_matmuls:
      elements = (1.0 + mlp_blocks) * ts * d + up_out;
      break;
  }
  // A materialized kernel's scores, in softmax layers only.
  const double scores =
      span == AttentionSpan::linear
          ? 0.0
          : attention_scores_saved_bytes_per_token(s.attention, remat, m.heads / s.tensor, s.seq_len, s.activations);
  return bytes_per_element(s.activations) * elements + b * scores +
         ts * dropout_masks_saved_bytes_per_token(s.attention, remat, d);
}

}  // namespace scalescope
