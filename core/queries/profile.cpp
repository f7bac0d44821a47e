// The profile query: the calibration profile the calibrated fidelity uses for a chip, the shipped one or the one
// the engine chooses from a profile or a calibrate result given (queries/profile_pick.h). The explorer asks it
// once when a reader loads a file, and keeps the profile it answers.
#include <algorithm>

#include "queries/profile_pick.h"
#include "queries/query.h"

namespace scalescope {

namespace {

Json answer(const Json& profile, const CalibrationProfile& p, const Hardware& hw, std::size_t among, bool shipped) {
  return {
      {"profile", profile}, {"id", p.id}, {"family_fallback", !p.lists(hw.id)}, {"among", among}, {"shipped", shipped}};
}

}  // namespace

Json run_profile(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const Hardware& hw = *ctx.hw;
  if (const Json* given = args.object("calibration", false)) {
    const auto picked = pick_given_profile(*given, args.path_of("calibration"), hw, d);
    return picked ? answer(*picked->node, picked->profile, hw, picked->among, false) : Json{};
  }
  const CalibrationProfile* p = calibration_profile_for(hw);
  const auto texts = calibration_profile_texts();
  const auto text = std::find_if(texts.begin(), texts.end(), [&](const ProfileText& t) { return p && p->id == t.id; });
  if (!p || text == texts.end()) {
    add_diagnostic(d, "/hardware", "no_profile", "this build ships no calibration profile for " + hw.name);
    return {};
  }
  return answer(Json::parse(text->json), *p, hw, 1, true);
}

}  // namespace scalescope
