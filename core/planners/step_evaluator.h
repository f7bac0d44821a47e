// The per-plan evaluator a planner ranks plans with: the book's closed forms (evaluate_training_step) or the
// calibrated per-layer model (issue 8) with its calibration profile as the context. The calibrated one also has a
// bound (calibrated_step_bound): a time below its step and its memory exactly, for plans that cannot win.
#pragma once
#include "planners/calibrated_training.h"
#include "planners/training.h"

namespace scalescope {

struct StepEvaluator {
  // `ideal`: the plan's book step when the caller has it (nullptr: computed here if needed).
  TrainingStep (*evaluate)(const TrainingInput& in, const void* context,
                           const TrainingStep* ideal) = nullptr;  // nullptr: the book's
  const void* context = nullptr;
  // Fills a time below the step and the exact memory per chip, false where there is no such bound (nullptr:
  // never); `tighten` raises that time to a closer one and completes the book's step.
  bool (*bound)(const TrainingInput& in, const void* context, CalibratedStepBound& out) = nullptr;
  void (*tighten)(const TrainingInput& in, CalibratedStepBound& out) = nullptr;
  TrainingStep operator()(const TrainingInput& in, const TrainingStep* ideal = nullptr) const {
    return evaluate ? evaluate(in, context, ideal) : evaluate_training_step(in);
  }
};

// The calibrated step with `profile` (which must outlive the evaluator); a null profile gives the book's step.
inline StepEvaluator step_evaluator(const CalibrationProfile* profile) {
  if (!profile) return StepEvaluator{};
  return StepEvaluator{[](const TrainingInput& in, const void* p, const TrainingStep* ideal) {
                         const CalibrationProfile& fitted = *static_cast<const CalibrationProfile*>(p);
                         return ideal ? calibrated_training_step(in, fitted, *ideal)
                                      : evaluate_calibrated_training_step(in, fitted).step;
                       },
                       profile,
                       [](const TrainingInput& in, const void* p, CalibratedStepBound& out) {
                         return calibrated_step_bound(in, *static_cast<const CalibrationProfile*>(p), out);
                       },
                       tighten_step_bound};
}

}  // namespace scalescope
