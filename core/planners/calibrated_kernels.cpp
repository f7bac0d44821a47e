#include "planners/calibrated_kernels.h"

#include <algorithm>
#include <cmath>

#include "physics/efficiency.h"
#include "physics/expert_dispatch.h"
#include "physics/portable_math.h"

namespace scalescope::calibrated {

namespace {

constexpr std::size_t kOutOfStep = static_cast<std::size_t>(-1);  // the rest of this call computes afresh

// A collective's or an exchange's book cost: the memo's next transfer if it was asked the same, else `compute`d
// (and recorded while the memo is in step with this call).
template <class Compute>
CalibratedStepMemo::Transfer replay_transfer(CalibratedStepMemo* memo, CalibratedStepMemo::Transfer asked,
                                             const Compute& compute) {
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

}  // namespace

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

GemmKind recipe_gemm_kind(const TrainingPrecision& p) {
  if (bytes_per_element(p.matmul) >= bytes_per_element(Dtype::bf16)) return GemmKind::bf16;
  switch (p.recipe) {
    case MatmulRecipe::blockwise:
    case MatmulRecipe::mxfp8:
      return GemmKind::fp8_block;
    case MatmulRecipe::nvfp4:
      return GemmKind::fp4;
    case MatmulRecipe::tensorwise:
    case MatmulRecipe::none:
      break;
  }
  return p.matmul == Dtype::fp4 ? GemmKind::fp4 : GemmKind::fp8;
}

Calibrated calibrated_kernels(const TrainingInput& in, const CalibrationProfile& prof, CalibratedStepMemo* memo) {
  const Hardware& hw = *in.hw;
  Calibrated c{in, prof, hw, prof.kernels};
  c.memo = memo;
  c.hbm_bytes_per_s = hw.hbm_bandwidth_bytes_per_s;
  c.stream_bytes_per_s = hw.hbm_bandwidth_bytes_per_s * prof.kernels.stream_hbm_frac;
  c.clock = prof.sustained_clock_frac;
  c.vector_flops_per_s = hw.vector_flops_per_s > 0 ? hw.vector_flops_per_s : hw.peak(Dtype::bf16) / 32.0;
  c.low_precision = bytes_per_element(in.precision.matmul) < bytes_per_element(Dtype::bf16);
  c.linear_kind = recipe_gemm_kind(in.precision);
  c.cast = cast_bytes_per_element(in.precision.recipe == MatmulRecipe::none ? MatmulRecipe::tensorwise
                                                                            : in.precision.recipe);
  return c;
}

double Calibrated::gemm_s(const LayerOp& o, double padded_flops) const {
  const GemmKind kind = o.linear && low_precision ? linear_kind : GemmKind::bf16;
  const GemmModel& g = (o.experts ? k.moe : k.gemm)[static_cast<std::size_t>(kind)];
  const double peak = clock * hw.peak(kind == GemmKind::bf16 ? Dtype::bf16 : in.precision.matmul);
  return gemm_kernel_time(g, padded_flops, 1.0, o.groups, o.bytes, peak, hbm_bytes_per_s).total();
}

std::array<double, 2> Calibrated::attention_s(const LayerOp& o) const {
  const double back = backward_flops_factor(OpKind::attention, in.attention.kernel);
  const AttentionDims& d = o.attention;
  if (in.attention.kernel == AttentionKernel::materialized) {
    // Per (sequence, head), the scores S = Q K^T [q, d_qk] x [d_qk, keys] over every key (the masked half too) and
    // the output P V [q, keys] x [keys, d_v], as batched bf16 GEMMs of those shapes (Megatron's unfused
    // attention); their passes over the scores, at the elementwise rate.
    const GemmModel& g = k.gemm[static_cast<std::size_t>(GemmKind::bf16)];
    const double groups = d.sequences * d.heads, q = d.query_len, keys = d.max_keys;
    const double padded = groups * (2.0 * q * d.qk_dim * keys / matmul_shape_efficiency(q, d.qk_dim, keys, p.tiling) +
                                    2.0 * q * keys * d.v_dim / matmul_shape_efficiency(q, keys, d.v_dim, p.tiling));
    const KernelTime f =
        gemm_kernel_time(g, padded, 1.0, 2.0 * groups, 0.0, clock * hw.peak(Dtype::bf16), hbm_bytes_per_s);
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

double Calibrated::elementwise_s(double flops, double bytes, bool routing) const {
  return std::max(bytes * (routing ? p.routing_traffic : p.elementwise_traffic) / stream_bytes_per_s,
                  flops / vector_flops_per_s);
}

void Calibrated::add_op(const LayerOp& o, const std::array<double, 3>& padded, WorkTime& w) const {
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
        const double cast_bytes =
            o.groups * (cast.input * o.m * o.k + cast.weight * o.k * o.n + cast.gradient * o.m * o.n);
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

double Calibrated::collective_s(const AxisGroup& g, Collective op, double bytes) const {
  const CalibratedStepMemo::Transfer asked{static_cast<int>(op), bytes, g.degree, 0, g.axis_mask, {}, {}};
  const CollectiveCost c = replay_transfer(memo, asked, [&](CalibratedStepMemo::Transfer& t) {
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

double Calibrated::dispatch_s(const AxisGroup& group, double ranks, double tokens) const {
  const ModelConfig& m = *in.model;
  const CalibratedStepMemo::Transfer asked{-1, tokens, group.degree, ranks, group.axis_mask, {}, {}};
  const DispatchCost cost =
      replay_transfer(memo, asked, [&](CalibratedStepMemo::Transfer& t) {
        t.dispatch = expert_dispatch_cost(
            hw, *in.mesh, group, ranks, tokens, m.active_experts,
            bytes_per_element(in.precision.params) * m.expert_io_dim(),
            in.moe.dispatcher == Dispatcher::hierarchical ? DispatchKind::hierarchical : DispatchKind::all_to_all);
      }).dispatch;
  const CollectiveModel& a2a = k.collective[static_cast<std::size_t>(Collective::all_to_all)];
  return achieved_dispatch_s(cost, a2a.link_frac, p.slow_link_frac, a2a.latency_s);
}

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

AxisGroup expert_group(const Mesh& mesh, const TrainingPlan& pl) {
  if (expert_tensor_degree(pl) >= pl.tensor.degree) return pl.expert;
  return folded_expert_group(mesh, pl.expert, pl.tensor);
}

}  // namespace scalescope::calibrated
