// Search over training plans (issue 9): walks a plan space (planners/plan_space.h) plan by plan with one
// evaluator (planners/step_evaluator.h: the book's step today, the calibrated one when it lands), keeps the best k
// by an objective and the Pareto front of step time x memory per chip (x cost, which on one mesh follows the step
// time), and counts what it saw. A search runs in chunks from a resumable position, with a progress hook; the
// hot loop allocates only when a plan enters the best k or the front (and to keep a combination's settings' bounds
// when it has more settings than any before). At the calibrated fidelity it prices only the plans whose bound
// (calibrated_step_bound) could still win, and ends as the exhaustive search does.
#pragma once
#include <string>
#include <vector>

#include "planners/goodput.h"
#include "planners/plan_space.h"
#include "planners/step_evaluator.h"
#include "planners/training.h"

namespace scalescope {

// wall_time: the expected wall-clock time to train (per step without train_tokens) once failures, checkpoints and
// restarts are counted (planners/goodput.h).
enum class SearchObjective { step_time, cost_to_train, tokens_per_usd, wall_time };

struct SearchSettings {
  int keep = 10;
  SearchObjective objective = SearchObjective::step_time;
  GoodputSettings goodput;          // wall_time's failures, checkpoints and restarts
  double model_state_bytes = 0;     // model_state_bytes(the query's input): what a checkpoint saves once
  bool must_fit = true;             // plans out of HBM (with the headroom) are not ranked
  double memory_headroom_frac = 0;  // a plan fits when it needs at most (1 - headroom) of HBM
  bool include_warnings = false;    // plans with warnings (ZeRO-3 under pipelining, ...) are left out unless asked
  StepEvaluator evaluate;
  // Called every `progress_every` plans with (plans done, space size); returning false stops the search there.
  bool (*progress)(long long done, long long space, void* context) = nullptr;
  void* progress_context = nullptr;
  long long progress_every = 1 << 16;
  // Work per call, in units of half a microsecond to a microsecond: a plan checked, a layout fingerprinted, a dense
  // layer kind priced (MoE kinds count 2); past it the call stops at the next plan and leaves a position to resume
  // from. 0: no cap.
  long long max_work = 0;
};

struct RankedPlan {
  long long index = 0;  // the plan's ordinal in the space
  TrainingInput input;  // its plan, remat and precision
  TrainingStep step;
  double objective = 0;  // lower is better (tokens per dollar is negated)
  bool fits = true;      // within HBM less the headroom
};

struct SearchCounts {
  long long space = 0;          // plans in the space
  long long evaluated = 0;      // plans the search has run through the evaluator
  long long equivalent = 0;     // plans skipped: an earlier layout of theirs costs every collective the same
  long long valid = 0;          // ... that pass the plan checks
  long long with_warnings = 0;  // ... valid, with a warning
  long long fitting = 0;        // ... valid and within HBM less the headroom
  long long ranked = 0;         // ... that entered the ranking
  long long pruned = 0;         // ... dominated by another ranked plan (off the Pareto front)
  long long bounded = 0;        // ... of which never priced: their bound (the book's step) could not win
};

struct PlanSearchState {
  long long next = 0;  // the next plan's ordinal
  SearchCounts counts;
  std::vector<RankedPlan> best;   // at most `keep`, best first
  std::vector<RankedPlan> front;  // the Pareto front, fastest first
  bool work_limited = false;      // the last call stopped at settings.max_work
  bool done(const PlanSpace& space) const { return next >= space.size; }
};

// Evaluates up to `max_plans` more plans (all that are left when <= 0) from state.next on.
void continue_search(const PlanSpace& space, const SearchSettings& settings, PlanSearchState& state,
                     long long max_plans);

// Re-evaluates plans by ordinal and ranks them again (a search resumed from the plans a chunk kept).
void restore_plans(const PlanSpace& space, const SearchSettings& settings, PlanSearchState& state,
                   const std::vector<long long>& indices);

// Ranking: fitting plans first, then the objective, then the no-overlap step (more slack first), then less memory
// per chip, then the earlier ordinal.
bool ranks_before(const RankedPlan& a, const RankedPlan& b);

// What two plans differ in ("remat: none vs block", "tensor: ..."), to say why equal plans tie.
std::vector<std::string> plan_differences(const Mesh& mesh, const RankedPlan& a, const RankedPlan& b);

// The whole default space of base's mesh, ranked by step time: the calibrated step with a profile, else the
// book's (tests, the benchmark).
PlanSearchState search_training_plans(const TrainingInput& base, int keep, const CalibrationProfile* profile = nullptr);

}  // namespace scalescope
