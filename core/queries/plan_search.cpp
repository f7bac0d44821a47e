// The plan_search query: the space of training plans for the mesh (planners/plan_space.h), searched with the
// book's step (planners/plan_search.h), the best k, the Pareto front and the counts; chunks with a cursor.
#include "planners/plan_search.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "io/format.h"
#include "io/limits.h"
#include "queries/calibration_result.h"
#include "queries/plan_reader.h"
#include "queries/plan_search_args.h"
#include "queries/query.h"
#include "queries/training_args.h"

namespace scalescope {

namespace {

constexpr std::size_t kMaxFrontPlans = 200;

// A GPU plan on its own mesh, as plan_search always gave it: one mesh axis per piece, outermost first (the last
// innermost, as GPU meshes are read), named by strategy, and each strategy naming its axes. The same groups as the
// pieces on the searched mesh, so training_step on this mesh gives the same step to the last bit.
void gpu_plan_mesh(const Mesh& mesh, const TrainingPlan& p, Json& mesh_out, Json& parallelism) {
  struct Axis {
    double position_stride;
    int strategy, size;
  };
  std::vector<Axis> axes;
  for (int k = 0; k < kLayoutStrategies; ++k) {
    const AxisGroup& g = plan_group(p, k);
    for (int i = 0; i < g.count; ++i) {
      double inner = 1;
      for (std::size_t j = static_cast<std::size_t>(g.pieces[i].axis) + 1; j < mesh.axes.size(); ++j)
        inner *= mesh.axes[j].size;
      if (g.pieces[i].size > 1) axes.push_back({inner * g.pieces[i].stride, k, g.pieces[i].size});
    }
  }
  std::sort(axes.begin(), axes.end(),
            [](const Axis& a, const Axis& b) { return a.position_stride > b.position_stride; });
  Json shape = Json::array(), names = Json::array();
  std::array<int, kLayoutStrategies> seen{};
  for (const Axis& a : axes) {
    const std::string name =
        std::string(kStrategyKeys[a.strategy]) + (seen[a.strategy]++ ? std::to_string(seen[a.strategy]) : "");
    shape.push_back(a.size);
    names.push_back(name);
    if (!parallelism.contains(kStrategyKeys[a.strategy])) parallelism[kStrategyKeys[a.strategy]] = Json::array();
    parallelism[kStrategyKeys[a.strategy]].push_back(name);
  }
  if (axes.empty()) {  // one GPU
    shape.push_back(1);
    names.push_back("data");
  }
  mesh_out = {{"shape", shape}, {"axis_names", names}};
}

Json plan_json(const QueryContext& ctx, const RankedPlan& r) {
  const TrainingStep& s = r.step;
  const TrainingPlan& p = r.input.plan;
  Json parallelism{{"zero_stage", p.zero_stage}, {"microbatches", p.microbatches}};
  Json gpu_mesh;
  if (ctx.hw->kind == ChipKind::gpu)
    gpu_plan_mesh(*ctx.mesh, p, gpu_mesh, parallelism);
  else
    for (int k = 0; k < kLayoutStrategies; ++k)
      if (plan_group(p, k).count) parallelism[kStrategyKeys[k]] = group_json(plan_group(p, k), *ctx.mesh);
  if (p.pipeline.degree > 1) {
    parallelism["pipeline_schedule"] = pipeline_schedule_name(p.schedule);
    if (p.schedule == PipelineSchedule::interleaved) parallelism["virtual_stages"] = p.virtual_stages;
  }
  if (p.tensor.degree > 1) parallelism["sequence_parallel"] = p.sequence_parallel;
  if (p.context.degree > 1) parallelism["context_variant"] = context_variant_name(p.context_variant);
  if (p.expert_tensor > 0) parallelism["expert_tensor"] = p.expert_tensor;
  const double shards = p.data.degree * p.fsdp.degree * p.expert.degree;
  Json plan{{"index", r.index},
            {"parallelism", parallelism},
            {"remat", std::string(remat_name(r.input.remat))},
            {"precision", {{"matmul", matmul_precision_name(r.input.precision)}}},
            {"offload", {{"optimizer", p.offload_optimizer}, {"activations", p.offload_activations}}},
            {"degrees",
             {{"data", s.data},
              {"fsdp", s.fsdp},
              {"tensor", s.tensor},
              {"pipeline", s.pipeline},
              {"expert", s.expert},
              {"context", s.context},
              {"slices", s.slices}}},
            {"microbatch_sequences", r.input.batch_tokens / r.input.seq_len / shards / p.microbatches},
            {"step_s", s.step_s},
            {"bound", s.bound},
            {"critical", s.critical},
            {"mfu_frac", s.mfu_frac},
            {"memory_bytes", s.total_bytes},
            {"host_bytes", s.host_bytes},
            {"fits", r.fits},
            {"binding", s.binding >= 0 ? s.thresholds[s.binding].name : ""},
            {"tokens_per_s", s.tokens_per_s},
            {"usd_per_step", s.step_s * s.usd_per_hour / 3600.0},
            {"train_time_s", s.train_time_s},
            {"train_usd", s.train_usd}};
  if (ctx.hw->kind == ChipKind::gpu) plan["mesh"] = gpu_mesh;
  if (r.input.moe.capacity_factor > 0)
    plan["moe"] = {{"capacity_factor", r.input.moe.capacity_factor},
                   {"token_policy", r.input.moe.policy == TokenPolicy::pad ? "pad" : "drop"}};
  return plan;
}

// The warnings this plan's own training_step raises (what include_warnings and must_fit false let through), so that
// a caller lists them without running the plan again.
Json plan_warnings(const QueryContext& ctx, const RankedPlan& r) {
  Diagnostics warned;
  check_training_plan(r.input, "/query", warned);
  warn_out_of_hbm(r.step, *ctx.hw, warned);
  Json out = Json::array();
  for (const Diagnostic& w : warned) out.push_back(diagnostic_json(w));
  return out;
}

bool same_place(const RankedPlan& a, const RankedPlan& b) {
  return a.objective == b.objective && a.step.upper_bound_s == b.step.upper_bound_s &&
         a.step.total_bytes == b.step.total_bytes && a.fits == b.fits;
}

// The counts' JSON keys, for the result and for the cursor a chunked search resumes from.
constexpr std::pair<const char*, long long SearchCounts::*> kCountKeys[] = {
    {"space", &SearchCounts::space},
    {"evaluated", &SearchCounts::evaluated},
    {"equivalent", &SearchCounts::equivalent},
    {"valid", &SearchCounts::valid},
    {"with_warnings", &SearchCounts::with_warnings},
    {"fitting", &SearchCounts::fitting},
    {"ranked", &SearchCounts::ranked},
    {"pruned", &SearchCounts::pruned},
    {"bounded", &SearchCounts::bounded}};

Json counts_json(const SearchCounts& c) {
  Json out = Json::object();
  for (const auto& [key, field] : kCountKeys) out[key] = c.*field;
  return out;
}

// A cursor is the caller's input like any other (issue 22): ordinals and counts are whole numbers inside the
// space, and the counts add up as a search leaves them (every plan before `next` evaluated or skipped as
// equivalent; each count within the one before it).
void read_cursor(JsonReader& r, const PlanSpace& space, PlanSearchState& state, std::vector<long long>& kept,
                 Diagnostics& d) {
  const long long size = space.size;
  state.next = static_cast<long long>(r.integer("next", true, 0, size).value_or(0));
  if (const Json* c = r.object("counts", false)) {
    JsonReader k(*c, r.path_of("counts"), d);
    for (const auto& [key, field] : kCountKeys) state.counts.*field = k.integer(key, false, 0, size).value_or(0);
    k.finish();
    const SearchCounts& n = state.counts;
    if (!has_errors(d) &&
        (n.evaluated + n.equivalent != state.next || n.valid > n.evaluated || n.with_warnings > n.valid ||
         n.fitting > n.valid || n.ranked > n.valid || n.bounded > n.ranked))
      add_diagnostic(
          d, r.path_of("counts"), "inconsistent",
          "these counts are not a search's: 'evaluated' + 'equivalent' must equal 'next', and 'valid', "
          "'with_warnings', 'fitting', 'ranked', 'bounded' each at most the count before; pass back the cursor of the "
          "previous answer as it stands");
  }
  if (const Json* list = r.array("retained", false))
    for (std::size_t i = 0; i < list->size(); ++i)
      if (const auto v = read_integer_value((*list)[i], json_pointer_child(r.path_of("retained"), i), 0,
                                            std::max<long long>(0, size - 1), d))
        kept.push_back(*v);
  std::sort(kept.begin(), kept.end());
  kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
  r.finish();
}

// Why the space is empty, most common cause first: "whole_sequences" (96 sequences do not split over ...), ...
std::string empty_space_reasons(const PlanSpace& space, const TrainingInput& in) {
  static const char* kWhy[kRejectReasons] = {"TP does not divide the heads or KV heads",
                                             "TP does not divide the dense MLP's d_ff",
                                             "more pipeline stages than layers",
                                             "EP does not divide the experts (or the model has none)",
                                             "CP does not divide the sequence",
                                             "CP cuts the sequence below space.min_context_chunk_tokens",
                                             "",
                                             "the degrees do not lie on the mesh",
                                             "no setting allowed fits them (the experts' TP, a schedule)"};
  std::vector<int> order;
  for (int r = 0; r < kRejectReasons; ++r)
    if (space.rejected_by[r] > 0) order.push_back(r);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return space.rejected_by[a] > space.rejected_by[b]; });
  std::string out;
  for (int r : order) {
    std::string why = kWhy[r];
    if (r == kRejectWholeSequences)
      why = "each data shard (data x fsdp x expert) gets whole sequences, and the batch's " +
            format_count(in.batch_tokens / in.seq_len) + " sequences do not split evenly over it" +
            (space.options.split_sequences
                 ? std::string()
                 : "; include_warnings lets shards split sequences (scaling-book/applied-training, sharding "
                   "LLaMA 3-70B)");
    out += (out.empty() ? "" : "; ") + format_count(static_cast<double>(space.rejected_by[r])) + " because " + why +
           " (" + reject_reason_name(r) + ")";
  }
  return out;
}

