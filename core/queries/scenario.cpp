#include "queries/scenario.h"

#include "specs/presets.h"

namespace scalescope {

namespace {
// Whether the diagnostics added since `mark` include an error (a warning keeps the part usable).
bool errors_since(const Diagnostics& d, std::size_t mark) {
  for (std::size_t i = mark; i < d.size(); ++i)
    if (!d[i].warning) return true;
  return false;
}
}  // namespace

void resolve_scenario_specs(const Json* hardware, const Json* model, const Json* mesh, ScenarioSpecs& p,
                            Diagnostics& d) {
  if (hardware) {
    const std::size_t mark = d.size();
    p.hw = resolve_hardware(*hardware, "/hardware", d);
    if (!errors_since(d, mark)) p.ctx.hw = &p.hw;
  }
  if (model) {
    const std::size_t mark = d.size();
    p.model = resolve_model(*model, "/model", d);
    if (!errors_since(d, mark)) {
      p.ctx.model = &p.model;
      p.ctx.model_node = model;
    }
  }
  if (mesh && p.ctx.hw) {
    const std::size_t mark = d.size();
    p.mesh = parse_mesh(*mesh, "/mesh", p.hw, d);
    if (!errors_since(d, mark)) p.ctx.mesh = &p.mesh;
  }
}

}  // namespace scalescope
