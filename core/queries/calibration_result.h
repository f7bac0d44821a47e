// What a calibrated planner result says about itself (issue: fidelity): the profile it used, with provenance, and
// the error band the validation suite measured out of sample for that chip kind and task; and the profile a query
// runs with (its own `calibration` override, else the embedded profile for the chip).
#pragma once
#include "planners/serving.h"
#include "planners/training.h"
#include "queries/query.h"
#include "specs/calibration_profile.h"

namespace scalescope {

// `query.calibration` (a profile object, e.g. a `calibrate` result) into `storage`, else the embedded profile for
// the chip; nullptr with a diagnostic when there is none. A query's `efficiency` below 1 scales the profile's
// fitted efficiencies as a what-if (then the scaled copy is in `storage`).
const CalibrationProfile* resolve_profile(const QueryContext& ctx, JsonReader& args, const Efficiency& what_if,
                                          CalibrationProfile& storage, Diagnostics& diagnostics);

// Where a training plan or a serving deployment sits against a profile's fitted scope.
ScopePoint scope_point(const TrainingInput& in);
ScopePoint scope_point(const ServingInput& in, double context_tokens);

// {"profile": {id, name, source, fitted_on, family_fallback}, "error_band": {..., "scope", "text"}} for `task`
// ("training" | "serving"). The band says where it holds (issue 18): inside the profile's fitted scope it is the
// profile's own (sibling runs held out); outside it (`point` past the fitted runs, or a chip without runs of its
// own) it is the family's transfer band, each chip held out whole, and the text names the reason.
Json calibration_json(const CalibrationProfile& profile, const Hardware& hw, const char* task, const ScopePoint& point);

}  // namespace scalescope
