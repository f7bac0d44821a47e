// Serving a Transformer (jax-ml.github.io/scaling-book/inference, and the figures of .../applied-inference): prefill
// and decode step time split into parameter loading, KV loading, FLOPs and communication, on one replica spread over a
// mesh. decode_step and prefill are allocation-free: a sweep calls them per (batch, context) point.
#pragma once
#include <string>
#include <vector>

#include "io/diagnostics.h"
#include "io/dtype.h"
#include "physics/mesh.h"
#include "planners/training.h"  // AxisGroup, Efficiency
#include "specs/hardware.h"
#include "specs/model.h"

namespace scalescope {

// The HBM a serving engine gives to the weights and the KV caches; the rest holds activations, CUDA graphs and
// workspaces. Engines state it two ways: a share of the whole (vLLM's gpu_memory_utilization, SGLang's
// mem_fraction_static) or a share of what the weights leave (TensorRT-LLM's kv_cache_config.free_gpu_memory_fraction).
// The book's: all of it.
struct HbmBudget {
  double of_total = 1.0;
  double of_free = 0.0;  // > 0: the KV caches get this share of what the weights leave, instead of `of_total`
  bool stated = false;   // the query gave it (else the fidelity's default: a launch config then keeps the engine's)
  // What the engine gives the weights and caches together, and the caches alone beside `param_bytes` of weights.
  double usable_bytes(double hbm_bytes, double param_bytes) const {
    if (of_free <= 0) return of_total * hbm_bytes;
    const double left = hbm_bytes - param_bytes;
    return left > 0 ? param_bytes + of_free * left : hbm_bytes;
  }
  double kv_bytes(double hbm_bytes, double param_bytes) const {
    const double left = usable_bytes(hbm_bytes, param_bytes) - param_bytes;
    return left > 0 ? left : 0.0;
  }
};

struct ServingInput {
  const ModelConfig* model = nullptr;
  const Hardware* hw = nullptr;
  const Mesh* mesh = nullptr;
  Dtype weights = Dtype::bf16, kv = Dtype::bf16, activations = Dtype::bf16;
  bool layout_2d = false;  // 2D weight-stationary (scaling-book/inference): `x` and `yz` groups instead of `tensor`
  // Wide expert parallelism with attention data parallel (TensorRT-LLM, SGLang and vLLM's DeepSeek deployments):
  // the expert axis splits the routed experts and, for attention and the dense layers, the sequences, so every
  // expert rank holds its own copy of the non-expert weights and the KV caches of its own sequences.
  AxisGroup tensor, x, yz, expert;
  double expert_tensor = 0;  // the experts' TP (0: the TP degree); the other TP ranks join the expert group
  Efficiency efficiency;
  double prefill_flops_frac = 1.0;
  bool include_comms = true;
  double params_override = 0;  // > 0: use this parameter count (the book's figures round LLaMA-3 70B to 70e9)
  HbmBudget hbm_budget;
};

// What each term of a serving step adds to it (issue 20): the terms' exposed parts sum to the step. In the book's
// step the terms that hide behind a larger one (its max) add nothing; the calibrated step adds every term.
struct ServingExposed {
  double flops_s = 0, param_load_s = 0, kv_load_s = 0, comms_s = 0, overhead_s = 0;
};

// `overhead_s` is the per-op launches and the per-step fixed time (the calibrated step; 0 in the book's).
struct DecodeStep {
  double param_load_s = 0, kv_load_s = 0, flops_s = 0, comms_s = 0, overhead_s = 0, step_s = 0;
  ServingExposed exposed;
  bool compute_bound = false;  // the MLPs' own roofline: the FLOPs term beats the parameter load
  // What sets the step (issue 10 defect 6): bound "compute" | "memory" | "communication", and the single largest
  // term that counts, critical "flops" | "param_load" | "kv_load" | "comms".
  const char* bound = "";
  const char* critical = "";
};

// scaling-book/inference: T = B S kv/(N W) + max(2 B N_active/(N C), param_bytes/(N W)) [+ activation collectives].
// `tokens_per_sequence` > 1 scores several tokens per sequence at once (speculative verification).
DecodeStep decode_step(const ServingInput& in, double batch, double context, double tokens_per_sequence = 1.0);

struct PrefillStep {
  double matmul_flops_s = 0;  // the book's 2 N T / (N_chips C): scaling-book/inference, TTFT
  double flops_s = 0;         // matmuls plus causal attention
  double param_load_s = 0, comms_s = 0, overhead_s = 0, time_s = 0;
  ServingExposed exposed;
  bool compute_bound = true;
  const char* bound = "compute";  // "compute" | "memory" | "communication": the largest of the three
};
// The prefill of `batch` prompts of `prompt_len` tokens run together (batch 1: one request's time to first token).
PrefillStep prefill(const ServingInput& in, double batch, double prompt_len);

// What sets a step (both fidelities call these): decode's bound and critical term from what each term adds to the
// step (`exposed`: the weights hide behind the FLOPs when the MLPs are compute-bound; KV loading and comms count as
// they are), prefill's bound (the largest of the FLOPs', weight loads' and comms' times the fidelity compares).
void name_decode_bound(DecodeStep& s);
void name_prefill_bound(PrefillStep& s, double flops_s, double param_load_s, double comms_s);

// Weights held by the replica (the non-expert ones once per expert rank), and KV bytes one sequence holds at
// `context` tokens over the replica (latent attention's cache has no heads to split: every TP rank holds it).
double serving_param_bytes(const ServingInput& in);
double kv_bytes_per_sequence(const ServingInput& in, double context);
// What one decode step reads of them (kv_cache_read_bytes: sparse attention reads its selected entries only).
double kv_read_bytes_per_sequence(const ServingInput& in, double context);
// Expected share of the routed experts that `tokens` tokens (k picks each, uniform routing) touch in a layer:
// 1 - (1 - k/E)^tokens, so small batches load only part of the experts.
double routed_fraction_touched(const ModelConfig& m, double tokens);
// The expert-parallel degree the experts see: the expert axis times the TP ranks folded into it.
double serving_expert_degree(const ServingInput& in);
// Why a replica's split cannot run, as PlanProblem bits (allocation-free): TP divides the heads and the dense
// layers' d_ff; the experts' TP divides TP and the experts' d_ff; the expert-parallel degree the experts see is for
// MoE models only, at most their number and dividing it (planners/serving_checks.cpp).
unsigned serving_plan_problems(const ServingInput& in);
// The same in words, at the paths of a serving query's `parallelism` object (`tensor_path`: the key of its TP).
void check_serving_plan(const ServingInput& in, const std::string& parallelism_path, const std::string& tensor_path,
                        Diagnostics& diagnostics);

// scaling-book/inference: the most sequences of `context` tokens whose KV fits beside the weights,
// B_max = (N HBM - params) / KV.
double serving_max_batch(const ServingInput& in, double context);

// Speculative decoding has no formula in the book (scaling-book/inference). Expected tokens accepted per target step
// with lookahead gamma and per-token acceptance rate a (i.i.d.): (1 - a^(gamma+1)) / (1 - a) — Leviathan, Kalman &
// Matias, "Fast Inference from Transformers via Speculative Decoding" (ICML 2023), eq. 1.
double speculative_expected_tokens(double acceptance_rate, double lookahead);

// The serving facts of scaling-book/inference (§2.10) for one replica: its memory, its throughput, latency and cost
// from a decode step and the prefills, the thresholds it meets, and what a latency target or speculative decoding
// changes. Both fidelities' steps go in: these only combine their times.

// A batch of requests: `batch` sequences of `prompt_len` tokens generating `generated_len` each.
struct ServingRequests {
  double batch = 1, prompt_len = 1, generated_len = 1;
};

// The replica's HBM at the requests' end (prompt and generated tokens cached), in bytes.
struct ServingMemory {
  double hbm_total_bytes = 0;        // the replica's chips' HBM
  double param_bytes = 0;            // serving_param_bytes
  double final_context = 0;          // tokens per sequence at the end: prompt + generated
  double kv_bytes_per_sequence = 0;  // at final_context
  double max_batch = 0;              // serving_max_batch at final_context
  double kv_budget_bytes = 0;        // what the HBM budget leaves the KV caches beside the weights
  double budget_bytes = 0;           // what the HBM budget gives the weights and caches together
  double total_bytes = 0;            // weights plus the batch's KV caches
};
ServingMemory serving_memory(const ServingInput& in, const ServingRequests& r);

// Throughput, latency and cost of the replica from its decode step (`step_s`), the batch's prefill
// (`batch_prefill_s`) and one request's (`one_prefill_s`, the time to first token).
struct ServingRates {
  double tokens_per_s = 0, tokens_per_s_per_chip = 0;
  double request_latency_s = 0, decode_time_s = 0;
  double queries_per_s_per_chip = 0;  // scaling-book/inference, QPS
  double usd_per_million_output_tokens = 0, usd_per_million_input_tokens = 0;
  // scaling-book/inference, disaggregation: prefill servers per decode server = B T_prefill(one) / (T_step G).
  double prefill_servers_per_decode_server = 0;
  // scaling-book/inference, continuous batching: B/G sequences finish per step, freeing B (P + G)/G tokens of KV.
  double sequences_finished_per_step = 0, tokens_evicted_per_step = 0;
};
ServingRates serving_rates(const ServingInput& in, const ServingRequests& r, double step_s, double batch_prefill_s,
                           double one_prefill_s);

// scaling-book/inference and scaling-book/transformers, MoE: decode matmuls turn compute-bound above
// (C/W) bytes_per_param / 2, x E/k for MoE. In sequences.
double serving_compute_bound_batch(const ServingInput& in);

// A TPU replica's tensor-parallel thresholds (scaling-book/inference), in chips: the compute-roofline TP limit
// Y < M_Y F W_ici / C, the HBM-bound decode's Y = F W_ici / (B W_hbm), and the chips above which 2D weight-stationary
// beats 1D TP over three axes, N > 32 (F/D) (3/4)^2.
struct TensorParallelLimits {
  double compute_limit = 0, hbm_limit = 0, weight_stationary_2d_min_chips = 0;
};
TensorParallelLimits tpu_tensor_parallel_limits(const ServingInput& in, double batch);

// The inverse question (scaling-book/inference): the step's HBM and FLOPs terms shrink as 1/chips, so a per-token
// target needs chips x (step - comms) / target chips; communication, which does not shrink, is left out as in the
// book's minimum-step model. The replica also needs the HBM for its weights and the batch's KV caches.
struct ChipsForLatency {
  double chips = 0;             // for the latency alone, fractional
  double chips_for_memory = 0;  // whole chips whose HBM holds `total_bytes`
  double min_chips = 0;         // whole chips for both
  bool limited_by_latency = false;
};
ChipsForLatency chips_for_latency_target(const ServingInput& in, const DecodeStep& step, double total_bytes,
                                         double latency_target_s);

// Speculative decoding: `lookahead` draft steps and one verifying target step per iteration, accepting
// speculative_expected_tokens of them; `step_s` is the target's plain decode step.
struct SpeculativeDecode {
  double expected_tokens_per_step = 0, iteration_s = 0, latency_per_token_s = 0, speedup = 0;
};
SpeculativeDecode speculative_decode(double acceptance_rate, double lookahead, double draft_step_s,
                                     double verify_step_s, double step_s);

// A sweep's default batches at a context whose sequences hold `kv_bytes_per_sequence` each: powers of two up to
// 2^20 and the largest batch that fits beside the weights.
std::vector<double> serving_sweep_batches(const ServingMemory& memory, double kv_bytes_per_sequence);

}  // namespace scalescope
