// Serving a Transformer (jax-ml.github.io/scaling-book/inference, and the figures of .../applied-inference): prefill
// and decode step time split into parameter loading, KV loading, FLOPs and communication, on one replica spread over a
// mesh. decode_step and prefill are allocation-free: a sweep calls them per (batch, context) point.
#pragma once
#include <string>

#include "io/diagnostics.h"
#include "io/dtype.h"
#include "physics/mesh.h"
#include "planners/training.h"  // AxisGroup, Efficiency
#include "specs/hardware.h"
#include "specs/model.h"

namespace scalescope {

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

}  // namespace scalescope
