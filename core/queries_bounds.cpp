// The book's thresholds for the current chip and model, each with its reason; and the default summary.
#include "bounds.h"
#include "query.h"

namespace scalescope {

Json run_bounds(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const Hardware& hw = *ctx.hw;
  const Dtype dtype = args.dtype("dtype", false).value_or(Dtype::bf16);
  auto d_ff = args.positive("d_ff", !ctx.model, 1e9);
  if (!d_ff && ctx.model) d_ff = ctx.model->is_moe() ? ctx.model->expert_d_ff : ctx.model->d_ff;
  const double m_x = static_cast<double>(args.integer("fsdp_axes", false, 1, 6).value_or(1));
  const double m_y = static_cast<double>(args.integer("tp_axes", false, 1, 6).value_or(1));
  const auto batch = args.positive("batch_tokens", false, 1e15);
  const double chips = ctx.mesh ? ctx.mesh->chips : static_cast<double>(args.integer("chips", false, 1, 100'000'000).value_or(1));
  // GPUs of one model replica (TP x PP ...): a replica spanning several nodes reduces over all their NICs (§2.9.8).
  const double model_gpus = static_cast<double>(args.integer("model_parallel_gpus", false, 1, 100'000'000).value_or(1));
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

namespace {

// Runs one planner with `args` as its query; its problems stay inside the summary (a default plan that does not
// suit the model is reported, not fatal).
// Only the headline numbers (`pick`, JSON pointers into the planner's result) go into the summary.
Json sub_query(Json (*run)(const QueryContext&, JsonReader&, Diagnostics&), const QueryContext& ctx, const Json& args,
               std::initializer_list<const char*> pick) {
  Diagnostics local;
  JsonReader r(args, "/query", local);
  const Json result = run(ctx, r, local);
  r.finish();
  Json out{{"query", args}};
  if (!has_errors(local))
    for (const char* pointer : pick) {
      const Json::json_pointer p(pointer);
      if (result.contains(p)) out[Json::json_pointer(pointer)] = result[p];
    }
  Json problems = Json::array();
  for (const auto& p : local) problems.push_back(p.message);
  if (!problems.empty()) out["problems"] = problems;
  return out;
}

// A plan to show by default: TP over the innermost mesh axis, FSDP over the rest (the book's FSDP x TP recipe);
// serving uses every axis for TP when the heads allow it.
Json default_training(const QueryContext& ctx, const Json& given) {
  if (!given.is_null()) return given;
  Json fsdp = Json::array(), tensor = Json::array();
  const auto& axes = ctx.mesh->axes;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const bool inner = i + 1 == axes.size() || (i + 2 == axes.size() && axes.back().dcn);
    (inner && !axes[i].dcn ? tensor : fsdp).push_back(axes[i].name);
  }
  Json data = Json::array();
  if (!fsdp.empty() && axes.back().dcn) {
    data.push_back(fsdp.back());
    fsdp.erase(fsdp.end() - 1);
  }
  return {{"kind", "training_step"}, {"batch_tokens", 1048576}, {"seq_len", 4096}, {"train_tokens", 15e12},
          {"parallelism", {{"fsdp", fsdp}, {"tensor", tensor}, {"data", data}}}};
}

Json default_serving(const QueryContext& ctx, const Json& given) {
  if (!given.is_null()) return given;
  Json tensor = Json::array();
  for (const auto& a : ctx.mesh->axes)
    if (!a.dcn) tensor.push_back(a.name);
  return {{"kind", "serving"}, {"batch", 32}, {"prompt_len", 8192}, {"generated_len", 512},
          {"dtypes", {{"weights", "int8"}, {"kv", "int8"}, {"activations", "bf16"}}},
          {"parallelism", {{"tensor", tensor}}}};
}

}  // namespace

Json run_summary(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  // Each part is its own query with default arguments; the summary only gathers them.
  const Json* training = args.object("training", false);
  const Json* serving = args.object("serving", false);
  Json empty = Json::object();
  Json out;
  {
    JsonReader none(empty, "/query", d);
    out["chip"] = run_chip(ctx, none, d);
  }
  if (ctx.mesh || ctx.hw->kind == ChipKind::gpu) {
    Json topology_args = ctx.mesh ? Json::object() : Json{{"gpus", ctx.hw->scale_up.domain_gpus}};
    JsonReader r(topology_args, "/query", d);
    out["topology"] = run_topology(ctx, r, d);
  }
  if (ctx.model) {
    JsonReader none(empty, "/query", d);
    out["model"] = run_transformer(ctx, none, d);
    JsonReader none2(empty, "/query", d);
    out["bounds"] = run_bounds(ctx, none2, d);
  }
  if (ctx.model && ctx.mesh) {
    Json t = default_training(ctx, training ? *training : Json()), s = default_serving(ctx, serving ? *serving : Json());
    t.erase("kind");
    s.erase("kind");
    out["training_step"] =
        sub_query(run_training_step, ctx, t,
                  {"/degrees", "/time/step_s", "/time/bound", "/time/critical", "/time/compute_s", "/time/comms_s",
                   "/memory/total_bytes", "/memory/fits", "/mfu_frac", "/tokens_per_s_per_chip", "/cost/usd_per_hour",
                   "/cost/train_time_s", "/cost/train_usd", "/binding"});
    out["serving"] = sub_query(run_serving, ctx, s,
                               {"/time_to_first_token_s", "/decode/step_s", "/decode/bound", "/tokens_per_s_per_chip",
                                "/usd_per_million_output_tokens", "/memory/max_batch", "/memory/fits",
                                "/compute_bound_batch"});
  }
  return out;
}

}  // namespace scalescope

