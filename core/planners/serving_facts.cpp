// The book's serving facts a `serving` query reports beside its steps (scaling-book/inference): memory and the
// batch that fits, rates and dollars, the compute-bound batch, the TPU tensor-parallel limits, the chips a latency
// target needs, speculative decoding's gain and the sweep's batches. Each is asked once per query, never in a
// search, so the wasm build compiles this file for size (CMakeLists.txt); the steps themselves are in serving.cpp.
#include <algorithm>
#include <cmath>

#include "physics/roofline.h"
#include "planners/serving.h"

namespace scalescope {

ServingMemory serving_memory(const ServingInput& in, const ServingRequests& r) {
  ServingMemory m;
  m.hbm_total_bytes = in.mesh->chips * in.hw->hbm_capacity_bytes;
  m.param_bytes = serving_param_bytes(in);
  m.final_context = r.prompt_len + r.generated_len;
  m.kv_bytes_per_sequence = kv_bytes_per_sequence(in, m.final_context);
  m.max_batch = serving_max_batch(in, m.final_context);
  m.kv_budget_bytes = in.hbm_budget.kv_bytes(m.hbm_total_bytes, m.param_bytes);
  m.budget_bytes = in.hbm_budget.usable_bytes(m.hbm_total_bytes, m.param_bytes);
  m.total_bytes = m.param_bytes + r.batch * m.kv_bytes_per_sequence;
  return m;
}

ServingRates serving_rates(const ServingInput& in, const ServingRequests& r, double step_s, double batch_prefill_s,
                           double one_prefill_s) {
  const double chips = in.mesh->chips;
  const double batch = r.batch, prompt = r.prompt_len, generated = r.generated_len;
  const double usd_per_s = chips * in.hw->price_usd_per_chip_hour / 3600.0;
  ServingRates s;
  s.tokens_per_s = batch / step_s;
  s.tokens_per_s_per_chip = s.tokens_per_s / chips;
  s.request_latency_s = one_prefill_s + generated * step_s;
  s.decode_time_s = generated * step_s;
  s.queries_per_s_per_chip = batch / (step_s * generated * chips);
  s.usd_per_million_output_tokens = usd_per_s * step_s / batch * 1e6;
  s.usd_per_million_input_tokens = usd_per_s * batch_prefill_s / (batch * prompt) * 1e6;
  s.prefill_servers_per_decode_server = batch * one_prefill_s / (step_s * generated);
  s.sequences_finished_per_step = batch / generated;
  s.tokens_evicted_per_step = batch * (prompt + generated) / generated;
  return s;
}

double serving_compute_bound_batch(const ServingInput& in) {
  const ModelConfig& m = *in.model;
  const Hardware& hw = *in.hw;
  const double moe = m.is_moe() ? m.experts / m.active_experts : 1.0;
  return matmul_critical_batch(hw.peak(in.activations), hw.hbm_bandwidth_bytes_per_s, in.weights) * moe;
}

TensorParallelLimits tpu_tensor_parallel_limits(const ServingInput& in, double batch) {
  const ModelConfig& m = *in.model;
  const Hardware& hw = *in.hw;
  const double c = hw.peak(in.activations);
  const double d_ff = m.is_moe() ? m.expert_d_ff : m.d_ff;
  const double w_ici = 2.0 * hw.ici.link_unidir_bytes_per_s;
  const double m_y = std::max(1, in.tensor.ici_axes + in.x.ici_axes + in.yz.ici_axes);
  return {.compute_limit = m_y * d_ff * w_ici / c,
          .hbm_limit = d_ff * w_ici / (batch * hw.hbm_bandwidth_bytes_per_s),
          .weight_stationary_2d_min_chips = 32.0 * d_ff / m.d_model * 0.5625};  // (3/4)^2: 72 for F = 4D
}

ChipsForLatency chips_for_latency_target(const ServingInput& in, const DecodeStep& step, double total_bytes,
                                         double latency_target_s) {
  ChipsForLatency c;
  c.chips = in.mesh->chips * (step.step_s - step.comms_s) / latency_target_s;
  c.chips_for_memory = std::ceil(total_bytes / in.hw->hbm_capacity_bytes);
  c.min_chips = std::max(std::ceil(c.chips), c.chips_for_memory);
  c.limited_by_latency = std::ceil(c.chips) >= c.chips_for_memory;
  return c;
}

SpeculativeDecode speculative_decode(double acceptance_rate, double lookahead, double draft_step_s,
                                     double verify_step_s, double step_s) {
  SpeculativeDecode s;
  s.expected_tokens_per_step = speculative_expected_tokens(acceptance_rate, lookahead);
  s.iteration_s = lookahead * draft_step_s + verify_step_s;
  s.latency_per_token_s = s.iteration_s / s.expected_tokens_per_step;
  s.speedup = s.expected_tokens_per_step * step_s / s.iteration_s;
  return s;
}

std::vector<double> serving_sweep_batches(const ServingMemory& memory, double kv_bytes_per_sequence) {
  std::vector<double> batches;
  const double fit = std::floor(memory.kv_budget_bytes / kv_bytes_per_sequence);
  for (double b = 1; b <= fit && b <= 1 << 20; b *= 2) batches.push_back(b);
  if (fit >= 1 && (batches.empty() || batches.back() != fit) && fit <= 1 << 20) batches.push_back(fit);
  return batches;
}

}  // namespace scalescope
