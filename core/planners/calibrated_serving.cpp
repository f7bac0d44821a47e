#include "planners/calibrated_serving.h"

#include <algorithm>

#include "physics/collectives.h"
#include "physics/efficiency.h"
#include "physics/expert_dispatch.h"
#include "physics/layer_ops.h"

namespace scalescope {

namespace {

struct ServingTimes {
  double flops_s = 0, memory_s = 0, overhead_s = 0;  // roofline-bound op time split by what bound each op
  double kv_s = 0;                                  // the attention ops' KV reads (inside all_memory_s)
  // Every op's compute and HBM time whether its roofline hides it or not: what each resource takes in all.
  double all_compute_s = 0, all_matmul_compute_s = 0, all_memory_s = 0;
};

struct Engine {
  const ServingInput& in;
  const CalibrationProfile& p;
  double hbm_bytes_per_s;

  // One op on one chip: its own max(compute, memory), at the serving engine's achieved rates.
  void add(const LayerOp& o, double times, ServingTimes& t) const {
    const Hardware& hw = *in.hw;
    double compute = 0;
    switch (o.kind) {
      case OpKind::matmul: {
        // Low-precision kernels reach less of their peak (low_precision_frac, fitted on training runs).
        const double rate = hw.peak(o.linear ? in.activations : Dtype::bf16) * p.decode_matmul_frac *
                            (o.linear && bytes_per_element(in.activations) < 2.0 ? p.low_precision_frac : 1.0);
        compute = matmul_compute_s(o.flops, matmul_shape_efficiency(o.m, o.k, o.n, p.tiling), p.matmul_half_rate_flops, rate);
        break;
      }
      case OpKind::attention:
        compute = matmul_compute_s(o.flops, 1.0, p.matmul_half_rate_flops, hw.peak(Dtype::bf16) * p.attention_frac);
        break;
      case OpKind::elementwise:
        compute = o.flops / (hw.vector_flops_per_s > 0 ? hw.vector_flops_per_s : hw.peak(Dtype::bf16) / 32.0);
        break;
    }
    const double traffic = o.routing ? p.routing_traffic : p.elementwise_traffic;
    const double bytes = o.kind == OpKind::elementwise ? o.bytes * traffic : o.bytes;
    // A routed expert's kernel reaches decode_expert_frac of what a dense one does, compute and HBM alike.
    const double expert = o.experts ? p.decode_expert_frac : 1.0;
    const double memory = bytes / hbm_bytes_per_s / expert;
    compute /= expert;
    (compute > memory ? t.flops_s : t.memory_s) += times * std::max(compute, memory);
    t.all_compute_s += times * compute;
    if (o.kind == OpKind::matmul) t.all_matmul_compute_s += times * compute;
    t.all_memory_s += times * memory;
    if (o.kind == OpKind::attention) t.kv_s += times * memory;
    t.overhead_s += times * p.decode_op_overhead_s;
  }
  void add_all(const LayerOps& ops, double times, ServingTimes& t) const {
    for (int i = 0; i < ops.count; ++i) add(ops.op[i], times, t);
  }

  // Sequences (and tokens) per attention data-parallel rank: the expert axis splits them.
  double per_rank(double x) const { return x / in.expert.degree; }

  LayerShape shape(double tokens, double keys, bool causal, bool at_end) const {
    LayerShape s;
    s.tokens = per_rank(tokens);
    s.seq_len = keys;
    s.causal = causal;
    s.at_end = at_end;
    s.tensor = in.tensor.degree;
    s.sequence_parallel = false;  // serving engines keep the whole batch on every TP rank
    s.expert = serving_expert_degree(in);
    s.expert_tensor = in.expert_tensor;
    s.activations = Dtype::bf16;
    s.weights = in.weights;
    return s;
  }

  // Every layer's ops plus the logits, for `tokens` new tokens attending to `keys` keys each. Decode (`sequences` >
  // 0) reads each sequence's KV cache once per step (§2.10), the part its layer's span keeps: its local KV heads,
  // or latent attention's whole latent on every TP rank. A batch that touches only some experts loads only those.
  ServingTimes model(double tokens, double keys, bool causal, double sequences, double context) const {
    const ModelConfig& m = *in.model;
    const bool decode = sequences > 0;
    const LayerShape s = shape(tokens, keys, causal, decode);
    const double kv_values = m.is_mla() ? kv_values_per_token_per_layer(m)
                                        : 2.0 * std::max(m.kv_heads / s.tensor, 1.0) * m.head_dim;
    const double touched = routed_fraction_touched(m, tokens);
    ServingTimes t;
    for (int k = 0; k < kLayerKinds; ++k) {
      const double layers = m.pattern.all.n[k];
      if (layers <= 0) continue;
      LayerOps ops = layer_ops(m, k, s);
      for (int i = 0; i < ops.count; ++i) {
        LayerOp& o = ops.op[i];
        if (o.kind == OpKind::attention && decode)
          o.bytes = per_rank(sequences) * mean_keys_per_query(m, kind_span(k), context, false, true) * kv_values *
                    bytes_per_element(in.kv);
        if (o.experts && o.kind == OpKind::matmul && touched < 1.0) {
          // The same rows over fewer experts: only the touched ones' weights are read.
          const double groups = std::max(1.0, o.groups * touched);
          const double rows = o.m * o.groups / groups;
          o.bytes = matmul_bytes(groups, rows, o.k, o.n, o.linear, s);
          o.m = rows;
          o.groups = groups;
        }
      }
      add_all(ops, layers, t);
    }
    add_all(head_ops(m, s, true, true), 1.0, t);
    return t;
  }

