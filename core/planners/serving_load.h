// A serving replica under load as serving benchmarks drive it (issue 35): a fixed prompt and output length and a
// fixed concurrency, each client sending its next request when the last one ends (a closed loop), the engine
// batching continuously. The steady state's time to first token, time per output token, and throughput per chip
// and per user, for a serving engine's runtime (specs/serving_backend.h) or the kernels' step as it is.
// Allocation-free: a frontier sweeps it over concurrency, and the backend fit solves it per row from its parts.
#pragma once
#include "planners/calibrated_serving.h"
#include "specs/serving_backend.h"

namespace scalescope {

struct ServingLoadInput {
  double concurrency = 1;  // requests in flight per replica (the benchmark's concurrency)
  double prompt_len = 1, generated_len = 1;
  // The KV length a decode step reads (the serving query's kv_context_len); 0: the mean, prompt + generated / 2. An
  // engine with static caches reads the whole allocated length every step (JetStream before its ragged attention).
  double kv_context_len = 0;
  double max_tokens_per_step = 8192;  // prompt tokens one step may prefill per attention rank (the engines' default)
  // The engine's cap on the sequences it batches at once (TensorRT-LLM's max_batch_size, vLLM's max_num_seqs,
  // SGLang's max_running_requests, JetStream's slots); 0: only the KV caches limit them.
  double max_in_flight = 0;
  // With attention data parallelism, a balancer holds new prompts until every rank has one, or for at most the
  // backend's dp_gate_steps (TensorRT-LLM's attention_dp_config.enable_balance; off by default).
  bool attention_dp_balance = false;
  // Disaggregated serving: the prompts prefill on a pool of their own (its replica, possibly another split of the
  // same chips), `prefill_workers` of them per decode replica; the decode replica never stalls for a prefill, and
  // each prompt's KV cache crosses to it over the scale-out network. Null: aggregated.
  const ServingModel* prefill = nullptr;
  double prefill_workers = 1;
};

// A step's time in the parts a serving engine's runtime changes: the kernels' roofline time, the tensor- and
// expert-parallel communication, and the launch floors and per-op host gaps.
struct StepParts {
  double kernels_s = 0, comms_s = 0, launch_s = 0;
};

// What the steady state needs from the replica, priced once (the costly part); `solve_load` is arithmetic on it.
struct LoadParts {
  double concurrency = 0, prompt_len = 1, generated_len = 1, chips = 1;
  double in_flight = 0;        // n: the sequences whose KV caches fit at their last token, at most the concurrency
                               // and the engine's cap
  double group_cap = 1;        // the prompts one step may prefill (the token budget)
  double attention_ranks = 1;  // attention data-parallel ranks (each its own sequences and prompts)
  bool attention_dp_balance = false;  // their balancer gates new prompts (ServingLoadInput)
  StepParts decode;               // a decode step of n sequences at their mean context, without the per-step host time
  const char* decode_bound = "";  // what sets that step ("compute" | "memory" | "communication")
  double profile_step_overhead_s = 0;  // the chip profile's host time per step (a backend may replace it)
  StepParts prefill_one, prefill_cap;  // one prompt, and group_cap prompts together (on the prefill pool's worker)
  bool disaggregated = false;
  double prefill_workers = 1;  // per decode replica
  double kv_transfer_s = 0;    // one prompt's KV cache from a prefill worker to the decode replica
  bool fits = true;
};

struct ServingLoad {
  double concurrency = 0;
  double in_flight = 0;        // sequences whose KV caches fit at once, decoding
  double queued = 0;           // requests waiting for a KV slot (the concurrency beyond what fits)
  double prefill_group = 0;    // prompts prefilled together in one step: those that arrive during a step, in budget
  double prefill_group_s = 0;  // that step's prefill
  double admission_gate_steps = 1;     // decode steps between the openings of attention DP's admission gate (1: none)
  double decode_step_s = 0;            // a decode step of the sequences in flight at their mean context
  const char* decode_bound = "";       // what sets it
  double time_per_output_token_s = 0;  // the decode step plus the other requests' prefills it waits behind
  double time_to_first_token_s = 0;    // the front end, the wait for the step in flight, for the prompts ahead of
                                       // it and for a KV slot, and the step that prefills it
  double slot_wait_s = 0;
  double request_latency_s = 0;
  double requests_per_s = 0;
  double output_tokens_per_s = 0;
  double output_tokens_per_s_per_chip = 0;
  double tokens_per_s_per_user = 0;  // 1 / time per output token, as the benchmarks report interactivity
  bool fits = true;                  // at least one sequence's KV cache fits beside the weights
  // Disaggregated: the prefill pool's share of its time busy (1: saturated, the requests queue for it) and the KV
  // transfer each prompt waits for.
  bool disaggregated = false;
  double prefill_busy_frac = 0, kv_transfer_s = 0;
};

LoadParts load_parts(const ServingModel& model, const ServingLoadInput& load);

// Steady state of the closed loop (docs/api.md "serving", `load`), with n in flight, a backend b (its defaults:
// the kernels' step as it is):
//   lambda = n / (TTFT_0 + (G - 1) TPOT) requests/s (Little's law), a = lambda TPOT prompts arriving per step,
//   g = clamp(a L, 1, budget x attention ranks / P) prefilled together, where with R > 1 balanced attention ranks the
//   gate admitting prompts opens every L = clamp(R / a, 1, b.dp_gate_steps) steps (L = 1 with one rank, n < R, or R
//   queued), TPOT = decode(n) + b.prefill_stall a prefill(g) / g, TTFT_0 = b.request_overhead + b.burst n
//   prefill(g_cap) / (2 g_cap) + (L - 1) TPOT / 2 + TPOT / 2 + prefill(g)
//            + decode(n),
//   TTFT = TTFT_0 + (C - n) / lambda (waiting for a KV slot).
// prefill(g) is linear between one prompt and the budget's prompts, both priced by the kernels.
// Disaggregated, with r prefill workers per decode replica: TPOT = decode(n); a prefill worker sees lambda / r
// prompts a second, prefills those that arrive during one prefill (g, within its budget) together, busy
// rho = lambda prefill(g) / (r g) of its time; TTFT_0 = front end + burst (over the r workers) + rho prefill(g) / 2
// (the prefill in flight) + prefill(g) + the KV transfer. Past rho = 1 the pool limits lambda to r g_cap /
// prefill(g_cap) and the closed loop's requests queue for it: TTFT = C / lambda - (G - 1) TPOT.
ServingLoad solve_load(const LoadParts& parts, const ServingBackend& backend);

ServingLoad serve_under_load(const ServingModel& model, const ServingLoadInput& load, const ServingBackend& backend);

}  // namespace scalescope