namespace scalescope {

namespace {
// How many mesh axes a degree spans when laid out greedily from `first_axis` on (the §5.1 figure's decoding of
// FSDP X / TP Y on a 16x16x16 slice: 512 spans three 16-long axes, 128 two). Returns the axes and the next free
// position (axis, used part).
struct Placement {
  int axes = 0;
  int next_axis = 0;
  double next_used = 1;
};
Placement place(double degree, const Mesh& mesh, int axis, double used) {
  Placement p{0, axis, used};
  double left = degree;
  while (left > 1 && p.next_axis < static_cast<int>(mesh.axes.size())) {
    const double room = mesh.axes[p.next_axis].size / p.next_used;
    const double take = std::min(room, left);
    ++p.axes;
    left /= take;
    p.next_used *= take;
    if (p.next_used >= mesh.axes[p.next_axis].size) {
      ++p.next_axis;
      p.next_used = 1;
    }
  }
  return p;
}
}  // namespace

// The book's training-roofline figure (§5.1, §2.9.4): per layer, a 2-matrix MLP In[B, D] W_in[D, F] W_out[F, D]
// under FSDP X and TP Y (X Y = N chips): compute 4BDF/(N C) forward, comms max(T_FSDP, T_TP) (or their sum) with
// T_FSDP = 4DF/(Y W M_X) and T_TP = 4BD/(X W M_Y).
Json run_mlp_roofline(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const Hardware& hw = *ctx.hw;
  const double d_model = args.positive("d_model", true, 1e9).value_or(1);
  const double d_ff = args.positive("d_ff", true, 1e9).value_or(1);
  const double x = static_cast<double>(args.integer("fsdp", true, 1, 100'000'000).value_or(1));
  const double y = static_cast<double>(args.integer("tp", true, 1, 100'000'000).value_or(1));
  auto m_x_arg = args.integer("fsdp_axes", !ctx.mesh, 1, 6);
  auto m_y_arg = args.integer("tp_axes", !ctx.mesh, 1, 6);
  const bool sum_model = args.choice("comms_model", false, {"max", "sum"}).value_or("max") == "sum";
  const bool backward = args.boolean("include_backward", false).value_or(false);
  std::vector<double> batches;
  if (const Json* list = args.array("batches", true))
    for (std::size_t i = 0; i < list->size() && i < 4096; ++i)
      if (auto v = read_integer_value((*list)[i], json_pointer_child(args.path_of("batches"), i), 1, 1'000'000'000'000, d))
        batches.push_back(static_cast<double>(*v));
  if (ctx.mesh && x * y != ctx.mesh->chips)
    add_diagnostic(d, args.path_of("fsdp"), "mesh_mismatch", "fsdp x tp must equal the mesh's chips");
  if (has_errors(d) || hw.kind != ChipKind::tpu) {
    if (hw.kind != ChipKind::tpu) add_diagnostic(d, "/hardware", "not_applicable", "the MLP roofline figure is for TPU slices");
    return {};
  }
  double m_x = 1, m_y = 1;
  if (ctx.mesh) {
    const Placement px = place(x, *ctx.mesh, 0, 1);
    const Placement py = place(y, *ctx.mesh, px.next_axis, px.next_used);
    m_x = std::max(1, px.axes);
    m_y = std::max(1, py.axes);
  }
  if (m_x_arg) m_x = static_cast<double>(*m_x_arg);
  if (m_y_arg) m_y = static_cast<double>(*m_y_arg);
  const double n = x * y, c = hw.peak(Dtype::bf16), w = 2.0 * hw.ici.link_unidir_bytes_per_s;
  const double passes = backward ? 3.0 : 1.0;  // backward doubles both compute and comms (§2.9 table)
  Json points = Json::array();
  for (double b : batches) {
    const double compute = passes * 4.0 * b * d_model * d_ff / (n * c);
    const double fsdp = x > 1 ? passes * 4.0 * d_model * d_ff / (y * w * m_x) : 0.0;
    const double tp = y > 1 ? passes * 4.0 * b * d_model / (x * w * m_y) : 0.0;
    const double comms = sum_model ? fsdp + tp : std::max(fsdp, tp);
    points.push_back({{"batch", b}, {"compute_s", compute}, {"fsdp_s", fsdp}, {"tp_s", tp}, {"comms_s", comms},
                      {"bound", compute >= comms ? "compute" : "communication"}});
  }
  // Compute and T_TP both grow with B: TP alone decides whether any batch is compute-bound.
  const bool tp_always_bound = y > 1 && d_ff * x * m_y * w < n * c;  // 4BDF/(NC) < 4BD/(X W M_Y)
  double crossover = 0;
  if (!tp_always_bound && x > 1) {
    const double fsdp_crossover = x * c / (w * m_x);  // §2.9.2: B > X C / (W M_X)
    crossover = sum_model ? n * c * (4.0 * d_model * d_ff / (y * w * m_x)) / (4.0 * d_model * d_ff - n * c * 4.0 * d_model / (x * w * m_y))
                          : fsdp_crossover;
  }
  return {{"fsdp", x}, {"tp", y}, {"fsdp_axes", m_x}, {"tp_axes", m_y}, {"chips", n},
          {"comms_bound_at_every_batch", tp_always_bound},
          {"comms_bound_below_batch", crossover},
          {"fsdp_optimal_degree", std::sqrt(std::max(1.0, batches.empty() ? 1.0 : batches.back()) / d_ff * (m_x / m_y) * n)},
          {"points", points}};
}

}  // namespace scalescope
