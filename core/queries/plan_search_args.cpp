#include "queries/plan_search_args.h"

#include <algorithm>
#include <array>
#include <vector>

#include "io/limits.h"
#include "planners/goodput.h"
#include "planners/step_evaluator.h"
#include "queries/calibration_result.h"
#include "queries/plan_reader.h"
#include "queries/training_args.h"

namespace scalescope {

namespace {

constexpr double kDefaultSpaceLimit = 20'000'000;
std::vector<std::string> strategy_choices() { return {kStrategyKeys, kStrategyKeys + kLayoutStrategies}; }

// A list of choices from `names` (each a string), as their indices.
template <typename T>
std::vector<T> read_list(JsonReader& r, const char* key, const std::vector<std::string>& names,
                         const std::vector<T>& values, const std::vector<T>& fallback, Diagnostics& d) {
  const Json* list = r.array(key, false);
  if (!list) return fallback;
  std::vector<T> out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const Json& v = (*list)[i];
    const auto at = v.is_string() ? std::find(names.begin(), names.end(), v.get<std::string>()) : names.end();
    if (at == names.end())
      add_diagnostic(d, json_pointer_child(r.path_of(key), i), "unknown_choice", "valid: " + join_choices(names));
    else if (std::find(out.begin(), out.end(), values[at - names.begin()]) == out.end())
      out.push_back(values[at - names.begin()]);
  }
  if (list->empty()) add_diagnostic(d, r.path_of(key), "empty", "allow at least one choice");
  return out;
}

std::vector<int> read_int_list(JsonReader& r, const char* key, std::int64_t max, const std::vector<int>& fallback,
                               Diagnostics& d) {
  const Json* list = r.array(key, false);
  if (!list) return fallback;
  std::vector<int> out;
  for (std::size_t i = 0; i < list->size() && i < 4096; ++i)
    if (auto v = read_integer_value((*list)[i], json_pointer_child(r.path_of(key), i), 1, max, d))
      out.push_back(static_cast<int>(*v));
  if (list->empty()) add_diagnostic(d, r.path_of(key), "empty", "allow at least one value");
  return out;
}

unsigned read_strategy_bits(JsonReader& r, const char* key, unsigned fallback, Diagnostics& d) {
  std::vector<int> idx{0, 1, 2, 3, 4, 5};
  const std::vector<int> chosen = read_list<int>(r, key, strategy_choices(), idx, {}, d);
  if (!r.has(key)) return fallback;
  unsigned bits = 0;
  for (int s : chosen) bits |= 1u << s;
  return bits;
}

// The settings the caller allows (`space`); without `matmul`, the query's precision is the only one, and without
// `remat`, the query's remat if it sets one (else the search's list).
SpaceOptions read_space(JsonReader& args, const TrainingInput& in, Diagnostics& d) {
  SpaceOptions o;
  o.matmul.clear();
  bool remats_listed = false;
  if (const Json* node = args.object("space", false)) {
    JsonReader r(*node, args.path_of("space"), d);
    remats_listed = r.has("remat");
    o.strategies = read_strategy_bits(r, "strategies", o.strategies, d);
    o.dcn_strategies = read_strategy_bits(r, "dcn_strategies", o.dcn_strategies, d);
    o.max_strategies_per_torus_axis =
        static_cast<int>(r.integer("max_strategies_per_torus_axis", false, 1, kMaxSlotsPerAxis)
                             .value_or(o.max_strategies_per_torus_axis));
    o.min_context_chunk_tokens = r.number("min_context_chunk_tokens", false).value_or(o.min_context_chunk_tokens);
    o.zero_stages = read_int_list(r, "zero_stages", 3, o.zero_stages, d);
    o.schedules = read_list<PipelineSchedule>(
        r, "pipeline_schedules", pipeline_schedule_choices(),
        std::vector<PipelineSchedule>(std::begin(kPipelineSchedules), std::end(kPipelineSchedules)), o.schedules, d);
    o.virtual_stages = read_int_list(r, "virtual_stages", 1024, o.virtual_stages, d);
    o.microbatch_sequences = read_int_list(r, "microbatch_sequences", 100'000'000, o.microbatch_sequences, d);
    o.remats = read_list<Remat>(r, "remat", settable_remat_names(), settable_remats(), o.remats, d);
    o.offloads = read_list<OffloadChoice>(
        r, "offload", {"none", "optimizer", "activations", "both"},
        {OffloadChoice::none, OffloadChoice::optimizer, OffloadChoice::activations, OffloadChoice::both}, o.offloads,
        d);
    std::vector<MatmulChoice> precisions;
    for (const std::string& name : matmul_precision_choices()) {
      TrainingPrecision p;
      set_matmul_precision(name, p);
      precisions.push_back({p.matmul, p.recipe});
    }
    o.matmul = read_list<MatmulChoice>(r, "matmul", matmul_precision_choices(), precisions, {}, d);
    o.sequence_parallel = read_list<bool>(r, "sequence_parallel", {"on", "off"}, {true, false}, o.sequence_parallel, d);
    o.context_variants =
        read_list<ContextVariant>(r, "context_variants", {"ring", "all_gather"},
                                  {ContextVariant::ring, ContextVariant::all_gather}, o.context_variants, d);
    // The experts' TP: "tp" is the TP degree (Megatron's default), numbers fold the other TP ranks into EP.
    if (const Json* list = r.array("expert_tensor", false)) {
      o.expert_tensor.clear();
      for (std::size_t i = 0; i < list->size(); ++i) {
        const Json& v = (*list)[i];
        if (v.is_string() && v.get<std::string>() == "tp")
          o.expert_tensor.push_back(0);
        else if (const auto e = read_integer_value(v, json_pointer_child(r.path_of("expert_tensor"), i), 1, 1 << 24, d))
          o.expert_tensor.push_back(static_cast<int>(*e));
      }
      if (list->empty())
        add_diagnostic(d, r.path_of("expert_tensor"), "empty", "allow at least one value (\"tp\" or a degree)");
    }
    // Capacities: "dropless" (no capacity) or a factor, each dropping at it unless the query pads.
    if (const Json* list = r.array("capacity_factors", false)) {
      o.capacity_factors.clear();
      for (std::size_t i = 0; i < list->size(); ++i) {
        const Json& v = (*list)[i];
        if (v.is_string() && v.get<std::string>() == "dropless")
          o.capacity_factors.push_back(SpaceOptions::kDropless);
        else if (const auto c =
                     read_number_value(v, json_pointer_child(r.path_of("capacity_factors"), i), "capacity_factor", d))
          o.capacity_factors.push_back(*c);
      }
      if (list->empty())
        add_diagnostic(d, r.path_of("capacity_factors"), "empty",
                       "allow at least one capacity (\"dropless\" or a factor)");
    }
    r.finish();
  }
  if (o.matmul.empty()) o.matmul = {MatmulChoice{in.precision.matmul, in.precision.recipe}};
  if (!remats_listed && args.has("remat")) o.remats = {in.remat};
  return o;
}

void read_constraints(JsonReader& args, SpaceOptions& o, SearchSettings& s, Diagnostics& d) {
  const Json* node = args.object("constraints", false);
  if (!node) return;
  JsonReader r(*node, args.path_of("constraints"), d);
  auto degrees = [&](const char* key, std::array<int, kLayoutStrategies>& out) {
    if (const Json* m = r.object(key, false)) {
      JsonReader k(*m, r.path_of(key), d);
      for (int i = 0; i < kLayoutStrategies; ++i)
        out[i] = static_cast<int>(k.integer(kStrategyKeys[i], false, 1, 1 << 24).value_or(out[i]));
      k.finish();
    }
  };
  degrees("fixed", o.fixed);
  degrees("max", o.max_degree);
  if (auto t = r.integer("max_tensor", false, 1, 1 << 24)) o.max_degree[2] = static_cast<int>(*t);
  s.must_fit = r.boolean("must_fit", false).value_or(true);
  s.memory_headroom_frac = r.number("memory_headroom_frac", false).value_or(0);
  s.include_warnings = r.boolean("include_warnings", false).value_or(false);
  r.finish();
}

}  // namespace

