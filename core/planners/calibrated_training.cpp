#include "planners/calibrated_training.h"

#include <algorithm>
#include <cmath>

#include "physics/collectives.h"
#include "physics/efficiency.h"
#include "physics/expert_dispatch.h"
#include "physics/kernels.h"
#include "physics/layer_ops.h"
#include "physics/portable_math.h"
#include "planners/pipeline.h"

namespace scalescope {

namespace {

// Times of one layer (or the head) for one microbatch on one chip, without the per-op launch overhead.
struct WorkTime {
  double forward = 0, backward = 0, recompute = 0;
  double weight_grad = 0;  // the dL/dW matmuls (inside backward): what zero-bubble schedules move into the bubble
  double matmul = 0, attention = 0, elementwise = 0, cast = 0;
  double expert_matmul = 0;  // the routed experts' grouped matmuls (inside matmul)
  double ops = 0;  // kernels launched: forward, backward and recompute

  double total() const { return forward + backward + recompute; }
};

// Op o's forward [m,k] x [k,n], dL/dX = dY [m,n] x W^T [n,k] and dL/dW = X^T [k,m] x dY [m,n] (§2.7: two matmuls
// of the forward's size), each as its FLOPs over the shape efficiency it reaches at `tiling` (zeros: not a matmul).
std::array<double, 3> padded_matmul_flops(const LayerOp& o, const MatmulTiling& tiling) {
  if (o.kind != OpKind::matmul) return {};
  auto padded = [&](double m, double k, double n) {
    return o.groups * 2.0 * m * k * n / matmul_shape_efficiency(m, k, n, tiling);
  };
  return {padded(o.m, o.k, o.n), padded(o.m, o.n, o.k), padded(o.k, o.m, o.n)};
}

bool same_tiling(const MatmulTiling& a, const MatmulTiling& b) {
  return a.tile_m == b.tile_m && a.tile_n == b.tile_n && a.tile_k == b.tile_k && a.parallel_tiles == b.parallel_tiles;
}

// The GEMM kernel a training recipe's linear layers run in (specs/kernel_models.h): per-tensor fp8 or int8;
// DeepSeek-style blocks and MXFP8's 32-element blocks, both dequantised per block inside the kernel; NVFP4.
GemmKind recipe_gemm_kind(const TrainingPrecision& p) {
  if (bytes_per_element(p.matmul) >= bytes_per_element(Dtype::bf16)) return GemmKind::bf16;
  switch (p.recipe) {
    case MatmulRecipe::blockwise:
    case MatmulRecipe::mxfp8: return GemmKind::fp8_block;
    case MatmulRecipe::nvfp4: return GemmKind::fp4;
    case MatmulRecipe::tensorwise:
    case MatmulRecipe::none: break;
  }
  return p.matmul == Dtype::fp4 ? GemmKind::fp4 : GemmKind::fp8;
}

struct Calibrated {
  const TrainingInput& in;
  const CalibrationProfile& p;
  const Hardware& hw;
  const KernelModels& k;
  double hbm_bytes_per_s = 0;   // the chip's peak (each kernel model takes its own share)
  double clock = 1;             // the matrix units' sustained rate relative to the kernel tables' 
  double stream_bytes_per_s = 0;  // achieved by elementwise kernels
  double vector_flops_per_s = 0;
  bool low_precision = false;   // the linear layers' matmuls run below bf16
  GemmKind linear_kind = GemmKind::bf16;
  CastBytes cast{};

  CalibratedStepMemo* memo = nullptr;  // what the last call on this input kept, or nullptr

  // One GEMM of op o (`groups` of them in one grouped kernel) of `padded_flops` (its FLOPs over its shape
  // efficiency): the dense GEMM kernel, or the MoE experts' grouped one, of the op's kind.
  double gemm_s(const LayerOp& o, double padded_flops) const {
    const GemmKind kind = o.linear && low_precision ? linear_kind : GemmKind::bf16;
    const GemmModel& g = (o.experts ? k.moe : k.gemm)[static_cast<std::size_t>(kind)];
    const double peak = clock * hw.peak(kind == GemmKind::bf16 ? Dtype::bf16 : in.precision.matmul);
    return gemm_kernel_time(g, padded_flops, 1.0, o.groups, o.bytes, peak, hbm_bytes_per_s).total();
  }
  // Flash attention forward, and backward at the model's backward rate; a materialized kernel (attention of 2021,
  // scores in HBM) runs as two batched bf16 GEMMs beside the passes over its scores.
  std::array<double, 2> attention_s(const LayerOp& o) const {
    const double back = backward_flops_factor(OpKind::attention, in.attention.kernel);
    const AttentionDims& d = o.attention;
    if (in.attention.kernel == AttentionKernel::materialized) {
      // Per (sequence, head), the scores S = Q K^T [q, d_qk] x [d_qk, keys] over every key (the masked half too) and
      // the output P V [q, keys] x [keys, d_v], as batched bf16 GEMMs of those shapes (Megatron's unfused
      // attention); their passes over the scores, at the elementwise rate.
      const GemmModel& g = k.gemm[static_cast<std::size_t>(GemmKind::bf16)];
      const double groups = d.sequences * d.heads, q = d.query_len, keys = d.max_keys;
      const double padded =
          groups * (2.0 * q * d.qk_dim * keys / matmul_shape_efficiency(q, d.qk_dim, keys, p.tiling) +
                    2.0 * q * keys * d.v_dim / matmul_shape_efficiency(q, keys, d.v_dim, p.tiling));
      const KernelTime f = gemm_kernel_time(g, padded, 1.0, 2.0 * groups, 0.0, clock * hw.peak(Dtype::bf16), hbm_bytes_per_s);
      const double memory = o.bytes / stream_bytes_per_s;
      return {f.serial_s + std::max(f.compute_s, memory),
              f.serial_s + std::max(back * f.compute_s, backward_bytes_factor(OpKind::attention) * memory)};
    }
    const FlashAttentionShape a = flash_attention_shape(d);
    const KernelTime f = flash_attention_time(k.prefill, a, p.tiling.parallel_tiles, clock * hw.peak(Dtype::bf16),
                                              clock * hw.peak(Dtype::fp8), hbm_bytes_per_s);
    // FlashAttention-2 §3.1: the backward recomputes the scores and runs four matmuls (2.5x the forward's work).
    return {f.total(), f.serial_s + back * f.compute_s / k.prefill.backward_frac};
  }
  double elementwise_s(double flops, double bytes, bool routing) const {
    return std::max(bytes * (routing ? p.routing_traffic : p.elementwise_traffic) / stream_bytes_per_s,
                    flops / vector_flops_per_s);
  }

