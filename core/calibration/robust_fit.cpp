#include "calibration/robust_fit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "physics/portable_math.h"

namespace scalescope {

namespace {

struct Objective {
  const FitProblem& p;
  std::vector<double> values, residuals;
  long long work = 0;

  long long work_of(std::size_t i) const { return p.residual_work.empty() ? 1 : p.residual_work[i]; }

  // Stacked, weighted residuals: the runs under Huber's weights (fixed at `weights`), then the priors.
  Eigen::VectorXd stacked(const Eigen::VectorXd& u, const Eigen::VectorXd& weights) {
    predict(u);
    return stack(u, weights);
  }

  void predict(const Eigen::VectorXd& u) {
    for (std::size_t j = 0; j < p.parameters.size(); ++j) values[j] = portable_exp(u[j]);
    p.residuals(values, residuals, nullptr);
    for (std::size_t i = 0; i < p.residual_count; ++i) work += work_of(i);
  }

  // The stacked residuals of the last prediction, which was at u.
  Eigen::VectorXd stack(const Eigen::VectorXd& u, const Eigen::VectorXd& weights) const {
    const std::size_t n = p.parameters.size();
    Eigen::VectorXd r(p.residual_count + n);
    for (std::size_t i = 0; i < p.residual_count; ++i) r[i] = std::sqrt(weights[i]) * scaled(i);
    for (std::size_t j = 0; j < n; ++j) r[p.residual_count + j] = prior_term(u, j);
    return r;
  }

  double prior_term(const Eigen::VectorXd& u, std::size_t j) const {
    return (u[j] - portable_log(p.parameters[j].prior)) / p.parameters[j].prior_log_sigma;
  }

  // Column j of the forward-difference Jacobian at u, whose stacked residuals are r (and `values` holds exp(u)).
  // Only the residuals parameter j affects are predicted again; the rest differ by exactly 0, as a full evaluation
  // would find, so the column is the same to the last bit.
  Eigen::VectorXd jacobian_column(const Eigen::VectorXd& u, const Eigen::VectorXd& r, const Eigen::VectorXd& weights,
                                  std::size_t j, double h) {
    Eigen::VectorXd v = u;
    v[j] += h;
    Eigen::VectorXd column;
    if (j >= p.affects.size() || p.affects[j].empty()) {
      column = (stacked(v, weights) - r) / h;
    } else {
      values[j] = portable_exp(v[j]);
      p.residuals(values, residuals, &p.affects[j]);
      for (std::size_t i : p.affects[j]) work += work_of(i);
      column = Eigen::VectorXd::Zero(r.size());
      for (std::size_t i : p.affects[j]) column[i] = (std::sqrt(weights[i]) * scaled(i) - r[i]) / h;
      column[p.residual_count + j] = (prior_term(v, j) - r[p.residual_count + j]) / h;
    }
    values[j] = portable_exp(u[j]);
    return column;
  }

  // Run i's log error in units of residual_scale (a failed prediction counts as far off).
  double scaled(std::size_t i) const { return std::isfinite(residuals[i]) ? residuals[i] / p.residual_scale : 100.0; }

  // Huber: weight 1 inside delta, delta / |r| beyond (iteratively reweighted least squares).
  Eigen::VectorXd huber_weights() const {
    Eigen::VectorXd w(p.residual_count);
    for (std::size_t i = 0; i < p.residual_count; ++i) {
      const double a = std::fabs(scaled(i));
      w[i] = a <= p.huber_delta ? 1.0 : p.huber_delta / a;
    }
    return w;
  }

  double cost(const Eigen::VectorXd& u) {
    predict(u);
    double c = 0;
    for (std::size_t i = 0; i < p.residual_count; ++i) {
      const double a = std::fabs(scaled(i));
      c += a <= p.huber_delta ? a * a : 2.0 * p.huber_delta * a - p.huber_delta * p.huber_delta;
    }
    for (std::size_t j = 0; j < p.parameters.size(); ++j) c += prior_term(u, j) * prior_term(u, j);
    return c;
  }
};

// The largest component of the objective's gradient 2 J^T r at u (2 J^T r with Huber's weights fixed at u is the
// gradient of the Huber objective itself) over the free parameters: a component that pushes a parameter out
// through the bound it sits on is held by the bound and left out.
double projected_gradient(const Eigen::VectorXd& jtr, const Eigen::VectorXd& u, const Eigen::VectorXd& lo,
                          const Eigen::VectorXd& hi) {
  double worst = 0;
  for (Eigen::Index j = 0; j < u.size(); ++j) {
    const double g = 2.0 * jtr[j];
    const bool held = (u[j] <= lo[j] && g > 0) || (u[j] >= hi[j] && g < 0);
    if (!held) worst = std::max(worst, std::fabs(g));
  }
  return worst;
}

std::string format_gradient(double g) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", g);
  return text;
}

}  // namespace

