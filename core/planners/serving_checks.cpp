// A serving replica whose split cannot run is diagnosed, not computed: the checks as bits (what `plan_mesh` reads
// to list the degrees a model splits into) and in words (the serving query's diagnostics).
#include <cmath>

#include "io/format.h"
#include "io/json_reader.h"
#include "planners/serving.h"

namespace scalescope {

namespace {
bool splits(double whole, double ways) { return std::fmod(whole, ways) == 0; }
}  // namespace

unsigned serving_plan_problems(const ServingInput& in) {
  const ModelConfig& m = *in.model;
  const double tp = in.tensor.degree;
  const double etp = in.expert_tensor > 0 ? in.expert_tensor : tp;
  unsigned out = 0;
  if (!splits(m.heads, tp)) out |= kTensorHeads;
  if (m.dense_mlp_layers() > 0 && !splits(m.d_ff, tp)) out |= kTensorDff;
  if (in.expert_tensor > 0 && (!m.is_moe() || !splits(tp, in.expert_tensor)))
    out |= kExpertTensor;
  else if (m.is_moe() && !splits(m.expert_d_ff, etp))
    out |= kTensorExpertDff;
  const double ep = serving_expert_degree(in);
  if (in.expert.degree > 1 && !m.is_moe())
    out |= kExpertDense;
  else if (m.is_moe() && ep > m.experts)
    out |= kExpertTooLarge;
  else if (m.is_moe() && !splits(m.experts, ep))
    out |= kExpertNotDivisible;
  return out;
}

void check_serving_plan(const ServingInput& in, const std::string& par, const std::string& tp_path, Diagnostics& d) {
  const unsigned problems = serving_plan_problems(in);
  if (problems == 0) return;
  const ModelConfig& m = *in.model;
  const double tp = in.tensor.degree;
  const double etp = in.expert_tensor > 0 ? in.expert_tensor : tp;
  const std::string etp_path = par + "/expert_tensor";
  if (problems & kTensorHeads)
    add_diagnostic(d, tp_path, "not_divisible",
                   "the model's " + format_count(m.heads) + " heads do not split over " + format_count(tp) +
                       "-way tensor parallelism");
  if (problems & kTensorDff)
    add_diagnostic(d, tp_path, "not_divisible",
                   "d_ff does not split over " + format_count(tp) + "-way tensor parallelism");
  if (problems & kExpertTensor)
    add_diagnostic(d, etp_path, m.is_moe() ? "not_divisible" : "not_applicable",
                   m.is_moe() ? "the experts' TP (" + format_count(in.expert_tensor) + ") must divide the TP degree " +
                                    format_count(tp)
                              : "expert tensor parallelism needs an MoE model (" + m.name + " is dense)");
  if (problems & kTensorExpertDff)
    add_diagnostic(d, in.expert_tensor > 0 ? etp_path : tp_path, "not_divisible",
                   "the experts' d_ff does not split over " + format_count(etp) + "-way expert tensor parallelism");
  const std::string ep_path = par + "/expert";
  const double ep = serving_expert_degree(in);
  if (problems & kExpertDense)
    add_diagnostic(d, ep_path, "not_applicable", "expert parallelism needs an MoE model (" + m.name + " is dense)");
  if (problems & kExpertTooLarge)
    add_diagnostic(
        d, ep_path, "too_large",
        format_count(ep) + "-way expert parallelism exceeds the model's " + format_count(m.experts) + " experts");
  if (problems & kExpertNotDivisible)
    add_diagnostic(d, ep_path, "not_divisible",
                   format_count(ep) + "-way expert parallelism does not divide the model's " + format_count(m.experts) +
                       " experts");
}

}  // namespace scalescope
