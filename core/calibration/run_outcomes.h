// What the calibration queries (validation, calibrate) share: the profiles a run is predicted with, one run's
// outcome at both fidelities, and error statistics.
#pragma once
#include <string>
#include <vector>

#include "calibration/published_runs.h"
#include "specs/calibration_profile.h"

namespace scalescope {

// The embedded profiles, or those a query passes in `profiles` (e.g. a `calibrate` result), looked up by chip.
struct ProfileSet {
  std::vector<CalibrationProfile> given;
  const CalibrationProfile* for_run(const PublishedRun& run) const;
};
ProfileSet read_profile_set(JsonReader& args, Diagnostics& diagnostics);

struct RunOutcome {
  double book = 0, book_error = 0;
  double calibrated = 0, calibrated_error = 0;
  const CalibrationProfile* profile = nullptr;
};
RunOutcome predict_outcome(const PublishedRun& run, const ProfileSet& profiles);
Json outcome_json(const PublishedRun& run, const RunOutcome& outcome);

// |error| statistics of a set of signed errors (predicted / measured - 1, README convention).
struct ErrorStats {
  double runs = 0, median_abs = 0, p90_abs = 0, max_abs = 0, signed_median = 0, optimistic_frac = 0;
};
ErrorStats error_stats(std::vector<double> errors);
Json error_stats_json(const ErrorStats& s);

// Whether a run belongs to a part of the suite: "fit", "held", "held_in_scope" (held and not excluded), "" (all).
bool in_part(const PublishedRun& run, const std::string& part);

// Statistics per chip kind x task x part, book and calibrated, plus all runs together.
Json summary_json(const std::vector<PublishedRun>& runs, const std::vector<RunOutcome>& outcomes);

}  // namespace scalescope
