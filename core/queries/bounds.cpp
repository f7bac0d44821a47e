// The bounds query: the book's parallelism thresholds for a chip and a model (§2.9, §2.9.8).
#include <algorithm>

#include "physics/bounds.h"
#include "queries/query.h"

namespace scalescope {

Json run_bounds(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const Hardware& hw = *ctx.hw;
  const Dtype dtype = args.dtype("dtype", false).value_or(Dtype::bf16);
  auto d_ff = args.number("d_ff", !ctx.model);
  if (!d_ff && ctx.model) d_ff = ctx.model->is_moe() ? ctx.model->expert_d_ff : ctx.model->d_ff;
  const double m_x = args.number("fsdp_axes", false).value_or(1);
  const double m_y = args.number("tp_axes", false).value_or(1);
  const auto batch = args.number("batch_tokens", false);
  const double chips = ctx.mesh ? ctx.mesh->chips : args.number("chips", false).value_or(1);
  // GPUs of one model replica (TP x PP ...): a replica spanning several nodes reduces over all their NICs (§2.9.8).
  const double model_gpus = args.number("model_parallel_gpus", false).value_or(1);
  const double c = peak_for(hw, dtype, args.path_of("dtype"), d);
  if (has_errors(d) || !d_ff) return {};
  // MoE: each chip's FLOPs scale with k while the weights it reduces scale with E (§2.9.8): x E/k.
  const ModelConfig* m = ctx.model;
  const double moe = m && m->is_moe() ? (m->experts + m->shared_experts) / (m->active_experts + m->shared_experts) : 1.0;
  Json out{{"d_ff", *d_ff}, {"moe_factor", moe}, {"chips", chips}};
  if (hw.kind == ChipKind::tpu) {
    const double w = 2.0 * hw.ici.link_unidir_bytes_per_s;
    const double alpha = c / w;
    out["alpha_ici_flops_per_byte"] = alpha;
    Json dp = Json::array();
    for (int axes = 1; axes <= hw.ici.torus_dims; ++axes) dp.push_back(moe * dp_min_tokens_per_chip(c, w, axes));
    out["dp_fsdp_min_tokens_per_chip_by_axes"] = dp;
    // §2.9.1: over every torus axis the whole job needs this global batch (7.6M tokens on a full v5p pod).
    out["dp_fsdp_min_global_batch_tokens"] = dp.back().get<double>() * chips;
    out["tp_max_degree"] = tp_max_degree(c, w, *d_ff, m_y);
    out["mixed_min_tokens_per_chip"] = mixed_min_tokens_per_chip(alpha, *d_ff, m_x, m_y, false);
    out["mixed_min_tokens_per_chip_feb2025_sum"] = mixed_min_tokens_per_chip(alpha, *d_ff, m_x, m_y, true);
    out["dcn_min_tokens_per_slice"] = c / hw.dcn_unidir_bytes_per_s_per_chip;  // §2.9.7 Aug-2025
    if (batch) {
      const double x = fsdp_optimal_degree(*batch, *d_ff, m_x, m_y, chips);
      out["fsdp_optimal_degree"] = x;
      out["tp_degree_at_optimum"] = chips / x;
      out["tokens_per_chip"] = *batch / chips;
    }
  } else {
    // §2.9.8: beyond the domain each GPU reduces its 1/D share over its own NIC, so the collective moves at the
    // domain's whole egress W_node (400e9 for an H100 node), not one NIC's.
    const double domain = hw.scale_up.domain_gpus;
    const double w_up = hw.scale_up.gpu_unidir_bytes_per_s, w_out = domain * hw.scale_out.nic_unidir_bytes_per_s_per_gpu;
    out["alpha_scale_up_flops_per_byte"] = c / w_up;
    out["alpha_scale_out_flops_per_byte"] = c / w_out;
    out["dp_fsdp_min_tokens_per_gpu_in_domain"] = moe * c / w_up;   // §2.9.8 (2200 H100)
    out["dp_fsdp_min_tokens_per_gpu_across_domains"] = moe * c / w_out;  // (2475 H100)
    out["dp_fsdp_min_global_batch_tokens"] = moe * c / w_out * chips;  // §3.9 #109: ~40M tokens on 16k H100s
    const double span = std::max(1.0, std::ceil(model_gpus / domain));
    const double nodes = std::ceil(chips / std::max(domain, model_gpus));  // data-parallel node groups
    if (nodes > 1)
      out["dp_fsdp_min_tokens_per_gpu_at_this_size"] = moe * gpu_dp_min_tokens_per_gpu(c / (w_out * span), nodes);
    // e.g. 8-way PP over 8 nodes: 8 x 400 GB/s => 990e12 / 3.2e12 = 309 tokens per GPU (§2.9.8).
    if (span > 1) out["dp_fsdp_min_tokens_per_gpu_with_model_span"] = moe * c / (w_out * span);
    out["tp_max_degree_in_domain"] = tp_max_degree(c, w_up, *d_ff, 1);  // §2.9.8: Y < F W / C
    out["tp_max_degree_across_domains"] = domain + *d_ff * w_out / c;   // §2.9.8: F > alpha (Y - 8) for 2-node TP
    if (batch) out["tokens_per_chip"] = *batch / chips;
  }
  return out;
}

}  // namespace scalescope
