// The best layout of a plan's degrees (issue 9): every distinct way to lay the strategies' degrees onto the mesh
// (core/physics/layout.h), each evaluated with the plan's other settings; the fastest step wins (among equals,
// the least communication in all, then the least memory, then the first in the enumeration's fixed order).
#pragma once
#include <cstdint>

#include "physics/layout.h"
#include "planners/step_evaluator.h"
#include "planners/training.h"

namespace scalescope {

// Sets in.plan's six groups for every layout of `rules` on in.mesh and keeps the fastest. Returns how many layouts
// were evaluated (0: none exists; in.plan's groups are then unchanged). Allocation-free.
std::int64_t choose_layout(TrainingInput& in, const LayoutRules& rules, const StepEvaluator& evaluate);

// The plan's six groups, in TrainingPlan's order (data, fsdp, tensor, pipeline, expert, context).
void set_plan_groups(TrainingPlan& plan, const std::array<AxisGroup, kLayoutStrategies>& groups);

}  // namespace scalescope
