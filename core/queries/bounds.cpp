// The bounds query: the book's parallelism thresholds for a chip and a model (scaling-book/training and
// scaling-book/gpus), and their inverses.
#include "physics/bounds.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "io/format.h"
#include "physics/mesh.h"
#include "queries/query.h"

namespace scalescope {

namespace {

struct BoundsArgs {
  double c = 0;                 // peak FLOP/s of the dtype
  std::optional<double> d_ff;   // only the TP, mixed and X_opt bounds use it
  double m_x = 1, m_y = 1;      // mesh axes of FSDP and TP
  std::optional<double> batch;  // global batch in tokens
  double chips = 1, model_gpus = 1;
  double moe = 1;  // MoE: each chip's FLOPs scale with k, the weights it reduces with E
                   // (scaling-book/gpus, data parallelism)
};

void tpu_bounds(const Hardware& hw, const BoundsArgs& a, Json& out) {
  const double w = 2.0 * hw.ici.link_unidir_bytes_per_s;
  const double alpha = a.c / w;
  out["alpha_ici_flops_per_byte"] = alpha;
  Json dp = Json::array(), dp_chips = Json::array();
  for (int axes = 1; axes <= hw.ici.torus_dims; ++axes) {
    const double min_tokens = a.moe * dp_min_tokens_per_chip(a.c, w, axes);
    dp.push_back(min_tokens);
    if (a.batch) dp_chips.push_back(*a.batch / min_tokens);
  }
  out["dp_fsdp_min_tokens_per_chip_by_axes"] = dp;
  // scaling-book/training, data parallelism: over every torus axis the whole job needs this global batch (7.6M tokens
  // on a full v5p pod).
  out["dp_fsdp_min_global_batch_tokens"] = dp.back().get<double>() * a.chips;
  const double dcn = a.c / hw.dcn_unidir_bytes_per_s_per_chip;  // scaling-book/training, multi-pod over DCN (Aug-2025)
  out["dcn_min_tokens_per_slice"] = dcn;
  // The inverse questions: the most chips (slices) this batch keeps compute-bound under each strategy.
  Json most{{"dp_fsdp_by_axes", dp_chips}};
  if (a.batch) {
    out["tokens_per_chip"] = *a.batch / a.chips;
    most["dcn_slices"] = *a.batch / dcn;
  }
  if (a.d_ff) {
    const double mixed = mixed_min_tokens_per_chip(alpha, *a.d_ff, a.m_x, a.m_y, false);
    const double mixed_sum = mixed_min_tokens_per_chip(alpha, *a.d_ff, a.m_x, a.m_y, true);
    out["tp_max_degree"] = tp_max_degree(a.c, w, *a.d_ff, a.m_y);
    out["mixed_min_tokens_per_chip"] = mixed;
    out["mixed_min_tokens_per_chip_feb2025_sum"] = mixed_sum;
    if (a.batch) {
      const double x = fsdp_optimal_degree(*a.batch, *a.d_ff, a.m_x, a.m_y, a.chips);
      out["fsdp_optimal_degree"] = x;
      out["tp_degree_at_optimum"] = a.chips / x;
      most["fsdp_tp"] = *a.batch / mixed;
      most["fsdp_tp_feb2025_sum"] = *a.batch / mixed_sum;
    }
  }
  if (a.batch) out["max_chips_compute_bound"] = most;
}

void gpu_bounds(const Hardware& hw, const BoundsArgs& a, Json& out) {
  // scaling-book/gpus, data parallelism: beyond the domain each GPU reduces its 1/D share over its own NIC, so the
  // collective moves at the domain's whole egress W_node (400e9 for an H100 node), not one NIC's.
  const double domain = hw.scale_up.domain_gpus;
  const double w_up = hw.scale_up.gpu_unidir_bytes_per_s, w_out = domain * hw.scale_out.nic_unidir_bytes_per_s_per_gpu;
  out["alpha_scale_up_flops_per_byte"] = a.c / w_up;
  out["alpha_scale_out_flops_per_byte"] = a.c / w_out;
  const double in_domain = a.moe * a.c / w_up, across = a.moe * a.c / w_out;
  out["dp_fsdp_min_tokens_per_gpu_in_domain"] = in_domain;    // scaling-book/gpus (2200 H100)
  out["dp_fsdp_min_tokens_per_gpu_across_domains"] = across;  // (2475 H100)
  const double span = std::max(1.0, std::ceil(a.model_gpus / domain));
  // scaling-book/gpus, data parallelism: ~40M tokens on 16k H100s; a replica spanning `span` nodes reduces over span x
  // the NICs (issue 22).
  out["dp_fsdp_min_global_batch_tokens"] = across / span * a.chips;
  const double nodes = std::ceil(a.chips / std::max(domain, a.model_gpus));  // data-parallel node groups
  if (nodes > 1)
    out["dp_fsdp_min_tokens_per_gpu_at_this_size"] = a.moe * gpu_dp_min_tokens_per_gpu(a.c / (w_out * span), nodes);
  // e.g. 8-way PP over 8 nodes: 8 x 400 GB/s => 990e12 / 3.2e12 = 309 tokens per GPU (scaling-book/gpus).
  if (span > 1) out["dp_fsdp_min_tokens_per_gpu_with_model_span"] = a.moe * a.c / (w_out * span);
  if (a.d_ff) {
    out["tp_max_degree_in_domain"] = tp_max_degree(a.c, w_up, *a.d_ff, 1);  // scaling-book/gpus: Y < F W / C
    out["tp_max_degree_across_domains"] = domain + *a.d_ff * w_out / a.c;   // scaling-book/gpus: F > alpha (Y - 8),
                                                                            // 2-node TP
  }
  if (a.batch) {
    out["tokens_per_chip"] = *a.batch / a.chips;
    // The inverse questions: the most GPUs this batch keeps compute-bound (inside one domain, at most its GPUs;
    // across domains, with the nodes a model replica spans multiplying the reduction bandwidth).
    out["max_chips_compute_bound"] = {{"dp_fsdp_in_domain", std::min(domain, *a.batch / in_domain)},
                                      {"dp_fsdp_across_domains", *a.batch / (across / span)}};
  }
}

// The inverse answers are chip counts: whole (the most chips, rounded down), and a count below one chip or past the
// largest mesh the engine takes says the inputs are outside physics (issue 22: 6.6e-5 GPUs, 2.5e18 GPUs).
void whole_chips(Json& node, const std::string& path, Diagnostics& d) {
  if (node.is_number()) {
    const double chips = std::floor(node.get<double>() * (1 + 1e-12));  // 8959.999... chips are 8960
    node = chips;
    // dcn_slices counts slices, the rest chips.
    const bool slices = path.size() >= 11 && path.compare(path.size() - 11, 11, "/dcn_slices") == 0;
    const std::string unit = slices ? " slices" : " chips";
    // Zero slices is an answer, not a fault: the batch cannot keep a data-parallel axis over DCN compute-bound, so
    // the job stays in one slice (issue 39: a one-slice question was warned about it).
    if ((chips < 1 && !slices) || chips > kMaxMeshChips)
      add_warning(
          d, "/result" + path, "outside_physics",
          "the batch keeps " + format_count(chips) + unit + " compute-bound, " +
              (chips < 1 ? "less than one: the batch is too small to keep even one compute-bound at all"
                         : "more than the largest mesh the engine takes (" + format_count(kMaxMeshChips) + " chips)"));
  } else if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) whole_chips(it.value(), json_pointer_child(path, it.key()), d);
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) whole_chips(node[i], json_pointer_child(path, i), d);
  }
}

}  // namespace

