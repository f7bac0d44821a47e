// Issue 22 (the fit's work limit): a fit predicts each run at hundreds of profiles and keeps, per run, what no fitted
// constant moves (planners/calibrated_training.h CalibratedStepMemo). The memo must change no number, on every
// training run of the suite (dense and MoE, pipelines, ZeRO-3, DCN, auto remat), at any constants.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "calibration/published_runs.h"
#include "io/json_text.h"
#include "specs/calibration_profile.h"

using namespace scalescope;

namespace {

std::vector<PublishedRun> suite_training_runs() {
  std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/tests/validation/published-runs.json");
  std::stringstream text;
  text << in.rdbuf();
  Diagnostics d;
  long long layout_budget = kMaxQueryLayouts;
  std::vector<PublishedRun> runs =
      read_published_runs(Json::parse(text.str())["runs"], "/runs", true, layout_budget, d);
  REQUIRE(d.empty());
  std::erase_if(runs, [](const PublishedRun& r) { return r.task != "training"; });
  return runs;
}

// Every constant, end to end and kernel, moved to the far end of its range.
CalibrationProfile moved(CalibrationProfile p) {
  for (const auto& q : profile_parameters()) q.set(p, q.value(p) > 0.5 * (q.lo + q.hi) ? q.lo : q.hi);
  for (const auto& k : kernel_parameters()) k.at(p.kernels) = k.value(p.kernels) > 0.5 * (k.lo + k.hi) ? k.lo : k.hi;
  return p;
}

void check_same_step(const CalibratedTrainingStep& a, const CalibratedTrainingStep& b) {
  CHECK(a.step.step_s == b.step.step_s);
  CHECK(a.step.total_bytes == b.step.total_bytes);
  CHECK(a.step.compute_s == b.step.compute_s);
  CHECK(a.step.bound == b.step.bound);
  CHECK(a.ideal.step_s == b.ideal.step_s);
  CHECK(a.parts.matmul_s == b.parts.matmul_s);
  CHECK(a.parts.bubble_s == b.parts.bubble_s);
  for (int i = 0; i < kCommParts; ++i) {
    CHECK(a.parts.comms_s[i] == b.parts.comms_s[i]);
    CHECK(a.parts.exposed_comms_s[i] == b.parts.exposed_comms_s[i]);
  }
}

}  // namespace

TEST_CASE("a fit's memo changes no prediction, at any constants, and a new tiling clears it", "[calibrated][issue22]") {
  const std::vector<PublishedRun> runs = suite_training_runs();
  REQUIRE(runs.size() >= 40);
  int moe = 0, pipelined = 0, auto_remat = 0, with_transfers = 0;
  for (const PublishedRun& run : runs) {
    const CalibrationProfile* shipped = calibration_profile_for(run.specs->hw);
    REQUIRE(shipped);
    INFO(run.id);
    const CalibrationProfile far = moved(*shipped);
    RunPredictionMemo memo;
    for (const CalibrationProfile* p : {shipped, &far, shipped})
      CHECK(predict_run(run, p, &memo) == predict_run(run, p));
    CalibratedStepMemo step_memo;
    for (const CalibrationProfile* p : {shipped, &far})
      check_same_step(evaluate_calibrated_training_step(run.training, *p, &step_memo),
                      evaluate_calibrated_training_step(run.training, *p));
    moe += run.specs->model.is_moe();
    pipelined += run.training.plan.pipeline.degree > 1;
    auto_remat += run.remat_auto;
    with_transfers += !memo.steps[0].transfers.empty();
  }
  // The suite reaches every path the memo keeps.
  CHECK(moe >= 5);
  CHECK(pipelined >= 5);
  CHECK(auto_remat >= 3);
  CHECK(with_transfers >= 30);

  // A tiling the memo was not made with: the step is priced afresh, and the tiling matters (the check can fail).
  const PublishedRun& run = runs.front();
  CalibrationProfile retiled = *calibration_profile_for(run.specs->hw);
  retiled.tiling.tile_m *= 3;
  retiled.tiling.tile_n *= 3;
  CalibratedStepMemo step_memo;
  const double before =
      evaluate_calibrated_training_step(run.training, *calibration_profile_for(run.specs->hw), &step_memo).step.step_s;
  const double after = evaluate_calibrated_training_step(run.training, retiled, &step_memo).step.step_s;
  CHECK(after == evaluate_calibrated_training_step(run.training, retiled).step.step_s);
  CHECK(after != before);
}