const char* fit_stop_name(FitStop stop) {
  switch (stop) {
    case FitStop::converged:
      return "converged";
    case FitStop::stalled:
      return "stalled";
    case FitStop::iteration_limit:
      return "iteration_limit";
    case FitStop::work_limit:
      return "work_limit";
  }
  return "";
}

namespace {

// Why the fit stopped, as FitStop and in words: its work limit, its iteration limit, or settled (`settled_how`) at
// an optimum (converged: the projected gradient within kFitGradientTolerance) or not (stalled).
void describe_stop(const FitProblem& p, bool settled, const char* settled_how, FitResult& out) {
  const std::string after = " after " + std::to_string(out.iterations) + " iterations";
  if (out.work_limited) {
    out.stop = FitStop::work_limit;
    out.message = "did not converge: stopped" + after + " at its work limit";
  } else if (!settled) {
    out.stop = FitStop::iteration_limit;
    out.message = "did not converge in " + std::to_string(p.max_iterations) + " iterations";
  } else {
    const std::string gradient = "its gradient is " + format_gradient(out.projected_gradient) + " (tolerance " +
                                 format_gradient(kFitGradientTolerance) + ")";
    out.stop = out.projected_gradient <= kFitGradientTolerance ? FitStop::converged : FitStop::stalled;
    out.message = out.stop == FitStop::converged
                      ? "converged" + after + ": " + settled_how + " and " + gradient
                      : "stalled" + after + ": " + settled_how + ", yet " + gradient +
                            ", at a kink of the model or a poorly conditioned fit; the values are usable, not optimal";
  }
}

}  // namespace

FitResult robust_fit(const FitProblem& p) {
  FitResult out;
  const std::size_t n = p.parameters.size();
  Objective f{p, std::vector<double>(n), std::vector<double>(p.residual_count)};
  Eigen::VectorXd u(n), lo(n), hi(n);
  for (std::size_t j = 0; j < n; ++j) {
    lo[j] = portable_log(p.parameters[j].lo);
    hi[j] = portable_log(p.parameters[j].hi);
    u[j] = std::clamp(portable_log(p.parameters[j].value), lo[j], hi[j]);
  }
  double cost = f.cost(u);
  out.initial_cost = cost;
  double lambda = 1e-2;
  const double step = 1e-4;
  bool settled = false;  // the objective stopped falling, or no step lowers it
  const char* settled_how = "the objective stopped falling";
  for (out.iterations = 0; out.iterations < p.max_iterations && !settled; ++out.iterations) {
    if (f.work >= p.max_work) {
      out.work_limited = true;
      break;
    }
    f.predict(u);  // residuals at u, for the weights
    const Eigen::VectorXd w = f.huber_weights();
    const Eigen::VectorXd r = f.stack(u, w);
    Eigen::MatrixXd jac(r.size(), n);
    for (std::size_t j = 0; j < n; ++j) jac.col(j) = f.jacobian_column(u, r, w, j, u[j] + step <= hi[j] ? step : -step);
    const Eigen::MatrixXd jtj = jac.transpose() * jac;
    const Eigen::VectorXd g = jac.transpose() * r;
    // Where the last step began: at the final values when no step lowers the objective, one small step before
    // them when it stopped falling (computing it again at the end would cost a whole Jacobian).
    out.projected_gradient = projected_gradient(g, u, lo, hi);
    bool improved = false;
    for (int tries = 0; tries < 12 && !improved; ++tries) {
      Eigen::MatrixXd a = jtj;
      a.diagonal() += lambda * (jtj.diagonal().array() + 1e-9).matrix();
      const Eigen::VectorXd delta = a.ldlt().solve(-g);
      const Eigen::VectorXd next = u.cwiseMax(lo).cwiseMin(hi) + delta;
      const Eigen::VectorXd bounded = next.cwiseMax(lo).cwiseMin(hi);
      const double c = f.cost(bounded);
      if (std::isfinite(c) && c < cost) {
        improved = true;
        const double drop = cost - c;
        u = bounded;
        cost = c;
        lambda = std::max(lambda / 3.0, 1e-9);
        // Settled when an iteration lowers the objective by less than a millionth; whether that is an optimum, the
        // gradient says below.
        settled = drop < 1e-6 * (1.0 + cost);
      } else {
        lambda *= 4.0;
      }
    }
    if (!improved) {
      settled = true;
      settled_how = "no step lowers the objective";
    }
  }
  describe_stop(p, settled, settled_how, out);
  out.converged = out.stop == FitStop::converged;
  out.cost = cost;
  out.work = f.work;
  out.values.resize(n);
  // exp(log(30)) is 30.000000000000004: a bound reached in log space is put back on the bound itself, so that the
  // profile reader accepts what the fit wrote (issue 22).
  for (std::size_t j = 0; j < n; ++j)
    out.values[j] = std::clamp(portable_exp(u[j]), p.parameters[j].lo, p.parameters[j].hi);
  return out;
}

}  // namespace scalescope
