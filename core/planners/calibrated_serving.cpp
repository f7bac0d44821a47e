#include "planners/calibrated_serving.h"

#include <algorithm>
#include <string_view>

#include "physics/collectives.h"
#include "physics/efficiency.h"
#include "physics/expert_dispatch.h"
#include "physics/kernels.h"
#include "physics/layer_ops.h"

namespace scalescope {

namespace {

struct ServingTimes {
  double flops_s = 0, memory_s = 0, overhead_s = 0;  // roofline-bound op time split by what bound each op
  double kv_s = 0;                                   // the attention ops' KV reads (inside all_memory_s)
  // Every op's compute and HBM time whether its roofline hides it or not: what each resource takes in all.
  double all_compute_s = 0, all_matmul_compute_s = 0, all_memory_s = 0;
};

// The GEMM kernel a serving engine runs for its weights: fp8 or 4-bit activations run the low-precision kernels;
// bf16 activations with narrower weights are weight-only quantised (bf16 matrix units reading narrow weights).
GemmKind serving_gemm_kind(const ServingInput& in) {
  if (bytes_per_element(in.activations) >= 2.0) return GemmKind::bf16;
  return in.weights == Dtype::fp4 || in.weights == Dtype::int4 ? GemmKind::fp4 : GemmKind::fp8;
}

struct Engine {
  const ServingInput& in;
  const CalibrationProfile& p;
  const KernelModels& k = p.kernels;
  double hbm_bytes_per_s = in.hw->hbm_bandwidth_bytes_per_s;
  GemmKind kind = serving_gemm_kind(in);

  double kind_peak(GemmKind g) const {
    return in.hw->peak(g == GemmKind::bf16 ? Dtype::bf16 : in.activations == Dtype::bf16 ? Dtype::fp8 : in.activations);
  }

  // One kernel, `times` over: its roofline side into what bound it, its serial part and the host gap per op into
  // the overhead.
  void add_time(const KernelTime& kt, double times, bool matmul, bool kv, ServingTimes& t) const {
    (kt.compute_bound() ? t.flops_s : t.memory_s) += times * std::max(kt.compute_s, kt.memory_s);
    t.all_compute_s += times * kt.compute_s;
    if (matmul) t.all_matmul_compute_s += times * kt.compute_s;
    t.all_memory_s += times * kt.memory_s;
    if (kv) t.kv_s += times * kt.memory_s;
    t.overhead_s += times * (kt.serial_s + p.decode_op_overhead_s);
  }

  // One op on one chip at its kernel model.
  KernelTime op_time(const LayerOp& o, bool decode, double sequences) const {
    const Hardware& hw = *in.hw;
    switch (o.kind) {
      case OpKind::matmul: {
        const GemmKind g = o.fp8_serving && hw.peak(Dtype::fp8) > 0 ? GemmKind::fp8 : o.linear ? kind : GemmKind::bf16;
        return gemm_kernel_time(k.gemm[static_cast<std::size_t>(g)], o.flops,
                                matmul_shape_efficiency(o.m, o.k, o.n, p.tiling), o.groups, o.bytes, kind_peak(g),
                                hbm_bytes_per_s);
      }
      case OpKind::attention: {
        const AttentionDims& d = o.attention;
        const ModelConfig& m = *in.model;
        if (decode) {
          DecodeAttentionShape a;
          const DecodeKvRead kv = decode_kv_read(m, d);
          a.sequences = per_rank(sequences);
          a.kv_heads = kv.heads;
          a.kv_values = kv.values_per_head;
          a.mean_keys = d.mean_keys;
          a.kv_bytes = bytes_per_element(in.kv);
          a.flops = o.flops;
          return decode_attention_time(k.decode_for(m.is_mla()), a, hw.peak(Dtype::bf16), hbm_bytes_per_s);
        }
        // Prefill: serving engines fuse the rotary embedding and the KV-cache write into the attention op.
        FlashAttentionShape a = flash_attention_shape(d);
        a.fp8 = (bytes_per_element(in.activations) < 2.0 || bytes_per_element(in.kv) < 2.0) && hw.peak(Dtype::fp8) > 0;
        a.activation_bytes = 2.0;
        a.kv_bytes = bytes_per_element(in.kv);
        a.cache_values = m.is_mla() ? kv_values_per_token_per_layer(m) : d.kv_heads * (d.qk_dim + d.v_dim);
        return flash_attention_time(k.prefill_for(m.is_mla()), a, p.tiling.parallel_tiles, hw.peak(Dtype::bf16),
                                    hw.peak(Dtype::fp8) > 0 ? hw.peak(Dtype::fp8) : hw.peak(Dtype::bf16),
                                    hbm_bytes_per_s);
      }
      case OpKind::elementwise: {
        KernelTime t;
        t.memory_s = stream_s(k, o.bytes * (o.routing ? p.routing_traffic : p.elementwise_traffic), hbm_bytes_per_s);
        t.compute_s = o.flops / (hw.vector_flops_per_s > 0 ? hw.vector_flops_per_s : hw.peak(Dtype::bf16) / 32.0);
        return t;
      }
    }
    return {};
  }

