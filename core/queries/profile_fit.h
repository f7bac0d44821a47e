// Fitting calibration profiles to measured runs (issue: fidelity, "calibration profiles"): per chip kind, the
// family-level parameters shared by every chip and the chip-level ones of each chip with runs, first on the
// training runs, then the serving parameters on the serving runs with the training ones held. Runs marked `held`
// or `excluded` are never fitted on.
#pragma once
#include <string>
#include <vector>

#include "planners/robust_fit.h"
#include "queries/published_runs.h"
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
  bool converged = true;
};

// `templates`: the profiles whose tiling and identity the fit keeps (the embedded ones); their parameters are
// the start and, unless `literature_priors`, the priors (a team's few runs then nudge the embedded profile).
ProfileFit fit_profiles(const std::vector<PublishedRun>& runs, const std::vector<CalibrationProfile>& templates,
                        bool literature_priors);

// Whether a run may be fitted on.
bool fittable(const PublishedRun& run);

}  // namespace scalescope
