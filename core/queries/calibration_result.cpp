#include "queries/calibration_result.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "io/format.h"
#include "queries/profile_pick.h"

namespace scalescope {

namespace {

std::string percent(double frac) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * frac);
  return buf;
}

}  // namespace

namespace {

const CalibrationProfile* given_or_embedded(const QueryContext& ctx, JsonReader& args, CalibrationProfile& storage,
                                            Diagnostics& d) {
  if (const Json* given = args.object("calibration", false)) {
    auto picked = pick_given_profile(*given, args.path_of("calibration"), *ctx.hw, d);
    if (!picked) return nullptr;
    storage = std::move(picked->profile);
    return &storage;
  }
  const CalibrationProfile* p = calibration_profile_for(*ctx.hw);
  if (!p)
    add_diagnostic(d, args.path_of("fidelity"), "no_profile",
                   "no calibration profile for " + ctx.hw->name + "; pass one in 'calibration' or use fidelity 'book'");
  return p;
}

}  // namespace

const CalibrationProfile* resolve_profile(const QueryContext& ctx, JsonReader& args, const Efficiency& what_if,
                                          CalibrationProfile& storage, Diagnostics& d) {
  const CalibrationProfile* p = given_or_embedded(ctx, args, storage, d);
  const WhatIf factors{what_if.flops_frac, what_if.hbm_frac, what_if.network_frac};
  if (!p || !factors.any()) return p;
  storage = with_what_if(*p, factors);
  return &storage;
}

namespace {

// Whether a GPU group's members span more than one NVLink domain (a TPU slice has no such boundary).
bool across_domains(const Hardware& hw, const AxisGroup& g) {
  return hw.kind == ChipKind::gpu && g.degree > 1 && g.gpu_span > hw.scale_up.domain_gpus;
}

}  // namespace

ScopePoint scope_point(const TrainingInput& in) {
  ScopePoint p{in.mesh->chips, in.seq_len, in.model->is_moe(), std::max(1.0, in.plan.expert.degree),
               matmul_precision_name(in.precision)};
  p.tensor_across_domains = across_domains(*in.hw, in.plan.tensor);
  p.expert_across_domains = in.model->is_moe() && across_domains(*in.hw, in.plan.expert);
  return p;
}

ScopePoint scope_point(const ServingInput& in, double context_tokens) {
  ScopePoint p{in.mesh->chips, context_tokens, in.model->is_moe(), std::max(1.0, in.expert.degree), ""};
  p.tensor_across_domains = across_domains(*in.hw, in.tensor);
  p.expert_across_domains = in.model->is_moe() && across_domains(*in.hw, in.expert);
  return p;
}

Json calibration_json(const CalibrationProfile& p, const Hardware& hw, const char* task, const ScopePoint& point) {
  const bool family = p.is_family();
  Json profile{
      {"id", p.id}, {"name", p.name}, {"source", p.source}, {"fitted_on", p.fitted_on}, {"family_fallback", family}};
  const FittedScope* scope = p.scope(task);
  std::vector<std::string> outside = scope ? scope->outside(point) : std::vector<std::string>{};
  // A chip profile used on another chip (a user's own, passed in `calibration`) is a transfer too.
  if (!family && !p.lists(hw.id)) {
    std::string fitted;
    for (const auto& id : p.hardware) fitted += (fitted.empty() ? "" : ", ") + id;
    outside.insert(outside.begin(), hw.name + " (fitted: " + fitted + ")");
  }
  // Outside the fitted runs, a chip profile's sibling band does not hold: the family's transfer band does. So, for
  // want of any, where the profile has no runs of this task (TPU v5p's serving: the suite serves on v5e only).
  const CalibrationProfile* transfer = family ? &p : family_profile_for(p.kind);
  const bool no_band = !family && !p.band(task);
  const bool transferred = (no_band || !outside.empty()) && !family && transfer && transfer->band(task);
  const CalibrationProfile& source = transferred ? *transfer : p;
  Json band = nullptr;
  if (const ErrorBand* b = source.band(task)) {
    const std::string kind = p.kind == "tpu" ? "TPU" : "GPU";
    // Under 10 runs the 90th percentile is the largest error (nearest rank), and the text says so.
    const std::string spread =
        b->runs < 10 ? "largest " + percent(b->max_frac) : "90th percentile " + percent(b->p90_frac);
    std::string text = "median " + percent(b->median_frac) + ", " + spread + " over " + format_count(b->runs) + " ";
    if (b->method == BandMethod::left_out_in_turn) {
      char widened[96];
      std::snprintf(widened, sizeof widened,
                    ", widened %.2fx for so few (the 90%% upper confidence limit of their spread)",
                    small_sample_widening(*b));
      text += kind + " " + task + " runs of the " + source.id + " profile, each left out of its fit in turn" + widened;
    } else
      text += "held-out " + kind + " " + task + " runs";
    if (family) text += "; " + hw.name + " has no runs of its own: the " + kind + " family's profile, a wider band";
    if (transferred) text += ", each chip held out whole (the " + kind + " family's transfer band)";
    if (no_band) text += "; the " + p.id + " profile has no " + task + " runs of its own";
    if (!outside.empty()) {
      text += "; outside the runs behind the " + p.id + " profile: ";
      for (std::size_t i = 0; i < outside.size(); ++i) text += (i ? ", " : "") + outside[i];
    }
    band = {{"runs", b->runs},
            {"median_frac", b->median_frac},
            {"p90_frac", b->p90_frac},
            {"max_frac", b->max_frac},
            {"signed_median_frac", b->signed_median_frac},
            {"scope", transferred || family || !outside.empty() ? "transfer"
                      : scope                                   ? "fitted"
                                                                : "unrecorded"},
            {"outside", outside},
            {"text", text}};
  }
  Json out{{"profile", profile}, {"error_band", band}};
  if (p.what_if.any())
    out["what_if"] = {{"flops_frac", p.what_if.flops_frac},
                      {"hbm_frac", p.what_if.hbm_frac},
                      {"network_frac", p.what_if.network_frac},
                      {"text", "what if: the profile's fitted FLOP rates x " + format_count(p.what_if.flops_frac) +
                                   ", HBM bandwidth x " + format_count(p.what_if.hbm_frac) + ", link bandwidth x " +
                                   format_count(p.what_if.network_frac) +
                                   " (the query's efficiency); the band is the "
                                   "fitted model's"}};
  return out;
}

}  // namespace scalescope
