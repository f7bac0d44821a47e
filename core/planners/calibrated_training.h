// The calibrated fidelity of a training step (docs/design.md "Fidelity and calibration"): every op of every layer,
// forward, backward and recompute, each bound by its own max(compute, memory) at the efficiency its shape reaches;
// collectives with latency and achieved bandwidth, exposed per strategy as frameworks overlap them; the pipeline
// paced by its slowest stage; the optimizer update and a fixed overhead per step. The constants come from a
// calibration profile (specs/calibration_profile.h). Allocation-free without a memo; the book's step is the ideal
// lower bound beside it.
#pragma once
#include <array>
#include <vector>

#include "physics/collectives.h"
#include "physics/expert_dispatch.h"
#include "physics/layer_ops.h"
#include "planners/pipeline.h"
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
  PipelinePassTimes pipeline_passes;  // one microbatch through the pacing stage: what the bubble was priced at
  std::array<double, kCommParts> exposed_comms_s{};  // what each strategy's collectives leave on the critical path
  std::array<double, kCommParts> comms_s{};          // their full time at achieved bandwidth and latency
  double optimizer_s = 0, step_overhead_s = 0;
  double step_s = 0;
  double transient_bytes = 0;  // gathered FSDP layers in flight and the fp32 logits (inside memory)
};

struct CalibratedTrainingStep {
  TrainingStep step;   // calibrated times, memory, MFU, cost; thresholds as the book states them
  TrainingStep ideal;  // the book's step: a lower bound, except where training_step's ideal.lower_bound says not
  CalibratedBreakdown parts;
};

// What a calibrated step computes before it reads any fitted constant, kept between calls on one input: the book's
// step, the ops of each layer kind and of the head with their matmuls' padded FLOPs at one tiling, and the book's
// cost of each collective and expert exchange. A fit prices each run at hundreds of profiles that differ only in
// their fitted constants (issue 22: its work limit); with a memo the step is the one without, bit for bit. A memo
// serves one TrainingInput (its contents) and is cleared when the profile's tiling changes.
struct CalibratedStepMemo {
  // One list of ops and, per op, the FLOPs of its forward, dL/dX and dL/dW matmuls over their shape efficiency.
  struct Ops {
    bool set = false;
    std::vector<LayerOp> ops;
    std::vector<std::array<double, 3>> padded_flops;
  };
  // A collective's (or an exchange's) book cost, with what it was asked, so that a call it does not answer is
  // computed afresh instead of answered wrong.
  struct Transfer {
    int op = 0;
    double bytes = 0, degree = 0, ranks = 0;
    unsigned axis_mask = 0;
    CollectiveCost collective;
    DispatchCost dispatch;
  };
  bool set = false;
  MatmulTiling tiling;
  TrainingStep ideal;
  std::array<Ops, kLayerKinds + 2> ops;  // each layer kind, then the head, then the logits alone (MTP)
  std::vector<Transfer> transfers;       // in the order the step asks for them
  std::size_t next_transfer = 0;         // during a call: the next one to replay
};

CalibratedTrainingStep evaluate_calibrated_training_step(const TrainingInput& in, const CalibrationProfile& profile,
                                                         CalibratedStepMemo* memo = nullptr);
// The calibrated step alone, from the book's step of `in` that the caller has already (a plan search's bound).
TrainingStep calibrated_training_step(const TrainingInput& in, const CalibrationProfile& profile,
                                      const TrainingStep& ideal);

// One microbatch on one chip of the busiest pipeline stage (it also holds the logits and the loss).
LayerShape microbatch_shape(const TrainingInput& in, const TrainingStep& ideal);

// Whether the step gathers each layer's weights before using it (ZeRO-3 over FSDP or the expert ranks).
bool gathers_layers(const TrainingPlan& plan, const TrainingStep& ideal);

// Memory per chip at the calibrated fidelity, on the stage that holds `here`: the book's weights, gradients and
// optimizer states, Korthikanti et al.'s saved activations (those in HBM, with activation offload), and what is live
// only while part of the step runs: two gathered layers of `gathered_layer_bytes` (one computing, one prefetched)
// throughout, and the larger of what remat recomputes of one layer during its backward and the logits with their
// gradient on the last stage (bf16; the fp32 loss runs in chunks) beyond what the first stage holds in flight.
struct CalibratedMemory {
  double activations_bytes = 0, transient_bytes = 0, total_bytes = 0;
};
CalibratedMemory calibrated_memory(const TrainingInput& in, const TrainingStep& ideal, const LayerShape& shape,
                                   const LayerCounts& here, double gathered_layer_bytes);

// What a plan search can know of a plan's calibrated step without pricing its ops (issue 20: an exact search that
// prices only the plans that can still win): a time that tests hold below the calibrated step
// (tests/unit/test_plan_search_bound.cpp), the book's step it comes from, and the calibrated memory per chip,
// exactly. In two steps, each cheaper than the next: calibrated_step_bound takes the book's memory half and bounds
// the step by compute alone; tighten_step_bound completes the book's step and raises the bound by its HBM and
// comms. One `out` serves the plans of one search (the model, batch and sequence of one space): it keeps the
// model's counts between them. False where the memory needs the step's timings: a model of several layer kinds cut
// into stages holds the slowest stage's layers (and with a target MFU, whose compute has no rate).
struct CalibratedStepBound {
  TrainingStep ideal;      // the book's step: its memory half, whole once tightened
  StepCounts counts;       // what the book's memory half counted (the model's counts kept for the next plan)
  double step_s = 0;       // at most the calibrated step
  double total_bytes = 0;  // the calibrated step's memory per chip
};
bool calibrated_step_bound(const TrainingInput& in, const CalibrationProfile& profile, CalibratedStepBound& out);
void tighten_step_bound(const TrainingInput& in, CalibratedStepBound& out);

}  // namespace scalescope
