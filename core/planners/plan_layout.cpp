#include "planners/plan_layout.h"

namespace scalescope {

void set_plan_groups(TrainingPlan& p, const std::array<AxisGroup, kLayoutStrategies>& g) {
  p.data = g[0];
  p.fsdp = g[1];
  p.tensor = g[2];
  p.pipeline = g[3];
  p.expert = g[4];
  p.context = g[5];
}

namespace {
// The faster step; among equal steps the one with less communication in all (its collectives have more slack),
// then less memory.
bool faster_layout(const TrainingStep& a, const TrainingStep& b) {
  if (a.step_s != b.step_s) return a.step_s < b.step_s;
  if (a.comms_s_sum != b.comms_s_sum) return a.comms_s_sum < b.comms_s_sum;
  return a.total_bytes < b.total_bytes;
}

struct Choice {
  TrainingInput* in;
  const StepEvaluator* evaluate;
  std::array<AxisGroup, kLayoutStrategies> groups{}, best{};
  TrainingStep best_step{};
  std::int64_t seen = 0;
};
}  // namespace

std::int64_t choose_layout(TrainingInput& in, const LayoutRules& rules, const StepEvaluator& evaluate) {
  Choice c{&in, &evaluate, {}, {}, {}, 0};
  const std::int64_t n = for_each_layout(
      *in.mesh, rules,
      [](const MeshLayout& layout, void* context) {
        Choice& k = *static_cast<Choice*>(context);
        layout_groups(*k.in->mesh, layout, k.groups);
        set_plan_groups(k.in->plan, k.groups);
        const TrainingStep step = (*k.evaluate)(*k.in);
        if (k.seen++ == 0 || faster_layout(step, k.best_step)) {
          k.best_step = step;
          k.best = k.groups;
        }
        return true;
      },
      &c);
  if (n > 0) set_plan_groups(in.plan, c.best);
  return n;
}

}  // namespace scalescope
