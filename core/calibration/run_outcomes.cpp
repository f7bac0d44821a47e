#include "calibration/run_outcomes.h"

#include <algorithm>
#include <cmath>

namespace scalescope {

namespace {

// The q-quantile of sorted values by the nearest rank (q = 0.5: the median of an odd count).
double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  if (q == 0.5 && sorted.size() % 2 == 0) return 0.5 * (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]);
  const double rank = std::ceil(q * static_cast<double>(sorted.size()));
  return sorted[static_cast<std::size_t>(std::clamp(rank, 1.0, static_cast<double>(sorted.size()))) - 1];
}

}  // namespace

const CalibrationProfile* ProfileSet::for_run(const PublishedRun& run) const {
  const Hardware& hw = run.specs->hw;
  if (given.empty()) return calibration_profile_for(hw);
  return profile_for(given, chip_kind_name(hw.kind), hw.id);
}

ProfileSet read_profile_set(JsonReader& args, Diagnostics& d) {
  ProfileSet set;
  if (const Json* list = args.array("profiles", false))
    for (std::size_t i = 0; i < list->size(); ++i)
      set.given.push_back(parse_calibration_profile((*list)[i], json_pointer_child(args.path_of("profiles"), i), d));
  return set;
}

RunOutcome predict_outcome(const PublishedRun& run, const ProfileSet& profiles) {
  RunOutcome o;
  o.book = predict_run(run, nullptr);
  o.book_error = run_error(run, o.book);
  o.profile = profiles.for_run(run);
  if (o.profile) {
    o.calibrated = predict_run(run, o.profile);
    o.calibrated_error = run_error(run, o.calibrated);
  }
  return o;
}

Json outcome_json(const PublishedRun& run, const RunOutcome& o) {
  return {{"id", run.id},
          {"family", run.family},
          {"kind", run.kind},
          {"task", run.task},
          {"architecture", run_architecture(run)},
          {"split", run.split},
          {"excluded", run.excluded},
          {"metric", run.metric == RunMetric::step_s ? "step_s" : "throughput_tok_s"},
          {"measured", run.measured},
          {"book", o.book},
          {"book_error_frac", o.book_error},
          {"calibrated", o.calibrated},
          {"calibrated_error_frac", o.calibrated_error},
          {"profile", o.profile ? o.profile->id : ""}};
}

ErrorStats error_stats(std::vector<double> e) {
  ErrorStats s;
  s.runs = static_cast<double>(e.size());
  if (e.empty()) return s;
  std::vector<double> abs_e;
  double optimistic = 0;
  for (double v : e) {
    abs_e.push_back(std::fabs(v));
    optimistic += v < 0 ? 1 : 0;
  }
  std::sort(abs_e.begin(), abs_e.end());
  std::sort(e.begin(), e.end());
  s.median_abs = quantile(abs_e, 0.5);
  s.p90_abs = quantile(abs_e, 0.9);
  s.max_abs = abs_e.back();
  s.signed_median = quantile(e, 0.5);
  s.optimistic_frac = optimistic / s.runs;
  return s;
}

Json error_stats_json(const ErrorStats& s) {
  return {{"runs", s.runs},
          {"median_abs_frac", s.median_abs},
          {"p90_abs_frac", s.p90_abs},
          {"max_abs_frac", s.max_abs},
          {"signed_median_frac", s.signed_median},
          {"optimistic_frac", s.optimistic_frac}};
}

bool in_part(const PublishedRun& run, const std::string& part) {
  if (part == "held_in_scope") return run.split == "held" && run.excluded.empty();
  return part.empty() || run.split == part;
}

Json summary_json(const std::vector<PublishedRun>& runs, const std::vector<RunOutcome>& outcomes) {
  Json groups = Json::array();
  auto add_group = [&](const std::string& kind, const std::string& task, const std::string& part,
                       const std::string& architecture = "") {
    std::vector<double> book, calibrated;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const PublishedRun& r = runs[i];
      if ((!kind.empty() && r.kind != kind) || (!task.empty() && r.task != task) || !in_part(r, part)) continue;
      if (!architecture.empty() && architecture != run_architecture(r)) continue;
      book.push_back(outcomes[i].book_error);
      if (outcomes[i].profile) calibrated.push_back(outcomes[i].calibrated_error);
    }
    if (book.empty()) return;
    groups.push_back({{"kind", kind.empty() ? "all" : kind},
                      {"task", task.empty() ? "all" : task},
                      {"architecture", architecture.empty() ? "all" : architecture},
                      {"split", part.empty() ? "all" : part},
                      {"book", error_stats_json(error_stats(book))},
                      {"calibrated", error_stats_json(error_stats(calibrated))}});
  };
  for (const char* part : {"fit", "held", "held_in_scope"}) {
    for (const char* kind : {"tpu", "gpu"})
      for (const char* task : {"training", "serving"}) add_group(kind, task, part);
    add_group("", "", part);
  }
  add_group("", "", "");
  // Dense and MoE models apart: the MoE physics is newer and its bars are the issue's own (15% training median).
  for (const char* part : {"fit", "held_in_scope"})
    for (const char* task : {"training", "serving"})
      for (const char* architecture : {"dense", "moe"}) add_group("", task, part, architecture);
  return groups;
}

}  // namespace scalescope
