// The calibrated training step's kernel level (planners/calibrated_training.h): each op of a layer timed by the chip's
// kernel models, and each collective and expert exchange by its achieved bandwidth and latency, with the memo that
// keeps what a call computes before it reads a fitted constant. Internal to the calibrated step's files.
#pragma once
#include <array>
#include <cstddef>

#include "physics/collectives.h"
#include "physics/kernels.h"
#include "physics/layer_ops.h"
#include "planners/calibrated_training.h"

namespace scalescope::calibrated {

// Times of one layer (or the head) for one microbatch on one chip, without the per-op launch overhead.
struct WorkTime {
  double forward = 0, backward = 0, recompute = 0;
  double weight_grad = 0;  // the dL/dW matmuls (inside backward): what zero-bubble schedules move into the bubble
  double matmul = 0, attention = 0, elementwise = 0, cast = 0;
  double expert_matmul = 0;  // the routed experts' grouped matmuls (inside matmul)
  double ops = 0;            // kernels launched: forward, backward and recompute

  double total() const { return forward + backward + recompute; }
};

// Op o's forward [m,k] x [k,n], dL/dX = dY [m,n] x W^T [n,k] and dL/dW = X^T [k,m] x dY [m,n]
// (scaling-book/transformers: two matmuls of the forward's size), each as its FLOPs over the shape efficiency it
// reaches at `tiling` (zeros: not a matmul).
std::array<double, 3> padded_matmul_flops(const LayerOp& o, const MatmulTiling& tiling);

bool same_tiling(const MatmulTiling& a, const MatmulTiling& b);

// The GEMM kernel a training recipe's linear layers run in (specs/kernel_models.h): per-tensor fp8 or int8;
// DeepSeek-style blocks and MXFP8's 32-element blocks, both dequantised per block inside the kernel; NVFP4.
GemmKind recipe_gemm_kind(const TrainingPrecision& p);

struct Calibrated {
  const TrainingInput& in;
  const CalibrationProfile& p;
  const Hardware& hw;
  const KernelModels& k;
  double hbm_bytes_per_s = 0;     // the chip's peak (each kernel model takes its own share)
  double clock = 1;               // the matrix units' sustained rate relative to the kernel tables'
  double stream_bytes_per_s = 0;  // achieved by elementwise kernels
  double vector_flops_per_s = 0;
  bool low_precision = false;  // the linear layers' matmuls run below bf16
  GemmKind linear_kind = GemmKind::bf16;
  CastBytes cast{};

  CalibratedStepMemo* memo = nullptr;  // what the last call on this input kept, or nullptr

  // One GEMM of op o (`groups` of them in one grouped kernel) of `padded_flops` (its FLOPs over its shape
  // efficiency): the dense GEMM kernel, or the MoE experts' grouped one, of the op's kind.
  double gemm_s(const LayerOp& o, double padded_flops) const;
  // Flash attention forward, and backward at the model's backward rate; a materialized kernel (attention of 2021,
  // scores in HBM) runs as two batched bf16 GEMMs beside the passes over its scores.
  std::array<double, 2> attention_s(const LayerOp& o) const;
  double elementwise_s(double flops, double bytes, bool routing) const;

  // `padded`: the forward's, dL/dX's and dL/dW's FLOPs over their shape efficiency (padded_matmul_flops).
  void add_op(const LayerOp& o, const std::array<double, 3>& padded, WorkTime& w) const;

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

  // GPU collectives inside one NVLink domain run as the chip's NCCL measurements show; a group whose span (its axes
  // and every axis inside them, the last axis innermost) leaves the domain is paced by the scale-out network, which
  // no public table measures (slow_link_frac, an end-to-end constant, in place of the links' share).
  double collective_s(const AxisGroup& g, Collective op, double bytes) const;

  // One direction of an MoE layer's token exchange (dispatch or combine) over the expert-parallel group.
  double dispatch_s(const AxisGroup& group, double ranks, double tokens) const;
};

// The kernels of `in` on `profile`'s chip, replaying and filling `memo` (or nullptr).
Calibrated calibrated_kernels(const TrainingInput& in, const CalibrationProfile& profile, CalibratedStepMemo* memo);

// Data shards that hold pieces of one sequence (the book's "tokens are tokens", scaling-book/applied-training, sharding
// LLaMA 3-70B; issue 22 item 16): each layer's attention needs the keys and values of the sequence's other pieces,
// gathered forward and again, with their gradients reduce-scattered, backward, as CP's all-gather variant moves them.
// The pieces sit on neighbouring shards of the innermost data-shard strategy, a sub-ring of `pieces` of its `degree`
// (priced as the experts' TP sub-group is). `kv_bytes_per_token`: one token's K and V on this TP rank. Zero unless some
// shard holds part of a sequence (the `sequence_sharded` warning's case across shards; plan_problems need not be asked
// again).
double split_sequence_kv_s(const Calibrated& c, const TrainingInput& in, double kv_bytes_per_token);

// One block's tensor-parallel collectives (Korthikanti et al. 2022): with sequence parallelism the block's input is
// all-gathered forward and its output reduce-scattered (both again, transposed, backward); without it the block
// all-reduces its output; a recomputed layer gathers its input again.
double tp_block_s(const Calibrated& c, const TrainingInput& in, const AxisGroup& group, double bytes);

// The expert-parallel group as the experts see it: the expert axis, and under parallel folding the TP ranks the
// experts do not split over (their pieces join the group).
AxisGroup expert_group(const Mesh& mesh, const TrainingPlan& pl);

}  // namespace scalescope::calibrated
