// The summary query: the chip, the slice, the model, the book's bounds and the headline numbers of a default
// training step and serving point, each gathered from its own query at the summary's fidelity (calibrated by
// default, as the planners are: the estimate first, the book's ideal beside it, the band saying how far to trust it).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "planners/plan_degrees.h"
#include "queries/query.h"

namespace scalescope {

namespace {

// Runs one planner with `args` as its query. Arguments the reader gave (`path`: where, e.g. "/query/training") are
// read like any query's: their diagnostics are the summary's, at their keys (issue 41: they were strings inside a
// summary that said ok). A default plan's problems stay inside the summary: a default that does not suit the model
// is reported, not fatal. Only the headline numbers (`pick`, JSON pointers into the planner's result) are kept.
Json sub_query(Json (*run)(const QueryContext&, JsonReader&, Diagnostics&), const QueryContext& ctx, const Json& args,
               const std::optional<std::string>& path, Diagnostics& d, const std::vector<const char*>& pick) {
  Diagnostics local;
  Diagnostics& into = path ? d : local;
  const std::size_t mark = into.size();
  JsonReader r(args, path.value_or("/query"), into);
  const Json result = run(ctx, r, into);
  r.finish();
  Json out{{"query", args}, {"fidelity", fidelity_name(ctx.fidelity)}};
  bool failed = false;
  for (std::size_t i = mark; i < into.size(); ++i) failed = failed || !into[i].warning;
  if (!failed)
    for (const char* pointer : pick) {
      const Json::json_pointer p(pointer);
      if (result.contains(p)) out[Json::json_pointer(pointer)] = result[p];
    }
  Json problems = Json::array();
  for (const auto& p : local) problems.push_back(p.message);
  if (!problems.empty()) out["problems"] = problems;
  return out;
}

// The default training workload: a 1M-token batch of 4096-token sequences, 15T tokens to train.
Json training_workload(Json parallelism) {
  return {{"kind", "training_step"},
          {"batch_tokens", 1048576},
          {"seq_len", 4096},
          {"train_tokens", 15e12},
          {"parallelism", std::move(parallelism)}};
}

// A plan to show by default: TP over the innermost mesh axis, FSDP over the rest (the book's FSDP x TP recipe); GPUs
// given as a count in the degree form the planner lays out (default_gpu_count_plan). Serving uses every axis for TP
// when the heads allow it.
Json default_training(const QueryContext& ctx, const Json& given) {
  if (!given.is_null()) return given;
  const auto& axes = ctx.mesh->axes;
  if (ctx.hw->kind == ChipKind::gpu && axes.size() == 1 && !axes[0].dcn && ctx.hw->scale_up.domain_gpus > 0) {
    const GpuCountPlan plan = default_gpu_count_plan(*ctx.hw, ctx.model, axes[0].size);
    Json parallelism = {{"tensor", plan.tensor}};
    if (plan.fsdp > 1) parallelism["fsdp"] = plan.fsdp;
    return training_workload(parallelism);
  }
  Json fsdp = Json::array(), tensor = Json::array();
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const bool inner = i + 1 == axes.size() || (i + 2 == axes.size() && axes.back().dcn);
    (inner && !axes[i].dcn ? tensor : fsdp).push_back(axes[i].name);
  }
  Json data = Json::array();
  if (!fsdp.empty() && axes.back().dcn) {
    data.push_back(fsdp.back());
    fsdp.erase(fsdp.end() - 1);
  }
  return training_workload({{"fsdp", fsdp}, {"tensor", tensor}, {"data", data}});
}

Json default_serving(const QueryContext& ctx, const Json& given) {
  if (!given.is_null()) return given;
  Json tensor = Json::array();
  for (const auto& a : ctx.mesh->axes)
    if (!a.dcn) tensor.push_back(a.name);
  return {{"kind", "serving"},
          {"batch", 32},
          {"prompt_len", 8192},
          {"generated_len", 512},
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
    Json t = default_training(ctx, training ? *training : Json()),
         s = default_serving(ctx, serving ? *serving : Json());
    t.erase("kind");
    s.erase("kind");
    // What a calibrated result says about itself (absent at the book's fidelity: not picked).
    auto with_fidelity = [](std::initializer_list<const char*> picks, std::initializer_list<const char*> ideal) {
      std::vector<const char*> all(picks);
      all.insert(all.end(), {"/calibration/profile/id", "/calibration/profile/name", "/calibration/error_band/text",
                             "/calibration/error_band/scope"});
      all.insert(all.end(), ideal);
      return all;
    };
    const auto given = [](const Json* node, const char* key) {
      return node ? std::optional<std::string>(std::string("/query/") + key) : std::nullopt;
    };
    out["training_step"] =
        sub_query(run_training_step, ctx, t, given(training, "training"), d,
                  with_fidelity({"/degrees",
                                 "/time/step_s",
                                 "/time/bound",
                                 "/time/critical",
                                 "/time/compute_s",
                                 "/time/comms_total_s",
                                 "/memory/total_bytes",
                                 "/memory/fits",
                                 "/memory/shortfall_bytes",
                                 "/memory/min_chips_for_memory",
                                 "/mfu_frac",
                                 "/tokens_per_s_per_chip",
                                 "/cost/usd_per_hour",
                                 "/cost/train_time_s",
                                 "/cost/train_usd",
                                 "/binding",
                                 "/thresholds",
                                 "/goodput/goodput_frac",
                                 "/goodput/wall_time_s",
                                 "/goodput/wall_usd",
                                 "/goodput/interruptions/expected",
                                 "/goodput/text"},
                                {"/ideal/step_s", "/ideal/mfu_frac", "/ideal/train_time_s", "/ideal/train_usd"}));
    out["serving"] = sub_query(
        run_serving, ctx, s, given(serving, "serving"), d,
        with_fidelity({"/time_to_first_token_s", "/decode/step_s", "/decode/bound", "/tokens_per_s_per_chip",
                       "/usd_per_million_output_tokens", "/memory/max_batch", "/memory/fits", "/compute_bound_batch"},
                      {"/ideal/time_to_first_token_s", "/ideal/latency_per_token_s"}));
  }
  return out;
}

}  // namespace scalescope
