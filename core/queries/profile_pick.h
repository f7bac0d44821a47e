// A `calibration` given to a query: a profile, or a calibrate result whose profiles the engine chooses among for
// the chip: the one that lists it, else its kind's family profile (specs/calibration_profile.h profile_for), as the
// CLI writes a result ({"profiles": [...]}) or answers it ({"ok": ..., "result": {"profiles": [...]}}). The page
// asks the `profile` query once when a reader loads a file, and keeps the profile it answers.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include "io/json_reader.h"
#include "specs/calibration_profile.h"
#include "specs/hardware.h"

namespace scalescope {

struct GivenProfile {
  const Json* node = nullptr;  // the chosen profile, as given
  CalibrationProfile profile;
  std::size_t among = 1;  // how many profiles it was chosen among (1: a profile given alone)
};

// The profile `given` (at `path`) holds for `hw`, or nullopt with the diagnostics that say why: a profile's own
// errors, a profile of the other chip kind, a calibrate result with none for the chip.
std::optional<GivenProfile> pick_given_profile(const Json& given, const std::string& path, const Hardware& hw,
                                               Diagnostics& d);

}  // namespace scalescope