// A space this call cannot search: too many layouts for one combination of degrees, or more plans than the limit.
// False, with the diagnostic, when it is one of them.
bool space_searchable(const PlanSpace& space, const PlanSearchQuery& q, JsonReader& args, Diagnostics& d) {
  if (space.too_many_layouts) {
    std::string degrees;
    for (int s = 0; s < kLayoutStrategies; ++s)
      if (space.over_degrees[s] > 1)
        degrees += (degrees.empty() ? "" : " x ") + std::string(kStrategyKeys[s]) + " " +
                   std::to_string(space.over_degrees[s]);
    add_diagnostic(
        d, "/mesh", "too_large",
        "the plans lie on this mesh in too many ways to search: at " + (degrees.empty() ? "one chip" : degrees) +
            " the count passed " + format_count(static_cast<double>(kMaxLayoutsPerPlan)) +
            " layouts for one combination of degrees, or " + format_count(static_cast<double>(kMaxSearchLayouts)) +
            " in all (the limits); give the mesh "
            "fewer axes, fix degrees (constraints.fixed) or allow fewer strategies (space.strategies)");
    return false;
  }
  if (static_cast<double>(space.size) <= q.limit) return true;
  std::int64_t most = 0;
  for (const DegreeCombo& c : space.combos) most = std::max(most, c.knobs);
  add_diagnostic(d, args.path_of("limit"), "too_large",
                 "the search space holds " + format_count(static_cast<double>(space.size)) + " plans (" +
                     format_count(static_cast<double>(space.combos.size())) + " degree combinations, " +
                     format_count(static_cast<double>(space.layouts)) + " layouts, up to " +
                     format_count(static_cast<double>(most)) + " settings each), more than the limit of " +
                     format_count(q.limit) + "; narrow it (constraints.fixed, constraints.max, space.remat, " +
                     "space.offload, space.microbatch_sequences, ...) or raise 'limit' (at most 1e9)");
  return false;
}

