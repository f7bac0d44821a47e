// training_step's `pipeline_timeline` (asked with `pipeline_timeline: true`): the step's pipeline schedule played
// pass by pass (planners/pipeline_timeline.h) at the pass times its bubble was priced at, for a drawing of the
// schedule that is the engine's. Once per query, never in a search.
#pragma once
#include "planners/pipeline.h"
#include "planners/training.h"
#include "queries/query.h"

namespace scalescope {

// `passes`: one microbatch through the busiest stage; `step_bubble_s`: the bubble the step priced (its closed form).
Json pipeline_timeline_json(const TrainingPlan& plan, const PipelinePassTimes& passes, double step_bubble_s);

}  // namespace scalescope
