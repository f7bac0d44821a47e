// A resolved model as JSON: the preset fields the engine computes with, and what a model object's source says the
// engine leaves out. Apart from the config.json reader (specs/hf_config.h), which the explorer's first-load module
// leaves out (docs/architecture.md "What the page ships"): every module writes models, only some read config.json.
#pragma once
#include <string>
#include <string_view>

#include "io/json_reader.h"
#include "specs/model.h"

namespace scalescope {

// The preset fields of a resolved model (what the engine computes with).
Json model_config_json(const ModelConfig& model);
// Layers by kind, the kinds there are only: {"dense_full": 3, "moe_full": 58}.
Json layer_counts_json(const LayerCounts& counts);

// What a scenario's `model` object says the engine approximates: a config.json's list (specs/hf_config.h), a
// preset's own, or an inline model's `not_modelled`.
Json model_not_modelled(const Json& model_node);

// A scenario's `model` object as text (a preset with overrides, an inline model or an hf_config) in, the model the
// engine resolves it to out: {"ok": bool, "model": {...preset fields..., "not_modelled": [...]}, "diagnostics": [...]}.
// core/api.h's model_json answers with it (the CLI's --hf-model, Python's scalescope.model, wasm model_json).
std::string resolve_model_json(std::string_view model_text);

}  // namespace scalescope
