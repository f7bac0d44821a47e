#include "queries/pipeline_timeline.h"

#include "planners/pipeline_timeline.h"

namespace scalescope {

Json pipeline_timeline_json(const TrainingPlan& plan, const PipelinePassTimes& passes, double step_bubble_s) {
  const PipelineTimeline t = lay_out_pipeline(plan, passes);
  Json out = {{"schedule", pipeline_schedule_name(plan.schedule)},
              {"stages", plan.pipeline.degree},
              {"microbatches", plan.microbatches},
              {"chunks_per_stage", chunks_per_stage(plan)},
              {"forward_s", passes.forward_s},
              {"backward_s", passes.backward_s},
              {"weight_grad_s", passes.weight_grad_s},
              {"step_bubble_s", step_bubble_s},
              {"laid_out", t.not_laid_out.empty()}};
  if (!t.not_laid_out.empty()) {
    out["not_laid_out"] = t.not_laid_out;
    return out;
  }
  out["span_s"] = t.span_s;
  out["bubble_s"] = t.bubble_s();
  out["bubble_frac"] = t.span_s > 0 ? t.bubble_s() / t.span_s : 0.0;
  Json list = Json::array();
  for (const PipelinePass& p : t.passes)
    list.push_back({{"stage", p.stage},
                    {"microbatch", p.microbatch},
                    {"chunk", p.chunk},
                    {"pass", pipeline_pass_name(p.kind)},
                    {"start_s", p.start_s},
                    {"end_s", p.end_s}});
  out["passes"] = std::move(list);
  return out;
}

}  // namespace scalescope
