#include "planners/serving_load.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scalescope {

namespace {

// The fixed point settles in a few rounds: the prompts per step move the step by their prefill share only.
constexpr int kLoadFixedPointIterations = 8;

StepParts decode_parts(const DecodeStep& s, double step_overhead_s) {
  const double launch_s = s.overhead_s - step_overhead_s;
  return {s.step_s - s.overhead_s - s.comms_s, s.comms_s, launch_s};
}

StepParts prefill_parts(const PrefillStep& s) { return {s.time_s - s.overhead_s - s.comms_s, s.comms_s, s.overhead_s}; }

// One prompt's KV cache from the prefill worker's chips to the decode replica's, each chip sending its share over
// its scale-out NIC (GPUs) or DCN (TPUs); the slower side's chips set the pace.
double kv_transfer_s(const ServingInput& prefill, const ServingInput& decode, double prompt_len) {
  const Hardware& hw = *decode.hw;
  const double per_chip =
      hw.kind == ChipKind::gpu ? hw.scale_out.nic_unidir_bytes_per_s_per_gpu : hw.dcn_unidir_bytes_per_s_per_chip;
  if (per_chip <= 0) return 0;
  const double chips = std::min(prefill.mesh->chips, decode.mesh->chips);
  return kv_bytes_per_sequence(decode, prompt_len) / (chips * per_chip);
}

double step_s(const StepParts& p, const ServingBackend& b) {
  return p.kernels_s + b.comms_frac * p.comms_s + b.launch_frac * p.launch_s;
}

}  // namespace

LoadParts load_parts(const ServingModel& model, const ServingLoadInput& load) {
  const ServingInput& in = *model.in;
  LoadParts p;
  p.concurrency = load.concurrency;
  p.prompt_len = load.prompt_len;
  p.generated_len = load.generated_len;
  p.chips = in.mesh->chips;
  // Paged KV caches admit a request only while its cache can grow to its last token (prompt + generated); a static
  // cache read at a longer length holds that length.
  const double context = load.kv_context_len > 0 ? load.kv_context_len : load.prompt_len + load.generated_len / 2.0;
  const double fit = std::floor(serving_max_batch(in, std::max(load.prompt_len + load.generated_len, context)));
  if (fit < 1) {
    p.fits = false;
    return p;
  }
  p.in_flight = std::min(load.concurrency, fit);
  if (load.max_in_flight > 0) p.in_flight = std::min(p.in_flight, load.max_in_flight);
  // The prompts one step may prefill: the token budget's (per attention rank), at least one (chunked beyond).
  const double ranks = std::max(1.0, in.expert.degree);
  p.attention_ranks = ranks;
  p.attention_dp_balance = load.attention_dp_balance;
  p.group_cap = std::clamp(std::floor(load.max_tokens_per_step * ranks / load.prompt_len), 1.0, p.in_flight);
  p.profile_step_overhead_s = model.profile ? model.profile->decode_step_overhead_s : 0.0;
  const DecodeStep decode = model.decode(p.in_flight, context);
  p.decode = decode_parts(decode, p.profile_step_overhead_s);
  p.decode_bound = decode.bound;
  const ServingModel& prefill = load.prefill ? *load.prefill : model;
  if (load.prefill) {
    // The prefill worker batches prompts within its own budget, however many sequences the decode replica holds.
    const double prefill_ranks = std::max(1.0, load.prefill->in->expert.degree);
    p.group_cap = std::max(1.0, std::floor(load.max_tokens_per_step * prefill_ranks / load.prompt_len));
    p.disaggregated = true;
    p.prefill_workers = load.prefill_workers;
    p.kv_transfer_s = kv_transfer_s(*load.prefill->in, in, load.prompt_len);
    p.chips += load.prefill_workers * load.prefill->in->mesh->chips;  // throughput per chip counts both pools
  }
  p.prefill_one = prefill_parts(prefill.prefill(1, load.prompt_len));
  p.prefill_cap = p.group_cap > 1 ? prefill_parts(prefill.prefill(p.group_cap, load.prompt_len)) : p.prefill_one;
  return p;
}

