#include "planners/calibrated_serving.h"

#include <algorithm>

#include "physics/collectives.h"
#include "physics/efficiency.h"
#include "physics/layer_ops.h"

namespace scalescope {

namespace {

struct ServingTimes {
  double flops_s = 0, memory_s = 0, overhead_s = 0;  // roofline-bound op time split by what bound each op
  double kv_s = 0;                                  // the attention ops' KV reads (inside memory_s)
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
    const double bytes = o.kind == OpKind::elementwise ? o.bytes * p.elementwise_traffic : o.bytes;
    const double memory = bytes / hbm_bytes_per_s;
    (compute > memory ? t.flops_s : t.memory_s) += times * std::max(compute, memory);
    if (o.kind == OpKind::attention) t.kv_s += times * memory;
    t.overhead_s += times * p.decode_op_overhead_s;
  }
  void add_all(const LayerOps& ops, double times, ServingTimes& t) const {
    for (int i = 0; i < ops.count; ++i) add(ops.op[i], times, t);
  }

  LayerShape shape(double tokens, double keys, bool causal) const {
    LayerShape s;
    s.tokens = tokens;
    s.seq_len = keys;
    s.causal = causal;
    s.tensor = in.tensor.degree;
    s.sequence_parallel = false;  // serving engines keep the whole batch on every TP rank
    s.expert = in.expert.degree;
    s.activations = Dtype::bf16;
    s.weights = in.weights;
    return s;
  }

  // Every layer's ops plus the logits, for `tokens` new tokens attending to `keys` keys each.
  ServingTimes model(double tokens, double keys, bool causal, double sequences, double context) const {
    const ModelConfig& m = *in.model;
    const LayerShape s = shape(tokens, keys, causal);
    ServingTimes t;
    for (bool moe : {false, true}) {
      const double layers = moe ? m.moe_layers() : m.dense_mlp_layers();
      if (layers <= 0) continue;
      LayerOps ops = layer_ops(m, moe, s);
      for (int i = 0; i < ops.count; ++i)
        if (ops.op[i].kind == OpKind::attention && context > 0)
          // Decode reads each sequence's KV cache (its local KV heads) once per step (§2.10).
          ops.op[i].bytes = sequences * context * 2.0 * std::max(m.kv_heads / s.tensor, 1.0) * m.head_dim *
                            bytes_per_element(in.kv);
      add_all(ops, layers, t);
    }
    add_all(head_ops(m, s, true, true), 1.0, t);
    return t;
  }

  // The replica's tensor-parallel all-reduces (two per layer on the whole batch's activations), with latency.
  double comms_s(double tokens) const {
    if (!in.include_comms || in.tensor.degree <= 1) return 0;
    const double v = bytes_per_element(in.activations) * tokens * in.model->d_model;
    const CollectiveCost c = group_collective(*in.hw, *in.mesh, in.tensor, Collective::all_reduce, v);
    const double link = in.hw->kind == ChipKind::gpu && in.tensor.degree > in.hw->scale_up.domain_gpus ? p.slow_link_frac
                                                                                                       : p.fast_link_frac;
    return 2.0 * in.model->layers * achieved_collective_s(c.bandwidth_s, c.latency_s, link, p.collective_latency_s);
  }
};

}  // namespace

DecodeStep calibrated_decode_step(const ServingInput& in, const CalibrationProfile& p, double batch, double context,
                                  double tokens_per_sequence) {
  const Engine e{in, p, in.hw->hbm_bandwidth_bytes_per_s * p.decode_hbm_frac};
  const double tokens = batch * tokens_per_sequence;
  const ServingTimes t = e.model(tokens, context, false, batch, context);
  DecodeStep s;
  s.kv_load_s = t.kv_s;
  s.param_load_s = t.memory_s - t.kv_s + t.overhead_s;
  s.flops_s = t.flops_s;
  s.comms_s = e.comms_s(tokens);
  s.compute_bound = t.flops_s > t.memory_s;
  s.step_s = t.flops_s + t.memory_s + t.overhead_s + s.comms_s + p.decode_step_overhead_s;
  name_decode_bound(s);
  return s;
}

PrefillStep calibrated_prefill(const ServingInput& in, const CalibrationProfile& p, double batch, double prompt_len) {
  const Engine e{in, p, in.hw->hbm_bandwidth_bytes_per_s * p.decode_hbm_frac};
  const double tokens = batch * prompt_len;
  const ServingTimes t = e.model(tokens, prompt_len, true, 0, 0);
  PrefillStep s;
  s.matmul_flops_s = t.flops_s;
  s.flops_s = t.flops_s;
  s.param_load_s = t.memory_s + t.overhead_s;
  s.comms_s = e.comms_s(tokens);
  s.time_s = t.flops_s + t.memory_s + t.overhead_s + s.comms_s;
  s.compute_bound = t.flops_s >= t.memory_s;
  name_prefill_bound(s);
  return s;
}

}  // namespace scalescope
