#include "planners/calibrated_training.h"

#include <algorithm>
#include <cmath>

#include "physics/collectives.h"
#include "physics/efficiency.h"
#include "physics/layer_ops.h"

namespace scalescope {

namespace {

// Times of one layer (or the head) for one microbatch on one chip, without the per-op launch overhead.
struct WorkTime {
  double forward = 0, backward = 0, recompute = 0;
  double matmul = 0, attention = 0, elementwise = 0, cast = 0;
  double ops = 0;  // kernels launched: forward, backward and recompute

  double total() const { return forward + backward + recompute; }
};

struct Calibrated {
  const TrainingInput& in;
  const CalibrationProfile& p;
  const Hardware& hw;
  double hbm_bytes_per_s = 0;   // achieved
  double vector_flops_per_s = 0;
  bool low_precision = false;   // the linear layers' matmuls run below bf16

  // One GEMM [m,k] x [k,n] (`groups` of them in one grouped kernel), bound by its own roofline.
  double gemm_s(double groups, double m, double k, double n, bool linear, double bytes) const {
    const double flops = groups * 2.0 * m * k * n;
    const bool low = linear && low_precision;
    const double peak = low ? hw.peak(in.precision.matmul) * p.low_precision_frac : hw.peak(Dtype::bf16) * p.matmul_frac;
    const double compute = matmul_compute_s(flops, matmul_shape_efficiency(m, k, n, p.tiling), p.matmul_half_rate_flops, peak);
    return std::max(compute, bytes / hbm_bytes_per_s);
  }
  double attention_s(double flops, double bytes) const {
    const double compute = matmul_compute_s(flops, 1.0, p.matmul_half_rate_flops, hw.peak(Dtype::bf16) * p.attention_frac);
    return std::max(compute, bytes / hbm_bytes_per_s);
  }
  double elementwise_s(double flops, double bytes) const {
    return std::max(bytes * p.elementwise_traffic / hbm_bytes_per_s, flops / vector_flops_per_s);
  }

  void add_op(const LayerOp& o, WorkTime& w) const {
    const bool again = recomputed(o, in.remat);
    double f = 0, b = 0;
    switch (o.kind) {
      case OpKind::matmul: {
        // dL/dX = dY [m,n] x W^T [n,k] and dL/dW = X^T [k,m] x dY [m,n] (§2.7: two matmuls of the forward's size).
        f = gemm_s(o.groups, o.m, o.k, o.n, o.linear, o.bytes);
        b = gemm_s(o.groups, o.m, o.n, o.k, o.linear, o.bytes) + gemm_s(o.groups, o.k, o.m, o.n, o.linear, o.bytes);
        w.matmul += f + b + (again ? f : 0);
        w.ops += 3;
        if (o.linear && low_precision) {
          // Casting to fp8/int8 reads bf16 and writes one byte: the input and weight forward, the output's
          // gradient backward (Transformer Engine's per-tensor scaling; the weight cast repeats per microbatch).
          const double cast_bytes = 3.0 * o.groups * (o.m * o.k + o.k * o.n + o.m * o.n);
          const double cast = cast_bytes * p.elementwise_traffic / hbm_bytes_per_s;
          w.cast += cast;
          w.elementwise += cast;
          b += cast;
        }
        break;
      }
      case OpKind::attention:
      case OpKind::elementwise: {
        const bool attention = o.kind == OpKind::attention;
        auto time = [&](double flops, double bytes) { return attention ? attention_s(flops, bytes) : elementwise_s(flops, bytes); };
        f = time(o.flops, o.bytes);
        b = time(backward_flops_factor(o.kind) * o.flops, backward_bytes_factor(o.kind) * o.bytes);
        (attention ? w.attention : w.elementwise) += f + b + (again ? f : 0);
        w.ops += 2;
        break;
      }
    }
    w.forward += f;
    w.backward += b;
    if (again) {
      w.recompute += f;
      w.ops += 1;
    }
  }

  WorkTime work(const LayerOps& ops) const {
    WorkTime w;
    for (int i = 0; i < ops.count; ++i) add_op(ops.op[i], w);
    return w;
  }

