// The per-plan evaluator a planner ranks plans with: the book's closed forms today (evaluate_training_step); the
// calibrated per-layer model (issue 8) plugs in here, with its own context (e.g. a calibration profile).
#pragma once
#include "planners/training.h"

namespace scalescope {

struct StepEvaluator {
  TrainingStep (*evaluate)(const TrainingInput& in, const void* context) = nullptr;  // nullptr: the book's
  const void* context = nullptr;
  TrainingStep operator()(const TrainingInput& in) const {
    return evaluate ? evaluate(in, context) : evaluate_training_step(in);
  }
};

}  // namespace scalescope
