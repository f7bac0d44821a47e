// The serving_search query: the serving deployments (replica size and split, dtypes, batch, colocated or
// disaggregated prefill, replicas for a demand) that meet a latency target, ranked (planners/serving_search.h).
#include "planners/serving_search.h"

#include <algorithm>

#include "io/format.h"
#include "io/limits.h"
#include "physics/mesh.h"
#include "queries/calibration_result.h"
#include "queries/plan_reader.h"
#include "queries/query.h"
#include "queries/serving_args.h"

namespace scalescope {

namespace {

constexpr std::size_t kMaxFrontier = 100;

std::vector<Dtype> read_dtypes(JsonReader& r, const char* key, const std::vector<Dtype>& fallback, Diagnostics& d) {
  const Json* list = r.array(key, false);
  if (!list) return fallback;
  std::vector<Dtype> out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const Json& v = (*list)[i];
    const auto t = v.is_string() ? parse_dtype(v.get<std::string>()) : std::nullopt;
    if (!t)
      add_diagnostic(d, json_pointer_child(r.path_of(key), i), "unknown_dtype",
                     std::string("valid: ") + dtype_choices());
    else
      out.push_back(*t);
  }
  if (list->empty()) add_diagnostic(d, r.path_of(key), "empty", "allow at least one dtype");
  return out;
}

// A list read with its repeats dropped (first one kept): a repeated entry is the same point searched again.
template <typename T>
void drop_repeats(std::vector<T>& v) {
  std::vector<T> out;
  for (const T& x : v)
    if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  v = std::move(out);
}

Json names_of(const std::vector<int>& axes) {
  Json out = Json::array();
  for (int a : axes) out.push_back(kDefaultAxisNames[a]);
  return out;
}

Json deployment_json(const ServingDeployment& x) {
  Json parallelism = Json::object();
  if (!x.tensor_axes.empty()) parallelism["tensor"] = names_of(x.tensor_axes);
  if (!x.expert_axes.empty()) parallelism["expert"] = names_of(x.expert_axes);
  if (x.expert_tensor > 0) parallelism["expert_tensor"] = x.expert_tensor;
  return {{"mesh", {{"shape", x.mesh_shape}}},
          {"parallelism", parallelism},
          {"degrees",
           {{"tensor", x.tensor},
            {"expert", x.expert},
            {"expert_tensor", x.expert_tensor > 0 ? x.expert_tensor : x.tensor}}},
          {"dtypes", {{"weights", std::string(dtype_name(x.weights))}, {"kv", std::string(dtype_name(x.kv))}}},
          {"batch", x.batch},
          {"disaggregated", x.disaggregated},
          {"replicas", x.replicas},
          {"prefill_servers", x.prefill_servers},
          {"prefill_workers_per_replica", x.prefill_workers_per_replica},
          {"total_chips", x.total_chips},
          {"decode_step_s", x.decode_step_s},
          {"prefill_one_sequence_s", x.prefill_one_s},
          {"latency_per_token_s", x.latency_per_token_s},
          {"time_to_first_token_s", x.time_to_first_token_s},
          {"tokens_per_s", x.tokens_per_s},
          {"tokens_per_s_per_chip", x.tokens_per_s_per_chip},
          {"usd_per_million_output_tokens", x.usd_per_million_tokens},
          {"memory_bytes", x.memory_bytes},
          {"hbm_capacity_bytes", x.hbm_capacity_bytes},
          {"meets_targets", x.meets_targets},
          {"bound", x.bound}};
}

// Everything a serving search asks. `in.profile` points at `given` or a preset: filled in place, never copied.
struct ServingSearchQuery {
  ServingSearchInput in;
  CalibrationProfile given;
  std::string objective;
};

// The lengths, demand, ranking and latency targets.
void read_request_and_targets(JsonReader& args, ServingSearchQuery& q, Diagnostics& d) {
  ServingSearchInput& in = q.in;
  in.prompt_len = args.number("prompt_len", true).value_or(1);
  in.generated_len = args.number("generated_len", true).value_or(1);
  in.kv_context_len = args.number("kv_context_len", false).value_or(0);
  in.demand_tokens_per_s = args.number("demand_tokens_per_s", false).value_or(0);
  in.keep = static_cast<int>(args.integer("keep", false, 1, 1000).value_or(10));
  q.objective = args.choice("objective", false, {"fewest_chips", "usd_per_million_tokens", "tokens_per_s_per_chip"})
                    .value_or("usd_per_million_tokens");
  in.objective = q.objective == "fewest_chips"            ? ServingObjective::fewest_chips
                 : q.objective == "tokens_per_s_per_chip" ? ServingObjective::tokens_per_s_per_chip
                                                          : ServingObjective::usd_per_million_tokens;
  if (const Json* node = args.object("targets", false)) {
    JsonReader r(*node, args.path_of("targets"), d);
    in.latency_per_token_s = r.number("latency_per_token_s", false).value_or(0);
    in.time_to_first_token_s = r.number("time_to_first_token_s", false).value_or(0);
    r.finish();
  }
}

// The dtypes tried (by default the chip kind's: bf16 and fp8 on GPUs, bf16 and int8 on TPUs) and the activations'.
void read_dtype_choices(const QueryContext& ctx, JsonReader& args, ServingSearchInput& in, Diagnostics& d) {
  const std::vector<Dtype> gpu_weights{Dtype::bf16, Dtype::fp8}, tpu_weights{Dtype::bf16, Dtype::int8};
  const std::vector<Dtype>& weights = ctx.hw->kind == ChipKind::gpu ? gpu_weights : tpu_weights;
  in.weights = weights;
  in.kv = weights;
  if (const Json* node = args.object("dtypes", false)) {
    JsonReader r(*node, args.path_of("dtypes"), d);
    in.weights = read_dtypes(r, "weights", weights, d);
    in.kv = read_dtypes(r, "kv", weights, d);
    in.activations = r.dtype("activations", false).value_or(Dtype::bf16);
    r.finish();
  }
  peak_for(*ctx.hw, in.activations, args.path_of("dtypes") + "/activations", d);
}

// The replica sizes, batches and prefill arrangements tried.
void read_sizes(const QueryContext& ctx, JsonReader& args, ServingSearchInput& in, Diagnostics& d) {
  const int most = static_cast<int>(
      args.integer("max_replica_chips", false, 1, 1 << 16).value_or(ctx.hw->kind == ChipKind::gpu ? 64 : 256));
  in.replica_chips = default_replica_sizes(*ctx.hw, most);
  if (const Json* list = args.array("replica_chips", false)) {
    in.replica_chips.clear();
    for (std::size_t i = 0; i < list->size() && i < 256; ++i)
      if (auto v = read_integer_value((*list)[i], json_pointer_child(args.path_of("replica_chips"), i), 1, 1 << 16, d))
        in.replica_chips.push_back(static_cast<int>(*v));
  }
  if (const Json* list = args.array("batches", false))
    for (std::size_t i = 0; i < list->size() && i < 4096; ++i)
      if (auto v = read_integer_value((*list)[i], json_pointer_child(args.path_of("batches"), i), 1, 100'000'000, d))
        in.batches.push_back(static_cast<double>(*v));
  const auto disaggregation =
      args.choice("disaggregation", false, {"both", "colocated", "disaggregated"}).value_or("both");
  if (disaggregation == "colocated") in.disaggregated = {false};
  if (disaggregation == "disaggregated") in.disaggregated = {true};
}

// The calibration profile, and a serving engine's fitted runtime under a benchmark's load (issue 35; calibrated
// only, as `serving`'s).
void read_profile_and_backend(const QueryContext& ctx, JsonReader& args, ServingSearchQuery& q, Diagnostics& d) {
  ServingSearchInput& in = q.in;
  in.profile = ctx.fidelity == Fidelity::calibrated ? resolve_profile(ctx, args, in.efficiency, q.given, d) : nullptr;
  if (const auto id = args.choice("backend", false, serving_backend_ids())) {
    if (!in.profile)
      add_diagnostic(d, args.path_of("backend"), "needs_calibrated",
                     "a serving engine's runtime is fitted beside the calibrated kernels; drop 'backend' or use the "
                     "calibrated fidelity");
    in.backend = serving_backend(*id);
  }
}

// Reads the query in its keys' order and finishes it (unknown keys before any work); false on errors, or when the
// search would try more deployments than kMaxServingSearchPoints. The lists tried lose their repeats.
bool read_serving_search_query(const QueryContext& ctx, JsonReader& args, Diagnostics& d, ServingSearchQuery& q) {
  ServingSearchInput& in = q.in;
  in.model = ctx.model;
  in.hw = ctx.hw;
  read_request_and_targets(args, q, d);
  read_dtype_choices(ctx, args, in, d);
  in.efficiency = read_efficiency(args, d);
  in.include_comms = args.boolean("include_comms", false).value_or(true);
  in.params_override = args.number("params_override", false).value_or(0);
  in.hbm_budget = read_hbm_budget(args, ctx.fidelity, d);
  read_sizes(ctx, args, in, d);
  read_profile_and_backend(ctx, args, q, d);
  args.finish();
  if (has_errors(d)) return false;
  drop_repeats(in.replica_chips);
  drop_repeats(in.batches);
  drop_repeats(in.weights);
  drop_repeats(in.kv);
  if (const double points = serving_search_points(in); points > static_cast<double>(kMaxServingSearchPoints)) {
    add_diagnostic(d, "/query", "too_large",
                   "the search would try up to " + format_count(points) + " deployments (replica layouts x dtypes x " +
                       "batches x disaggregation), more than the limit of " +
                       format_count(static_cast<double>(kMaxServingSearchPoints)) +
                       "; give fewer replica_chips, batches or dtypes, or one disaggregation");
    return false;
  }
  return true;
}

// The band of the best deployment: one replica against the runs behind the profile.
Json best_deployment_calibration(const QueryContext& ctx, const ServingSearchInput& in, const ServingSearch& s) {
  ScopePoint point{0, decode_context_tokens(in), in.model->is_moe(), 1, ""};
  if (!s.best.empty()) {
    point.chips = 1;
    for (int n : s.best[0].mesh_shape) point.chips *= n;
    point.expert_degree = std::max(1.0, s.best[0].expert);
  }
  return calibration_json(*in.profile, *ctx.hw, "serving", point);
}

// The ranked deployments, the frontier, the counts and the backend.
Json serving_search_json(const ServingSearchQuery& q, const ServingSearch& s) {
  Json best = Json::array(), frontier = Json::array();
  for (std::size_t i = 0; i < s.best.size(); ++i) {
    Json x = deployment_json(s.best[i]);
    x["rank"] = i + 1;
    best.push_back(x);
  }
  for (std::size_t i = 0; i < s.frontier.size() && i < kMaxFrontier; ++i)
    frontier.push_back(deployment_json(s.frontier[i]));
  return {{"evaluated", s.evaluated},
          {"fitting", s.fitting},
          {"meeting_targets", s.meeting_targets},
          {"objective", q.objective},
          {"deployments", best},
          {"frontier", frontier},
          {"frontier_size", s.frontier.size()},
          {"backend", q.in.backend ? serving_backend_json(*q.in.backend) : Json(nullptr)}};
}

}  // namespace

Json run_serving_search(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  ServingSearchQuery q;
  if (!read_serving_search_query(ctx, args, d, q)) return {};
  const ServingSearch s = search_serving(q.in);
  if (s.meeting_targets == 0)
    add_warning(d, "/query/targets", "no_deployment_meets_targets",
                s.fitting == 0
                    ? "no deployment fits in HBM; allow larger replicas (max_replica_chips) or smaller dtypes"
                    : "no deployment meets the latency targets; the frontier shows what each latency costs");
  Json out = serving_search_json(q, s);
  if (q.in.profile) out["calibration"] = best_deployment_calibration(ctx, q.in, s);
  return out;
}

}  // namespace scalescope