  // Sequences (and tokens) per attention data-parallel rank: the expert axis splits them.
  double per_rank(double x) const { return x / in.expert.degree; }

  LayerShape shape(double tokens, double keys, bool causal, bool at_end) const {
    return serving_layer_shape(in, tokens, keys, causal, at_end);
  }

  // The fused MoE kernel of one MoE layer: every token of the expert group routed to its experts, this rank's
  // touched experts' weights loaded once (physics/kernels.h moe_kernel_time).
  KernelTime moe_time(double tokens) const {
    const ModelConfig& m = *in.model;
    const LayerShape s = shape(tokens, 1, false, false);
    MoeKernelShape e;
    // Every token of the replica is routed into the expert group (attention data parallel ranks' tokens gathered).
    e.tokens = tokens;
    e.topk = m.active_experts;
    e.experts = m.experts;
    e.expert_degree = s.expert;
    e.hidden = m.expert_io_dim();
    e.inter = m.expert_d_ff / s.etp();
    e.gated = m.mlp == MlpKind::gated;
    e.weight_bytes = bytes_per_element(in.weights);
    e.activation_bytes = 2.0;
    return moe_kernel_time(k.moe[static_cast<std::size_t>(kind)], e, p.tiling, kind_peak(kind), hbm_bytes_per_s);
  }

  // Every layer's ops plus the logits, for `tokens` new tokens attending to `keys` keys each. Decode (`sequences` >
  // 0) reads each sequence's KV cache once per step (scaling-book/inference), the part its layer's span keeps: its
  // local KV heads, or latent attention's whole latent on every TP rank; a linear layer reads its state and writes it
  // back. An MoE layer's experts and their routing run in the serving engine's fused MoE kernel, which loads only the
  // experts the batch touches.
  ServingTimes model(double tokens, double keys, bool causal, double sequences, double context) const {
    const ModelConfig& m = *in.model;
    const bool decode = sequences > 0;
    const LayerShape s = shape(tokens, keys, causal, decode);
    ServingTimes t;
    for (int kk = 0; kk < kLayerKinds; ++kk) {
      const double layers = m.pattern.all.n[kk];
      if (layers <= 0) continue;
      const LayerOps ops = layer_ops(m, kk, s);
      bool moe_layer = false;
      for (int i = 0; i < ops.count; ++i) {
        LayerOp o = ops.op[i];
        if (o.experts || o.routing) {
          moe_layer = true;
          continue;
        }
        // The rotary embedding is inside the serving engine's attention op (its QKV preprocessing).
        if (std::string_view(o.name) == "rotary") continue;
        if (o.kind == OpKind::attention && decode)
          o.attention.mean_keys = mean_keys_per_query(m, kind_span(kk), context, false, true);
        add_time(op_time(o, decode, sequences), layers, o.kind == OpKind::matmul,
                 (o.kind == OpKind::attention || o.reads_cache) && decode, t);
      }
      if (moe_layer) add_time(moe_time(tokens), layers, true, false, t);
    }
    const LayerOps head = head_ops(m, s, true, true);
    for (int i = 0; i < head.count; ++i)
      add_time(op_time(head.op[i], decode, sequences), 1.0, head.op[i].kind == OpKind::matmul, false, t);
    return t;
  }

