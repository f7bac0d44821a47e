#include "planners/serving.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "physics/collectives.h"
#include "physics/roofline.h"
#include "physics/transformer.h"

namespace scalescope {

namespace {

CollectiveCost on_group(const ServingInput& in, const AxisGroup& g, Collective op, double bytes) {
  return group_collective(*in.hw, *in.mesh, g, op, bytes);
}

// Total, active and routed-expert parameters, or the override for all three (a dense stand-in); `copies`: how many
// times the replica holds the non-expert weights (once per attention data-parallel rank).
struct ServingParams {
  double total, active, routed, copies;
  // What a step reads when the batch touches `touched` of the routed experts (1: every weight the replica holds).
  double loaded(double touched) const { return (total - routed) * copies + routed * touched; }
};
ServingParams serving_params(const ServingInput& in) {
  if (in.params_override > 0) return {in.params_override, in.params_override, 0, 1};
  const ModelConfig& m = *in.model;
  const ParamCounts p = count_params(m);
  return {p.total, p.active, m.moe_layers() * m.experts * m.routed_expert_params(),
          m.is_moe() ? in.expert.degree : 1.0};
}

// Activation collectives per layer for `tokens` tokens in flight (scaling-book/inference): 1D Megatron gathers each
// block's input and reduce-scatters its output; 2D weight-stationary gathers over YZ, all-reduces over X and scatters
// over YZ for the MLP; MoE layers add an AllToAll each way over the expert axes.
double layer_comms_s(const ServingInput& in, double tokens) {
  const ModelConfig& m = *in.model;
  const double b = bytes_per_element(in.activations);
  const double v = b * tokens * m.d_model;
  double attention_block = 0, mlp_block = 0;
  if (in.layout_2d) {
    const double x = in.x.degree, yz = in.yz.degree;
    const double d_ff = m.is_moe() ? m.expert_d_ff : m.d_ff;
    mlp_block = 2.0 * on_group(in, in.yz, Collective::all_gather, v / x).time_s +
                on_group(in, in.x, Collective::all_reduce, b * tokens * d_ff / yz).time_s;
    // Attention: heads are split over all the axes; gather and scatter over both groups.
    attention_block = 2.0 * (on_group(in, in.yz, Collective::all_gather, v).time_s +
                             on_group(in, in.x, Collective::all_gather, v).time_s);
  } else if (in.tensor.degree > 1) {
    attention_block = mlp_block = 2.0 * on_group(in, in.tensor, Collective::all_gather, v).time_s;
  }
  double moe = 0;
  if (in.expert.degree > 1 && m.is_moe()) {
    const double copies_bytes = b * tokens * m.expert_io_dim() * m.active_experts;  // at the experts' width
    moe = 2.0 * on_group(in, in.expert, Collective::all_to_all, copies_bytes).time_s;
  }
  const double mlp_layers = m.layers - m.pattern.no_mlp_layers;  // a layer without an MLP runs attention's only
  return (m.layers * attention_block + mlp_layers * mlp_block + m.moe_layers() * moe) / in.efficiency.network_frac;
}

}  // namespace

// What sets a decode step T = max(F, P) + K + C (scaling-book/inference): the weights hide behind the FLOPs when the
// MLPs are compute-bound, so the step's compute share is F (or nothing) and its HBM share is K (+ P). The bound is the
// largest share; the critical term the largest single term that counts.
void name_decode_bound(DecodeStep& s) {
  const ServingExposed& e = s.exposed;
  const double compute = e.flops_s, hbm = e.kv_load_s + e.param_load_s;
  s.bound = e.comms_s > compute && e.comms_s > hbm ? "communication" : compute > hbm ? "compute" : "memory";
  const double mlp = s.compute_bound ? e.flops_s : e.param_load_s;
  s.critical = e.comms_s > mlp && e.comms_s > e.kv_load_s ? "comms"
               : e.kv_load_s > mlp                        ? "kv_load"
               : s.compute_bound                          ? "flops"
                                                          : "param_load";
}

void name_prefill_bound(PrefillStep& s, double flops_s, double param_load_s, double comms_s) {
  s.bound = flops_s >= param_load_s && flops_s >= comms_s ? "compute"
            : param_load_s >= comms_s                     ? "memory"
                                                          : "communication";
}

double routed_fraction_touched(const ModelConfig& m, double tokens) {
  if (!m.is_moe()) return 1.0;
  return 1.0 - std::pow(1.0 - m.active_experts / m.experts, tokens);
}

double serving_expert_degree(const ServingInput& in) {
  const double etp = in.expert_tensor > 0 ? in.expert_tensor : in.tensor.degree;
  return in.expert.degree * in.tensor.degree / etp;
}

double serving_param_bytes(const ServingInput& in) {
  return serving_params(in).loaded(1.0) * bytes_per_element(in.weights);
}

// Latent attention's cache has no heads to split: every TP rank holds all of it.
static double cache_copies(const ServingInput& in) { return in.model->is_mla() ? in.tensor.degree : 1.0; }

double kv_bytes_per_sequence(const ServingInput& in, double context) {
  return kv_cache_bytes(*in.model, in.kv, context) * cache_copies(in);
}

double kv_read_bytes_per_sequence(const ServingInput& in, double context) {
  return kv_cache_read_bytes(*in.model, in.kv, context) * cache_copies(in);
}

double serving_max_batch(const ServingInput& in, double context) {
  const double hbm_total = in.mesh->chips * in.hw->hbm_capacity_bytes;
  return std::floor(in.hbm_budget.kv_bytes(hbm_total, serving_param_bytes(in)) / kv_bytes_per_sequence(in, context));
}

DecodeStep decode_step(const ServingInput& in, double batch, double context, double tokens_per_sequence) {
  const ModelConfig& m = *in.model;
  const Hardware& hw = *in.hw;
  const double chips = in.mesh->chips;
  const double w = chips * hw.hbm_bandwidth_bytes_per_s * in.efficiency.hbm_frac;
  const double c = chips * hw.peak(in.activations) * in.efficiency.flops_frac;
  const double tokens = batch * tokens_per_sequence;
  const ServingParams p = serving_params(in);
  const double loaded = p.loaded(routed_fraction_touched(m, tokens)) * bytes_per_element(in.weights);
  DecodeStep s;
  s.param_load_s = loaded / w;
  // The caches are read once (scaling-book/inference), sparse attention's but for its index keys and selected entries;
  // a linear layer's state is also written back, as large as what it read.
  s.kv_load_s = batch * (kv_read_bytes_per_sequence(in, context) + recurrent_state_bytes(m)) / w;
  s.flops_s = 2.0 * tokens * p.active / c;
  s.comms_s = in.include_comms ? layer_comms_s(in, tokens) : 0.0;
  s.compute_bound = s.flops_s > s.param_load_s;
  s.step_s = std::max(s.flops_s, s.param_load_s) + s.kv_load_s + s.comms_s;
  s.exposed = {s.compute_bound ? s.flops_s : 0.0, s.compute_bound ? 0.0 : s.param_load_s, s.kv_load_s, s.comms_s, 0.0};
  name_decode_bound(s);
  return s;
}

PrefillStep prefill(const ServingInput& in, double batch, double prompt_len) {
  const ModelConfig& m = *in.model;
  const Hardware& hw = *in.hw;
  const double chips = in.mesh->chips;
  const double tokens = batch * prompt_len;
  const double c = chips * hw.peak(in.activations) * in.prefill_flops_frac;
  PrefillStep s;
  s.matmul_flops_s = 2.0 * serving_params(in).active * tokens / c;
  const FlopCounts f = count_flops(m, tokens, prompt_len, true);
  s.flops_s = (in.params_override > 0 ? s.matmul_flops_s * c + f.attention_forward : f.forward) / c;
  const double loaded = serving_params(in).loaded(routed_fraction_touched(m, tokens)) * bytes_per_element(in.weights);
  s.param_load_s = loaded / (chips * hw.hbm_bandwidth_bytes_per_s * in.efficiency.hbm_frac);
  s.comms_s = in.include_comms ? layer_comms_s(in, tokens) : 0.0;
  // Prefill is a training-style forward pass: large matmuls hide their loads and collectives (max,
  // scaling-book/roofline).
  s.time_s = std::max({s.flops_s, s.param_load_s, s.comms_s});
  s.compute_bound = s.flops_s >= s.param_load_s && s.flops_s >= s.comms_s;
  name_prefill_bound(s, s.flops_s, s.param_load_s, s.comms_s);
  // The term that sets the max (the bound just named) adds all of itself; the others hide behind it.
  const std::string_view bound = s.bound;
  s.exposed.flops_s = bound == "compute" ? s.flops_s : 0.0;
  s.exposed.param_load_s = bound == "memory" ? s.param_load_s : 0.0;
  s.exposed.comms_s = bound == "communication" ? s.comms_s : 0.0;
  return s;
}

double speculative_expected_tokens(double a, double gamma) {
  if (a >= 1.0) return gamma + 1.0;
  return (1.0 - std::pow(a, gamma + 1.0)) / (1.0 - a);
}

}  // namespace scalescope
