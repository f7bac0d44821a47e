// The pipeline schedules played pass by pass (planners/pipeline_timeline.h) against their closed forms
// (planners/pipeline.h) and their own dependencies, and training_step's pipeline_timeline.
#include <algorithm>
#include <map>
#include <tuple>

#include "planners/pipeline.h"
#include "planners/pipeline_timeline.h"
#include "test_helpers.h"

using namespace scalescope;

namespace {

TrainingPlan plan_of(PipelineSchedule s, int stages, int microbatches, int chunks = 1) {
  TrainingPlan p;
  p.schedule = s;
  p.pipeline.degree = stages;
  p.microbatches = microbatches;
  p.virtual_stages = chunks;
  return p;
}

// Position k of a pass on its microbatch's path through the model chunks (the schedule's own numbering).
int path_position(const TrainingPlan& p, const PipelinePass& pass) {
  const int S = static_cast<int>(p.pipeline.degree);
  switch (p.schedule) {
    case PipelineSchedule::interleaved:
      return pass.chunk * S + pass.stage;
    case PipelineSchedule::dualpipe:  // chunk 1: the microbatches that enter at the last stage
      return pass.chunk == 0 ? pass.stage : S - 1 - pass.stage;
    case PipelineSchedule::dualpipe_v:  // chunk 1: on the way back up
      return pass.chunk == 0 ? pass.stage : 2 * S - 1 - pass.stage;
    default:
      return pass.stage;
  }
}

constexpr PipelineSchedule kAll[] = {PipelineSchedule::gpipe,       PipelineSchedule::one_f_one_b,
                                     PipelineSchedule::interleaved, PipelineSchedule::zero_bubble,
                                     PipelineSchedule::dualpipe,    PipelineSchedule::dualpipe_v};

}  // namespace

TEST_CASE("each schedule played in its published order leaves its closed-form bubble at the book's split",
          "[pipeline]") {
  // F = W = B/2, as 6ND splits a pass: 1F1B (S - 1)(F + B) (Narayanan et al. 2021), interleaved / v, ZB-H1
  // (S - 1)(F + B - 2W) (Qi et al. 2023), DualPipe (S/2 - 1)(F&B + B - 3W) and DualPipeV on half-stage chunks
  // (deepseek-ai/DualPipe's table; DeepSeek-V3 report, Table 2).
  const PipelinePassTimes book{1.0, 2.0, 1.0};
  for (PipelineSchedule s : kAll)
    for (int S : {2, 4, 8})
      for (int M : {2 * S, 3 * S, 4 * S}) {
        const TrainingPlan p = plan_of(s, S, M, s == PipelineSchedule::interleaved ? 2 : 1);
        const PipelineTimeline t = lay_out_pipeline(p, book);
        INFO(pipeline_schedule_name(s) << " S=" << S << " M=" << M << ": " << t.not_laid_out);
        REQUIRE(t.not_laid_out.empty());
        CHECK(t.busy_s == Approx(M * 3.0));
        CHECK(t.bubble_s() == Approx(bubble_s(p, book)).margin(1e-9));
      }
  // By hand: 1F1B on 4 stages, 8 microbatches: the last forward of stage 4 ends at (8 + 3) F, its backwards then
  // run back to back, and stage 1's last backward ends 3 backward hops later: 8 x 3 + 3 x 3 = 33.
  CHECK(lay_out_pipeline(plan_of(PipelineSchedule::one_f_one_b, 4, 8), book).span_s == Approx(33));
  // 1F1B's and the interleaved schedule's bubbles depend on F + B alone: any split plays their closed form.
  for (PipelineSchedule s : {PipelineSchedule::gpipe, PipelineSchedule::one_f_one_b, PipelineSchedule::interleaved}) {
    const TrainingPlan p = plan_of(s, 4, 12, s == PipelineSchedule::interleaved ? 3 : 1);
    const PipelinePassTimes uneven{0.3, 0.7, 0.25};
    CHECK(lay_out_pipeline(p, uneven).bubble_s() == Approx(bubble_s(p, uneven)));
  }
}