  // `padded`: the forward's, dL/dX's and dL/dW's FLOPs over their shape efficiency (padded_matmul_flops).
  void add_op(const LayerOp& o, const std::array<double, 3>& padded, WorkTime& w) const {
    const bool again = recomputed(o, in.remat);
    double f = 0, b = 0;
    switch (o.kind) {
      case OpKind::matmul: {
        f = gemm_s(o, padded[0]);
        const double dw = gemm_s(o, padded[2]);
        b = gemm_s(o, padded[1]) + dw;
        w.weight_grad += dw;
        w.matmul += f + b + (again ? f : 0);
        if (o.experts) w.expert_matmul += f + b + (again ? f : 0);
        w.ops += 3;
        if (o.linear && low_precision) {
          // Casting the input and weight forward and the output's gradient backward to the recipe's copies
          // (planners/training_settings.cpp); the weight cast repeats per microbatch.
          const double cast_bytes = o.groups * (cast.input * o.m * o.k + cast.weight * o.k * o.n + cast.gradient * o.m * o.n);
          const double cast_s = cast_bytes * p.elementwise_traffic / stream_bytes_per_s;
          w.cast += cast_s;
          w.elementwise += cast_s;
          b += cast_s;
        }
        break;
      }
      case OpKind::attention: {
        const auto [forward, backward] = attention_s(o);
        f = forward;
        b = backward;
        w.attention += f + b + (again ? f : 0);
        w.ops += 2;
        break;
      }
      case OpKind::elementwise: {
        f = elementwise_s(o.flops, o.bytes, o.routing);
        b = elementwise_s(backward_flops_factor(o.kind) * o.flops, backward_bytes_factor(o.kind) * o.bytes, o.routing);
        w.elementwise += f + b + (again ? f : 0);
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

  // The work of the ops `make` lists, kept in the memo's `slot` after the first call on this input.
  template <class MakeOps>
  WorkTime work(std::size_t slot, const MakeOps& make) const {
    WorkTime w;
    if (!memo) {
      const LayerOps ops = make();
      for (int i = 0; i < ops.count; ++i) add_op(ops.op[i], padded_matmul_flops(ops.op[i], p.tiling), w);
      return w;
    }
    CalibratedStepMemo::Ops& kept = memo->ops[slot];
    if (!kept.set) {
      const LayerOps ops = make();
      kept.ops.assign(ops.op.begin(), ops.op.begin() + ops.count);
      for (const LayerOp& o : kept.ops) kept.padded_flops.push_back(padded_matmul_flops(o, p.tiling));
      kept.set = true;
    }
    for (std::size_t i = 0; i < kept.ops.size(); ++i) add_op(kept.ops[i], kept.padded_flops[i], w);
    return w;
  }

  // A collective's or an exchange's book cost: the memo's next transfer if it was asked the same, else `compute`d
  // (and recorded while the memo is in step with this call).
  template <class Compute>
  CalibratedStepMemo::Transfer transfer(CalibratedStepMemo::Transfer asked, const Compute& compute) const {
    if (memo && memo->next_transfer < memo->transfers.size()) {
      const CalibratedStepMemo::Transfer& t = memo->transfers[memo->next_transfer++];
      if (t.op == asked.op && t.bytes == asked.bytes && t.degree == asked.degree && t.ranks == asked.ranks &&
          t.axis_mask == asked.axis_mask)
        return t;
      memo->next_transfer = kOutOfStep;
    }
    compute(asked);
    if (memo && memo->next_transfer == memo->transfers.size()) {
      memo->transfers.push_back(asked);
      ++memo->next_transfer;
    }
    return asked;
  }
  static constexpr std::size_t kOutOfStep = static_cast<std::size_t>(-1);  // the rest of this call computes afresh

  // GPU collectives inside one NVLink domain run as the chip's NCCL measurements show; a group whose span (its axes
  // and every axis inside them, the last axis innermost) leaves the domain is paced by the scale-out network, which
  // no public table measures (slow_link_frac, an end-to-end constant, in place of the links' share).
  double collective_s(const AxisGroup& g, Collective op, double bytes) const {
    const CollectiveCost c =
        transfer({static_cast<int>(op), bytes, g.degree, 0, g.axis_mask, {}, {}}, [&](CalibratedStepMemo::Transfer& t) {
          t.collective = group_collective(hw, *in.mesh, g, op, bytes);
        }).collective;
    CollectiveModel model = k.collective[static_cast<std::size_t>(op)];
    if (hw.kind == ChipKind::gpu && g.gpu_span > hw.scale_up.domain_gpus) {
      model.low_latency_link_frac *= p.slow_link_frac / model.link_frac;
      model.link_frac = p.slow_link_frac;
      model.span_penalty = 0;
    }
    return collective_kernel_s(model, c, g.degree);
  }

  // One direction of an MoE layer's token exchange (dispatch or combine) over the expert-parallel group.
  double dispatch_s(const AxisGroup& group, double ranks, double tokens) const {
    const ModelConfig& m = *in.model;
    const DispatchCost cost =
        transfer({-1, tokens, group.degree, ranks, group.axis_mask, {}, {}}, [&](CalibratedStepMemo::Transfer& t) {
          t.dispatch = expert_dispatch_cost(
              hw, *in.mesh, group, ranks, tokens, m.active_experts,
              bytes_per_element(in.precision.params) * m.expert_io_dim(),
              in.moe.dispatcher == Dispatcher::hierarchical ? DispatchKind::hierarchical : DispatchKind::all_to_all);
        }).dispatch;
    const CollectiveModel& a2a = k.collective[static_cast<std::size_t>(Collective::all_to_all)];
    return achieved_dispatch_s(cost, a2a.link_frac, p.slow_link_frac, a2a.latency_s);
  }
};

// Data shards that hold pieces of one sequence (the book's "tokens are tokens", §3.6 #61; issue 22 item 16): each
// layer's attention needs the keys and values of the sequence's other pieces, gathered forward and again, with
// their gradients reduce-scattered, backward, as CP's all-gather variant moves them. The pieces sit on
// neighbouring shards of the innermost data-shard strategy, a sub-ring of `pieces` of its `degree` (priced as the
// experts' TP sub-group is). `kv_bytes_per_token`: one token's K and V on this TP rank. Zero unless some shard holds
// part of a sequence (the `sequence_sharded` warning's case across shards; plan_problems need not be asked again).
double split_sequence_kv_s(const Calibrated& c, const TrainingInput& in, double kv_bytes_per_token) {
  const TrainingPlan& pl = in.plan;
  const AxisGroup& group = pl.fsdp.degree > 1 ? pl.fsdp : pl.data.degree > 1 ? pl.data : pl.expert;
  if (group.degree <= 1) return 0;
  const double shards = pl.data.degree * pl.fsdp.degree * pl.expert.degree;
  // Whole sequences on every shard, split only over its microbatches: the earlier pieces' K and V are on the chip.
  if (divides(shards, in.batch_tokens / in.seq_len)) return 0;
  const double shard_tokens = in.batch_tokens / shards;
  // A shard shorter than a sequence holds a piece of ceil(S / shard) shards' sequence; a longer one shares one
  // sequence with its neighbour.
  const double pieces = std::min(group.degree, std::max(2.0, std::ceil(in.seq_len / shard_tokens)));
  const double ring = ((pieces - 1.0) / pieces) / ((group.degree - 1.0) / group.degree);
  return 3.0 * ring * c.collective_s(group, Collective::all_gather, kv_bytes_per_token * in.seq_len);
}

// One block's tensor-parallel collectives (Korthikanti et al. 2022): with sequence parallelism the block's input is
// all-gathered forward and its output reduce-scattered (both again, transposed, backward); without it the block
// all-reduces its output; a recomputed layer gathers its input again.
double tp_block_s(const Calibrated& c, const TrainingInput& in, const AxisGroup& group, double bytes) {
  if (group.degree <= 1) return 0;
  const bool redo = in.remat == Remat::block || in.remat == Remat::checkpoints;
  if (in.plan.sequence_parallel) {
    const double ag = c.collective_s(group, Collective::all_gather, bytes);
    const double rs = c.collective_s(group, Collective::reduce_scatter, bytes);
    return 2.0 * (ag + rs) + (redo ? ag : 0.0);
  }
  const double ar = c.collective_s(group, Collective::all_reduce, bytes);
  return 2.0 * ar + (redo ? ar : 0.0);
}

// The expert-parallel group as the experts see it: the expert axis, and under parallel folding the TP ranks the
// experts do not split over (their pieces join the group).
AxisGroup expert_group(const Mesh& mesh, const TrainingPlan& pl) {
  if (expert_tensor_degree(pl) >= pl.tensor.degree) return pl.expert;
  return folded_expert_group(mesh, pl.expert, pl.tensor);
}

}  // namespace

bool gathers_layers(const TrainingPlan& pl, const TrainingStep& ideal) {
  // ZeRO-3 gathers every layer's weights over FSDP and the non-expert ones over the expert ranks as well.
  return pl.zero_stage >= 3 && (ideal.fsdp > 1 || ideal.expert > 1);
}

LayerShape microbatch_shape(const TrainingInput& in, const TrainingStep& ideal) {
  const TrainingPlan& pl = in.plan;
  LayerShape shape;
  shape.tokens = ideal.microbatch_tokens;
  shape.seq_len = in.seq_len;
  shape.causal = in.causal;
  shape.tensor = ideal.tensor;
  shape.sequence_parallel = pl.sequence_parallel;
  shape.expert = expert_parallel_degree(pl);
  shape.expert_tensor = expert_tensor_degree(pl);
  shape.expert_load = in.model->is_moe() ? expert_load(in.moe) : 1.0;
  shape.activations = in.precision.params;
  shape.attention = in.attention;
  const bool low_precision = bytes_per_element(in.precision.matmul) < bytes_per_element(Dtype::bf16);
  shape.weights = low_precision ? in.precision.matmul : in.precision.params;
  return shape;
}

CalibratedMemory calibrated_memory(const TrainingInput& in, const TrainingStep& ideal, const LayerShape& shape,
                                   const LayerCounts& here, double gathered_layer_bytes) {
  const ModelConfig& m = *in.model;
  const double p_bytes = bytes_per_element(in.precision.params);
  const double mtp = m.mtp_layers > 0 ? std::min(in.mtp_layers, m.mtp_layers) : 0.0;
  const double k = in.checkpoints_per_layer;
  auto saved = [&](int kind, Remat remat) { return saved_activation_bytes(m, kind, shape, remat, k); };
  // Each kind of layer on this stage, and the trained MTP modules (a full-attention layer of the model's MLP).
  const int mtp_kind = layer_kind(m.is_moe(), AttentionSpan::full);
  std::array<double, kLayerKinds> layers = here.n;
  layers[static_cast<std::size_t>(mtp_kind)] += mtp;
  // One microbatch through this stage's layers; the first stage holds `in_flight` of them (pipeline.cpp).
  double per_microbatch = 0, recompute = 0;
  for (int kind = 0; kind < kLayerKinds; ++kind) {
    const double n = layers[static_cast<std::size_t>(kind)];
    if (n <= 0) continue;
    const double kept = saved(kind, in.remat);
    per_microbatch += n * kept;
    recompute = std::max(recompute, saved(kind, Remat::none) - kept);
  }
  per_microbatch *= resident_activation_frac(in.plan, here.total());
  CalibratedMemory out;
  out.activations_bytes = per_microbatch * ideal.in_flight_microbatches;
  // Live only while one part of the step runs, and never at once, so the peak takes the larger (Chen et al. 2016,
  // "Training Deep Nets with Sublinear Memory Cost", §3: the checkpoints plus one segment's recomputation):
  // - while a layer's backward runs, what remat redoes of it: its full activations less those it kept;
  // - from the output layer's forward to its backward, before any layer's backward starts, the logits and their
  //   gradient (vocabulary-parallel, with the loss's fp32 copy where the framework keeps one). They are on the last stage,
  //   which holds fewer microbatches in flight than the first (pipeline.cpp): only what exceeds the difference adds.
  // The logits phase per logit: the output layer's logits and the gradient its backward reads (2 x bf16) where XLA
  // fuses the loss's fp32 upcast into its reductions (MaxText's cast_logits_to_fp32). PyTorch frameworks
  // materialize the upcast: Megatron-Core's vocab-parallel cross entropy softmaxes an fp32 copy in place, keeps it
  // for the backward and turns it into the gradient there (NVIDIA/Megatron-LM megatron/core/tensor_parallel/
  // cross_entropy.py @ d98e8a6), so the bf16 logits (forward) or the bf16 gradient (backward) sit beside 4 fp32
  // bytes, as the loss's time assumes (head_ops). torchtitan's eager cross_entropy(pred.float()) holds more.
  const double per_logit = in.hw->kind == ChipKind::gpu ? p_bytes + bytes_per_element(Dtype::fp32) : 2.0 * p_bytes;
  const double logits = per_logit * shape.tokens * m.vocab / ideal.tensor;
  const TrainingPlan& pl = in.plan;
  const double last_in_flight =
      ideal.pipeline > 1 ? schedule_last_stage_in_flight(pl.schedule, ideal.pipeline, pl.microbatches, pl.virtual_stages)
                         : ideal.in_flight_microbatches;
  const double last_stage_room = std::max(0.0, ideal.in_flight_microbatches - last_in_flight) * per_microbatch;
  // Two gathered layers (one computing, one prefetched) under ZeRO-3, through the whole step.
  out.transient_bytes = 2.0 * gathered_layer_bytes + std::max({0.0, recompute, logits - last_stage_room});
  out.total_bytes = ideal.params_bytes + ideal.grads_bytes + ideal.master_bytes + ideal.optimizer_bytes +
                    out.activations_bytes + ideal.context_buffers_bytes + out.transient_bytes;
  return out;
}

bool calibrated_step_bound(const TrainingInput& in, const CalibrationProfile& prof, CalibratedStepBound& out) {
  TrainingStep& ideal = out.ideal;
  training_step_memory(in, out.counts, ideal);
  out.counts.model_counted = true;
  // A model of several layer kinds cut into stages: the busiest stage, whose memory this is, is the slowest one. A
  // target MFU prices the book's compute from model FLOPs, with no rate to compare.
  if ((ideal.pipeline > 1 && in.model->pattern.runs.size() > 1) || in.target_mfu_frac > 0) return false;
  // The book runs every FLOP at peak; the calibrated step runs none faster than the best of its fitted rates, so
  // the book's compute (with the bubble) scaled to that rate is still below it.
  const double book_rate = in.hw->peak(in.precision.matmul) * in.efficiency.flops_frac;
  const bool low_precision = bytes_per_element(in.precision.matmul) < bytes_per_element(Dtype::bf16);
  const KernelModels& k = prof.kernels;
  const std::size_t bf16 = static_cast<std::size_t>(GemmKind::bf16), low = static_cast<std::size_t>(recipe_gemm_kind(in.precision));
  // Flash attention's rate is its ceiling less the softmax's share of the model's heads (physics/kernels.h).
  const double heads_dim = in.model->qk_head_dim() + in.model->v_head_dim();
  const double attention_rate = k.prefill.ceiling_frac / (1.0 + 2.0 * k.prefill.softmax_head_dim / heads_dim);
  const double best_rate =
      std::max({in.hw->peak(Dtype::bf16) * std::max({k.gemm[bf16].ceiling_frac, k.moe[bf16].ceiling_frac, attention_rate}),
                low_precision ? in.hw->peak(in.precision.matmul) * std::max(k.gemm[low].ceiling_frac, k.moe[low].ceiling_frac) : 0.0});
  out.step_s = (ideal.compute_s + ideal.bubble_s) * book_rate / best_rate;
  const LayerCounts& here = ideal.stage_kinds;
  double gathered = 0;
  if (gathers_layers(in.plan, ideal))
    gathered = out.counts.chip.total() * bytes_per_element(in.precision.params) / here.total();
  out.total_bytes = calibrated_memory(in, ideal, microbatch_shape(in, ideal), here, gathered).total_bytes;
  return true;
}

void tighten_step_bound(const TrainingInput& in, CalibratedStepBound& out) {
  TrainingStep& ideal = out.ideal;
  training_step_time(in, out.counts, ideal);
  // The book's step is the slowest of compute, HBM and comms. Its HBM and comms are kept but for the terms it can
  // price above the calibrated step: host offload, which the calibrated step takes as hidden, and the expert
  // exchange with the DCN part it shares (the book's flat all-to-all over an expert group that leaves the NVLink
  // domain costs up to 15x the calibrated dispatch).
  const bool experts = ideal.expert > 1 && in.model->is_moe();
  double comms = 0;
  for (int i = 0; i < kCommParts; ++i) {
    if (experts && (i == int(CommPart::expert) || i == int(CommPart::dcn))) continue;
    comms = in.sum_comms_model ? comms + ideal.comms_s[i] : std::max(comms, ideal.comms_s[i]);
  }
  out.step_s = std::max({out.step_s, ideal.hbm_s, comms});
}

namespace {

// The calibrated step of `in` beside its book step `ideal`: `s` starts as a copy of it.
void price_calibrated_step(const TrainingInput& in, const CalibrationProfile& prof, CalibratedStepMemo* memo,
                           const TrainingStep& ideal, TrainingStep& s, CalibratedBreakdown& parts) {
  s = ideal;
  const ModelConfig& m = *in.model;
  const Hardware& hw = *in.hw;
  const TrainingPlan& pl = in.plan;

  Calibrated c{in, prof, hw, prof.kernels};
  c.memo = memo;
  c.hbm_bytes_per_s = hw.hbm_bandwidth_bytes_per_s;
  c.stream_bytes_per_s = hw.hbm_bandwidth_bytes_per_s * prof.kernels.stream_hbm_frac;
  c.clock = prof.sustained_clock_frac;
  c.vector_flops_per_s = hw.vector_flops_per_s > 0 ? hw.vector_flops_per_s : hw.peak(Dtype::bf16) / 32.0;
  c.low_precision = bytes_per_element(in.precision.matmul) < bytes_per_element(Dtype::bf16);
  c.linear_kind = recipe_gemm_kind(in.precision);
  c.cast = cast_bytes_per_element(in.precision.recipe == MatmulRecipe::none ? MatmulRecipe::tensorwise : in.precision.recipe);

  const LayerShape shape = microbatch_shape(in, s);
  const double ep = shape.expert, etp = shape.expert_tensor;
  const double stages = s.pipeline;

  // Every kind of layer the model has, then the busiest stage by time (stages need not divide the layers).
  std::array<WorkTime, kLayerKinds> kind{};
  std::array<double, kLayerKinds> kind_s{};
  std::array<int, kLayerKinds> present{};
  int kinds = 0;
  for (int k = 0; k < kLayerKinds; ++k) {
    if (m.pattern.all.n[k] <= 0) continue;
    present[kinds++] = k;
    kind[k] = c.work(k, [&] { return layer_ops(m, k, shape); });
    kind_s[k] = kind[k].total() + prof.op_overhead_s * kind[k].ops;
  }
  const LayerCounts here = stages > 1 && m.pattern.runs.size() > 1 ? busiest_stage(m.pattern, stages, chunks_per_stage(pl), kind_s)
                                                                   : s.stage_kinds;
  s.stage_kinds = here;
  const double layer_count = here.total(), moe_layers = here.moe();
  constexpr std::size_t kHeadSlot = kLayerKinds, kLogitsSlot = kLayerKinds + 1;
  const WorkTime head = c.work(kHeadSlot, [&] { return head_ops(m, shape, stages <= 1, true); });
  // Trained multi-token prediction modules run on the last stage: a layer, its projection, the head once more.
  const double mtp = m.mtp_layers > 0 ? std::min(in.mtp_layers, m.mtp_layers) : 0.0;
  WorkTime mtp_work;
  if (mtp > 0) {
    // The model's own kind of layer and the head's logits, already priced where the model has them.
    const int mtp_kind = layer_kind(m.is_moe(), AttentionSpan::full);
    const WorkTime layer =
        m.pattern.all.n[mtp_kind] > 0 ? kind[mtp_kind] : c.work(mtp_kind, [&] { return layer_ops(m, mtp_kind, shape); });
    const WorkTime logits = stages > 1 ? head : c.work(kLogitsSlot, [&] { return head_ops(m, shape, false, true); });
    mtp_work.forward = mtp * (layer.forward + logits.forward);
    mtp_work.backward = mtp * (layer.backward + logits.backward);
    mtp_work.recompute = mtp * layer.recompute;
    mtp_work.weight_grad = mtp * (layer.weight_grad + logits.weight_grad);
    mtp_work.matmul = mtp * (layer.matmul + logits.matmul);
    mtp_work.attention = mtp * layer.attention;
    mtp_work.elementwise = mtp * (layer.elementwise + logits.elementwise);
    mtp_work.ops = mtp * (layer.ops + logits.ops);
  }
  auto layers_sum = [&](const LayerCounts& layers, double WorkTime::*f) {
    double t = 0;
    for (int i = 0; i < kinds; ++i) t += layers.n[present[i]] * kind[present[i]].*f;
    return t;
  };
  // The heaviest MoE, dense and MLP-less kinds on the stage: what the per-layer collectives hide behind.
  auto heaviest = [&](MlpLayer mlp) {
    int best = -1;
    for (int i = 0; i < kinds; ++i) {
      const int k = present[i];
      if (kind_mlp(k) == mlp && here.n[k] > 0 && (best < 0 || kind_s[k] > kind_s[best])) best = k;
    }
    return best < 0 ? WorkTime{} : kind[best];
  };
  const WorkTime dense = heaviest(MlpLayer::dense), moe = heaviest(MlpLayer::moe), no_mlp = heaviest(MlpLayer::none);

  // Communication inside the microbatch, per layer (Korthikanti et al.; Megatron-LM): TP/SP and EP on the
  // critical path but for what the profile's frameworks overlap, CP's ring passes behind the attention kernel,
  // FSDP's layer-by-layer gathers behind the neighbouring layer's compute.
  const double mb = pl.microbatches, p_bytes = bytes_per_element(in.precision.params);
  // Gradients are reduced in the master weights' format where there is one (Megatron's fp32 main grads, MaxText's
  // fp32 weights): reductions move grad_frac x the working weights' bytes.
  const double grad_frac = in.precision.master_weights ? bytes_per_element(in.precision.master) / p_bytes : 1.0;
  const double token_bytes = p_bytes * shape.tokens * m.d_model;
  // TP: the attention block always; a dense MLP block over TP; an MoE block over the experts' TP (ETP), gathering
  // the k copies its experts process (Megatron's dispatcher all-gathers them over ETP after the dispatch).
  const double tp_attention = tp_block_s(c, in, pl.tensor, token_bytes);
  const double tp_dense_layer = 2.0 * tp_attention;  // the MLP block moves the same tokens
  double tp_moe_layer = tp_attention;
  if (etp > 1) {
    const double rows = expert_rows(m, shape);
    const double ring = etp < s.tensor ? ((etp - 1.0) / etp) / ((s.tensor - 1.0) / s.tensor) : 1.0;  // a sub-group
    tp_moe_layer += ring * tp_block_s(c, in, pl.tensor, p_bytes * rows * m.expert_io_dim());
  }
  double ep_layer = 0;
  if (ep > 1 && m.is_moe()) {
    // Dispatch and combine forward and backward, again when remat redoes the layer. Each rank routes its
    // sequence-parallel share of the tokens.
    const double routed = pl.sequence_parallel ? shape.tokens / s.tensor : shape.tokens;
    const double redo = in.remat == Remat::block || in.remat == Remat::checkpoints ? 2.0 : 0.0;
    ep_layer = (4.0 + redo) * c.dispatch_s(expert_group(*in.mesh, pl), ep, routed * shape.expert_load);
  }
  double cp_layer = 0, cp_exposed_layer = 0;
  // One token's K and V on this TP rank (MLA: up-projected per head).
  const double kv_bytes_per_token =
      p_bytes * m.kv_heads * (m.qk_head_dim() + m.v_head_dim()) / std::min(s.tensor, m.kv_heads);
  // K and V of the whole sequence pass around the ring.
  if (s.context > 1) cp_layer = 3.0 * c.collective_s(pl.context, Collective::all_gather, kv_bytes_per_token * shape.tokens * s.context);
  cp_layer += split_sequence_kv_s(c, in, kv_bytes_per_token);
  if (cp_layer > 0)
    cp_exposed_layer = exposed_s(cp_layer, dense.attention > 0 ? dense.attention : moe.attention, prof.overlap_frac);
  const ChipParams params = training_chip_params(in, ideal, count_params(m));
  const double chip_params = params.total();
  const double layers_here = layer_count;
  const double layer_weight_bytes = chip_params * p_bytes / layers_here;
  const bool zero3_expert = s.expert > 1 && pl.zero_stage >= 3;
  const bool zero3 = gathers_layers(pl, s);
  double fsdp_layer = 0, fsdp_exposed_layer = 0;
  if (zero3) {
    double ag = c.collective_s(pl.fsdp, Collective::all_gather, layer_weight_bytes);
    double rs = c.collective_s(pl.fsdp, Collective::reduce_scatter, grad_frac * layer_weight_bytes);
    if (zero3_expert) {
      const double dense_bytes = params.dense * p_bytes / layer_count / s.fsdp;
      ag += c.collective_s(pl.expert, Collective::all_gather, dense_bytes);
      rs += c.collective_s(pl.expert, Collective::reduce_scatter, grad_frac * dense_bytes);
    }
    fsdp_layer = 2.0 * ag + rs;
    const WorkTime& w = here.dense() >= moe_layers ? dense : moe;
    fsdp_exposed_layer = exposed_s(ag, w.forward, prof.overlap_frac) +
                         exposed_s(ag + rs, w.backward + w.recompute, prof.overlap_frac);
  }
  // TP and SP transfers hide only behind the matmuls they feed and drain (XLA's async collectives and collective
  // matmuls; Megatron's TP-comm overlap): what tp_overlap_frac of those matmuls cannot cover is exposed. The MoE
  // dispatch hides the same way behind the layer's expert matmuls; where the framework runs it beside another
  // microbatch's compute (Megatron's EP overlap), behind expert_overlap_frac of the layer's whole compute (the two
  // share the SMs: the exchange slows the kernels it runs beside), and DualPipe hides all the layer's compute can
  // cover (DeepSeek-V3 §3.2.1).
  const bool dual = pl.schedule == PipelineSchedule::dualpipe || pl.schedule == PipelineSchedule::dualpipe_v;
  const double tp_exposed_dense = exposed_s(tp_dense_layer, dense.matmul, prof.tp_overlap_frac);
  const double tp_exposed_moe = exposed_s(tp_moe_layer, moe.matmul, prof.tp_overlap_frac);
  const double tp_exposed_no_mlp = exposed_s(tp_attention, no_mlp.matmul, prof.tp_overlap_frac);
  const double ep_exposed_layer = dual             ? exposed_s(ep_layer, moe.total(), 1.0)
                                  : in.moe.overlap ? std::min(exposed_s(ep_layer, moe.total(), prof.expert_overlap_frac),
                                                              exposed_s(ep_layer, moe.matmul, prof.tp_overlap_frac))
                                                   : exposed_s(ep_layer, moe.matmul, prof.tp_overlap_frac);
  auto exposed_in = [&](const LayerCounts& layers) {
    return layers.dense() * tp_exposed_dense + layers.moe() * (tp_exposed_moe + ep_exposed_layer) +
           layers.no_mlp() * tp_exposed_no_mlp + layers.total() * (cp_exposed_layer + fsdp_exposed_layer);
  };
  auto stage_s = [&](const LayerCounts& layers) {
    double t = exposed_in(layers);
    for (int i = 0; i < kinds; ++i) t += layers.n[present[i]] * kind_s[present[i]];
    return t;
  };
  // The output layer and the trained MTP modules run on the last stage, which holds the last chunk of each round
  // (the split's short remainder when the stages do not divide the layers; Megatron-Core's default split, and
  // DeepSeek-V3 §3.2.3 keeps the head and MTP on one rank): the microbatch paces on the slower of the busiest
  // stage and the last one with them, and counts the head only where it paces.
  const LayerCounts last = stages > 1 ? stage_layers(m.pattern, stages, chunks_per_stage(pl), stages - 1.0) : here;
  const double head_s = head.total() + mtp_work.total() + prof.op_overhead_s * (head.ops + mtp_work.ops);
  const double with_head = stages <= 1 || stage_s(last) + head_s >= stage_s(here) ? 1.0 : 0.0;
  const LayerCounts& pace = with_head > 0 ? last : here;
  auto stage_sum = [&](double WorkTime::*f) { return layers_sum(pace, f); };
  const double exposed_in_layers = exposed_in(pace);
  const double overhead_per_mb =
      prof.op_overhead_s * (stage_sum(&WorkTime::ops) + with_head * (head.ops + mtp_work.ops));
  const double work_per_mb = stage_sum(&WorkTime::forward) + stage_sum(&WorkTime::backward) +
                             stage_sum(&WorkTime::recompute) + with_head * (head.total() + mtp_work.total());
  const double stage_mb_s = work_per_mb + overhead_per_mb + exposed_in_layers;

  // Pipeline: m microbatches plus the schedule's bubble at the pace of the busiest stage (pipeline.h); each
  // stage boundary sends activations forward and gradients backward, every model chunk.
  double bubble = 0, pp_send = 0;
  if (stages > 1) {
    const double forward = stage_sum(&WorkTime::forward) + with_head * (head.forward + mtp_work.forward);
    const double share = work_per_mb > 0 ? forward / work_per_mb : 0.5;
    const double weight_grad = stage_sum(&WorkTime::weight_grad) + with_head * (head.weight_grad + mtp_work.weight_grad);
    const double weight_share = work_per_mb > 0 ? weight_grad / work_per_mb : 0.0;
    bubble = bubble_s(pl, share * stage_mb_s, (1.0 - share) * stage_mb_s, weight_share * stage_mb_s);
    const double v = chunks_per_stage(pl);
    const double bytes = p_bytes * shape.tokens * m.d_model / (pl.sequence_parallel ? s.tensor : 1.0);
    // A stage hands on to its neighbour over NVLink when the pipeline group sits in one domain, as the book's
    // step lays it out (the same layout at both fidelities).
    const bool in_domain = hw.kind == ChipKind::tpu || pl.pipeline.gpu_span <= hw.scale_up.domain_gpus;
    const double link = hw.kind == ChipKind::tpu ? hw.ici.link_unidir_bytes_per_s
                        : in_domain             ? hw.scale_up.gpu_unidir_bytes_per_s
                                                : hw.scale_out.nic_unidir_bytes_per_s_per_gpu;
    // Point-to-point sends: NCCL's ring steps, at the all-gather's measured share of the links and latency.
    const CollectiveModel& ring = prof.kernels.collective[static_cast<std::size_t>(Collective::all_gather)];
    const double send = ring.latency_s + bytes / (link * (in_domain ? ring.link_frac : prof.slow_link_frac));
    pp_send = 2.0 * v * mb * send;
  }

  // Once per step, after the last microbatch's backward: the gradient reductions over DP (all-reduce), ZeRO-1/2
  // over FSDP (reduce-scatter, then all-gather of the updated weights) and DCN, bucketed behind that backward. The
  // non-expert gradients are also reduced over the expert axis, whose ranks are data ranks to them.
  const double last_backward = layers_here * (here.dense() >= moe_layers ? dense.backward : moe.backward);
  const double grad_bytes_per_layer = grad_frac * layer_weight_bytes / s.fsdp;
  double dp = layers_here * c.collective_s(pl.data, Collective::all_reduce, grad_bytes_per_layer);
  if (s.expert > 1 && !zero3_expert)
    dp += layers_here * c.collective_s(pl.expert, Collective::all_reduce,
                                       grad_frac * params.dense * p_bytes / layers_here / s.fsdp);
  double zero12 = 0, zero12_exposed = 0;
  if (s.fsdp > 1 && pl.zero_stage < 3) {
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
  const double optimizer_params = pl.zero_stage >= 1 ? params.zero_sharded(s.fsdp, s.expert) : chip_params;
  const double optimizer_bytes = optimizer_params * (2.0 * master_bytes_per_param(in.precision) +
                                                     2.0 * optimizer_bytes_per_param(in.precision) + 2.0 * p_bytes);
  parts.optimizer_s = optimizer_bytes / c.stream_bytes_per_s;
  parts.step_overhead_s = prof.step_overhead_s;

  const double compute_s = mb * (work_per_mb + overhead_per_mb);
  const double pp_exposed = exposed_s(pp_send, mb * work_per_mb, dual ? prof.expert_overlap_frac : prof.tp_overlap_frac);
  parts.step_s = mb * stage_mb_s + bubble + pp_exposed + dp_exposed + zero12_exposed + dcn_exposed +
                 parts.optimizer_s + parts.step_overhead_s;
  parts.bubble_s = bubble;
  const double per_mb = mb;
  auto layer_sum = [&](double WorkTime::*f) { return per_mb * (stage_sum(f) + with_head * mtp_work.*f); };
  parts.matmul_s = layer_sum(&WorkTime::matmul) + per_mb * with_head * head.matmul;
  parts.attention_s = layer_sum(&WorkTime::attention);
  parts.elementwise_s = layer_sum(&WorkTime::elementwise) + per_mb * with_head * head.elementwise;
  parts.low_precision_cast_s = layer_sum(&WorkTime::cast);
  parts.recompute_s = layer_sum(&WorkTime::recompute);
  parts.expert_matmul_s = layer_sum(&WorkTime::expert_matmul);
  parts.op_overhead_s = mb * overhead_per_mb;
  parts.head_s = per_mb * with_head * head.total();
  auto set_comms = [&](CommPart part, double full, double exposed) {
    parts.comms_s[int(part)] = full;
    parts.exposed_comms_s[int(part)] = exposed;
  };
  set_comms(CommPart::tensor,
            mb * (pace.dense() * tp_dense_layer + pace.moe() * tp_moe_layer + pace.no_mlp() * tp_attention),
            mb * (pace.dense() * tp_exposed_dense + pace.moe() * tp_exposed_moe + pace.no_mlp() * tp_exposed_no_mlp));
  set_comms(CommPart::expert, mb * pace.moe() * ep_layer, mb * pace.moe() * ep_exposed_layer);
  set_comms(CommPart::context, mb * pace.total() * cp_layer, mb * pace.total() * cp_exposed_layer);
  set_comms(CommPart::fsdp, zero3 ? mb * pace.total() * fsdp_layer : zero12,
            zero3 ? mb * pace.total() * fsdp_exposed_layer : zero12_exposed);
  set_comms(CommPart::pipeline, pp_send, pp_exposed);
  set_comms(CommPart::data, dp, dp_exposed);
  set_comms(CommPart::dcn, dcn, dcn_exposed);

  // Memory per chip (Korthikanti et al. activations; the book's weights, gradients and optimizer states).
  const CalibratedMemory memory = calibrated_memory(in, ideal, shape, here, zero3 ? layer_weight_bytes : 0.0);
  s.activations_bytes = memory.activations_bytes;
  parts.transient_bytes = memory.transient_bytes;
  s.total_bytes = memory.total_bytes;
  s.fits = s.total_bytes <= s.hbm_capacity_bytes;
  s.shortfall_bytes = std::max(0.0, s.total_bytes - s.hbm_capacity_bytes);

  // The step in the book's terms, adding up to it: compute (the FLOP-bound kernels), the bubble, HBM (the
  // elementwise kernels and the optimizer, on the critical path), the comms each strategy leaves exposed, and the
  // per-op and per-step overhead. Offload is taken as hidden.
  s.compute_s = compute_s - parts.elementwise_s - parts.op_overhead_s;
  s.bubble_s = bubble;
  s.bubble_frac = parts.step_s > 0 ? bubble / parts.step_s : 0;
  s.hbm_s = s.hbm_exposed_s = parts.elementwise_s + parts.optimizer_s;
  s.overhead_s = parts.op_overhead_s + parts.step_overhead_s;
  s.offload_exposed_s = 0;
  s.comms_s = parts.comms_s;
  s.comms_s_sum = 0;
  s.comms_exposed_s = 0;
  int worst = 0;
  for (int i = 0; i < kCommParts; ++i) {
    s.comms_s_sum += parts.comms_s[i];
    s.comms_exposed_s += parts.exposed_comms_s[i];
    if (parts.exposed_comms_s[i] > parts.exposed_comms_s[worst]) worst = i;
  }
  s.comms_s_total = s.comms_s_sum;
  s.step_s = parts.step_s;
  s.lower_bound_s = ideal.step_s;
  s.upper_bound_s = std::max(parts.step_s, ideal.upper_bound_s);
  const double matmul_work = parts.matmul_s + parts.attention_s;
  const double memory_work = parts.elementwise_s + parts.optimizer_s;
  if (s.comms_exposed_s >= matmul_work && s.comms_exposed_s >= memory_work && s.comms_exposed_s >= bubble) {
    s.bound = "communication";
    s.critical = comm_part_name(static_cast<CommPart>(worst));
  } else if (memory_work > matmul_work && memory_work >= bubble) {
    s.bound = s.critical = "memory";
  } else {
    s.bound = "compute";
    s.critical = bubble > 0 ? "compute+bubble" : "compute";
  }
  finish_rates(in, hw.peak(in.precision.matmul), s);
}

}  // namespace

CalibratedTrainingStep evaluate_calibrated_training_step(const TrainingInput& in, const CalibrationProfile& prof,
                                                         CalibratedStepMemo* memo) {
  CalibratedTrainingStep out;
  if (memo && memo->set && !same_tiling(memo->tiling, prof.tiling)) *memo = CalibratedStepMemo{};
  if (memo && !memo->set) {
    memo->ideal = evaluate_training_step(in);
    memo->tiling = prof.tiling;
    memo->set = true;
  }
  if (memo) memo->next_transfer = 0;
  out.ideal = memo ? memo->ideal : evaluate_training_step(in);
  price_calibrated_step(in, prof, memo, out.ideal, out.step, out.parts);
  return out;
}

TrainingStep calibrated_training_step(const TrainingInput& in, const CalibrationProfile& prof, const TrainingStep& ideal) {
  TrainingStep s;
  CalibratedBreakdown parts;
  price_calibrated_step(in, prof, nullptr, ideal, s, parts);
  return s;
}

}  // namespace scalescope

