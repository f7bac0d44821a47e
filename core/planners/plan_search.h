// Search over training plans (DESIGN.md budget: every plan for up to 16,384 chips ranked in under 100 ms in the
// browser). TPU: each torus axis of the given mesh goes to one strategy (the slice's wiring is fixed); GPU: the
// chips are factorised into data x pipeline x tensor meshes, tensor inside the NVLink domain. Every candidate is
// checked (check_training_plan) and evaluated (evaluate_training_step); fitting plans rank first, by step time.
#pragma once
#include <string>
#include <vector>

#include "planners/training.h"
#include "specs/calibration_profile.h"

namespace scalescope {

struct PlanCandidate {
  TrainingPlan plan;
  Remat remat = Remat::block;
  std::vector<int> mesh_shape;           // GPU factorisations: the mesh this plan runs on
  std::vector<std::string> axis_names;
  TrainingStep step;
};

struct PlanSearch {
  long evaluated = 0, valid = 0, fitting = 0;
  std::vector<PlanCandidate> best;  // at most `keep`, best first
};

// `base` supplies the model, hardware, mesh, batch, precision and efficiency; its plan and remat are searched.
// With a calibration profile the plans are ranked (and their fit judged) by the calibrated step.
PlanSearch search_training_plans(const TrainingInput& base, int keep, const CalibrationProfile* profile = nullptr);

}  // namespace scalescope
