// Published, measured runs as the calibration and validation queries use them (tests/validation/published-runs.json;
// conventions in that file's `about`): each run's scenario is read once into the planners' inputs, then
// predicted at either fidelity as often as a fit needs.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "planners/calibrated_training.h"
#include "planners/serving.h"
#include "planners/training.h"
#include "queries/scenario.h"
#include "queries/serving_load_args.h"
#include "specs/calibration_profile.h"

namespace scalescope {

enum class RunMetric { step_s, throughput_tok_s };

struct PublishedRun {
  std::string id, family, kind, task, source;  // kind "tpu" | "gpu", task "training" | "serving"
  RunMetric metric = RunMetric::step_s;
  double measured = 0;
  bool remat_auto = false;  // the source does not state its remat: the lightest policy that fits
  bool auto_batch = false;  // offline serving at the largest batch that fits
  double replicas = 1;      // throughput counted over this many replicas
  double requests = 0;      // offline serving: the requests the source sent (0: not stated), a cap on the batch
  std::string split;        // "fit" or "held": which part of the suite a profile may be fitted on
  std::string excluded;     // non-empty: kept in the table but never fitted on (the reason)
  // Memory (issue 34): a setting of the source that bears on memory per chip and the engine cannot express, and a
  // peak memory per chip the source measured (0: none) with what it includes.
  std::string memory_unexpressed, measured_memory_how;
  double measured_memory_bytes = 0;
  std::string hardware_id;  // the preset the scenario names (selects the calibration profile)
  // What one prediction of the run costs (issue 22): the model's evaluation work, for each remat policy tried.
  long long prediction_work = 1;

  // The scenario, read once.
  std::unique_ptr<ScenarioSpecs> specs;
  TrainingInput training;
  ServingInput serving;
  // Serving under the benchmark's load (the scenario's `query.load`: its concurrency, and the serving engine's
  // runtime where the source names it); null: offline serving as one batch (predict_run).
  std::unique_ptr<LoadArgs> load;
  double batch = 0, prompt_len = 0, generated_len = 0, kv_context_len = 0;
};

// Reads `runs` (an array of published-run objects); a run whose scenario cannot be evaluated is a diagnostic at
// its path. `require_split`: the validation suite's runs must say which part they belong to. `layout_budget`: the
// layouts their degree-form plans may still cost, shared by every scenario the query reads (kMaxQueryLayouts).
std::vector<PublishedRun> read_published_runs(const Json& runs, const std::string& path, bool require_split,
                                              long long& layout_budget, Diagnostics& diagnostics);

// Measured peak memories per chip that no run matches (a runs file's `memory_checks`): each read as a training run
// with no measured time, its measured_memory_bytes required.
std::vector<PublishedRun> read_memory_checks(const Json& checks, const std::string& path, long long& layout_budget,
                                             Diagnostics& diagnostics);

// A training run's memory per chip as predicted (the calibrated step with `profile`, the book's without): with its
// stated remat, or the one remat_auto picks.
struct RunMemory {
  double total_bytes = 0, hbm_capacity_bytes = 0;
  bool fits = false;
  Remat remat = Remat::none;
};
RunMemory predict_run_memory(const PublishedRun& run, const CalibrationProfile* profile);

// "moe" when the run's model routes tokens to experts, else "dense" (the validation tables split by it).
const char* run_architecture(const PublishedRun& run);

// Where the run sits, in the terms of a profile's fitted scope.
ScopePoint run_scope_point(const PublishedRun& run);

// What predicting one run keeps between predictions at profiles of one tiling (a fit's): a training run's
// calibrated step per remat policy tried (planners/calibrated_training.h).
struct RunPredictionMemo {
  std::array<CalibratedStepMemo, 3> steps;
};

// The run's metric predicted by the book (profile == nullptr) or the calibrated model with `profile`; with a memo
// of this run, the same number for less work.
double predict_run(const PublishedRun& run, const CalibrationProfile* profile, RunPredictionMemo* memo = nullptr);

// The README's sign convention: predicted / measured - 1 for a time, measured / predicted - 1 for a throughput
// (negative: the model is optimistic).
double run_error(const PublishedRun& run, double predicted);

}  // namespace scalescope
