#include "queries/profile_pick.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "io/text.h"

namespace scalescope {

namespace {

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
  return text;
}

// The list of profiles a calibrate result holds, and where; nullptr for a profile given alone.
const Json* profiles_of(const Json& given, const std::string& path, std::string& list_path) {
  if (!given.is_object()) return nullptr;
  if (given.contains("profiles")) {
    list_path = json_pointer_child(path, "profiles");
    return &given["profiles"];
  }
  const auto result = given.find("result");
  if (result != given.end() && result->is_object() && result->contains("profiles")) {
    list_path = json_pointer_child(json_pointer_child(path, "result"), "profiles");
    return &(*result)["profiles"];
  }
  return nullptr;
}

std::optional<GivenProfile> alone(const Json& given, const std::string& path, const Hardware& hw, Diagnostics& d) {
  GivenProfile out{&given, parse_calibration_profile(given, path, d), 1};
  if (has_errors(d)) return std::nullopt;
  const std::string kind = chip_kind_name(hw.kind);
  // A profile's constants are a TPU's or a GPU's (ICI or NVLink, XLA or CUDA kernels): never the other's.
  if (out.profile.kind != kind) {
    add_diagnostic(d, json_pointer_child(path, "kind"), "profile_kind_mismatch",
                   "a " + out.profile.kind + " profile cannot calibrate " + hw.name + ", a " + kind + "; give a " +
                       kind + " profile (e.g. calibration_profiles/" + kind + ".json's format)");
    return std::nullopt;
  }
  return out;
}

}  // namespace

std::optional<GivenProfile> pick_given_profile(const Json& given, const std::string& path, const Hardware& hw,
                                               Diagnostics& d) {
  std::string list_path;
  const Json* list = profiles_of(given, path, list_path);
  if (!list) return alone(given, path, hw, d);
  if (!list->is_array() || list->size() > kMaxArrayLength) {
    add_diagnostic(d, list_path, "wrong_type", "a calibrate result's 'profiles' is an array of profiles");
    return std::nullopt;
  }
  std::vector<CalibrationProfile> parsed;
  for (std::size_t i = 0; i < list->size(); ++i)
    parsed.push_back(parse_calibration_profile((*list)[i], json_pointer_child(list_path, i), d));
  if (has_errors(d)) return std::nullopt;
  const CalibrationProfile* chosen = profile_for(parsed, chip_kind_name(hw.kind), hw.id);
  if (!chosen) {
    std::vector<std::string> ids;
    for (const auto& p : parsed) ids.push_back(quote(p.id));
    add_diagnostic(d, path, "no_profile",
                   "this calibrate result has no profile for " + hw.name + " (" + hw.id + ") and no " +
                       upper(chip_kind_name(hw.kind)) + " family profile (" +
                       (ids.empty() ? "it has no profiles" : "its profiles: " + join_choices(ids)) +
                       "); choose a chip it was fitted for, or fit runs of this one");
    return std::nullopt;
  }
  const auto i = static_cast<std::size_t>(chosen - parsed.data());
  return GivenProfile{&(*list)[i], *chosen, list->size()};
}

}  // namespace scalescope
