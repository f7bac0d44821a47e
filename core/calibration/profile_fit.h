// Fitting calibration profiles to measured runs (issue: fidelity, "calibration profiles"): per chip kind, the
// family-level parameters shared by every chip and the chip-level ones of each chip with runs, first on the
// training runs, then the serving parameters on the serving runs with the training ones held. Runs marked `held`
// or `excluded` are never fitted on.
#pragma once
#include <string>
#include <vector>

#include "calibration/published_runs.h"
#include "calibration/robust_fit.h"
#include "specs/calibration_profile.h"

namespace scalescope {

struct KindFit {
  std::string kind, task;  // "tpu" | "gpu", "training" | "serving"
  std::size_t runs = 0;    // runs fitted on
  FitResult result;
};

struct ProfileFit {
  std::vector<CalibrationProfile> profiles;  // a family profile per kind, then one per chip that has runs
  std::vector<KindFit> fits;
  bool converged = true;  // every fit converged
  bool finished = true;   // every fit converged or stalled: none stopped at its iteration or work limit
};

// Bounded work (issue 22): the work one query's fits may do, over the fit and every refit, counted as each run
// prediction's PublishedRun::prediction_work (io/limits.h kMaxFitWork).
struct FitBudget {
  long long work_left = 0;
  bool exhausted = false;  // some fit stopped at the limit, unconverged
};
FitBudget query_fit_budget();
// The too_large diagnostic of an exhausted budget, at `path`.
void report_exhausted(const FitBudget& budget, const std::string& path, Diagnostics& d);

// `templates`: the profiles whose tiling and identity the fit keeps (the embedded ones). With `literature`, every
// parameter starts from calibration/priors (the shipped profiles are made so); without, the templates' parameters
// are the start and the priors (a team's few runs then nudge the embedded profile), with the literature's widths.
// `kinds`: the chip kinds to fit ("tpu", "gpu"); each kind's fit is independent of the other's.
ProfileFit fit_profiles(const std::vector<PublishedRun>& runs, const std::vector<CalibrationProfile>& templates,
                        bool literature, int max_iterations, FitBudget& budget,
                        const std::vector<std::string>& kinds = {"tpu", "gpu"});

// Whether a run may be fitted on.
bool fittable(const PublishedRun& run);

// Out-of-group errors: for each group of runs (`key` names a run's group: its family, or its chip), the profiles
// of the group's chip kinds refitted with that whole group held out (literature priors), and the group's runs
// predicted, excluded ones too (a report shows the figure with and without them; a band uses the runs in scope).
// One entry per group: the group and its runs' calibrated and book errors.
struct HoldoutGroup {
  std::string group;
  bool converged = true;
  std::vector<const PublishedRun*> runs;
  std::vector<double> calibrated_errors, book_errors;
};
// The groups hold_out_groups would refit: the distinct keys of the runs.
std::size_t holdout_group_count(const std::vector<PublishedRun>& runs, std::string (*key)(const PublishedRun&));
// Bounded work (issue 22): a query fits its runs once, and again for every held-out group. Over kMaxFittedRuns
// (io/limits.h) in all, one too_large diagnostic at `path` that names the groups; returns false.
bool fit_work_allowed(const std::vector<PublishedRun>& runs, std::size_t refits, const char* groups,
                      const std::string& path, Diagnostics& d);

std::vector<HoldoutGroup> hold_out_groups(std::vector<PublishedRun>& runs,
                                          const std::vector<CalibrationProfile>& templates,
                                          std::string (*key)(const PublishedRun&), FitBudget& budget);

}  // namespace scalescope