Json space_breakdown_json(const PlanSpace& space) {
  Json rejected = Json::object();
  for (int r = 0; r < kRejectReasons; ++r)
    if (space.rejected_by[r] > 0) rejected[reject_reason_name(r)] = space.rejected_by[r];
  return {{"degree_combinations", space.combos.size()},
          {"rejected_degree_combinations", space.rejected_combos},
          {"rejected_by", rejected},
          {"layouts", space.layouts}};
}

// The ranked plans, each with its ideal bound (calibrated), goodput, layout, warnings, Pareto membership and ties.
Json ranked_plans_json(const QueryContext& ctx, const PlanSearchQuery& q, const PlanSearchState& state) {
  Json plans = Json::array();
  for (std::size_t i = 0; i < state.best.size(); ++i) {
    Json p = plan_json(ctx, state.best[i]);
    p["rank"] = i + 1;
    if (q.profile) {  // the book's step of the same plan: the ideal bound the calibrated ranking sits above
      const TrainingStep ideal = evaluate_training_step(state.best[i].input);
      p["ideal"] = {{"step_s", ideal.step_s}, {"mfu_frac", ideal.mfu_frac}, {"train_time_s", ideal.train_time_s}};
    }
    // Every plan's goodput, whatever ranks them: the wall time it adds is what a plan costs at scale.
    const Goodput g = evaluate_goodput(
        goodput_plan(state.best[i].input, state.best[i].step, q.settings.model_state_bytes), q.settings.goodput);
    p["goodput_frac"] = g.goodput_frac;
    if (q.in.train_tokens > 0) p["wall_time_s"] = std::isfinite(g.wall_time_s) ? Json(g.wall_time_s) : Json(nullptr);
    p["layout"] = layout_json(*ctx.hw, *ctx.mesh, state.best[i].input.plan);
    p["warnings"] = plan_warnings(ctx, state.best[i]);
    p["pareto"] = std::any_of(state.front.begin(), state.front.end(),
                              [&](const RankedPlan& f) { return f.index == state.best[i].index; });
    if (i > 0 && same_place(state.best[i], state.best[i - 1]))
      p["tie"] = {{"with_rank", i}, {"differs", plan_differences(*ctx.mesh, state.best[i], state.best[i - 1])}};
    plans.push_back(p);
  }
  return plans;
}

