// The frameworks a plan is launched with, each a writer (the engine's plan as the framework's config) and a reader
// (the config back into the plan), over one vocabulary per framework. The launch_config and import_config queries
// (framework_query.cpp) pick one by name.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "frameworks/config_settings.h"
#include "frameworks/launch_plan.h"

namespace scalescope {

// What an import knows besides the config: the scenario's mesh and model when the caller gave them, or the chips.
struct ImportContext {
  const Mesh* mesh = nullptr;
  const ModelConfig* model = nullptr;
  double chips = 0;  // the query's `chips`, else the mesh's; 0: unknown (the config must give the world size)
  // What some configs leave to the data: the query's `seq_len` (DeepSpeed), `prompt_len` and `generated_len` (a
  // serve command gives only their sum); 0: not given.
  double seq_len = 0, prompt_len = 0, generated_len = 0;
};

struct ImportResult {
  TrainingLaunch training;
  ServingLaunch serving;
  Json model;                         // the architecture the config spells out, or null
  std::vector<std::string> assumed;   // a framework default the plan took where the config is silent
  std::vector<std::string> problems;  // why the config does not give a plan (empty: it does)
};

struct Framework {
  const char* name;
  const char* title;   // "Megatron-LM (pretrain_gpt.py arguments)"
  const char* format;  // "command_line" | "yaml" | "json"
  bool training;       // a training framework (else a serving engine)
  bool gpu_only;       // runs on GPUs only (MaxText and vLLM also run on TPUs)
  std::string (*write_training)(const TrainingLaunch&, const ModelConfig&, LaunchNotes&);
  std::string (*write_serving)(const ServingLaunch&, const ModelConfig&, LaunchNotes&);
  ConfigText (*read_text)(std::string_view);
  std::string (*normalize)(const std::string&);
  void (*read)(ConfigSettings&, const ImportContext&, ImportResult&);
};

std::span<const Framework> frameworks();
const Framework* find_framework(std::string_view name);
std::vector<std::string> framework_names();

// Each framework's entry (megatron.cpp, maxtext.cpp, deepspeed.cpp, serving_engines.cpp).
const Framework& megatron_framework();
const Framework& megatron_bridge_framework();
const Framework& maxtext_framework();
const Framework& deepspeed_framework();
const Framework& vllm_framework();
const Framework& sglang_framework();
const Framework& trtllm_framework();
// Whether a serving engine states its memory budget as the KV caches' share of what the weights leave (TensorRT-LLM's
// free_gpu_memory_fraction) rather than as a share of the whole (vLLM's, SGLang's).
bool states_free_memory_frac(const Framework& f);

// The model a config's architecture fills in (Megatron's --num-layers and the rest, MaxText's base_* keys): named
// "imported", a 32000-token vocabulary until the config gives one. specs/model_json.h's model_config_json writes it.
ModelConfig imported_model();

// Shared by the readers: the world size from the context, resolved against `known` degrees; the layers a virtual
// stage count divides (the config's, else the model's).
double import_chips(const ImportContext& ctx, ImportResult& out, const char* where);
double import_layers(const ImportContext& ctx, const ImportResult& out);

}  // namespace scalescope