namespace {

// The rates and times every closed loop derives from its TTFT and TPOT (Little's law, KV slots, throughput).
void finish_loop(const LoadParts& p, double ttft_admitted, double tpot, ServingLoad& out) {
  const double n = p.in_flight, generated = p.generated_len;
  out.time_per_output_token_s = tpot;
  out.requests_per_s = n / (ttft_admitted + (generated - 1.0) * tpot);
  // Closed loop: the requests that find every KV slot taken wait for one to free (Little's law on the queue).
  out.slot_wait_s = out.queued / out.requests_per_s;
  out.time_to_first_token_s = ttft_admitted + out.slot_wait_s;
  out.request_latency_s = out.time_to_first_token_s + (generated - 1.0) * tpot;
  out.output_tokens_per_s = out.requests_per_s * generated;
  out.output_tokens_per_s_per_chip = out.output_tokens_per_s / p.chips;
  out.tokens_per_s_per_user = 1.0 / tpot;
}

template <class PrefillTime>
ServingLoad solve_disaggregated(const LoadParts& p, ServingLoad out, double ahead_s, double one_s,
                                const PrefillTime& prefill_s) {
  out.disaggregated = true;
  out.kv_transfer_s = p.kv_transfer_s;
  const double n = p.in_flight, generated = p.generated_len, workers = p.prefill_workers;
  const double tpot = out.decode_step_s;  // the decode replica never stalls for a prefill
  double group = 1, group_s = one_s, busy = 0, ttft = ahead_s + one_s + p.kv_transfer_s;
  for (int i = 0; i < kLoadFixedPointIterations; ++i) {
    const double lambda = n / (ttft + (generated - 1.0) * tpot);
    group = std::clamp(lambda / workers * group_s, 1.0, p.group_cap);
    group_s = prefill_s(group);
    busy = lambda * group_s / (workers * group);
    ttft = ahead_s + std::min(busy, 1.0) * group_s / 2.0 + group_s + p.kv_transfer_s;
  }
  out.prefill_group = group;
  out.prefill_group_s = group_s;
  out.prefill_busy_frac = std::min(busy, 1.0);
  const double cap_s = prefill_s(p.group_cap);
  const double capacity = workers * p.group_cap / cap_s;  // prompts a second the pool can prefill
  if (n / (ttft + (generated - 1.0) * tpot) > capacity) {
    // Saturated: the pool paces the loop, and the requests it cannot take yet wait for it.
    out.prefill_group = p.group_cap;
    out.prefill_group_s = cap_s;
    out.prefill_busy_frac = 1;
    ttft = std::max(ttft, n / capacity - (generated - 1.0) * tpot);
  }
  finish_loop(p, ttft, tpot, out);
  return out;
}

}  // namespace

ServingLoad solve_load(const LoadParts& p, const ServingBackend& b) {
  ServingLoad out;
  out.concurrency = p.concurrency;
  if (!p.fits) {
    out.fits = false;
    const double inf = std::numeric_limits<double>::infinity();
    out.time_to_first_token_s = out.time_per_output_token_s = out.request_latency_s = inf;
    return out;
  }
  const double n = p.in_flight, generated = p.generated_len;
  out.in_flight = n;
  out.queued = p.concurrency - n;
  out.decode_step_s = step_s(p.decode, b) + (b.step_overhead_s >= 0 ? b.step_overhead_s : p.profile_step_overhead_s);
  out.decode_bound = p.decode_bound;
  const double one_s = step_s(p.prefill_one, b), cap_s = step_s(p.prefill_cap, b);
  const auto prefill_s = [&](double g) {
    return p.group_cap > 1 ? one_s + (g - 1.0) / (p.group_cap - 1.0) * (cap_s - one_s) : one_s;
  };
  // Before its prefill a request passes the front end and waits for the prompts that arrived in its burst: half of
  // them on average, prefilled in full budgets over the prefill workers (the replica itself when aggregated).
  const double workers = p.disaggregated ? p.prefill_workers : 1.0;
  const double ahead_s = b.request_overhead_s + b.burst_frac * n * (cap_s / p.group_cap) / (2.0 * workers);
  if (p.disaggregated) return solve_disaggregated(p, out, ahead_s, one_s, prefill_s);
  // Steady state of the closed loop, a fixed point: requests finish at lambda = n / cycle; during one step
  // lambda x TPOT new prompts arrive, and the next step prefills them together (within the budget) beside the
  // decode tokens, which wait for that prefill. Arrivals are otherwise staggered: each client's next request
  // follows its own last token. With attention data parallelism a balancer admits prompts only when every rank
  // has one, or when its timeout ends the wait (TensorRT-LLM's `_balance_adp_requests`): the gate opens every
  // `gate` steps, each prompt waits half of them, and the prompts of a whole gate cycle prefill together. It holds
  // only while every rank decodes and some rank has no prompt: with fewer sequences than ranks an idle rank lets
  // the prompts through, and a queue of a prompt a rank (an offline run's backlog) opens it every step.
  const bool gated = p.attention_dp_balance && p.attention_ranks > 1 && n >= p.attention_ranks &&
                     p.concurrency - n < p.attention_ranks;
  double tpot = out.decode_step_s + b.prefill_stall_frac * one_s / generated, group = 1, group_s = one_s, gate = 1;
  const auto admitted_s = [&] { return ahead_s + 0.5 * gate * tpot + group_s + out.decode_step_s; };
  for (int i = 0; i < kLoadFixedPointIterations; ++i) {
    const double arriving = n * tpot / (admitted_s() + (generated - 1.0) * tpot);
    if (gated) gate = std::clamp(p.attention_ranks / arriving, 1.0, std::max(1.0, b.dp_gate_steps));
    group = std::clamp(arriving * gate, 1.0, p.group_cap);
    group_s = prefill_s(group);
    tpot = out.decode_step_s + b.prefill_stall_frac * arriving * group_s / group;
  }
  // A new request waits for the gate and the step in flight (half of each on average), then rides the step that
  // prefills its group; its first token comes out of that step.
  const double ttft_admitted = admitted_s();
  out.prefill_group = group;
  out.prefill_group_s = group_s;
  out.admission_gate_steps = gate;
  finish_loop(p, ttft_admitted, tpot, out);
  return out;
}

ServingLoad serve_under_load(const ServingModel& model, const ServingLoadInput& load, const ServingBackend& backend) {
  return solve_load(load_parts(model, load), backend);
}

}  // namespace scalescope