TEST_CASE("a played schedule: every pass waits for its input, a stage runs one pass at a time, and all of them",
          "[pipeline]") {
  const PipelinePassTimes times{0.3, 0.7, 0.25};
  for (PipelineSchedule s : kAll) {
    const TrainingPlan p = plan_of(s, 4, 8, s == PipelineSchedule::interleaved ? 2 : 1);
    const PipelineTimeline t = lay_out_pipeline(p, times);
    INFO(pipeline_schedule_name(s));
    REQUIRE(t.not_laid_out.empty());
    const int S = 4, M = 8;
    const int K = s == PipelineSchedule::interleaved ? 8 : s == PipelineSchedule::dualpipe_v ? 8 : 4;
    const double chunks = chunks_per_stage(p);
    // (microbatch, position, forward?) -> the pass; weight gradients after their input gradients.
    std::map<std::tuple<int, int, bool>, PipelinePass> done;
    std::map<std::pair<int, int>, PipelinePass> input_grads;
    std::vector<std::vector<PipelinePass>> by_stage(S);
    double weight_grads = 0;
    for (const PipelinePass& pass : t.passes) {
      by_stage[pass.stage].push_back(pass);
      const int k = path_position(p, pass);
      if (pass.kind == PipelinePassKind::weight_grad) {
        ++weight_grads;
        REQUIRE(input_grads.count({pass.microbatch, k}));
        CHECK(pass.start_s >= input_grads[{pass.microbatch, k}].end_s - 1e-12);
        CHECK(pass.end_s - pass.start_s == Approx(times.weight_grad_s / chunks));
        continue;
      }
      const bool forward = pass.kind == PipelinePassKind::forward;
      if (pass.kind == PipelinePassKind::input_grad) input_grads[{pass.microbatch, k}] = pass;
      done[{pass.microbatch, k, forward}] = pass;
    }
    for (int m = 0; m < M; ++m)
      for (int k = 0; k < K; ++k) {
        REQUIRE(done.count({m, k, true}));
        REQUIRE(done.count({m, k, false}));
        const PipelinePass& f = done[{m, k, true}];
        const PipelinePass& b = done[{m, k, false}];
        if (k > 0) CHECK(f.start_s >= done[{m, k - 1, true}].end_s - 1e-12);
        CHECK(b.start_s >= (k + 1 < K ? done[{m, k + 1, false}] : done[{m, K - 1, true}]).end_s - 1e-12);
        CHECK(f.end_s - f.start_s == Approx(times.forward_s / chunks));
      }
    CHECK(weight_grads == input_grads.size());  // every deferred weight gradient runs
    for (auto& passes : by_stage) {
      std::sort(passes.begin(), passes.end(), [](const auto& a, const auto& b) { return a.start_s < b.start_s; });
      double busy = 0;
      int held = 0, most_held = 0;  // microbatches whose activations the stage holds (until their weight gradients)
      for (std::size_t i = 0; i < passes.size(); ++i) {
        busy += passes[i].end_s - passes[i].start_s;
        if (i > 0) CHECK(passes[i].start_s >= passes[i - 1].end_s - 1e-12);
        held += passes[i].kind == PipelinePassKind::forward       ? 1
                : passes[i].kind == PipelinePassKind::weight_grad ? -1
                                                                  : 0;
        most_held = std::max(most_held, held);
      }
      CHECK(busy == Approx(M * (times.forward_s + times.backward_s)));
      // ZB-H1 holds no more than 1F1B's peak, S microbatches (Qi et al. 2023, §3): its weight gradients run between
      // the forwards, not all at the end.
      if (s == PipelineSchedule::zero_bubble) CHECK(most_held <= S);
    }
  }
}

TEST_CASE("a schedule not laid out says why: one stage, an order its source does not define, too many passes",
          "[pipeline]") {
  const PipelinePassTimes book{1.0, 2.0, 1.0};
  const auto why = [&](PipelineSchedule s, int S, int M, int v = 1) {
    const PipelineTimeline t = lay_out_pipeline(plan_of(s, S, M, v), book);
    CHECK(t.passes.empty());
    return t.not_laid_out;
  };
  CHECK_THAT(why(PipelineSchedule::one_f_one_b, 1, 8), Catch::Contains("one stage"));
  CHECK_THAT(why(PipelineSchedule::interleaved, 8, 20, 2), Catch::Contains("groups of the stage count"));
  CHECK_THAT(why(PipelineSchedule::dualpipe, 4, 7), Catch::Contains("even number of stages and of microbatches"));
  CHECK_THAT(why(PipelineSchedule::dualpipe, 4, 6), Catch::Contains("at least twice as many microbatches"));
  CHECK_THAT(why(PipelineSchedule::dualpipe_v, 4, 6), Catch::Contains("twice as many microbatches"));
  CHECK_THAT(why(PipelineSchedule::one_f_one_b, 64, 64), Catch::Contains("4096 laid out at most"));
  // Fewer microbatches than stages is still a schedule, and so is many an interleaved one short of a group.
  CHECK(lay_out_pipeline(plan_of(PipelineSchedule::one_f_one_b, 8, 3), book).not_laid_out.empty());
  CHECK(lay_out_pipeline(plan_of(PipelineSchedule::interleaved, 4, 6, 3), book).not_laid_out.empty());
}

TEST_CASE("training_step's pipeline_timeline: the step's own pass times, at both fidelities", "[pipeline]") {
  Json s = {
      {"hardware", {{"preset", "h100-sxm"}}},
      {"model", {{"preset", "llama-3-70b"}}},
      {"mesh", {{"shape", {64}}}},
      {"query",
       {{"kind", "training_step"},
        {"batch_tokens", 64 * 8192},
        {"seq_len", 8192},
        {"parallelism",
         {{"tensor", 8}, {"pipeline", 4}, {"data", 2}, {"microbatches", 16}, {"pipeline_schedule", "zero_bubble"}}},
        {"pipeline_timeline", true}}}};
  for (const char* fidelity : {"book", "calibrated"}) {
    s["query"]["fidelity"] = fidelity;
    const Json r = test::run_json(s);
    INFO(fidelity << ": " << r.dump().substr(0, 2000));
    REQUIRE(r["ok"] == true);
    const Json& t = r["result"]["pipeline_timeline"];
    REQUIRE(t["laid_out"] == true);
    CHECK(t["step_bubble_s"].get<double>() == Approx(r["result"]["time"]["bubble_s"].get<double>()));
    CHECK(t["passes"].size() == 4 * 16 * 3);  // forward, input gradients, weight gradients
    const double stage_s = t["forward_s"].get<double>() + t["backward_s"].get<double>();
    CHECK(t["span_s"].get<double>() == Approx(16 * stage_s + t["bubble_s"].get<double>()));
    // The book's split (F = W = B/2) plays the closed form the step priced.
    if (std::string(fidelity) == "book") CHECK(t["bubble_s"].get<double>() == Approx(t["step_bubble_s"].get<double>()));
  }
  s["query"].erase("pipeline_timeline");
  CHECK_FALSE(test::run_json(s)["result"].contains("pipeline_timeline"));  // asked for, never in a search's steps
}
