#include "planners/plan_search.h"

#include "planners/calibrated_training.h"

#include <algorithm>
#include <array>

namespace scalescope {

namespace {

enum Strategy { kFsdp, kTensor, kPipeline, kData, kContext, kExpert, kStrategies };

AxisGroup& group_of(TrainingPlan& p, int s) {
  switch (s) {
    case kFsdp: return p.fsdp;
    case kTensor: return p.tensor;
    case kPipeline: return p.pipeline;
    case kData: return p.data;
    case kContext: return p.context;
    default: return p.expert;
  }
}

// Fitting plans first, then the faster step; equal steps prefer less memory per chip (more headroom).
bool better(const TrainingStep& a, const TrainingStep& b) {
  if (a.fits != b.fits) return a.fits;
  if (a.step_s != b.step_s) return a.step_s < b.step_s;
  return a.total_bytes < b.total_bytes;
}

struct Searcher {
  const TrainingInput& base;
  int keep;
  const CalibrationProfile* profile;
  PlanSearch out;
  Diagnostics scratch;

  void consider(TrainingInput& in, const std::vector<int>& shape, const std::vector<std::string>& names) {
    ++out.evaluated;
    scratch.clear();
    check_training_plan(in, "", scratch);
    if (has_errors(scratch)) return;
    ++out.valid;
    const TrainingStep step = profile ? evaluate_calibrated_training_step(in, *profile).step : evaluate_training_step(in);
    if (step.fits) ++out.fitting;
    if (static_cast<int>(out.best.size()) == keep && !better(step, out.best.back().step)) return;
    PlanCandidate c{in.plan, in.remat, shape, names, step};
    auto at = std::upper_bound(out.best.begin(), out.best.end(), c,
                               [](const PlanCandidate& x, const PlanCandidate& y) { return better(x.step, y.step); });
    out.best.insert(at, std::move(c));
    if (static_cast<int>(out.best.size()) > keep) out.best.pop_back();
  }

  // Microbatches, ZeRO stage and remat for one assignment of axes to strategies.
  void variants(TrainingInput& in, const std::vector<int>& shape, const std::vector<std::string>& names) {
    const double pp = in.plan.pipeline.degree;
    const std::array<double, 4> mb_pp{1, 2, 4, 8};
    const std::array<double, 3> mb_no_pp{1, 4, 16};
    for (Remat remat : {Remat::none, Remat::block}) {
      in.remat = remat;
      for (int zero : {3, 1}) {
        if (zero == 3 && (in.plan.fsdp.degree <= 1 || pp > 1)) continue;  // ZeRO-1 under PP (spec §2.9.5)
        in.plan.zero_stage = zero;
        if (pp > 1)
          for (double k : mb_pp) {
            in.plan.microbatches = k * pp;
            consider(in, shape, names);
          }
        else
          for (double m : mb_no_pp) {
            in.plan.microbatches = m;
            consider(in, shape, names);
          }
      }
    }
  }

  // TPU: every torus axis (size > 1) to one strategy; the DCN axis, if any, to data.
  void assign(std::size_t axis, TrainingInput& in) {
    const Mesh& mesh = *in.mesh;
    if (axis == mesh.axes.size()) {
      variants(in, {}, {});
      return;
    }
    if (mesh.axes[axis].size <= 1 || mesh.axes[axis].dcn) {
      if (mesh.axes[axis].dcn) add_axis(in.plan.data, mesh, static_cast<int>(axis));
      assign(axis + 1, in);
      return;
    }
    const TrainingPlan saved = in.plan;
    const int strategies = in.model->is_moe() ? kStrategies : kExpert;
    for (int s = 0; s < strategies; ++s) {
      in.plan = saved;
      add_axis(group_of(in.plan, s), mesh, static_cast<int>(axis));
      assign(axis + 1, in);
    }
    in.plan = saved;
  }
};

std::vector<int> divisors(int n) {
  std::vector<int> d;
  for (int i = 1; i <= n; ++i)
    if (n % i == 0) d.push_back(i);
  return d;
}

}  // namespace

PlanSearch search_training_plans(const TrainingInput& base, int keep, const CalibrationProfile* profile) {
  Searcher s{base, keep, profile, {}, {}};
  TrainingInput in = base;
  in.plan = TrainingPlan{};
  if (base.hw->kind == ChipKind::tpu) {
    s.assign(0, in);
    return std::move(s.out);
  }
  // GPU: chips = outer x pipeline x tensor, tensor inside the NVLink domain; the outer axis is FSDP or DP.
  const int chips = static_cast<int>(base.mesh->chips);
  for (int tp : divisors(std::min(chips, base.hw->scale_up.domain_gpus))) {
    for (int pp : divisors(chips / tp)) {
      if (pp > 64) break;
      const int outer = chips / (tp * pp);
      const std::vector<int> shape{outer, pp, tp};
      const std::vector<std::string> names{"D", "P", "T"};
      Diagnostics d;
      const Mesh mesh = parse_mesh(Json{{"shape", shape}, {"axis_names", names}}, "", *base.hw, d);
      if (has_errors(d)) continue;
      in.mesh = &mesh;
      for (int outer_strategy : {kFsdp, kData}) {
        in.plan = TrainingPlan{};
        if (outer > 1) add_axis(group_of(in.plan, outer_strategy), mesh, 0);
        if (pp > 1) add_axis(in.plan.pipeline, mesh, 1);
        if (tp > 1) add_axis(in.plan.tensor, mesh, 2);
        s.variants(in, shape, names);
        if (outer <= 1) break;
      }
    }
  }
  return std::move(s.out);
}

}  // namespace scalescope
