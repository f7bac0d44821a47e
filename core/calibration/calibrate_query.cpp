// The calibrate query: fits calibration profiles to measured runs (a team's own cluster, or the project's
// validation suite) and returns them ready to pass back as `query.calibration`, with the error bands measured on
// the runs marked `held` (never fitted on), or, for a chip with none, on its fit runs each left out in turn.
#include <algorithm>
#include <cmath>
#include <map>

#include "calibration/profile_fit.h"
#include "calibration/query_kinds.h"
#include "calibration/run_outcomes.h"
#include "io/format.h"
#include "io/json_text.h"

namespace scalescope {

namespace {

// The same scenario measured twice must agree to within 1.5x; runs that disagree more cannot both be fitted. Only
// the runs a fit sees are compared: a held or excluded run's measurement must not decide whether the fit runs.
void check_contradictions(const Json& runs_node, const std::vector<PublishedRun>& runs, const std::string& path,
                          Diagnostics& d) {
  std::map<std::string, std::pair<double, std::string>> seen;
  for (std::size_t i = 0; i < runs_node.size() && i < runs.size(); ++i) {
    const Json& r = runs_node[i];
    if (!r.is_object() || !r.contains("scenario")) continue;
    const std::string key = to_text(r["scenario"]);  // never throws on a C++ caller's invalid UTF-8
    const PublishedRun* run = nullptr;
    for (const auto& x : runs)
      if (x.id == r.value("id", "")) run = &x;
    if (!run || !fittable(*run)) continue;
    auto [it, fresh] = seen.emplace(key, std::make_pair(run->measured, run->id));
    if (!fresh && std::max(run->measured, it->second.first) > 1.5 * std::min(run->measured, it->second.first))
      add_diagnostic(d, json_pointer_child(path, i), "contradictory_runs",
                     "run '" + run->id + "' measures " + format_count(run->measured) +
                         " for the same scenario as run '" + it->second.second + "' (" +
                         format_count(it->second.first) + "); drop one or mark it held");
  }
}

std::string chip_of(const PublishedRun& r) { return r.hardware_id; }

bool on_chip(const PublishedRun& run, const CalibrationProfile& p) {
  return run.kind == p.kind && p.lists(run.hardware_id);
}

bool held_in_scope_on(const std::vector<PublishedRun>& runs, const CalibrationProfile& p, const char* task) {
  return std::any_of(runs.begin(), runs.end(), [&](const PublishedRun& r) {
    return in_part(r, "held_in_scope") && r.task == task && on_chip(r, p);
  });
}

// A chip's fit runs of a task when it has no held run to measure its band on (a team's own few runs, all fitted):
// those runs are left out in turn instead, at most kMaxLeaveOneOutRuns of them.
constexpr std::size_t kMaxLeaveOneOutRuns = 16;
std::vector<std::size_t> leave_one_out_runs(const std::vector<PublishedRun>& runs, const CalibrationProfile& p,
                                            const char* task) {
  std::vector<std::size_t> out;
  if (p.is_family() || held_in_scope_on(runs, p, task)) return out;
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (fittable(runs[i]) && runs[i].task == task && on_chip(runs[i], p)) out.push_back(i);
  if (out.size() > kMaxLeaveOneOutRuns) out.clear();
  return out;
}

// How many refits leave_one_out_errors will do for the profiles a fit of `runs` makes (one per chip with a
// template; an upper bound, for the work check before any fit).
std::size_t leave_one_out_refits(const std::vector<PublishedRun>& runs,
                                 const std::vector<CalibrationProfile>& templates) {
  std::size_t n = 0;
  for (const auto& t : templates)
    for (const char* task : {"training", "serving"}) n += leave_one_out_runs(runs, t, task).size();
  return n;
}

// Each of `picked` left out of the fit in turn (the same priors and iterations as the fit being measured), the
// profiles of its kind refitted, and the run predicted with its chip's refitted profile.
std::vector<double> leave_one_out_errors(std::vector<PublishedRun>& runs, const std::vector<std::size_t>& picked,
                                         const std::vector<CalibrationProfile>& templates, bool literature,
                                         int max_iterations, FitBudget& budget) {
  std::vector<double> errors;
  for (std::size_t i : picked) {
    PublishedRun& run = runs[i];
    const std::string split = run.split;
    run.split = "held";
    const ProfileFit fit = fit_profiles(runs, templates, literature, max_iterations, budget, {run.kind});
    run.split = split;
    if (const CalibrationProfile* used = profile_for(fit.profiles, run.kind, run.hardware_id))
      errors.push_back(run_error(run, predict_run(run, used)));
  }
  return errors;
}

// The error band of each chip's profile: its held-out runs of each task that are in the model's scope (not
// excluded), or, with none, its own fit runs each left out in turn. A family profile's band is what a chip
// without runs of its own can expect: every chip of the kind held out whole in turn (its runs never fitted on),
// the profiles refitted, and its in-scope runs predicted.
void attach_bands(std::vector<CalibrationProfile>& profiles, std::vector<PublishedRun>& runs,
                  const std::vector<CalibrationProfile>& templates, bool literature, int max_iterations,
                  FitBudget& budget) {
  const std::vector<HoldoutGroup> chips_out = hold_out_groups(runs, templates, chip_of, budget);
  ProfileSet set{profiles};
  for (auto& p : profiles) {
    p.bands.clear();
    for (const char* task : {"training", "serving"}) {
      std::vector<double> errors;
      BandMethod method = p.is_family() ? BandMethod::chip_held_out : BandMethod::held;
      if (p.is_family()) {
        for (const HoldoutGroup& g : chips_out)
          for (std::size_t i = 0; i < g.runs.size(); ++i)
            if (g.runs[i]->kind == p.kind && g.runs[i]->task == task && g.runs[i]->excluded.empty())
              errors.push_back(g.calibrated_errors[i]);
      } else if (const auto picked = leave_one_out_runs(runs, p, task); !picked.empty()) {
        method = BandMethod::left_out_in_turn;
        errors = leave_one_out_errors(runs, picked, templates, literature, max_iterations, budget);
      } else {
        for (const auto& run : runs) {
          if (!in_part(run, "held_in_scope") || run.kind != p.kind || run.task != task) continue;
          const CalibrationProfile* used = set.for_run(run);
          if (used && used->id == p.id) errors.push_back(run_error(run, predict_run(run, &p)));
        }
      }
      if (errors.empty()) continue;
      const ErrorStats s = error_stats(errors);
      ErrorBand band{task, s.runs, s.median_abs, s.p90_abs, s.max_abs, s.signed_median, method};
      const double widen = small_sample_widening(band);  // few runs: a wider band (issue 18 item 5)
      band.median_frac *= widen;
      band.p90_frac *= widen;
      band.max_frac *= widen;
      p.bands.push_back(band);
    }
  }
}

// `profile_prefix`: a team's profiles named apart from the shipped ones they would otherwise share ids with.
void prefix_profiles(std::vector<CalibrationProfile>& profiles, const std::string& prefix) {
  if (prefix.empty()) return;
  for (auto& p : profiles) {
    p.id = prefix + "-" + p.id;
    p.name = prefix + ": " + p.name;
  }
}

}  // namespace

Json run_calibrate(const QueryContext&, JsonReader& args, Diagnostics& d) {
  const Json* runs_node = args.array("runs", true);
  const bool literature = args.choice("priors", false, {"embedded", "literature"}).value_or("embedded") == "literature";
  const std::string source = args.string("source", false).value_or("fitted by the calibrate query");
  const int max_iterations = static_cast<int>(args.number("max_iterations", false).value_or(200));
  const std::string prefix = args.string("profile_prefix", false).value_or("");
  if (prefix.size() > 32 || !std::all_of(prefix.begin(), prefix.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
      }))
    add_diagnostic(d, args.path_of("profile_prefix"), "wrong_type",
                   "expected at most 32 characters of a-z, 0-9 and '-' (it starts each profile's id)");
  if (!runs_node || has_errors(d)) return {};
  long long layout_budget = kMaxQueryLayouts;
  std::vector<PublishedRun> runs = read_published_runs(*runs_node, args.path_of("runs"), false, layout_budget, d);
  if (has_errors(d)) return {};
  const std::size_t usable = static_cast<std::size_t>(std::count_if(runs.begin(), runs.end(), fittable));
  if (usable < 2)
    add_diagnostic(d, args.path_of("runs"), "too_few_runs",
                   "a fit needs at least 2 runs that are neither 'held' nor 'excluded'; got " + std::to_string(usable));
  check_contradictions(*runs_node, runs, args.path_of("runs"), d);
  args.finish();  // unknown keys before any work
  if (has_errors(d)) return {};
  const auto embedded = embedded_calibration_profiles();
  const std::vector<CalibrationProfile> templates(embedded.begin(), embedded.end());
  if (!fit_work_allowed(runs, holdout_group_count(runs, chip_of) + leave_one_out_refits(runs, templates),
                        "chips and runs left out", args.path_of("runs"), d))
    return {};
  FitBudget budget = query_fit_budget();
  ProfileFit fit = fit_profiles(runs, templates, literature, max_iterations, budget);
  Json fits = Json::array();
  for (const KindFit& f : fit.fits) {
    fits.push_back({{"kind", f.kind},
                    {"task", f.task},
                    {"runs", f.runs},
                    {"converged", f.result.converged},
                    {"stop", fit_stop_name(f.result.stop)},
                    {"iterations", f.result.iterations},
                    {"work", f.result.work},
                    {"initial_cost", f.result.initial_cost},
                    {"cost", f.result.cost},
                    {"projected_gradient", f.result.projected_gradient},
                    {"message", f.result.message}});
    // A stalled fit's profile is returned, and says so; one stopped at its limit is not (issue 18: honest
    // convergence).
    if (f.result.stop == FitStop::stalled)
      add_warning(d, args.path_of("runs"), "fit_stalled", "the " + f.kind + " " + f.task + " fit " + f.result.message);
    else if (!f.result.converged && !f.result.work_limited)
      add_diagnostic(d, args.path_of("runs"), "fit_not_converged",
                     "the " + f.kind + " " + f.task + " fit " + f.result.message +
                         "; no profile is returned (raise "
                         "max_iterations)");
  }
  report_exhausted(budget, args.path_of("runs"), d);
  if (has_errors(d) || !fit.finished) return {};
  for (auto& p : fit.profiles) p.source = source;
  attach_bands(fit.profiles, runs, templates, literature, max_iterations, budget);
  report_exhausted(budget, args.path_of("runs"), d);
  if (has_errors(d)) return {};
  ProfileSet set{fit.profiles};  // by chip, so the ids may change below
  Json profiles = Json::array();
  std::vector<CalibrationProfile> named = fit.profiles;
  prefix_profiles(named, prefix);
  for (const auto& p : named)
    if (!p.fitted_on.empty()) profiles.push_back(calibration_profile_json(p));  // a kind without runs: none
  std::vector<RunOutcome> outcomes;
  Json rows = Json::array();
  for (const auto& run : runs) {
    outcomes.push_back(predict_outcome(run, set));
    rows.push_back(outcome_json(run, outcomes.back()));
  }
  return {{"profiles", profiles}, {"fits", fits}, {"runs", rows}, {"summary", summary_json(runs, outcomes)}};
}

}  // namespace scalescope