  // GPU collectives inside one NVLink domain use the fast links; a group whose span (its axes and every axis
  // inside them, the last axis innermost) leaves the domain is paced by the scale-out network.
  double link_frac(const AxisGroup& g) const {
    if (hw.kind == ChipKind::tpu) return p.fast_link_frac;
    return g.gpu_span <= hw.scale_up.domain_gpus ? p.fast_link_frac : p.slow_link_frac;
  }

  // `op` over a strategy's ICI / scale-up axes at achieved bandwidth with software latency.
  double collective_s(const AxisGroup& g, Collective op, double bytes) const {
    const CollectiveCost c = group_collective(hw, *in.mesh, g, op, bytes);
    if (c.time_s <= 0) return 0;
    return achieved_collective_s(c.bandwidth_s, c.latency_s, link_frac(g), p.collective_latency_s);
  }
};

// Korthikanti et al. 2022: with sequence parallelism each block's input is all-gathered forward and its output
// reduce-scattered (both again, transposed, backward); without it each block all-reduces its output; a
// recomputed layer gathers its inputs again.
double tensor_parallel_s(const Calibrated& c, const TrainingInput& in, double tokens) {
  const TrainingPlan& pl = in.plan;
  if (pl.tensor.degree <= 1) return 0;
  const double v = bytes_per_element(in.precision.params) * tokens * in.model->d_model;
  const bool redo = in.remat == Remat::block || in.remat == Remat::checkpoints;
  if (pl.sequence_parallel) {
    const double ag = c.collective_s(pl.tensor, Collective::all_gather, v);
    const double rs = c.collective_s(pl.tensor, Collective::reduce_scatter, v);
    return 2.0 * (ag + rs) * 2.0 + (redo ? 2.0 * ag : 0.0);
  }
  const double ar = c.collective_s(pl.tensor, Collective::all_reduce, v);
  return 2.0 * ar * 2.0 + (redo ? 2.0 * ar : 0.0);
}

}  // namespace

CalibratedTrainingStep evaluate_calibrated_training_step(const TrainingInput& in, const CalibrationProfile& prof) {
  CalibratedTrainingStep out;
  out.ideal = evaluate_training_step(in);
  TrainingStep& s = out.step;
  s = out.ideal;
  CalibratedBreakdown& parts = out.parts;
  const ModelConfig& m = *in.model;
  const Hardware& hw = *in.hw;
  const TrainingPlan& pl = in.plan;

  Calibrated c{in, prof, hw};
  c.hbm_bytes_per_s = hw.hbm_bandwidth_bytes_per_s * prof.hbm_frac;
  c.vector_flops_per_s = hw.vector_flops_per_s > 0 ? hw.vector_flops_per_s : hw.peak(Dtype::bf16) / 32.0;
  c.low_precision = bytes_per_element(in.precision.matmul) < bytes_per_element(Dtype::bf16);

  // One microbatch on one chip of the slowest pipeline stage (the last: it also holds the logits and the loss).
  LayerShape shape;
  shape.tokens = s.microbatch_tokens;
  shape.seq_len = in.seq_len;
  shape.causal = in.causal;
  shape.tensor = s.tensor;
  shape.sequence_parallel = pl.sequence_parallel;
  shape.expert = s.expert;
  shape.activations = in.precision.params;
  shape.weights = c.low_precision ? in.precision.matmul : in.precision.params;
  const double stages = s.pipeline;
  // Stages that do not divide the layers: the busiest holds stage_imbalance x the average (book step, issue 9).
  const double stage_share = s.stage_imbalance / stages;
  const double moe_layers = m.moe_layers() * stage_share, dense_layers = m.dense_mlp_layers() * stage_share;
  const WorkTime dense = c.work(layer_ops(m, false, shape));
  const WorkTime moe = m.is_moe() ? c.work(layer_ops(m, true, shape)) : WorkTime{};
  const WorkTime head = c.work(head_ops(m, shape, stages <= 1, true));

  // Communication inside the microbatch, per layer (Korthikanti et al.; Megatron-LM): TP/SP and EP on the
  // critical path but for what the profile's frameworks overlap, CP's ring passes behind the attention kernel,
  // FSDP's layer-by-layer gathers behind the neighbouring layer's compute.
  const double mb = pl.microbatches, p_bytes = bytes_per_element(in.precision.params);
  // Gradients are reduced in the master weights' format where there is one (Megatron's fp32 main grads, MaxText's
  // fp32 weights): reductions move grad_frac x the working weights' bytes.
  const double grad_frac = in.precision.master_weights ? bytes_per_element(in.precision.master) / p_bytes : 1.0;
  const double tp_layer = tensor_parallel_s(c, in, shape.tokens);
  double ep_layer = 0;
  if (s.expert > 1 && m.is_moe()) {
    const double v = p_bytes * shape.tokens * s.expert * m.d_model * m.active_experts;
    const double redo = in.remat == Remat::block || in.remat == Remat::checkpoints ? 2.0 : 0.0;
    ep_layer = (4.0 + redo) * c.collective_s(pl.expert, Collective::all_to_all, v);
  }
  double cp_layer = 0, cp_exposed_layer = 0;
  if (s.context > 1) {
    const double v = 2.0 * p_bytes * shape.tokens * s.context * m.kv_heads * m.head_dim / std::min(s.tensor, m.kv_heads);
    cp_layer = 3.0 * c.collective_s(pl.context, Collective::all_gather, v);
    cp_exposed_layer = exposed_s(cp_layer, dense.attention, prof.overlap_frac);
  }
  const ParamCounts params = count_params(m);
  const double routed = m.moe_layers() * m.experts * m.mlp_matrices() * m.d_model * m.expert_d_ff;
  const double chip_params = ((params.total - routed) + routed / s.expert) / s.tensor * stage_share;
  const double layers_here = m.layers * stage_share;
  const double layer_weight_bytes = chip_params * p_bytes / layers_here;
  const bool zero3 = s.fsdp > 1 && pl.zero_stage >= 3;
  double fsdp_layer = 0, fsdp_exposed_layer = 0;
  if (zero3) {
    const double ag = c.collective_s(pl.fsdp, Collective::all_gather, layer_weight_bytes);
    const double rs = c.collective_s(pl.fsdp, Collective::reduce_scatter, grad_frac * layer_weight_bytes);
    fsdp_layer = 2.0 * ag + rs;
    const WorkTime& w = dense_layers >= moe_layers ? dense : moe;
    fsdp_exposed_layer = exposed_s(ag, w.forward, prof.overlap_frac) +
                         exposed_s(ag + rs, w.backward + w.recompute, prof.overlap_frac);
  }
  const double layer_count = dense_layers + moe_layers;
  // TP, SP and EP transfers hide only behind the matmuls they feed and drain (XLA's async collectives and collective
  // matmuls; Megatron's TP-comm overlap): what tp_overlap_frac of those matmuls cannot cover is exposed.
  const double tp_exposed_layer = exposed_s(tp_layer, dense.matmul, prof.tp_overlap_frac);
  const double ep_exposed_layer = exposed_s(ep_layer, moe.matmul, prof.tp_overlap_frac);
  const double exposed_in_layers = layer_count * (tp_exposed_layer + cp_exposed_layer + fsdp_exposed_layer) +
                                   moe_layers * ep_exposed_layer;
  const double overhead_per_mb =
      prof.op_overhead_s * (dense_layers * dense.ops + moe_layers * moe.ops + head.ops);
  const double work_per_mb = dense_layers * dense.total() + moe_layers * moe.total() + head.total();
  const double stage_mb_s = work_per_mb + overhead_per_mb + exposed_in_layers;

  // Pipeline (Narayanan et al. 2021): m microbatches plus (S - 1)/v microbatch times of fill and drain at the
  // pace of the slowest stage; each stage boundary sends activations forward and gradients backward.
  double bubble = 0, pp_send = 0;
  if (stages > 1) {
    const double v = pl.schedule == PipelineSchedule::interleaved ? pl.virtual_stages : 1.0;
    bubble = (stages - 1.0) / v * stage_mb_s;
    const double bytes = p_bytes * shape.tokens * m.d_model / (pl.sequence_parallel ? s.tensor : 1.0);
    const double link = hw.kind == ChipKind::tpu ? hw.ici.link_unidir_bytes_per_s
                        : stages * s.tensor * s.context <= hw.scale_up.domain_gpus ? hw.scale_up.gpu_unidir_bytes_per_s
                                                                                   : hw.scale_out.nic_unidir_bytes_per_s_per_gpu;
    const double frac = hw.kind == ChipKind::tpu || stages * s.tensor * s.context <= hw.scale_up.domain_gpus
                            ? prof.fast_link_frac : prof.slow_link_frac;
    const double send = prof.collective_latency_s + bytes / (link * frac);
    pp_send = 2.0 * v * mb * send;
  }

  // Once per step, after the last microbatch's backward: the gradient reductions over DP (all-reduce), ZeRO-1/2
  // over FSDP (reduce-scatter, then all-gather of the updated weights) and DCN, bucketed behind that backward.
  const double last_backward = layers_here * (dense_layers >= moe_layers ? dense.backward : moe.backward);
  const double grad_bytes_per_layer = grad_frac * layer_weight_bytes / s.fsdp;
  const double dp = layers_here * c.collective_s(pl.data, Collective::all_reduce, grad_bytes_per_layer);
  double zero12 = 0, zero12_exposed = 0;
  if (s.fsdp > 1 && !zero3) {
    const double rs = layers_here * c.collective_s(pl.fsdp, Collective::reduce_scatter, grad_frac * layer_weight_bytes);
    const double ag = layers_here * c.collective_s(pl.fsdp, Collective::all_gather, layer_weight_bytes);
    zero12 = rs + ag;
    zero12_exposed = exposed_s(rs, last_backward, prof.overlap_frac) + exposed_s(ag, last_backward, prof.overlap_frac);
  }
  // Across slices (§2.9.7): every layer's gradients all-reduced over DCN, one collective per layer whose ring over
  // S slices takes 2 (S - 1) steps, each paying the DCN latency; scheduled once the backward pass ends (MaxText's
  // multi-slice step).
  double dcn = 0;
  if (s.slices > 1) {
    const double layer_grads = grad_frac * chip_params * p_bytes * s.tensor * stages * s.expert / layers_here;
    const CollectiveCost book = dcn_collective(Collective::all_reduce, layer_grads, s.slices, in.mesh->chips_per_slice,
                                               hw.dcn_unidir_bytes_per_s_per_chip);
    dcn = layers_here * achieved_collective_s(book.bandwidth_s, book.latency_s, prof.slow_link_frac,
                                              prof.dcn_latency_s * 2.0 * (s.slices - 1.0));
  }
  const double dp_exposed = exposed_s(dp, last_backward, prof.overlap_frac);
  const double dcn_exposed = prof.dcn_exposed_frac * dcn;

  // Adam (§2.8) reads and writes its shard of the master weights and both moments, reads the gradients and writes
  // the working weights: memory-bound.
  const double zero1 = pl.zero_stage >= 1 ? s.fsdp : 1.0;
  const double master = in.precision.master_weights ? bytes_per_element(in.precision.master) : 0.0;
  const double optimizer_bytes =
      chip_params / zero1 * (2.0 * master + 4.0 * bytes_per_element(in.precision.optimizer) + 2.0 * p_bytes);
  parts.optimizer_s = optimizer_bytes / c.hbm_bytes_per_s;
  parts.step_overhead_s = prof.step_overhead_s;

  const double compute_s = mb * (work_per_mb + overhead_per_mb);
  const double pp_exposed = exposed_s(pp_send, mb * work_per_mb, prof.tp_overlap_frac);
  parts.step_s = mb * stage_mb_s + bubble + pp_exposed + dp_exposed + zero12_exposed + dcn_exposed +
                 parts.optimizer_s + parts.step_overhead_s;
  parts.bubble_s = bubble;
  const double per_mb = mb;
  auto layer_sum = [&](double WorkTime::*f) { return per_mb * (dense_layers * dense.*f + moe_layers * moe.*f); };
  parts.matmul_s = layer_sum(&WorkTime::matmul) + per_mb * head.matmul;
  parts.attention_s = layer_sum(&WorkTime::attention);
  parts.elementwise_s = layer_sum(&WorkTime::elementwise) + per_mb * head.elementwise;
  parts.low_precision_cast_s = layer_sum(&WorkTime::cast);
  parts.recompute_s = layer_sum(&WorkTime::recompute);
  parts.op_overhead_s = mb * overhead_per_mb;
  parts.head_s = per_mb * head.total();
  auto set_comms = [&](CommPart part, double full, double exposed) {
    parts.comms_s[int(part)] = full;
    parts.exposed_comms_s[int(part)] = exposed;
  };
  set_comms(CommPart::tensor, mb * layer_count * tp_layer, mb * layer_count * tp_exposed_layer);
  set_comms(CommPart::expert, mb * moe_layers * ep_layer, mb * moe_layers * ep_exposed_layer);
  set_comms(CommPart::context, mb * layer_count * cp_layer, mb * layer_count * cp_exposed_layer);
  set_comms(CommPart::fsdp, zero3 ? mb * layer_count * fsdp_layer : zero12,
            zero3 ? mb * layer_count * fsdp_exposed_layer : zero12_exposed);
  set_comms(CommPart::pipeline, pp_send, pp_exposed);
  set_comms(CommPart::data, dp, dp_exposed);
  set_comms(CommPart::dcn, dcn, dcn_exposed);

  // Memory per chip (Korthikanti et al. activations; the book's weights, gradients and optimizer states) plus what
  // is live only while the step runs: two gathered FSDP layers (one computing, one prefetched), the logits and
  // their gradient on the last stage (bf16; the fp32 loss runs in chunks), and one layer's full activations while
  // remat recomputes it.
  const double saved_layer = (dense_layers * saved_activation_bytes(m, false, shape, in.remat, in.checkpoints_per_layer) +
                              moe_layers * saved_activation_bytes(m, true, shape, in.remat, in.checkpoints_per_layer));
  s.activations_bytes = saved_layer * s.in_flight_microbatches;
  parts.transient_bytes = (zero3 ? 2.0 * layer_weight_bytes : 0.0) + 2.0 * p_bytes * shape.tokens * m.vocab / s.tensor +
                          (in.remat == Remat::none ? 0.0 : saved_activation_bytes(m, m.is_moe(), shape, Remat::none, 0));
  s.total_bytes = s.params_bytes + s.grads_bytes + s.master_bytes + s.optimizer_bytes + s.activations_bytes +
                  s.context_buffers_bytes + parts.transient_bytes;
  s.fits = s.total_bytes <= s.hbm_capacity_bytes;
  s.shortfall_bytes = std::max(0.0, s.total_bytes - s.hbm_capacity_bytes);

  // The step in the book's terms: compute (the layers' kernels), the bubble, HBM-bound time, exposed comms.
  s.compute_s = compute_s;
  s.bubble_s = bubble;
  s.bubble_frac = parts.step_s > 0 ? bubble / parts.step_s : 0;
  s.hbm_s = parts.elementwise_s + parts.optimizer_s;
  s.comms_s = parts.exposed_comms_s;
  s.comms_s_sum = 0;
  int worst = 0;
  for (int i = 0; i < kCommParts; ++i) {
    s.comms_s_sum += parts.comms_s[i];
    if (parts.exposed_comms_s[i] > parts.exposed_comms_s[worst]) worst = i;
  }
  s.exposed_comms_s = 0;
  for (double e : parts.exposed_comms_s) s.exposed_comms_s += e;
  s.comms_s_total = s.exposed_comms_s;
  s.step_s = parts.step_s;
  s.lower_bound_s = out.ideal.step_s;
  s.upper_bound_s = std::max(parts.step_s, out.ideal.upper_bound_s);
  const double matmul_work = parts.matmul_s + parts.attention_s;
  const double memory_work = parts.elementwise_s + parts.optimizer_s;
  if (s.exposed_comms_s >= matmul_work && s.exposed_comms_s >= memory_work && s.exposed_comms_s >= bubble) {
    s.bound = "communication";
    s.critical = comm_part_name(static_cast<CommPart>(worst));
  } else if (memory_work > matmul_work && memory_work >= bubble) {
    s.bound = s.critical = "memory";
  } else {
    s.bound = "compute";
    s.critical = bubble > 0 ? "compute+bubble" : "compute";
  }
  const double peak = hw.peak(in.precision.matmul);
  s.mfu_frac = s.model_flops / (s.step_s * s.chips * peak);
  s.hfu_frac = s.hardware_flops / (s.step_s * s.chips * peak);
  s.tokens_per_s = in.batch_tokens / s.step_s;
  s.tokens_per_s_per_chip = s.tokens_per_s / s.chips;
  s.train_time_s = in.train_tokens > 0 ? in.train_tokens / s.tokens_per_s : 0;
  s.train_usd = s.train_time_s / 3600.0 * s.usd_per_hour;
  return out;
}

}  // namespace scalescope
