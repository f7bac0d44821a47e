// A serving replica under load as serving benchmarks drive it (issue 35): a fixed prompt and output length and a
// fixed concurrency, each client sending its next request when the last one ends (a closed loop), the engine
// batching continuously. The steady state's time to first token, time per output token, and throughput per chip
// and per user. Allocation-free: a frontier sweeps it over concurrency.
#pragma once
#include "planners/calibrated_serving.h"

namespace scalescope {

struct ServingLoadInput {
  double concurrency = 1;           // requests in flight per replica (the benchmark's concurrency)
  double prompt_len = 1, generated_len = 1;
  double max_tokens_per_step = 8192;  // prompt tokens one step may prefill per attention rank (the engines' default)
};

struct ServingLoad {
  double concurrency = 0;
  double in_flight = 0;        // sequences whose KV caches fit at once, decoding
  double queued = 0;           // requests waiting for a KV slot (the concurrency beyond what fits)
  double prefill_group = 0;    // prompts prefilled together in one step: those that arrive during a step, in budget
  double prefill_group_s = 0;  // that step's prefill
  double decode_step_s = 0;    // a decode step of the sequences in flight at their mean context
  double time_per_output_token_s = 0;  // the decode step plus the other requests' prefills it waits behind
  double time_to_first_token_s = 0;    // half a step's wait, the step that prefills it, and any wait for a KV slot
  double slot_wait_s = 0;
  double request_latency_s = 0;
  double requests_per_s = 0;
  double output_tokens_per_s = 0;
  double output_tokens_per_s_per_chip = 0;
  double tokens_per_s_per_user = 0;  // 1 / time per output token, as the benchmarks report interactivity
  bool fits = true;                  // at least one sequence's KV cache fits beside the weights
};

// Steady state of the closed loop (docs/api.md "serving", `load`), with n = min(C, sequences whose KV fits at P + G):
//   lambda = n / (TTFT_0 + (G - 1) TPOT) requests/s (Little's law), a = lambda TPOT prompts arriving per step,
//   g = clamp(a, 1, budget x attention ranks / P) prefilled together, TPOT = decode(n, P + G/2) + a prefill(g, P) / g,
//   TTFT_0 = TPOT / 2 + prefill(g, P) + decode(n), and TTFT = TTFT_0 + (C - n) / lambda (waiting for a KV slot).
ServingLoad serve_under_load(const ServingModel& model, const ServingLoadInput& load);

}  // namespace scalescope
