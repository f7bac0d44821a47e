// The model query: what the engine makes of a scenario's `model` object (a preset with overrides, an inline model or
// a pasted config.json), as the preset fields it computes with and what it leaves out. The explorer asks it of the
// module that reads config.json (docs/architecture.md "What the page ships"); the CLI's --hf-model prints the same.
#include "queries/query.h"
#include "specs/model_json.h"

namespace scalescope {

Json run_model(const QueryContext& ctx, JsonReader&, Diagnostics&) {
  Json model = model_config_json(*ctx.model);
  model["not_modelled"] = ctx.model_node ? model_not_modelled(*ctx.model_node) : Json::array();
  return {{"model", std::move(model)}};
}

}  // namespace scalescope