  // The replica's tensor-parallel all-reduces (one per attention and MLP block on each rank's activations: the serving
  // engines' one-shot all-reduce inside an NVLink domain), with latency, and every MoE layer's dispatch and combine
  // over the expert-parallel group.
  double comms_s(double tokens) const {
    if (!in.include_comms) return 0;
    const ModelConfig& m = *in.model;
    double total = 0;
    if (in.tensor.degree > 1) {
      // The row-parallel GEMMs write bf16 partial sums whatever their inputs' dtype (fp8 and fp4 GEMMs accumulate in
      // fp32 and write bf16), and the all-reduce sums those: its volume is bf16 (TensorRT-LLM's allreduce fusion
      // quantizes after the reduction and the norm).
      const double v = bytes_per_element(Dtype::bf16) * per_rank(tokens) * m.d_model;
      const CollectiveCost c = group_collective(*in.hw, *in.mesh, in.tensor, Collective::all_reduce, v);
      CollectiveModel nccl = k.collective[static_cast<std::size_t>(Collective::all_reduce)];
      double all_reduce_s = 0;
      if (in.hw->kind == ChipKind::gpu && in.tensor.degree > in.hw->scale_up.domain_gpus) {
        nccl.low_latency_link_frac *= p.slow_link_frac / nccl.link_frac;
        nccl.link_frac = p.slow_link_frac;
        nccl.span_penalty = 0;
        all_reduce_s = collective_kernel_s(nccl, c, in.tensor.degree);
      } else {
        // Inside a domain the engines take the faster of NCCL's all-reduce and their own one-shot kernel.
        all_reduce_s = collective_kernel_s(nccl, c, in.tensor.degree);
        if (in.hw->kind == ChipKind::gpu)
          all_reduce_s =
              std::min(all_reduce_s, collective_kernel_s(k.collective[kCustomAllReduce], c, in.tensor.degree));
      }
      total += m.blocks() * all_reduce_s;
    }
    const double ep = serving_expert_degree(in);
    if (ep > 1 && m.is_moe()) {
      const AxisGroup group = ep > in.expert.degree ? folded_expert_group(*in.mesh, in.expert, in.tensor) : in.expert;
      // The tokens go out in the activations' dtype (quantized before the dispatch) and come back as the experts'
      // bf16 outputs (DeepSeek-V3 §3.3.2, DeepEP: FP8 dispatch, BF16 combine).
      const CollectiveModel& a2a = k.collective[static_cast<std::size_t>(Collective::all_to_all)];
      const auto exchange_s = [&](Dtype dtype) {
        const DispatchCost cost =
            expert_dispatch_cost(*in.hw, *in.mesh, group, ep, per_rank(tokens) / in.tensor.degree, m.active_experts,
                                 bytes_per_element(dtype) * m.expert_io_dim(), DispatchKind::all_to_all);
        return achieved_dispatch_s(cost, a2a.link_frac, p.slow_link_frac, a2a.latency_s);
      };
      total += m.moe_layers() * (exchange_s(in.activations) + exchange_s(Dtype::bf16));
    }
    return total;
  }
};

}  // namespace

LayerShape serving_layer_shape(const ServingInput& in, double tokens, double keys, bool causal, bool at_end) {
  LayerShape s;
  s.tokens = tokens / in.expert.degree;
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

DecodeStep calibrated_decode_step(const ServingInput& in, const CalibrationProfile& p, double batch, double context,
                                  double tokens_per_sequence) {
  const Engine e{in, p};
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
  const Engine e{in, p};
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
