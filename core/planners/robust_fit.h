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
  // Fills `residuals` (residual_count entries) for parameter values `values`.
  std::function<void(const std::vector<double>& values, std::vector<double>& residuals)> residuals;
  // A run's log error is measured in units of the model's typical error (10%): a run 10% off costs as much as a
  // parameter one prior sigma from its prior. Beyond huber_delta units a run counts linearly, not quadratically.
  double residual_scale = 0.1;
  double huber_delta = 1.0;
  int max_iterations = 200;
};

struct FitResult {
  std::vector<double> values;
  bool converged = false;
  int iterations = 0;
  double cost = 0;            // the objective at `values`
  double initial_cost = 0;
  std::string message;        // why it stopped
};

FitResult robust_fit(const FitProblem& problem);

}  // namespace scalescope
