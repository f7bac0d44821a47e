// What a calibrated planner result says about itself (issue: fidelity): the profile it used, with provenance, and
// the error band the validation suite measured out of sample for that chip kind and task; and the profile a query
// runs with (its own `calibration` override, else the embedded profile for the chip).
#pragma once
#include "queries/query.h"
#include "specs/calibration_profile.h"

namespace scalescope {

// `query.calibration` (a profile object, e.g. a `calibrate` result) into `storage`, else the embedded profile for
// the chip; nullptr with a diagnostic when there is none.
const CalibrationProfile* resolve_profile(const QueryContext& ctx, JsonReader& args, CalibrationProfile& storage,
                                          Diagnostics& diagnostics);

// {"profile": {id, name, source, fitted_on, family_fallback}, "error_band": {..., "text"}} for `task`
// ("training" | "serving").
Json calibration_json(const CalibrationProfile& profile, const Hardware& hw, const char* task);

}  // namespace scalescope
