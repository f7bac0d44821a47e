// Robust, regularised least squares for calibration (issue: fidelity, "fitted with Eigen: least squares on log
// time, robust to outliers"): minimise sum_i huber(r_i(u) / s) + sum_j ((u_j - log prior_j) / sigma_j)^2 over the
// log-parameters u, each bounded, by Levenberg-Marquardt with a forward-difference Jacobian. The residuals r_i are
// log(predicted / measured) of the runs; the priors keep parameters that the runs cannot see at the literature's
// value, so a handful of runs cannot drag them anywhere unphysical.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace scalescope {

struct FitParameter {
  double value = 1, lo = 0, hi = 1;  // start, and the physical range (positive)
  double prior = 1, prior_log_sigma = 1;
};

struct FitProblem {
  std::vector<FitParameter> parameters;
  std::size_t residual_count = 0;
  // Fills `residuals` (residual_count entries) for parameter values `values`; with `only`, just those entries (the
  // others are left as they were).
  std::function<void(const std::vector<double>& values, std::vector<double>& residuals,
                     const std::vector<std::size_t>* only)>
      residuals;
  // Per parameter, the residuals it can change (empty: all). A chip's parameter moves only that chip's runs, so its
  // Jacobian column re-predicts only those: the same numbers for a fraction of the work.
  std::vector<std::vector<std::size_t>> affects;
  // A run's log error is measured in units of the model's typical error (10%): a run 10% off costs as much as a
  // parameter one prior sigma from its prior. Beyond huber_delta units a run counts linearly, not quadratically.
  double residual_scale = 0.1;
  double huber_delta = 1.0;
  int max_iterations = 200;
  // Bounded work (issue 22): what predicting each residual costs (empty: 1 each), and the work after which the fit
  // stops, unconverged.
  std::vector<long long> residual_work;
  long long max_work = 1'000'000'000'000;
};

// Why a fit stopped. Converged: no free parameter can lower the objective by more than 0.001 per 1% it moves (a
// thousandth of one run 10% off; kFitGradientTolerance). Stalled: no step lowers the objective, yet its gradient is
// above that (a kink of the piecewise model, or a poorly conditioned fit): the values are usable, not optimal.
enum class FitStop { converged, stalled, iteration_limit, work_limit };
inline constexpr double kFitGradientTolerance = 0.1;
const char* fit_stop_name(FitStop stop);

struct FitResult {
  std::vector<double> values;
  FitStop stop = FitStop::iteration_limit;
  bool converged = false;  // stop == converged
  int iterations = 0;
  long long work = 0;         // residual_work over every residual predicted
  bool work_limited = false;  // stop == work_limit
  double cost = 0;            // the objective at `values`
  double initial_cost = 0;
  // The largest component of the objective's gradient in the log-parameters where the last step began (at
  // `values` when no step lowered the objective), with the components that push a parameter out through the bound
  // it sits on left out: 0 at a true optimum, bounded or not.
  double projected_gradient = 0;
  std::string message;  // why it stopped
};

FitResult robust_fit(const FitProblem& problem);

}  // namespace scalescope