Json run_bounds(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const Hardware& hw = *ctx.hw;
  const ModelConfig* m = ctx.model;
  BoundsArgs a;
  const Dtype dtype = args.dtype("dtype", false).value_or(Dtype::bf16);
  a.d_ff = args.number("d_ff", false);
  if (!a.d_ff && m) a.d_ff = m->is_moe() ? m->expert_d_ff : m->d_ff;
  a.m_x = args.number("fsdp_axes", false).value_or(1);
  a.m_y = args.number("tp_axes", false).value_or(1);
  a.batch = args.number("batch_tokens", false);
  a.chips = ctx.mesh ? ctx.mesh->chips : args.number("chips", false).value_or(1);
  // GPUs of one model replica (TP x PP ...): a replica spanning several nodes reduces over all their NICs
  // (scaling-book/gpus, data parallelism).
  a.model_gpus = args.number("model_parallel_gpus", false).value_or(1);
  a.c = peak_for(hw, dtype, args.path_of("dtype"), d);
  if (has_errors(d)) return {};
  a.moe = m && m->is_moe() ? (m->experts + m->shared_experts) / (m->active_experts + m->shared_experts) : 1.0;
  Json out{{"moe_factor", a.moe}, {"chips", a.chips}};
  if (a.d_ff) out["d_ff"] = *a.d_ff;
  if (hw.kind == ChipKind::tpu)
    tpu_bounds(hw, a, out);
  else
    gpu_bounds(hw, a, out);
  if (out.contains("max_chips_compute_bound"))
    whole_chips(out["max_chips_compute_bound"], "/max_chips_compute_bound", d);
  return out;
}

}  // namespace scalescope
