#include "planners/calibrated_training.h"

#include <algorithm>
#include <cmath>

#include "physics/efficiency.h"
#include "planners/calibrated_step_parts.h"
#include "planners/pipeline.h"

namespace scalescope {

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
  //   gradient (vocabulary-parallel, with the loss's fp32 copy where the framework keeps one). They are on the last
  //   stage, which holds fewer microbatches in flight than the first (pipeline.cpp): only what exceeds the difference
  //   adds.
  // The logits phase per logit: the output layer's logits and the gradient its backward reads (2 x bf16) where XLA
  // fuses the loss's fp32 upcast into its reductions (MaxText's cast_logits_to_fp32). PyTorch frameworks
  // materialize the upcast: Megatron-Core's vocab-parallel cross entropy softmaxes an fp32 copy in place, keeps it
  // for the backward and turns it into the gradient there (NVIDIA/Megatron-LM megatron/core/tensor_parallel/
  // cross_entropy.py @ d98e8a6), so the bf16 logits (forward) or the bf16 gradient (backward) sit beside 4 fp32
  // bytes, as the loss's time assumes (head_ops). torchtitan's eager cross_entropy(pred.float()) holds more.
  const double per_logit = in.hw->kind == ChipKind::gpu ? p_bytes + bytes_per_element(Dtype::fp32) : 2.0 * p_bytes;
  const double logits = per_logit * shape.tokens * m.vocab / ideal.tensor;
  const TrainingPlan& pl = in.plan;
  const double last_in_flight = ideal.pipeline > 1 ? schedule_last_stage_in_flight(pl.schedule, ideal.pipeline,
                                                                                   pl.microbatches, pl.virtual_stages)
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
  const std::size_t bf16 = static_cast<std::size_t>(GemmKind::bf16);
  const std::size_t low = static_cast<std::size_t>(calibrated::recipe_gemm_kind(in.precision));
  // Flash attention's rate is its ceiling less the softmax's share of the model's heads (physics/kernels.h).
  const double heads_dim = in.model->qk_head_dim() + in.model->v_head_dim();
  const double attention_rate = k.prefill.ceiling_frac / (1.0 + 2.0 * k.prefill.softmax_head_dim / heads_dim);
  const double best_rate = std::max(
      {in.hw->peak(Dtype::bf16) * std::max({k.gemm[bf16].ceiling_frac, k.moe[bf16].ceiling_frac, attention_rate}),
       low_precision ? in.hw->peak(in.precision.matmul) * std::max(k.gemm[low].ceiling_frac, k.moe[low].ceiling_frac)
                     : 0.0});
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

using namespace calibrated;

// The step's time by what it is spent on; returns its compute: every microbatch's work and launches.
double fill_breakdown(const Calibrated& c, const StageWork& work, const ChipWeights& weights, const LayerComms& comms,
                      const StagePace& pace, const PipelineCost& pipeline, const GradientReductions& g,
                      CalibratedBreakdown& parts) {
  const CalibrationProfile& prof = c.p;
  const double mb = c.in.plan.microbatches;
  const double compute_s = mb * (pace.work_per_mb_s + pace.overhead_per_mb_s);
  const double pp_exposed = exposed_s(pipeline.send_s, mb * pace.work_per_mb_s,
                                      runs_dualpipe(c.in.plan) ? prof.expert_overlap_frac : prof.tp_overlap_frac);
  parts.step_s = mb * pace.stage_mb_s + pipeline.bubble_s + pp_exposed + g.dp_exposed + g.zero12_exposed +
                 g.dcn_exposed + parts.optimizer_s + parts.step_overhead_s;
  parts.bubble_s = pipeline.bubble_s;
  parts.pipeline_passes = pipeline.passes;
  const double head = mb * pace.with_head;
  auto layer_sum = [&](double WorkTime::*f) { return mb * (pace.sum(work, f) + pace.with_head * work.mtp.*f); };
  parts.matmul_s = layer_sum(&WorkTime::matmul) + head * work.head.matmul;
  parts.attention_s = layer_sum(&WorkTime::attention);
  parts.elementwise_s = layer_sum(&WorkTime::elementwise) + head * work.head.elementwise;
  parts.low_precision_cast_s = layer_sum(&WorkTime::cast);
  parts.recompute_s = layer_sum(&WorkTime::recompute);
  parts.expert_matmul_s = layer_sum(&WorkTime::expert_matmul);
  parts.op_overhead_s = mb * pace.overhead_per_mb_s;
  parts.head_s = head * work.head.total();
  auto set_comms = [&](CommPart part, double full, double exposed) {
    parts.comms_s[int(part)] = full;
    parts.exposed_comms_s[int(part)] = exposed;
  };
  const LayerCounts& layers = pace.layers;
  set_comms(CommPart::tensor,
            mb * (layers.dense() * comms.tp_dense + layers.moe() * comms.tp_moe + layers.no_mlp() * comms.tp_attention),
            mb * (layers.dense() * comms.tp_exposed_dense + layers.moe() * comms.tp_exposed_moe +
                  layers.no_mlp() * comms.tp_exposed_no_mlp));
  set_comms(CommPart::expert, mb * layers.moe() * comms.ep, mb * layers.moe() * comms.ep_exposed);
  set_comms(CommPart::context, mb * layers.total() * comms.cp, mb * layers.total() * comms.cp_exposed);
  const bool zero3 = weights.zero3;
  set_comms(CommPart::fsdp, zero3 ? mb * layers.total() * comms.fsdp : g.zero12,
            zero3 ? mb * layers.total() * comms.fsdp_exposed : g.zero12_exposed);
  set_comms(CommPart::pipeline, pipeline.send_s, pp_exposed);
  set_comms(CommPart::data, g.dp, g.dp_exposed);
  set_comms(CommPart::dcn, g.dcn, g.dcn_exposed);
  return compute_s;
}

// The step in the book's terms, adding up to it: compute (the FLOP-bound kernels), the bubble, HBM (the elementwise
// kernels and the optimizer, on the critical path), the comms each strategy leaves exposed, and the per-op and
// per-step overhead. Offload is taken as hidden.
void book_terms(const CalibratedBreakdown& parts, const TrainingStep& ideal, double compute_s, TrainingStep& s) {
  const double bubble = parts.bubble_s;
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
}

// The calibrated step of `in` beside its book step `ideal`: `s` starts as a copy of it.
void price_calibrated_step(const TrainingInput& in, const CalibrationProfile& prof, CalibratedStepMemo* memo,
                           const TrainingStep& ideal, TrainingStep& s, CalibratedBreakdown& parts) {
  s = ideal;
  const Calibrated c = calibrated_kernels(in, prof, memo);
  const LayerShape shape = microbatch_shape(in, s);
  const StageWork work = stage_work(c, shape, s);
  s.stage_kinds = work.here;
  const ChipWeights weights = chip_weights(in, ideal, s, work.here);
  const LayerComms comms = layer_comms(c, s, shape, work, weights);
  const StagePace pace = stage_pace(c, s, work, comms);
  const PipelineCost pipeline = pipeline_cost(c, s, shape, work, pace);
  const GradientReductions grads = gradient_reductions(c, s, work, weights);
  parts.optimizer_s = optimizer_s(c, s, weights);
  parts.step_overhead_s = prof.step_overhead_s;
  const double compute_s = fill_breakdown(c, work, weights, comms, pace, pipeline, grads, parts);

  // Memory per chip (Korthikanti et al. activations; the book's weights, gradients and optimizer states).
  const CalibratedMemory memory =
      calibrated_memory(in, ideal, shape, work.here, weights.zero3 ? weights.layer_weight_bytes : 0.0);
  s.activations_bytes = memory.activations_bytes;
  parts.transient_bytes = memory.transient_bytes;
  s.total_bytes = memory.total_bytes;
  s.fits = s.total_bytes <= s.hbm_capacity_bytes;
  s.shortfall_bytes = std::max(0.0, s.total_bytes - s.hbm_capacity_bytes);

  book_terms(parts, ideal, compute_s, s);
  finish_rates(in, in.hw->peak(in.precision.matmul), s);
}

}  // namespace

CalibratedTrainingStep evaluate_calibrated_training_step(const TrainingInput& in, const CalibrationProfile& prof,
                                                         CalibratedStepMemo* memo) {
  CalibratedTrainingStep out;
  if (memo && memo->set && !calibrated::same_tiling(memo->tiling, prof.tiling)) *memo = CalibratedStepMemo{};
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

TrainingStep calibrated_training_step(const TrainingInput& in, const CalibrationProfile& prof,
                                      const TrainingStep& ideal) {
  TrainingStep s;
  CalibratedBreakdown parts;
  price_calibrated_step(in, prof, nullptr, ideal, s, parts);
  return s;
}

}  // namespace scalescope