  // The replica's tensor-parallel all-reduces (two per layer on each rank's activations), with latency, and every
  // MoE layer's dispatch and combine over the expert-parallel group.
  double comms_s(double tokens) const {
    if (!in.include_comms) return 0;
    const ModelConfig& m = *in.model;
    double total = 0;
    if (in.tensor.degree > 1) {
      const double v = bytes_per_element(in.activations) * per_rank(tokens) * m.d_model;
      const CollectiveCost c = group_collective(*in.hw, *in.mesh, in.tensor, Collective::all_reduce, v);
      const double link = in.hw->kind == ChipKind::gpu && in.tensor.degree > in.hw->scale_up.domain_gpus ? p.slow_link_frac
                                                                                                         : p.fast_link_frac;
      total += 2.0 * m.layers * achieved_collective_s(c.bandwidth_s, unfitted_latency_s(*in.hw, c), link, p.collective_latency_s);
    }
    const double ep = serving_expert_degree(in);
    if (ep > 1 && m.is_moe()) {
      const AxisGroup group = ep > in.expert.degree ? folded_expert_group(*in.mesh, in.expert, in.tensor) : in.expert;
      const DispatchCost cost = expert_dispatch_cost(*in.hw, *in.mesh, group, ep, per_rank(tokens) / in.tensor.degree,
                                                     m.active_experts, bytes_per_element(in.activations) * m.d_model,
                                                     DispatchKind::all_to_all);
      total += 2.0 * m.moe_layers() * achieved_dispatch_s(cost, p.fast_link_frac, p.slow_link_frac, p.collective_latency_s);
    }
    return total;
  }
};

}  // namespace

DecodeStep calibrated_decode_step(const ServingInput& in, const CalibrationProfile& p, double batch, double context,
                                  double tokens_per_sequence) {
  const Engine e{in, p, in.hw->hbm_bandwidth_bytes_per_s * p.decode_hbm_frac};
  const double tokens = batch * tokens_per_sequence;
  const ServingTimes t = e.model(tokens, context, false, batch, context);
  DecodeStep s;
  // Each resource's whole time (the FLOPs of memory-bound ops too: issue 20, "Compute 0 s"), and what each adds to
  // the step: every op its own max, so the memory-bound ops' time split into the KV caches' and the rest (a KV read
  // inside an op that turned compute-bound is in the FLOPs' share, so the KV share is at most the memory-bound time).
  s.flops_s = t.all_compute_s;
  s.kv_load_s = t.kv_s;
  s.param_load_s = t.all_memory_s - t.kv_s;
  s.comms_s = e.comms_s(tokens);
  s.overhead_s = t.overhead_s + p.decode_step_overhead_s;
  s.compute_bound = t.flops_s > t.memory_s;
  s.step_s = t.flops_s + t.memory_s + t.overhead_s + s.comms_s + p.decode_step_overhead_s;
  const double kv_exposed = std::min(t.kv_s, t.memory_s);
  s.exposed = {t.flops_s, t.memory_s - kv_exposed, kv_exposed, s.comms_s, s.overhead_s};
  name_decode_bound(s);
  return s;
}

PrefillStep calibrated_prefill(const ServingInput& in, const CalibrationProfile& p, double batch, double prompt_len) {
  const Engine e{in, p, in.hw->hbm_bandwidth_bytes_per_s * p.decode_hbm_frac};
  const double tokens = batch * prompt_len;
  const ServingTimes t = e.model(tokens, prompt_len, true, 0, 0);
  PrefillStep s;
  s.matmul_flops_s = t.all_matmul_compute_s;
  s.flops_s = t.all_compute_s;
  s.param_load_s = t.all_memory_s;
  s.comms_s = e.comms_s(tokens);
  s.overhead_s = t.overhead_s;
  s.time_s = t.flops_s + t.memory_s + s.overhead_s + s.comms_s;
  s.exposed = {t.flops_s, t.memory_s, 0.0, s.comms_s, s.overhead_s};
  s.compute_bound = t.flops_s >= t.memory_s;
  name_prefill_bound(s, s.exposed.flops_s, s.exposed.param_load_s, s.exposed.comms_s);
  return s;
}

}  // namespace scalescope
