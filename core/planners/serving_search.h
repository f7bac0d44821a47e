// Search over serving deployments (issue 9): replica size and its split into tensor and expert parallelism (the
// expert axis runs attention data parallel; the experts may also fold over the TP ranks: wide EP),
// weight and KV dtypes, batch, colocated or disaggregated prefill, and the replicas a demand needs; each costed with
// the serving planner (planners/serving.h, scaling-book/inference) and ranked by fewest chips, dollars per million
// output tokens or tokens per second per chip among the deployments that meet a latency target per output token
// and a time to first token. At the calibrated fidelity (a profile) the serving planner's calibrated steps cost them.
#pragma once
#include <cstdint>
#include <vector>

#include "physics/mesh.h"
#include "planners/calibrated_serving.h"
#include "planners/serving.h"
#include "planners/serving_load.h"

namespace scalescope {

enum class ServingObjective { fewest_chips, usd_per_million_tokens, tokens_per_s_per_chip };

struct ServingSearchInput {
  const ModelConfig* model = nullptr;
  const Hardware* hw = nullptr;
  double prompt_len = 0, generated_len = 0;
  double kv_context_len = 0;         // the KV length a decode step reads (0: prompt + generated / 2)
  double demand_tokens_per_s = 0;    // output tokens per second to serve (0: one decode replica)
  double latency_per_token_s = 0;    // target per output token (0: none)
  double time_to_first_token_s = 0;  // target (0: none)
  Dtype activations = Dtype::bf16;
  Efficiency efficiency;
  bool include_comms = true;   // the book's serving figures leave the activation collectives out
  double params_override = 0;  // > 0: this parameter count, as the serving query (the book's 70e9 for LLaMA-3 70B)
  HbmBudget hbm_budget;
  std::vector<int> replica_chips;  // replica sizes to try
  std::vector<Dtype> weights, kv;  // dtypes to try
  std::vector<double> batches;     // empty: powers of two up to the largest that fits, and that one
  std::vector<bool> disaggregated{false, true};
  ServingObjective objective = ServingObjective::usd_per_million_tokens;
  int keep = 10;
  const CalibrationProfile* profile = nullptr;  // the calibrated decode and prefill; none: the book's
  // A serving engine's runtime (issue 35): each deployment priced under a benchmark's load instead, the batch its
  // concurrency per replica, the targets on the steady state's TTFT and TPOT; a disaggregated deployment takes the
  // fewest prefill workers of the replica's size (per decode replica, from kPrefillWorkerRatios) that keep up.
  const ServingBackend* backend = nullptr;
};

// The prefill workers per decode replica a disaggregated deployment under load may take, fewest first.
inline constexpr double kPrefillWorkerRatios[] = {0.125, 0.25, 0.5, 1, 2, 4, 8};

struct ServingDeployment {
  std::vector<int> mesh_shape;                // one replica's slice (TPU) or GPUs
  std::vector<int> tensor_axes, expert_axes;  // mesh axes given to TP and EP (EP also splits attention's sequences)
  double tensor = 1, expert = 1;
  double expert_tensor = 0;  // the experts' TP (0: the TP degree; 1: wide EP over the TP ranks too)
  Dtype weights = Dtype::bf16, kv = Dtype::bf16;
  double batch = 1;
  bool disaggregated = false;
  double replicas = 1;                     // decode replicas
  double prefill_servers = 0;              // disaggregated: prefill replicas of the same size
  double prefill_workers_per_replica = 0;  // under load, disaggregated: the pools' ratio
  double total_chips = 0;
  double decode_step_s = 0, prefill_one_s = 0;
  double latency_per_token_s = 0, time_to_first_token_s = 0;
  double tokens_per_s = 0, tokens_per_s_per_chip = 0, usd_per_million_tokens = 0;
  double memory_bytes = 0, hbm_capacity_bytes = 0;  // one replica
  bool meets_targets = true;
  const char* bound = "memory";
};

struct ServingSearch {
  std::int64_t evaluated = 0, fitting = 0, meeting_targets = 0;
  std::vector<ServingDeployment> best;      // at most `keep`, meeting the targets, best first
  std::vector<ServingDeployment> frontier;  // fitting deployments: latency per token x dollars per million tokens
};

// Without `batches`, each point tries the powers of two up to the largest batch that fits and that one: at most
// log2(kLargestDefaultBatch) + 2 batches.
inline constexpr double kLargestDefaultBatch = 65536;
inline constexpr double kDefaultBatchesPerPoint = 18;
// How many deployments search_serving evaluates at most (replica layouts x dtypes x batches x disaggregation),
// counted before it runs, so that the query can refuse a search over its limit.
double serving_search_points(const ServingSearchInput& in);

// The KV context a decode step reads: `kv_context_len`, else the mean over the generation.
double decode_context_tokens(const ServingSearchInput& in);

ServingSearch search_serving(const ServingSearchInput& in);

// The replica sizes a search tries by default: slices of the pod (TPU) or GPU counts, powers of two up to `most`.
std::vector<int> default_replica_sizes(const Hardware& hw, int most);

}  // namespace scalescope
