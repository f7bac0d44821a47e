// A serving engine's runtime (issue 35): what TensorRT-LLM, SGLang or vLLM add to, or take from, the calibrated
// kernels' step under a benchmark's load. The backends differ in their overheads, so each is a calibration family
// fitted on its own measured deployments (`scalescope validate-serving --write`), data with provenance in
// calibration_profiles/serving/backends.json, embedded like the profiles; never constants in code.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/diagnostics.h"
#include "io/json_reader.h"

namespace scalescope {

struct ServingBackend {
  std::string id;  // "trtllm", "sglang", "vllm"; empty: the kernels' step as it is
  std::string name;
  double launch_frac = 1;         // the kernels' launch floors and per-op host gaps kept (CUDA graphs drop them)
  double comms_frac = 1;          // the tensor-parallel all-reduces' time kept (fused all-reduce kernels)
  double step_overhead_s = -1;    // host work per decode step (schedule, sample) [< 0: the chip profile's]
  double prefill_stall_frac = 1;  // the share of a step's prefill that the decode tokens in it wait for
  double request_overhead_s = 0;  // per request before its prefill (the front end: tokenise, route, stream)
  double burst_frac = 0;          // the in-flight requests whose prompts arrive in one burst with a new one
  // Attention data parallelism: the decode steps a new prompt's admission gate stays shut, waiting for every rank to
  // have one (TensorRT-LLM's attention_dp_config timeout_iters); it opens sooner once the ranks all have a prompt.
  double dp_gate_steps = 1;
  std::string source;  // the rows and commit it was fitted on
  std::vector<std::string> fitted_on_systems, fitted_on_models;
};

// The names of the parameters a fit moves, in ServingBackend's order, and their physical ranges.
struct ServingBackendParameter {
  const char* name;
  double ServingBackend::*field;
  double lo, hi, prior, prior_log_sigma;
  const char* meaning;
};
std::span<const ServingBackendParameter> serving_backend_parameters();

ServingBackend parse_serving_backend(const Json& node, const std::string& path, Diagnostics& diagnostics);
Json serving_backend_json(const ServingBackend& b);

std::string_view serving_backends_text();  // generated: calibration_profiles/serving/backends.json
std::span<const ServingBackend> embedded_serving_backends();
const ServingBackend* serving_backend(std::string_view id);  // null when unknown
std::vector<std::string> serving_backend_ids();
// Problems with the embedded file (each backend read, every parameter in its range): `scalescope --check-presets`.
Diagnostics validate_serving_backends();

}  // namespace scalescope
