// A plan as framework launch configs carry it: each strategy's degree inside a slice and across slices, the batch
// in sequences, the settings the frameworks name (issue 40 item 5). A training_step or serving query is read into
// one (the engine's checks run first, so only a plan that can run is written), a framework's config is read into
// one, and each is written back as the query in degrees: that query is the plan's canonical form, which a config
// written and read back must reproduce.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "physics/layout.h"
#include "planners/serving.h"
#include "planners/training.h"
#include "queries/query.h"

namespace scalescope {

struct TrainingLaunch {
  double chips = 1, slices = 1;
  std::array<double, kLayoutStrategies> ici{1, 1, 1, 1, 1, 1};  // in kStrategyKeys' order: the part in a slice
  std::array<double, kLayoutStrategies> dcn{1, 1, 1, 1, 1, 1};  // and the part across slices
  double expert_tensor = 0;                                     // 0: the TP degree
  int zero_stage = 3;
  bool sequence_parallel = true;
  PipelineSchedule schedule = PipelineSchedule::one_f_one_b;
  double virtual_stages = 1, microbatches = 1;
  ContextVariant context_variant = ContextVariant::ring;
  bool offload_optimizer = false, offload_activations = false;
  double batch_tokens = 0, seq_len = 0;
  Remat remat = Remat::block;
  double checkpoints_per_layer = 0;
  TrainingPrecision precision;
  AttentionImpl attention;
  bool moe_model = false;
  MoeSettings moe;
  double layers = 0;  // the model's, which a framework's layers per virtual stage divide

  double degree(int strategy) const { return ici[strategy] * dcn[strategy]; }
  double batch_sequences() const { return batch_tokens / seq_len; }
  // The ranks the batch splits over (data x fsdp x expert: context splits each sequence) and the sequences of one
  // microbatch on each.
  double batch_ranks() const { return degree(0) * degree(1) * degree(4); }
  double microbatch_sequences() const { return batch_sequences() / (batch_ranks() * microbatches); }
  double expert_tensor_degree() const { return expert_tensor > 0 ? expert_tensor : degree(2); }
  // Megatron's expert-parallel group: the expert axis and the TP ranks folded into it (parallel folding).
  double expert_parallel() const { return degree(4) * degree(2) / expert_tensor_degree(); }
};

// What a written config leaves out: each engine setting the framework cannot express (its JSON pointer into the
// canonical query, so a test can check that the round trip changes nothing else), and each framework setting the
// engine does not decide.
struct LaunchNote {
  std::string setting;  // "/parallelism/sequence_parallel", or "" for a framework-side setting
  std::string text;
};
struct LaunchNotes {
  std::vector<LaunchNote> unexpressed;
  std::vector<std::string> undecided;
  void cannot(std::string setting, std::string text) { unexpressed.push_back({std::move(setting), std::move(text)}); }
};

// A read training_step query's plan (degrees as the engine laid them out).
TrainingLaunch training_launch(const TrainingInput& in);
// The plan as a training_step query with its strategies as degrees; a strategy wholly across slices is pinned to
// the mesh's DCN axis (`mesh` may be null: no slices).
Json training_launch_query(const TrainingLaunch& plan, const Mesh* mesh);

struct ServingLaunch {
  double tensor = 1, expert = 1;  // TP inside each attention rank; attention data parallel with expert parallelism
  double expert_tensor = 0;       // 0: the TP degree
  double batch = 1, prompt_len = 1, generated_len = 1;
  Dtype weights = Dtype::bf16, kv = Dtype::bf16;
  bool speculative = false;
  double lookahead = 0;
  bool disaggregated = false;  // the deployment prefills on servers of its own: this replica is the decode side
  // The HBM the engine gives the weights and KV caches, both ways the engines state it for this model: a share of the
  // whole (vLLM, SGLang) and the caches' share of what the weights leave (TensorRT-LLM). 0: the engines' defaults.
  double memory_frac = 0, free_memory_frac = 0;
  double chips() const { return tensor * expert; }
};
ServingLaunch serving_launch(const ServingInput& in, double batch, double prompt_len, double generated_len);
// The replica as a serving query on a mesh of its own (axes "EP" and "TP"): the scenario's `mesh` beside it.
Json serving_launch_query(const ServingLaunch& plan);
Json serving_launch_mesh(const ServingLaunch& plan);

// The notes as the answer lists them, and as `#` comment lines in a text format that has comments.
Json notes_json(const LaunchNotes& notes);
std::string notes_comment(const LaunchNotes& notes, const char* prefix = "# ");

// A number as a config writes it: whole numbers without a decimal point, others shortest round-trip; and as JSON
// (an integer when whole: DeepSpeed reads train_batch_size as one).
std::string config_value(double v);
Json config_json(double v);

}  // namespace scalescope
