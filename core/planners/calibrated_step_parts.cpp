#include "planners/calibrated_step_parts.h"

#include <algorithm>

#include "physics/efficiency.h"
#include "planners/pipeline.h"

namespace scalescope::calibrated {

bool runs_dualpipe(const TrainingPlan& pl) {
  return pl.schedule == PipelineSchedule::dualpipe || pl.schedule == PipelineSchedule::dualpipe_v;
}

double StageWork::sum(const LayerCounts& layers, double WorkTime::*field) const {
  double t = 0;
  for (int i = 0; i < kinds; ++i) t += layers.n[present[i]] * kind[present[i]].*field;
  return t;
}

double StageWork::time_s(const LayerCounts& layers, double start) const {
  double t = start;
  for (int i = 0; i < kinds; ++i) t += layers.n[present[i]] * kind_s[present[i]];
  return t;
}

namespace {

constexpr std::size_t kHeadSlot = kLayerKinds, kLogitsSlot = kLayerKinds + 1;  // the memo's slots after the kinds

// Trained multi-token prediction modules run on the last stage: a layer of the model's own kind, its projection,
// and the head's logits once more, each already priced where the model has them.
WorkTime mtp_work(const Calibrated& c, const LayerShape& shape, const TrainingStep& s, const StageWork& w) {
  const ModelConfig& m = *c.in.model;
  const double mtp = m.mtp_layers > 0 ? std::min(c.in.mtp_layers, m.mtp_layers) : 0.0;
  WorkTime out;
  if (!(mtp > 0)) return out;
  const int mtp_kind = layer_kind(m.is_moe(), AttentionSpan::full);
  const WorkTime layer = m.pattern.all.n[mtp_kind] > 0
                             ? w.kind[mtp_kind]
                             : c.work(mtp_kind, [&] { return layer_ops(m, mtp_kind, shape); });
  const WorkTime logits =
      s.pipeline > 1 ? w.head : c.work(kLogitsSlot, [&] { return head_ops(m, shape, false, true); });
  out.forward = mtp * (layer.forward + logits.forward);
  out.backward = mtp * (layer.backward + logits.backward);
  out.recompute = mtp * layer.recompute;
  out.weight_grad = mtp * (layer.weight_grad + logits.weight_grad);
  out.matmul = mtp * (layer.matmul + logits.matmul);
  out.attention = mtp * layer.attention;
  out.elementwise = mtp * (layer.elementwise + logits.elementwise);
  out.ops = mtp * (layer.ops + logits.ops);
  return out;
}

// The heaviest kind with this MLP on the stage: what the per-layer collectives hide behind.
WorkTime heaviest(const StageWork& w, MlpLayer mlp) {
  int best = -1;
  for (int i = 0; i < w.kinds; ++i) {
    const int k = w.present[i];
    if (kind_mlp(k) == mlp && w.here.n[k] > 0 && (best < 0 || w.kind_s[k] > w.kind_s[best])) best = k;
  }
  return best < 0 ? WorkTime{} : w.kind[best];
}

}  // namespace

StageWork stage_work(const Calibrated& c, const LayerShape& shape, const TrainingStep& s) {
  const ModelConfig& m = *c.in.model;
  const double stages = s.pipeline;
  StageWork w;
  for (int k = 0; k < kLayerKinds; ++k) {
    if (m.pattern.all.n[k] <= 0) continue;
    w.present[w.kinds++] = k;
    w.kind[k] = c.work(k, [&] { return layer_ops(m, k, shape); });
    w.kind_s[k] = w.kind[k].total() + c.p.op_overhead_s * w.kind[k].ops;
  }
  w.here = stages > 1 && m.pattern.runs.size() > 1
               ? busiest_stage(m.pattern, stages, chunks_per_stage(c.in.plan), w.kind_s)
               : s.stage_kinds;
  w.head = c.work(kHeadSlot, [&] { return head_ops(m, shape, stages <= 1, true); });
  w.mtp = mtp_work(c, shape, s, w);
  w.dense = heaviest(w, MlpLayer::dense);
  w.moe = heaviest(w, MlpLayer::moe);
  w.no_mlp = heaviest(w, MlpLayer::none);
  return w;
}

ChipWeights chip_weights(const TrainingInput& in, const TrainingStep& ideal, const TrainingStep& s,
                         const LayerCounts& here) {
  ChipWeights w;
  w.p_bytes = bytes_per_element(in.precision.params);
  w.grad_frac = in.precision.master_weights ? bytes_per_element(in.precision.master) / w.p_bytes : 1.0;
  w.params = training_chip_params(in, ideal, count_params(*in.model));
  w.chip_params = w.params.total();
  w.layer_weight_bytes = w.chip_params * w.p_bytes / here.total();
  w.zero3_expert = s.expert > 1 && in.plan.zero_stage >= 3;
  w.zero3 = gathers_layers(in.plan, s);
  return w;
}

double LayerComms::exposed_in(const LayerCounts& layers) const {
  return layers.dense() * tp_exposed_dense + layers.moe() * (tp_exposed_moe + ep_exposed) +
         layers.no_mlp() * tp_exposed_no_mlp + layers.total() * (cp_exposed + fsdp_exposed);
}

namespace {

// TP: the attention block always; a dense MLP block over TP; an MoE block over the experts' TP (ETP), gathering
// the k copies its experts process (Megatron's dispatcher all-gathers them over ETP after the dispatch). EP: the
// dispatch and combine forward and backward, again when remat redoes the layer; each rank routes its
// sequence-parallel share of the tokens.
void price_tensor_and_expert(const Calibrated& c, const TrainingStep& s, const LayerShape& shape, double p_bytes,
                             LayerComms& out) {
  const TrainingInput& in = c.in;
  const ModelConfig& m = *in.model;
  const TrainingPlan& pl = in.plan;
  out.tp_attention = tp_block_s(c, in, pl.tensor, p_bytes * shape.tokens * m.d_model);
  out.tp_dense = 2.0 * out.tp_attention;  // the MLP block moves the same tokens
  out.tp_moe = out.tp_attention;
  const double etp = shape.expert_tensor, ep = shape.expert;
  if (etp > 1) {
    const double rows = expert_rows(m, shape);
    const double ring = etp < s.tensor ? ((etp - 1.0) / etp) / ((s.tensor - 1.0) / s.tensor) : 1.0;  // a sub-group
    out.tp_moe += ring * tp_block_s(c, in, pl.tensor, p_bytes * rows * m.expert_io_dim());
  }
  if (ep > 1 && m.is_moe()) {
    const double routed = pl.sequence_parallel ? shape.tokens / s.tensor : shape.tokens;
    const double redo = in.remat == Remat::block || in.remat == Remat::checkpoints ? 2.0 : 0.0;
    out.ep = (4.0 + redo) * c.dispatch_s(expert_group(*in.mesh, pl), ep, routed * shape.expert_load);
  }
}

// CP: K and V of the whole sequence pass around the ring, behind the attention kernel. ZeRO-3: each layer's
// weights gathered forward and backward and its gradients reduce-scattered, behind the neighbouring layer.
void price_context_and_fsdp(const Calibrated& c, const TrainingStep& s, const LayerShape& shape, const StageWork& work,
                            const ChipWeights& w, LayerComms& out) {
  const TrainingInput& in = c.in;
  const ModelConfig& m = *in.model;
  const TrainingPlan& pl = in.plan;
  const double overlap = c.p.overlap_frac;
  // One token's K and V on this TP rank (MLA: up-projected per head).
  const double kv_bytes_per_token =
      w.p_bytes * m.kv_heads * (m.qk_head_dim() + m.v_head_dim()) / std::min(s.tensor, m.kv_heads);
  if (s.context > 1)
    out.cp = 3.0 * c.collective_s(pl.context, Collective::all_gather, kv_bytes_per_token * shape.tokens * s.context);
  out.cp += split_sequence_kv_s(c, in, kv_bytes_per_token);
  if (out.cp > 0)
    out.cp_exposed = exposed_s(out.cp, work.dense.attention > 0 ? work.dense.attention : work.moe.attention, overlap);
  if (!w.zero3) return;
  double ag = c.collective_s(pl.fsdp, Collective::all_gather, w.layer_weight_bytes);
  double rs = c.collective_s(pl.fsdp, Collective::reduce_scatter, w.grad_frac * w.layer_weight_bytes);
  if (w.zero3_expert) {
    const double dense_bytes = w.params.dense * w.p_bytes / work.here.total() / s.fsdp;
    ag += c.collective_s(pl.expert, Collective::all_gather, dense_bytes);
    rs += c.collective_s(pl.expert, Collective::reduce_scatter, w.grad_frac * dense_bytes);
  }
  out.fsdp = 2.0 * ag + rs;
  const WorkTime& busiest = work.here.dense() >= work.here.moe() ? work.dense : work.moe;
  out.fsdp_exposed =
      exposed_s(ag, busiest.forward, overlap) + exposed_s(ag + rs, busiest.backward + busiest.recompute, overlap);
}

}  // namespace

LayerComms layer_comms(const Calibrated& c, const TrainingStep& s, const LayerShape& shape, const StageWork& work,
                       const ChipWeights& weights) {
  LayerComms out;
  price_tensor_and_expert(c, s, shape, weights.p_bytes, out);
  price_context_and_fsdp(c, s, shape, work, weights, out);
  // TP and SP transfers hide only behind the matmuls they feed and drain (XLA's async collectives and collective
  // matmuls; Megatron's TP-comm overlap): what tp_overlap_frac of those matmuls cannot cover is exposed. The MoE
  // dispatch hides the same way behind the layer's expert matmuls; where the framework runs it beside another
  // microbatch's compute (Megatron's EP overlap), behind expert_overlap_frac of the layer's whole compute (the two
  // share the SMs: the exchange slows the kernels it runs beside), and DualPipe hides all the layer's compute can
  // cover (DeepSeek-V3 §3.2.1).
  const CalibrationProfile& prof = c.p;
  out.tp_exposed_dense = exposed_s(out.tp_dense, work.dense.matmul, prof.tp_overlap_frac);
  out.tp_exposed_moe = exposed_s(out.tp_moe, work.moe.matmul, prof.tp_overlap_frac);
  out.tp_exposed_no_mlp = exposed_s(out.tp_attention, work.no_mlp.matmul, prof.tp_overlap_frac);
  const double behind_matmuls = exposed_s(out.ep, work.moe.matmul, prof.tp_overlap_frac);
  out.ep_exposed = runs_dualpipe(c.in.plan) ? exposed_s(out.ep, work.moe.total(), 1.0)
                   : c.in.moe.overlap
                       ? std::min(exposed_s(out.ep, work.moe.total(), prof.expert_overlap_frac), behind_matmuls)
                       : behind_matmuls;
  return out;
}

// The output layer and the trained MTP modules run on the last stage, which holds the last chunk of each round (the
// split's short remainder when the stages do not divide the layers; Megatron-Core's default split, and DeepSeek-V3
// §3.2.3 keeps the head and MTP on one rank): the microbatch paces on the slower of the busiest stage and the last
// one with them, and counts the head only where it paces.
StagePace stage_pace(const Calibrated& c, const TrainingStep& s, const StageWork& work, const LayerComms& comms) {
  const double stages = s.pipeline;
  const double launch_s = c.p.op_overhead_s;
  auto stage_s = [&](const LayerCounts& layers) { return work.time_s(layers, comms.exposed_in(layers)); };
  const LayerCounts last =
      stages > 1 ? stage_layers(c.in.model->pattern, stages, chunks_per_stage(c.in.plan), stages - 1.0) : work.here;
  const WorkTime& head = work.head;
  const WorkTime& mtp = work.mtp;
  const double head_s = head.total() + mtp.total() + launch_s * (head.ops + mtp.ops);
  StagePace p;
  p.with_head = stages <= 1 || stage_s(last) + head_s >= stage_s(work.here) ? 1.0 : 0.0;
  p.layers = p.with_head > 0 ? last : work.here;
  p.exposed_per_mb_s = comms.exposed_in(p.layers);
  p.overhead_per_mb_s = launch_s * (p.sum(work, &WorkTime::ops) + p.with_head * (head.ops + mtp.ops));
  p.work_per_mb_s = p.sum(work, &WorkTime::forward) + p.sum(work, &WorkTime::backward) +
                    p.sum(work, &WorkTime::recompute) + p.with_head * (head.total() + mtp.total());
  p.stage_mb_s = p.work_per_mb_s + p.overhead_per_mb_s + p.exposed_per_mb_s;
  return p;
}

// m microbatches plus the schedule's bubble at the pace of the busiest stage (pipeline.h); each stage boundary sends
// activations forward and gradients backward, every model chunk.
PipelineCost pipeline_cost(const Calibrated& c, const TrainingStep& s, const LayerShape& shape, const StageWork& work,
                           const StagePace& pace) {
  PipelineCost out;
  if (s.pipeline <= 1) return out;
  const TrainingInput& in = c.in;
  const TrainingPlan& pl = in.plan;
  const Hardware& hw = c.hw;
  const WorkTime& head = work.head;
  const WorkTime& mtp = work.mtp;
  const double work_per_mb = pace.work_per_mb_s, stage_mb_s = pace.stage_mb_s;
  const double forward = pace.sum(work, &WorkTime::forward) + pace.with_head * (head.forward + mtp.forward);
  const double share = work_per_mb > 0 ? forward / work_per_mb : 0.5;
  const double weight_grad =
      pace.sum(work, &WorkTime::weight_grad) + pace.with_head * (head.weight_grad + mtp.weight_grad);
  const double weight_share = work_per_mb > 0 ? weight_grad / work_per_mb : 0.0;
  out.passes = {share * stage_mb_s, (1.0 - share) * stage_mb_s, weight_share * stage_mb_s};
  out.bubble_s = bubble_s(pl, out.passes);
  const double v = chunks_per_stage(pl);
  const double bytes = bytes_per_element(in.precision.params) * shape.tokens * in.model->d_model /
                       (pl.sequence_parallel ? s.tensor : 1.0);
  // A stage hands on to its neighbour over NVLink when the pipeline group sits in one domain, as the book's
  // step lays it out (the same layout at both fidelities).
  const bool in_domain = hw.kind == ChipKind::tpu || pl.pipeline.gpu_span <= hw.scale_up.domain_gpus;
  const double link = hw.kind == ChipKind::tpu ? hw.ici.link_unidir_bytes_per_s
                      : in_domain              ? hw.scale_up.gpu_unidir_bytes_per_s
                                               : hw.scale_out.nic_unidir_bytes_per_s_per_gpu;
  // Point-to-point sends: NCCL's ring steps, at the all-gather's measured share of the links and latency.
  const CollectiveModel& ring = c.k.collective[static_cast<std::size_t>(Collective::all_gather)];
  const double send = ring.latency_s + bytes / (link * (in_domain ? ring.link_frac : c.p.slow_link_frac));
  out.send_s = 2.0 * v * pl.microbatches * send;
  return out;
}

// Bucketed behind the last backward. The non-expert gradients are also reduced over the expert axis, whose ranks
// are data ranks to them. Across slices (scaling-book/training, multi-pod DCN): every layer's gradients
// all-reduced over DCN, one collective per layer whose ring over S slices takes 2 (S - 1) steps, each paying the
// DCN latency; scheduled once the backward pass ends (MaxText's multi-slice step).
GradientReductions gradient_reductions(const Calibrated& c, const TrainingStep& s, const StageWork& work,
                                       const ChipWeights& w) {
  const TrainingInput& in = c.in;
  const TrainingPlan& pl = in.plan;
  const CalibrationProfile& prof = c.p;
  const double layers_here = work.here.total();
  const double last_backward =
      layers_here * (work.here.dense() >= work.here.moe() ? work.dense.backward : work.moe.backward);
  GradientReductions g;
  g.dp = layers_here * c.collective_s(pl.data, Collective::all_reduce, w.grad_frac * w.layer_weight_bytes / s.fsdp);
  if (s.expert > 1 && !w.zero3_expert)
    g.dp += layers_here * c.collective_s(pl.expert, Collective::all_reduce,
                                         w.grad_frac * w.params.dense * w.p_bytes / layers_here / s.fsdp);
  if (s.fsdp > 1 && pl.zero_stage < 3) {
    const double rs =
        layers_here * c.collective_s(pl.fsdp, Collective::reduce_scatter, w.grad_frac * w.layer_weight_bytes);
    const double ag = layers_here * c.collective_s(pl.fsdp, Collective::all_gather, w.layer_weight_bytes);
    g.zero12 = rs + ag;
    g.zero12_exposed =
        exposed_s(rs, last_backward, prof.overlap_frac) + exposed_s(ag, last_backward, prof.overlap_frac);
  }
  if (s.slices > 1) {
    const double layer_grads = w.grad_frac * w.chip_params * w.p_bytes * s.tensor * s.pipeline * s.expert / layers_here;
    const CollectiveCost book = dcn_collective(Collective::all_reduce, layer_grads, s.slices, in.mesh->chips_per_slice,
                                               c.hw.dcn_unidir_bytes_per_s_per_chip);
    g.dcn = layers_here * achieved_collective_s(book.bandwidth_s, book.latency_s, prof.slow_link_frac,
                                                prof.dcn_latency_s * 2.0 * (s.slices - 1.0));
  }
  g.dp_exposed = exposed_s(g.dp, last_backward, prof.overlap_frac);
  g.dcn_exposed = prof.dcn_exposed_frac * g.dcn;
  return g;
}

// Adam reads and writes its shard of the master weights and both moments, reads the gradients and writes the
// working weights.
double optimizer_s(const Calibrated& c, const TrainingStep& s, const ChipWeights& w) {
  const TrainingPrecision& precision = c.in.precision;
  const double optimizer_params = c.in.plan.zero_stage >= 1 ? w.params.zero_sharded(s.fsdp, s.expert) : w.chip_params;
  const double optimizer_bytes = optimizer_params * (2.0 * master_bytes_per_param(precision) +
                                                     2.0 * optimizer_bytes_per_param(precision) + 2.0 * w.p_bytes);
  return optimizer_bytes / c.stream_bytes_per_s;
}

}  // namespace scalescope::calibrated
