// A scenario's hardware, model and mesh, resolved once (presets + overrides, validated) and owned together, with
// the query context pointing into them. api.cpp prepares every scenario with it; the calibration queries prepare
// each published run with it.
#pragma once
#include "queries/query.h"

namespace scalescope {

struct ScenarioSpecs {
  Hardware hw;
  ModelConfig model;
  Mesh mesh;
  QueryContext ctx;  // hw / model / mesh set for each part given and valid

  ScenarioSpecs() = default;
  ScenarioSpecs(const ScenarioSpecs&) = delete;  // ctx points into this object
  ScenarioSpecs& operator=(const ScenarioSpecs&) = delete;
};

// Resolves the parts given (nullptr: absent); their diagnostics use the paths /hardware, /model and /mesh. A part
// with warnings only is still set in ctx (a warning keeps the result); a mesh needs valid hardware.
void resolve_scenario_specs(const Json* hardware, const Json* model, const Json* mesh, ScenarioSpecs& out,
                            Diagnostics& diagnostics);

}  // namespace scalescope
