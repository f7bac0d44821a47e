#include "queries/calibration_result.h"

#include <cmath>
#include <cstdio>

#include "io/format.h"

namespace scalescope {

namespace {

std::string percent(double frac) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * frac);
  return buf;
}

}  // namespace

const CalibrationProfile* resolve_profile(const QueryContext& ctx, JsonReader& args, CalibrationProfile& storage,
                                          Diagnostics& d) {
  if (const Json* given = args.object("calibration", false)) {
    storage = parse_calibration_profile(*given, args.path_of("calibration"), d);
    return has_errors(d) ? nullptr : &storage;
  }
  const CalibrationProfile* p = calibration_profile_for(*ctx.hw);
  if (!p)
    add_diagnostic(d, args.path_of("fidelity"), "no_profile",
                   "no calibration profile for " + ctx.hw->name + "; pass one in 'calibration' or use fidelity 'book'");
  return p;
}

Json calibration_json(const CalibrationProfile& p, const Hardware& hw, const char* task) {
  const bool family = p.is_family();
  Json profile{{"id", p.id},
               {"name", p.name},
               {"source", p.source},
               {"fitted_on", p.fitted_on},
               {"family_fallback", family}};
  Json band = nullptr;
  if (const ErrorBand* b = p.band(task)) {
    std::string text = "median " + percent(b->median_frac) + ", 90th percentile " + percent(b->p90_frac) + " over " +
                       format_count(b->runs) + " held-out " + (p.kind == "tpu" ? "TPU " : "GPU ") + task + " runs";
    if (family) text += "; " + hw.name + " has no runs of its own: the " + p.kind + " family's profile, a wider band";
    band = {{"runs", b->runs}, {"median_frac", b->median_frac}, {"p90_frac", b->p90_frac}, {"max_frac", b->max_frac},
            {"signed_median_frac", b->signed_median_frac}, {"text", text}};
  }
  return {{"profile", profile}, {"error_band", band}};
}

}  // namespace scalescope
