// The memory half of a training step (planners/training.h, training_step_memory): the plan's shape, its FLOPs and
// compute time, and what one chip holds: weights, gradients, optimizer states, activations, host offload.
#include <algorithm>
#include <cmath>
#include <new>
#include <type_traits>

#include "planners/pipeline.h"
#include "planners/training.h"  // first: the file's own header (training_step_memory)

namespace scalescope {

namespace {

// Bytes per parameter of the gradient buffer (scaling-book/training, memory: the book's 10 bytes per parameter have
// none).
double gradient_bytes_per_param(const TrainingPrecision& p) {
  switch (p.gradients) {
    case GradientBuffer::same_as_params:
      return bytes_per_element(p.params);
    case GradientBuffer::fp32:
      return bytes_per_element(Dtype::fp32);
    case GradientBuffer::fused:
      return 0.0;
  }
  return 0.0;
}

// What one token's forward pass costs in a layer of each kind (FLOPs): its matmuls and its attention over the
// keys its span allows; the pipeline's busiest stage is the one whose layers weigh most.
std::array<double, kLayerKinds> layer_flops_per_token(const TrainingInput& in) {
  const ModelConfig& m = *in.model;
  std::array<double, kLayerKinds> w{};
  const double dense = m.mlp_matrices() * m.d_model * m.d_ff;
  const double moe = m.active_experts * m.routed_expert_params() + m.shared_experts * m.shared_expert_params() +
                     m.latent_projection_params() + m.d_model * m.experts;
  for (int k = 0; k < kLayerKinds; ++k) {
    if (m.pattern.all.n[k] <= 0) continue;
    const AttentionSpan span = kind_span(k);
    const MlpLayer mlp = kind_mlp(k);
    const double mlp_params = mlp == MlpLayer::moe ? moe : mlp == MlpLayer::dense ? dense : 0.0;
    w[k] = 2.0 * (attention_params_per_layer(m, span) + mlp_params) +
           mixing_flops_per_token(m, span, in.seq_len, in.causal);
  }
  return w;
}

// Padding every expert to its capacity runs capacity_factor x the routed experts' matmuls (the model's FLOPs do not
// count the padding): forward, and both backward matmuls.
double expert_padding_flops(const TrainingInput& in) {
  const ModelConfig& m = *in.model;
  if (!m.is_moe() || in.moe.policy != TokenPolicy::pad || in.moe.capacity_factor <= 1) return 0;
  const double routed_forward = 2.0 * in.batch_tokens * m.moe_layers() * m.active_experts * m.routed_expert_params();
  return 3.0 * (in.moe.capacity_factor - 1.0) * routed_forward;
}

// Host offload (ZeRO-Offload, Ren et al. 2021; activation offload as in MaxText's offload remat policies): the
// optimizer's states are read into HBM for the update and written back, the saved activations go out during the
// forward pass and come back for the backward; the host link is full duplex, so the busier direction sets the
// time, overlapped with the step like a collective.
void host_offload(const Hardware& hw, const TrainingPlan& p, double activation_step_bytes, TrainingStep& s) {
  double out = 0, in = 0;
  if (p.offload_optimizer) {
    s.host_bytes += s.optimizer_bytes + s.master_bytes;
    out += s.optimizer_bytes + s.master_bytes;
    in += s.optimizer_bytes + s.master_bytes;
  }
  if (p.offload_activations) {
    s.host_bytes += activation_step_bytes;
    out += activation_step_bytes;
    in += activation_step_bytes;
  }
  s.offload_s = hw.host_pcie_unidir_bytes_per_s > 0 ? std::max(out, in) / hw.host_pcie_unidir_bytes_per_s : 0.0;
}

// The compute part of the step. By default the hardware FLOPs at flops_frac of peak, paced by the busiest pipeline
// stage, plus the bubble.
// With a target MFU, the book's time (scaling-book/training) = model FLOPs / (chips C MFU): the MFU already covers
// remat recompute and the bubble (and uneven stages), so none is added again (communication and HBM still bound the
// step from below).
void price_compute(const TrainingInput& in, TrainingStep& s, double peak) {
  s.bubble_frac = bubble_fraction(in.plan);
  if (in.target_mfu_frac > 0) {
    s.compute_s = s.model_flops / (s.chips * peak * in.target_mfu_frac);
    s.bubble_s = 0;
    return;
  }
  s.compute_s = s.hardware_flops / s.chips / (peak * in.efficiency.flops_frac) * s.stage_imbalance;
  s.bubble_s = s.compute_s * s.bubble_frac / (1.0 - s.bubble_frac);
}

// The plan's degrees, chips and price, and the batch's tokens per chip, per data shard and per microbatch.
void set_plan_shape(const TrainingInput& in, TrainingStep& s) {
  const TrainingPlan& p = in.plan;
  s.data = p.data.degree;
  s.fsdp = p.fsdp.degree;
  s.tensor = p.tensor.degree;
  s.pipeline = p.pipeline.degree;
  s.expert = p.expert.degree;
  s.context = p.context.degree;
  s.slices = in.mesh->slices;
  s.chips = in.mesh->chips;
  s.usd_per_hour = s.chips * in.hw->price_usd_per_chip_hour;
  const double data_shards = s.data * s.fsdp * s.context * s.expert;
  s.tokens_per_chip = in.batch_tokens / s.chips;
  s.tokens_per_data_shard = in.batch_tokens / data_shards;
  s.microbatch_tokens = s.tokens_per_data_shard / p.microbatches;
}

// FLOPs (scaling-book/transformers, training FLOPs): model FLOPs count the model once (with the multi-token
// prediction modules it trains); hardware FLOPs add the remat recompute and the experts' padding to capacity. The
// model's counts are made once per search (`counts.model_counted`); the remat cost of the whole batch is returned.
RematCost count_step_flops(const TrainingInput& in, StepCounts& counts, TrainingStep& s) {
  const ModelConfig& m = *in.model;
  const double mtp = std::min(in.mtp_layers, m.mtp_layers);
  if (!counts.model_counted) {
    counts.params = count_params(m);
    counts.flops = count_flops(m, counts.params, in.batch_tokens, in.seq_len, in.causal, in.flop_account, mtp);
    counts.layer_flops = mtp > 0
                             ? count_flops(m, counts.params, in.batch_tokens, in.seq_len, in.causal, in.flop_account, 0)
                             : counts.flops;
  }
  const RematCost remat_total = remat_cost(m, counts.params, counts.layer_flops, in.remat, in.batch_tokens,
                                           in.checkpoints_per_layer, in.precision.params);
  s.model_flops = counts.flops.training;
  s.hardware_flops = counts.flops.training + remat_total.extra_forward_flops + expert_padding_flops(in);
  return remat_total;
}

// The layers of the pipeline's busiest stage, their kinds, and how much more it holds than an even share.
void place_stage_layers(const TrainingInput& in, TrainingStep& s) {
  const ModelConfig& m = *in.model;
  const TrainingPlan& p = in.plan;
  if (s.pipeline > 1 && m.pattern.runs.size() > 1) {
    // Layers of several kinds: the stage whose layers weigh most in FLOPs is the busiest.
    const auto weight = layer_flops_per_token(in);
    s.stage_kinds = busiest_stage(m.pattern, s.pipeline, chunks_per_stage(p), weight);
    s.stage_layers = s.stage_kinds.total();
    double stage = 0, all = 0;
    for (int k = 0; k < kLayerKinds; ++k) {
      stage += s.stage_kinds.n[k] * weight[k];
      all += m.pattern.all.n[k] * weight[k];
    }
    s.stage_imbalance = stage * s.pipeline / all;
  } else {
    const double v = chunks_per_stage(p);
    s.stage_layers = s.pipeline > 1 ? v * std::ceil(m.layers / (s.pipeline * v)) : m.layers;
    s.stage_imbalance = s.stage_layers * s.pipeline / m.layers;
    s.stage_kinds = m.pattern.all.scaled(s.stage_layers / m.layers);
  }
}

// Parameters on one chip: routed experts are split by EP (and ETP); everything else by TP; all by PP (DualPipe
// holds two stages); ZeRO shards over FSDP, and the non-expert states also over the expert ranks, which are data
// ranks to them (Megatron's distributed optimizer over the whole data-parallel group; MaxText shards the
// non-expert weights over its expert axis too). The context ranks hold the same weights and reduce the same
// gradients, so the optimizer states and gradients (ZeRO-1/2) shard over them too: Megatron's distributed optimizer
// over its data-parallel group with context parallelism (NVIDIA/Megatron-LM megatron/core/optimizer/__init__.py @
// d98e8a6, dp_cp_group), torchtitan's FSDP over dp_shard x cp. The weights themselves (ZeRO-3) stay gathered over
// FSDP alone, as the step gathers them. In bytes per chip.
void price_state_bytes(const TrainingInput& in, StepCounts& counts, TrainingStep& s) {
  const TrainingPlan& p = in.plan;
  const TrainingPrecision& prec = in.precision;
  const ChipParams& cp = counts.chip = training_chip_params(in, s, counts.params);
  const double chip_params = cp.total();
  auto sharded = [&](int stage) {
    if (p.zero_stage < stage) return chip_params;
    return cp.zero_sharded(stage >= 3 ? s.fsdp : s.fsdp * s.context, s.expert);
  };
  const double pb = bytes_per_element(prec.params), gb = gradient_bytes_per_param(prec);
  const double mb = master_bytes_per_param(prec), ob = optimizer_bytes_per_param(prec);
  s.state_bytes_per_param = checkpoint_bytes_per_param(prec) + gb;
  s.params_bytes = sharded(3) * pb;
  s.grads_bytes = sharded(2) * gb;
  s.master_bytes = sharded(1) * mb;
  s.optimizer_bytes = sharded(1) * ob;
}

// What a materialized attention kernel saves beyond the remat policy's activations for `tokens` tokens, in bytes:
// the scores, split by heads over `tp`, and the dropout masks, over `shards`.
double kernel_extra_bytes(const TrainingInput& in, double tokens, double tp, double shards) {
  const ModelConfig& m = *in.model;
  return m.layers * tokens *
         (attention_scores_saved_bytes_per_token(in.attention, in.remat, m.heads / tp, in.seq_len,
                                                 in.precision.params) +
          dropout_masks_saved_bytes_per_token(in.attention, in.remat, m.d_model) / shards);
}

// Activations (scaling-book/transformers, remat) for one microbatch, this stage's layers, times the microbatches in
// flight; context parallelism's KV buffers; what host offload moves and leaves resident. In bytes per chip.
void price_activation_bytes(const TrainingInput& in, TrainingStep& s) {
  const ModelConfig& m = *in.model;
  const TrainingPlan& p = in.plan;
  const TrainingPrecision& prec = in.precision;
  const double remat_mb_bytes =
      remat_activation_bytes(m, in.remat, s.microbatch_tokens, in.checkpoints_per_layer, prec.params);
  if (s.pipeline > 1)
    s.in_flight_microbatches =
        schedule_in_flight_microbatches(p.schedule, s.pipeline, p.microbatches, p.virtual_stages);
  // Sequence parallelism shards the saved activations over TP; without it the layer inputs are replicated. A
  // materialized kernel's scores are split by heads, over TP either way.
  const double act_shards = p.sequence_parallel ? s.tensor : 1.0;
  const double activations_per_microbatch =
      (remat_mb_bytes / act_shards + kernel_extra_bytes(in, s.microbatch_tokens, s.tensor, act_shards)) / s.pipeline *
      s.stage_imbalance;
  s.activations_bytes = activations_per_microbatch * s.in_flight_microbatches;
  if (s.context > 1)  // ring attention: this layer's KV chunk plus the one in flight; all-gather: the whole KV
    s.context_buffers_bytes = (p.context_variant == ContextVariant::all_gather ? s.context : 2.0) * 2.0 *
                              s.microbatch_tokens * m.kv_heads * m.head_dim * bytes_per_element(prec.params) /
                              std::min(s.tensor, m.kv_heads);
  host_offload(*in.hw, p, activations_per_microbatch * p.microbatches, s);
  s.activations_bytes *= resident_activation_frac(p, s.stage_layers);
}

// The chip's HBM total, whether it fits, and (scaling-book/applied-training, minimum chips) the chips the whole job's
// state needs: weights, gradients, optimizer and the batch's saved activations (`remat_total`), spread evenly.
void total_memory(const TrainingInput& in, const RematCost& remat_total, StepCounts& counts, TrainingStep& s) {
  const double on_chip = in.plan.offload_optimizer ? 0.0 : 1.0;  // offloaded states are not in HBM
  s.total_bytes = s.params_bytes + s.grads_bytes + on_chip * s.master_bytes + on_chip * s.optimizer_bytes +
                  s.activations_bytes + s.context_buffers_bytes;
  s.hbm_capacity_bytes = in.hw->hbm_capacity_bytes;
  s.fits = s.total_bytes <= s.hbm_capacity_bytes;
  s.shortfall_bytes = std::max(0.0, s.total_bytes - s.hbm_capacity_bytes);
  const double whole_state = counts.params.total * s.state_bytes_per_param;
  const double batch_activation_bytes = counts.batch_activation_bytes =
      remat_total.activation_bytes + kernel_extra_bytes(in, in.batch_tokens, 1, 1);
  s.min_chips_for_memory = std::ceil((whole_state + batch_activation_bytes) / s.hbm_capacity_bytes);
}

}  // namespace

void training_step_memory(const TrainingInput& in, StepCounts& counts, TrainingStep& s) {
  static_assert(std::is_trivially_destructible_v<TrainingStep>);
  ::new (&s) TrainingStep{};  // a fresh step in place (a plan search reuses one): no temporary to copy from
  set_plan_shape(in, s);
  const RematCost remat_total = count_step_flops(in, counts, s);
  const double peak = counts.peak = in.hw->peak(in.precision.matmul);
  place_stage_layers(in, s);
  price_compute(in, s, peak);
  price_state_bytes(in, counts, s);
  price_activation_bytes(in, s);
  total_memory(in, remat_total, counts, s);
}

ChipParams training_chip_params(const TrainingInput& in, const TrainingStep& s, const ParamCounts& p) {
  const ModelConfig& m = *in.model;
  const double expert_matrix = m.routed_expert_params();
  const double mtp = m.mtp_layers > 0 ? std::min(in.mtp_layers, m.mtp_layers) / m.mtp_layers : 0.0;
  const double mtp_routed = m.is_moe() ? mtp * m.mtp_layers * m.experts * expert_matrix : 0.0;
  const double routed = m.moe_layers() * m.experts * expert_matrix + mtp_routed;
  const double all = p.total + mtp * p.mtp;
  const double stage = s.stage_imbalance / s.pipeline * schedule_parameter_copies(in.plan.schedule);
  return {(all - routed) / s.tensor * stage,
          routed / (expert_parallel_degree(in.plan) * expert_tensor_degree(in.plan)) * stage};
}

double resident_activation_frac(const TrainingPlan& plan, double stage_layers) {
  // Offloaded activations leave HBM as soon as they are written (MaxText's offload remat policies, ZeRO-Offload's
  // activation checkpoints): the layer being computed and the next one's, prefetched, stay.
  return plan.offload_activations ? std::min(1.0, 2.0 / stage_layers) : 1.0;
}

double master_bytes_per_param(const TrainingPrecision& p) {
  return p.master_weights ? bytes_per_element(p.master) : 0.0;
}

double optimizer_bytes_per_param(const TrainingPrecision& p) {
  return 2.0 * bytes_per_element(p.optimizer);  // Adam m and v (scaling-book/training, memory)
}

double checkpoint_bytes_per_param(const TrainingPrecision& p) {
  return bytes_per_element(p.params) + master_bytes_per_param(p) + optimizer_bytes_per_param(p);
}

}  // namespace scalescope