// An empty space, or a finished search where nothing fits, says so.
void warn_if_nothing_to_rank(const QueryContext& ctx, const PlanSearchQuery& q, const PlanSpace& space,
                             const PlanSearchState& state, bool complete, Diagnostics& d) {
  if (space.size == 0)
    add_warning(d, "/query", "empty_space",
                "no plan to search: of " + format_count(static_cast<double>(space.rejected_combos)) +
                    " combinations of degrees for " + format_count(ctx.mesh->chips) + " chips, " +
                    empty_space_reasons(space, q.in));
  else if (complete && state.counts.evaluated > 0 && state.counts.fitting == 0)
    add_warning(d, "/query", "nothing_fits",
                q.settings.must_fit ? "no plan fits in HBM (with the headroom asked); allow more memory-saving "
                                      "settings (remat, offload, ZeRO) or set constraints.must_fit to false"
                                    : "no plan fits in HBM; the list ranks the closest by the objective");
}

// The search's answer: its counts, plans, Pareto front, progress, and where an incomplete one resumes.
Json search_json(const QueryContext& ctx, const PlanSearchQuery& q, const PlanSpace& space,
                 const PlanSearchState& state, bool complete) {
  Json front = Json::array();
  for (std::size_t i = 0; i < state.front.size() && i < kMaxFrontPlans; ++i)
    front.push_back(plan_json(ctx, state.front[i]));
  Json out{{"evaluated", state.counts.evaluated},
           {"valid", state.counts.valid},
           {"fitting", state.counts.fitting},
           {"plans", ranked_plans_json(ctx, q, state)},
           {"space", space.size},
           {"space_breakdown", space_breakdown_json(space)},
           {"counts", counts_json(state.counts)},
           {"objective", q.objective},
           {"pareto", front},
           {"pareto_size", state.front.size()},
           {"complete", complete},
           {"progress_frac", space.size > 0 ? static_cast<double>(state.next) / static_cast<double>(space.size) : 1.0}};
  // Why an incomplete answer stopped: the caller's chunk, or the work one call may do (docs/api.md "Limits").
  if (!complete) out["stopped_by"] = state.work_limited ? "work_limit" : "chunk_plans";
  // The band of the best plan: where it sits against the runs behind the profile.
  if (q.profile)
    out["calibration"] =
        calibration_json(*q.profile, *ctx.hw, "training", scope_point(state.best.empty() ? q.in : state.best[0].input));
  if (!complete) {
    Json kept = Json::array();
    for (const RankedPlan& p : state.best) kept.push_back(p.index);
    for (const RankedPlan& p : state.front) kept.push_back(p.index);
    out["cursor"] = {{"next", state.next}, {"retained", kept}, {"counts", counts_json(state.counts)}};
  }
  return out;
}

}  // namespace

// Reads the query, builds the space, searches a chunk of it (resumed from a cursor), writes the ranking.
Json run_plan_search(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  PlanSearchQuery q;
  if (!read_plan_search_query(ctx, args, d, q)) return {};
  const PlanSpace space = build_plan_space(q.in, q.options);
  if (!space_searchable(space, q, args, d)) return {};
  if (q.count_only)
    return {{"space", space.size}, {"space_breakdown", space_breakdown_json(space)}, {"objective", q.objective}};

  PlanSearchState state;
  if (q.resume) {
    JsonReader r(*q.resume, args.path_of("resume"), d);
    std::vector<long long> kept;
    read_cursor(r, space, state, kept, d);
    if (has_errors(d)) return {};
    restore_plans(space, q.settings, state, kept);
  }
  continue_search(space, q.settings, state, q.chunk > 0 ? static_cast<long long>(q.chunk) : 0);
  const bool complete = state.done(space);
  warn_if_nothing_to_rank(ctx, q, space, state, complete, d);
  return search_json(ctx, q, space, state, complete);
}

}  // namespace scalescope