bool read_plan_search_query(const QueryContext& ctx, JsonReader& args, Diagnostics& d, PlanSearchQuery& q) {
  q.in = read_training_input(ctx, args, d);
  // The calibrated step ranks the plans at the calibrated fidelity (the default); the book's otherwise.
  if (ctx.fidelity == Fidelity::calibrated) q.profile = resolve_profile(ctx, args, q.in.efficiency, q.given, d);
  SearchSettings& settings = q.settings;
  settings.evaluate = step_evaluator(q.profile);
  settings.keep = static_cast<int>(args.integer("keep", false, 1, 1000).value_or(10));
  q.objective = args.choice("objective", false, {"step_time", "cost_to_train", "tokens_per_usd", "wall_time"})
                    .value_or("step_time");
  settings.objective = q.objective == "cost_to_train"    ? SearchObjective::cost_to_train
                       : q.objective == "tokens_per_usd" ? SearchObjective::tokens_per_usd
                       : q.objective == "wall_time"      ? SearchObjective::wall_time
                                                         : SearchObjective::step_time;
  settings.goodput = read_goodput_settings(ctx, args, d).settings;
  if (ctx.model) settings.model_state_bytes = model_state_bytes(q.in);
  q.options = read_space(args, q.in, d);
  read_constraints(args, q.options, settings, d);
  q.options.split_sequences = settings.include_warnings;
  q.limit = args.number("limit", false).value_or(kDefaultSpaceLimit);
  q.count_only = args.boolean("count_only", false).value_or(false);
  q.chunk = static_cast<double>(args.integer("chunk_plans", false, 1, 1'000'000'000).value_or(0));
  q.resume = args.object("resume", false);
  for (const MatmulChoice& m : q.options.matmul) peak_for(*ctx.hw, m.dtype, args.path_of("precision") + "/matmul", d);
  args.finish();  // run() finishing again adds nothing
  settings.max_work = kMaxSearchWorkPerCall;
  return !has_errors(d);
}

}  // namespace scalescope
