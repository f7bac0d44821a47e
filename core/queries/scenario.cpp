#include "queries/scenario.h"

#include "specs/presets.h"

namespace scalescope {

void resolve_scenario_specs(const Json* hardware, const Json* model, const Json* mesh, ScenarioSpecs& p,
                            Diagnostics& d) {
  if (hardware) {
    const std::size_t mark = d.size();
    p.hw = resolve_hardware(*hardware, "/hardware", d);
    if (d.size() == mark) p.ctx.hw = &p.hw;
  }
  if (model) {
    const std::size_t mark = d.size();
    p.model = resolve_model(*model, "/model", d);
    if (d.size() == mark) p.ctx.model = &p.model;
  }
  if (mesh && p.ctx.hw) {
    const std::size_t mark = d.size();
    p.mesh = parse_mesh(*mesh, "/mesh", p.hw, d);
    if (d.size() == mark) p.ctx.mesh = &p.mesh;
  }
}

}  // namespace scalescope
