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

// The book's split of one microbatch's stage time, as 6ND splits it (forward 2ND, backward 4ND of which the weight
// gradients 2ND): the pass times the book's bubble_fraction assumes, from the step's compute over its microbatches.
PipelinePassTimes book_pipeline_passes(const TrainingStep& step, double microbatches);

}  // namespace scalescope
