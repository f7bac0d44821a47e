// The per-plan evaluator a planner ranks plans with: the book's closed forms (evaluate_training_step) or the
// calibrated per-layer model (issue 8) with its calibration profile as the context.
#pragma once
#include "planners/calibrated_training.h"
#include "planners/training.h"

namespace scalescope {

struct StepEvaluator {
  TrainingStep (*evaluate)(const TrainingInput& in, const void* context) = nullptr;  // nullptr: the book's
  const void* context = nullptr;
  TrainingStep operator()(const TrainingInput& in) const {
    return evaluate ? evaluate(in, context) : evaluate_training_step(in);
  }
};

// The calibrated step with `profile` (which must outlive the evaluator); a null profile gives the book's step.
inline StepEvaluator step_evaluator(const CalibrationProfile* profile) {
  if (!profile) return StepEvaluator{};
  return StepEvaluator{[](const TrainingInput& in, const void* p) {
                         return evaluate_calibrated_training_step(in, *static_cast<const CalibrationProfile*>(p)).step;
                       },
                       profile};
}

}  // namespace scalescope
