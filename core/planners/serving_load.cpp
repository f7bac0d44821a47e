#include "planners/serving_load.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scalescope {

namespace {
// The fixed point settles in a few rounds: the prompts per step move the step by their prefill share only.
constexpr int kLoadFixedPointIterations = 8;
}  // namespace

ServingLoad serve_under_load(const ServingModel& model, const ServingLoadInput& load) {
  const ServingInput& in = *model.in;
  const double prompt = load.prompt_len, generated = load.generated_len;
  ServingLoad out;
  out.concurrency = load.concurrency;
  // Paged KV caches admit a request only while its cache can grow to its last token (prompt + generated).
  const double fit = std::floor(serving_max_batch(in, prompt + generated));
  if (fit < 1) {
    out.fits = false;
    const double inf = std::numeric_limits<double>::infinity();
    out.time_to_first_token_s = out.time_per_output_token_s = out.request_latency_s = inf;
    return out;
  }
  const double n = std::min(load.concurrency, fit);
  out.in_flight = n;
  out.queued = load.concurrency - n;
  out.decode_step_s = model.decode(n, prompt + generated / 2.0).step_s;
  // The prompts one step may prefill: the token budget's (per attention rank), at least one (chunked beyond).
  const double ranks = std::max(1.0, in.expert.degree);
  const double group_cap = std::clamp(std::floor(load.max_tokens_per_step * ranks / prompt), 1.0, n);
  // Steady state of the closed loop, a fixed point: requests finish at lambda = n / cycle; during one step lambda x
  // TPOT new prompts arrive, and the next step prefills them together (within the budget) beside the decode tokens.
  // Every such step stalls the decoding sequences, so TPOT = decode + (prompts per step) x (prefill per prompt).
  // Arrivals are staggered (each client's next request follows its own last token), not the benchmark's first
  // burst, which a long run averages away.
  double prefill_one_s = model.prefill(1, prompt).time_s;
  double tpot = out.decode_step_s + prefill_one_s / generated, group = 1, group_s = prefill_one_s, ttft_admitted = 0;
  for (int i = 0; i < kLoadFixedPointIterations; ++i) {
    ttft_admitted = 0.5 * tpot + group_s + out.decode_step_s;
    const double lambda = n / (ttft_admitted + (generated - 1.0) * tpot);
    const double arriving = lambda * tpot;
    const double next_group = std::clamp(arriving, 1.0, group_cap);
    if (next_group != group) {
      group = next_group;
      group_s = model.prefill(group, prompt).time_s;
    }
    tpot = out.decode_step_s + arriving * group_s / group;
  }
  // A new request waits for the step in flight (half a step on average), then rides the step that prefills its
  // group; its first token comes out of that step.
  ttft_admitted = 0.5 * tpot + group_s + out.decode_step_s;
  out.prefill_group = group;
  out.prefill_group_s = group_s;
  out.time_per_output_token_s = tpot;
  const double cycle_s = ttft_admitted + (generated - 1.0) * tpot;
  out.requests_per_s = n / cycle_s;
  // Closed loop: the requests that find every KV slot taken wait for one to free (Little's law on the queue).
  out.slot_wait_s = out.queued / out.requests_per_s;
  out.time_to_first_token_s = ttft_admitted + out.slot_wait_s;
  out.request_latency_s = out.time_to_first_token_s + (generated - 1.0) * tpot;
  out.output_tokens_per_s = out.requests_per_s * generated;
  out.output_tokens_per_s_per_chip = out.output_tokens_per_s / in.mesh->chips;
  out.tokens_per_s_per_user = 1.0 / tpot;
  return out;
}

}  // namespace scalescope
