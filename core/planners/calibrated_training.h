// The calibrated fidelity of a training step (DESIGN.md "Fidelity and calibration"): every op of every layer,
// forward, backward and recompute, each bound by its own max(compute, memory) at the efficiency its shape reaches;
// collectives with latency and achieved bandwidth, exposed per strategy as frameworks overlap them; the pipeline
// paced by its slowest stage; the optimizer update and a fixed overhead per step. The constants come from a
// calibration profile (specs/calibration_profile.h). Allocation-free; the book's step is the ideal lower bound
// beside it.
#pragma once
#include "planners/training.h"
#include "specs/calibration_profile.h"

namespace scalescope {

// Seconds per step on the slowest pipeline stage, by what the time is spent on.
struct CalibratedBreakdown {
  double matmul_s = 0, attention_s = 0, elementwise_s = 0, op_overhead_s = 0;  // forward + backward + recompute
  double recompute_s = 0;           // the part of the four above that remat repeats
  double expert_matmul_s = 0;       // the routed experts' grouped matmuls (inside matmul_s)
  double low_precision_cast_s = 0;  // fp8/int8 casts of the linear layers' inputs (inside elementwise_s)
  double head_s = 0;                // embedding, logits and loss on the stage that holds them
  double bubble_s = 0;
  std::array<double, kCommParts> exposed_comms_s{};  // what each strategy's collectives leave on the critical path
  std::array<double, kCommParts> comms_s{};          // their full time at achieved bandwidth and latency
  double optimizer_s = 0, step_overhead_s = 0;
  double step_s = 0;
  double transient_bytes = 0;       // gathered FSDP layers in flight and the fp32 logits (inside memory)
};

struct CalibratedTrainingStep {
  TrainingStep step;   // calibrated times, memory, MFU, cost; thresholds as the book states them
  TrainingStep ideal;  // the book's step (the ideal lower bound)
  CalibratedBreakdown parts;
};

CalibratedTrainingStep evaluate_calibrated_training_step(const TrainingInput& in, const CalibrationProfile& profile);

}  // namespace scalescope
