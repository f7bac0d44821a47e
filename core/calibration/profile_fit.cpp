#include "calibration/profile_fit.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "calibration/priors.h"
#include "io/format.h"
#include "io/limits.h"
#include "physics/portable_math.h"

namespace scalescope {

namespace {

const CalibrationProfile* find_family(const std::vector<CalibrationProfile>& templates, const std::string& kind) {
  for (const auto& t : templates)
    if (t.kind == kind && t.is_family()) return &t;
  return nullptr;
}

// One kind's profiles while they are fitted: the family (index 0) and the chips with runs.
struct KindProfiles {
  std::vector<CalibrationProfile> profiles;
  std::vector<std::size_t> run_profile;  // per run (index into `runs`): which profile predicts it

  std::size_t chip_index(const std::string& hardware_id) const {
    for (std::size_t i = 1; i < profiles.size(); ++i)
      if (profiles[i].lists(hardware_id)) return i;
    return 0;
  }
};

// A fitted parameter and the profiles it is written to.
struct Slot {
  const ProfileParameter* parameter;
  std::vector<std::size_t> profiles;
};

// The runs of `kind` and `task` a fit may use.
std::vector<std::size_t> task_run_indices(const std::vector<PublishedRun>& runs, const std::string& kind,
                                          const std::string& task_name) {
  std::vector<std::size_t> task_runs;
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (runs[i].kind == kind && runs[i].task == task_name && fittable(runs[i])) task_runs.push_back(i);
  return task_runs;
}

// One fitted parameter per family-level constant, and one per chip with runs for each chip-level constant, each
// starting from its prior (the literature's, or the profile's own value), appended to `problem`.
std::vector<Slot> fit_slots(const KindProfiles& kp, const std::string& kind, ParameterTask task, bool literature,
                            const std::map<std::size_t, double>& profile_runs, FitProblem& problem) {
  std::vector<Slot> slots;
  const auto table = profile_parameters();
  for (std::size_t qi = 0; qi < table.size(); ++qi) {
    const ProfileParameter& q = table[qi];
    if (q.task != task) continue;
    auto add_slot = [&](std::vector<std::size_t> targets) {
      // A kernel constant is fitted on runs only in the profiles whose kernels no table measured.
      std::erase_if(targets, [&](std::size_t t) { return !q.fitted_on_runs(kp.profiles[t]); });
      if (targets.empty()) return;
      const CalibrationProfile& start = kp.profiles[targets.front()];
      const Prior& prior = literature_priors().of(qi, kind);
      FitParameter f;
      f.lo = q.lo;
      f.hi = q.hi;
      f.prior = literature ? prior.value : q.value(start);
      f.value = f.prior;  // the fit starts from its priors, so its answer does not depend on the profiles it replaces
      f.prior_log_sigma = prior.log_sigma;
      problem.parameters.push_back(f);
      slots.push_back(Slot{&q, std::move(targets)});
    };
    if (q.level == ParameterLevel::family) {
      std::vector<std::size_t> all(kp.profiles.size());
      for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
      add_slot(all);
    } else {
      for (const auto& [profile, count] : profile_runs) add_slot({profile});
    }
  }
  return slots;
}

// A chip's parameter moves only the runs that chip's profile predicts.
void set_affected_rows(const KindProfiles& kp, const std::vector<std::size_t>& task_runs,
                       const std::vector<Slot>& slots, FitProblem& problem) {
  for (const Slot& slot : slots) {
    std::vector<std::size_t> rows;
    if (slot.profiles.size() == 1)
      for (std::size_t k = 0; k < task_runs.size(); ++k)
        if (kp.run_profile[task_runs[k]] == slot.profiles.front()) rows.push_back(k);
    problem.affects.push_back(std::move(rows));
  }
}

// Chip-level parameters of the family: the run-weighted geometric mean of the chips' (unless the family was
// fitted itself); chips without runs of this task take the family's value.
void spread_chip_parameters(KindProfiles& kp, ParameterTask task, const std::map<std::size_t, double>& profile_runs) {
  for (const auto& q : profile_parameters()) {
    if (q.task != task || q.level != ParameterLevel::chip) continue;
    if (!profile_runs.count(0) && q.fitted_on_runs(kp.profiles[0])) {
      double log_sum = 0, weight = 0;
      for (const auto& [profile, count] : profile_runs) {
        if (!q.fitted_on_runs(kp.profiles[profile])) continue;
        log_sum += count * portable_log(q.value(kp.profiles[profile]));
        weight += count;
      }
      if (weight > 0)
        q.set(kp.profiles[0], std::clamp(portable_exp(log_sum / weight), q.lo, q.hi));  // rounding past a bound
    }
    for (std::size_t p = 1; p < kp.profiles.size(); ++p)
      if (!profile_runs.count(p) && q.fitted_on_runs(kp.profiles[p])) q.set(kp.profiles[p], q.value(kp.profiles[0]));
  }
}

void fit_task(const std::vector<PublishedRun>& runs, KindProfiles& kp, const std::string& kind, ParameterTask task,
              bool literature, int max_iterations, FitBudget& budget, ProfileFit& out) {
  const std::string task_name = task == ParameterTask::training ? "training" : "serving";
  const std::vector<std::size_t> task_runs = task_run_indices(runs, kind, task_name);
  if (task_runs.empty()) return;
  // Which profiles have runs of this task (index 0 too, if some run's chip has no profile of its own).
  std::map<std::size_t, double> profile_runs;
  for (std::size_t i : task_runs) profile_runs[kp.run_profile[i]] += 1;

  FitProblem problem;
  const std::vector<Slot> slots = fit_slots(kp, kind, task, literature, profile_runs, problem);
  problem.residual_count = task_runs.size();
  problem.max_iterations = max_iterations;
  problem.max_work = budget.work_left;
  for (std::size_t k : task_runs) problem.residual_work.push_back(runs[k].prediction_work);
  set_affected_rows(kp, task_runs, slots, problem);
  // Each run is predicted at every trial of the parameters, which move none of what its memo keeps.
  std::vector<RunPredictionMemo> memos(task_runs.size());
  problem.residuals = [&](const std::vector<double>& values, std::vector<double>& r,
                          const std::vector<std::size_t>* only) {
    for (std::size_t j = 0; j < slots.size(); ++j)
      for (std::size_t p : slots[j].profiles) slots[j].parameter->set(kp.profiles[p], values[j]);
    auto predict = [&](std::size_t k) {
      const PublishedRun& run = runs[task_runs[k]];
      r[k] =
          portable_log(1.0 + run_error(run, predict_run(run, &kp.profiles[kp.run_profile[task_runs[k]]], &memos[k])));
    };
    if (only)
      for (std::size_t k : *only) predict(k);
    else
      for (std::size_t k = 0; k < task_runs.size(); ++k) predict(k);
  };
  KindFit fit;
  fit.kind = kind;
  fit.task = task_name;
  fit.runs = task_runs.size();
  fit.result = robust_fit(problem);
  budget.work_left -= fit.result.work;
  budget.exhausted = budget.exhausted || fit.result.work_limited;
  std::vector<double> residuals(task_runs.size());
  problem.residuals(fit.result.values, residuals, nullptr);  // leaves the fitted values in the profiles
  out.converged = out.converged && fit.result.converged;
  out.finished = out.finished && (fit.result.converged || fit.result.stop == FitStop::stalled);
  out.fits.push_back(fit);
  spread_chip_parameters(kp, task, profile_runs);
}

}  // namespace

bool fittable(const PublishedRun& run) { return run.split != "held" && run.excluded.empty(); }

namespace {

// The distinct groups of the runs, in the order they first appear.
std::vector<std::string> group_keys(const std::vector<PublishedRun>& runs, std::string (*key)(const PublishedRun&)) {
  std::vector<std::string> groups;
  for (const auto& r : runs)
    if (std::find(groups.begin(), groups.end(), key(r)) == groups.end()) groups.push_back(key(r));
  return groups;
}

}  // namespace

std::size_t holdout_group_count(const std::vector<PublishedRun>& runs, std::string (*key)(const PublishedRun&)) {
  return group_keys(runs, key).size();
}

FitBudget query_fit_budget() { return FitBudget{kMaxFitWork, false}; }

void report_exhausted(const FitBudget& budget, const std::string& path, Diagnostics& d) {
  if (!budget.exhausted) return;
  add_diagnostic(
      d, path, "too_large",
      "the fits stopped at the work limit of " + format_count(static_cast<double>(kMaxFitWork)) +
          " units (a unit is about a third of a microsecond of predicting runs) before they converged; fit fewer "
          "runs, chips or families per query");
}

bool fit_work_allowed(const std::vector<PublishedRun>& runs, std::size_t refits, const char* groups,
                      const std::string& path, Diagnostics& d) {
  const double fitted = static_cast<double>(runs.size()) * static_cast<double>(1 + refits);
  if (fitted <= static_cast<double>(kMaxFittedRuns)) return true;
  add_diagnostic(d, path, "too_large",
                 std::to_string(runs.size()) + " runs over " + std::to_string(refits) + " " + groups + " are fitted " +
                     std::to_string(1 + refits) + " times (once, and once more with each held out): " +
                     format_count(fitted) + " run fits, more than the limit of " +
                     format_count(static_cast<double>(kMaxFittedRuns)) + "; split the runs into several queries");
  return false;
}

std::vector<HoldoutGroup> hold_out_groups(std::vector<PublishedRun>& runs,
                                          const std::vector<CalibrationProfile>& templates,
                                          std::string (*key)(const PublishedRun&), FitBudget& budget) {
  std::vector<HoldoutGroup> out;
  for (const std::string& group : group_keys(runs, key)) {
    std::vector<std::string> saved;
    for (auto& r : runs) {
      saved.push_back(r.split);
      if (key(r) == group) r.split = "held";
    }
    // Only the group's kinds are refitted: the other kind's runs are all still fitted, so its fit is the full one.
    std::vector<std::string> kinds;
    for (const auto& r : runs)
      if (key(r) == group && std::find(kinds.begin(), kinds.end(), r.kind) == kinds.end()) kinds.push_back(r.kind);
    const ProfileFit fit = fit_profiles(runs, templates, true, 200, budget, kinds);
    HoldoutGroup g;
    g.group = group;
    g.converged = fit.converged;
    for (const auto& r : runs) {
      if (key(r) != group) continue;
      // The group's chip profile if it still has one, else the family's.
      const CalibrationProfile* profile = profile_for(fit.profiles, r.kind, r.hardware_id);
      g.runs.push_back(&r);
      g.calibrated_errors.push_back(profile ? run_error(r, predict_run(r, profile)) : 0.0);
      g.book_errors.push_back(run_error(r, predict_run(r, nullptr)));
    }
    for (std::size_t i = 0; i < runs.size(); ++i) runs[i].split = saved[i];
    if (!g.runs.empty()) out.push_back(std::move(g));
  }
  return out;
}

ProfileFit fit_profiles(const std::vector<PublishedRun>& runs, const std::vector<CalibrationProfile>& templates,
                        bool literature, int max_iterations, FitBudget& budget, const std::vector<std::string>& kinds) {
  ProfileFit out;
  for (const std::string kind : {"tpu", "gpu"}) {
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) continue;
    const CalibrationProfile* family = find_family(templates, kind);
    if (!family) continue;
    KindProfiles kp;
    kp.profiles.push_back(*family);
    // Every chip profile of the kind: one whose runs are all held still has its kernels (and the family's
    // end-to-end constants).
    for (const CalibrationProfile& t : templates)
      if (t.kind == kind && !t.is_family()) kp.profiles.push_back(t);
    // With the literature priors every parameter starts at its prior, fitted or not (a task without runs keeps
    // it): the profiles are then a function of the priors file, the kernel tables' fits and the fit runs alone,
    // never of the embedded profiles they replace (a refit of the shipped profiles is a fixed point). The templates
    // give identity, tiling and the kernel constants the tables fitted. An end-to-end constant the runs may not fit
    // here (the sustained clock without kernel tables) is its prior too, not the last profile's value.
    const auto table = profile_parameters();
    if (literature)
      for (CalibrationProfile& p : kp.profiles)
        for (std::size_t qi = 0; qi < table.size(); ++qi)
          if (table[qi].set_by_refit(p)) table[qi].set(p, literature_priors().of(qi, kind).value);
    kp.run_profile.resize(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) kp.run_profile[i] = kp.chip_index(runs[i].hardware_id);
    fit_task(runs, kp, kind, ParameterTask::training, literature, max_iterations, budget, out);
    fit_task(runs, kp, kind, ParameterTask::serving, literature, max_iterations, budget, out);
    // Provenance: the runs each profile was fitted on (the family: every run of its kind), and the span they cover
    // per task, so that a result can say whether its plan lies inside it.
    for (std::size_t p = 0; p < kp.profiles.size(); ++p) {
      CalibrationProfile& profile = kp.profiles[p];
      FittedScope training, serving;
      training.task = "training";
      serving.task = "serving";
      profile.fitted_on.clear();
      for (std::size_t i = 0; i < runs.size(); ++i) {
        if (runs[i].kind != kind || !fittable(runs[i]) || (p != 0 && kp.run_profile[i] != p)) continue;
        profile.fitted_on.push_back(runs[i].id);
        (runs[i].task == "training" ? training : serving).widen(run_scope_point(runs[i]));
      }
      profile.scopes.clear();
      for (FittedScope* scope : {&training, &serving})
        if (scope->max_chips > 0) profile.scopes.push_back(std::move(*scope));  // a task with fit runs
    }
    // Four significant digits, as the kernel constants: the runs cannot tell more, and the files ship in the page.
    for (auto& p : kp.profiles) {
      for (const ProfileParameter& q : profile_parameters())
        if (q.fitted_on_runs(p)) q.set(p, std::clamp(round_significant(q.value(p), 4), q.lo, q.hi));
      out.profiles.push_back(std::move(p));
    }
  }
  return out;
}

}  // namespace scalescope
