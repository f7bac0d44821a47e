// The training_step query: reads and validates a plan, evaluates one step, explains the numbers.
#include <cmath>

#include "io/format.h"
#include "planners/plan_search.h"
#include "queries/plan_reader.h"
#include "planners/calibrated_training.h"
#include "queries/calibration_result.h"
#include "queries/query.h"
#include "queries/training_args.h"
#include "planners/training.h"

namespace scalescope {

namespace {


// One line a person can read: "comms-bound: 468 tokens per chip < 850 needed for FSDP over 3 axes".
std::string threshold_reason(const Threshold& t) {
  const std::string name = t.name;
  const std::string axes = t.axes > 1 ? " over " + format_count(t.axes) + " axes" : "";
  const char* verdict = t.ok ? "ok" : "comms-bound";
  if (name == "dp_fsdp_tokens_per_chip")
    return std::string(verdict) + ": " + format_count(t.actual) + " tokens per data shard " + (t.ok ? ">= " : "< ") +
           format_count(t.required) + " needed for DP/FSDP" + axes;
  if (name == "tensor_parallel_degree")
    return std::string(verdict) + ": " + format_count(t.actual) + "-way TP " + (t.ok ? "<= " : "> ") + "the limit of " +
           format_count(t.required) + " (M_Y F W / C" + axes + ")";
  if (name == "fsdp_tp_tokens_per_chip")
    return std::string(verdict) + ": " + format_count(t.actual) + " tokens per chip " + (t.ok ? ">= " : "< ") +
           format_count(t.required) + " needed for FSDP x TP (alpha^2 / (M_X M_Y F))";
  if (name == "dcn_tokens_per_slice")
    return std::string(verdict) + ": " + format_count(t.actual) + " tokens per slice " + (t.ok ? ">= " : "< ") +
           format_count(t.required) + " needed to all-reduce over DCN";
  if (name == "expert_d_ff")
    return std::string(verdict) + ": expert d_ff " + format_count(t.actual) + (t.ok ? " >= " : " < ") +
           format_count(t.required) + " needed for this EP degree";
  return name;
}

std::string g(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

Json explained(std::string formula, std::string values, double result, const char* section) {
  return {{"formula", std::move(formula)}, {"values", std::move(values) + " = " + g(result)}, {"section", section}};
}

// The headline numbers with their formulas and the values substituted (DESIGN.md: results explain themselves, on
// request, so the search path does not pay for it).
Json explain_training(const TrainingInput& in, const TrainingStep& s) {
  const double c = in.hw->peak(in.precision.matmul);
  Json out;
  out["compute_s"] = explained("hardware FLOPs / (chips x C x flops_frac)",
                               g(s.hardware_flops) + " / (" + g(s.chips) + " x " + g(c) + " x " +
                                   g(in.efficiency.flops_frac) + ")",
                               s.compute_s, "spec §2.8 (6ND + attention + remat recompute)");
  if (s.bubble_s > 0)
    out["bubble_s"] = explained("compute x f / (1 - f), f = (S - 1)/(v m + S - 1)",
                                g(s.compute_s) + " x " + g(s.bubble_frac) + " / (1 - " + g(s.bubble_frac) + ")", s.bubble_s,
                                "GPipe (Huang et al. 2019); the book gives no closed form (spec §2.9.5)");
  out["comms_s"] = explained(in.sum_comms_model ? "sum of the parallelism axes' comms (Feb-2025)"
                                                : "max of the parallelism axes' comms (Aug-2025: they overlap)",
                             in.sum_comms_model ? g(s.comms_s_sum) : s.critical, s.comms_s_total, "spec §2.9.4");
  out["step_s"] = explained("max(compute + bubble, HBM, comms)",
                            "max(" + g(s.compute_s + s.bubble_s) + ", " + g(s.hbm_s) + ", " + g(s.comms_s_total) + ")",
                            s.step_s, "spec §2.1 (perfect overlap; the upper bound is the sum)");
  out["mfu_frac"] = explained("model FLOPs / (step x chips x peak)",
                              g(s.model_flops) + " / (" + g(s.step_s) + " x " + g(s.chips) + " x " + g(c) + ")",
                              s.mfu_frac, "spec §2.8");
  out["memory_bytes"] = explained("params + grads + master + Adam moments + activations x in-flight + CP buffers",
                                  g(s.params_bytes) + " + " + g(s.grads_bytes) + " + " + g(s.master_bytes) + " + " +
                                      g(s.optimizer_bytes) + " + " + g(s.activations_bytes) + " + " +
                                      g(s.context_buffers_bytes),
                                  s.total_bytes, "spec §2.8 (10 bytes per parameter with fp32 Adam), §2.7 remat");
  out["train_usd"] = explained("train tokens / (tokens per s) / 3600 x chips x $ per chip-hour",
                               g(in.train_tokens) + " / " + g(s.tokens_per_s) + " / 3600 x " + g(s.chips) + " x " +
                                   g(in.hw->price_usd_per_chip_hour),
                               s.train_usd, "spec §2.8, prices §1.4");
  return out;
}


}  // namespace

TrainingInput read_training_input(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  TrainingInput in;
  in.model = ctx.model;
  in.hw = ctx.hw;
  in.mesh = ctx.mesh;
  in.batch_tokens = args.number("batch_tokens", true).value_or(0);
  in.seq_len = args.number("seq_len", true).value_or(1);
  in.causal = args.boolean("causal", false).value_or(true);
  in.train_tokens = args.number("train_tokens", false).value_or(0);
  in.sum_comms_model = args.choice("comms_model", false, {"max", "sum"}).value_or("max") == "sum";
  if (auto r = args.choice("remat", false, {"none", "block", "big_matmuls", "mlp_matmuls", "checkpoints"})) in.remat = *parse_remat(*r);
  in.checkpoints_per_layer = args.number("checkpoints_per_layer", in.remat == Remat::checkpoints).value_or(0);
  in.efficiency = read_efficiency(args, d);
  if (const Json* node = args.object("precision", false)) {
    JsonReader r(*node, args.path_of("precision"), d);
    auto dtype_choice = [&](const char* key, std::vector<std::string> choices, Dtype fallback) {
      const auto name = r.choice(key, false, choices);
      return name ? *parse_dtype(*name) : fallback;
    };
    in.precision.matmul = dtype_choice("matmul", {"bf16", "fp8", "int8", "fp4"}, Dtype::bf16);
    in.precision.params = dtype_choice("params", {"bf16", "fp32"}, Dtype::bf16);
    const std::string master = r.choice("master_weights", false, {"none", "bf16", "fp32"}).value_or("none");
    in.precision.master_weights = master != "none";
    in.precision.master = master == "bf16" ? Dtype::bf16 : Dtype::fp32;
    in.precision.optimizer = dtype_choice("optimizer_states", {"fp32", "bf16"}, Dtype::fp32);
    r.finish();
  }
  return in;
}

bool read_training_step_args(const QueryContext& ctx, JsonReader& args, Diagnostics& d, TrainingInput& in) {
  in = read_training_input(ctx, args, d);
  const std::string par = args.path_of("parallelism");
  std::vector<int> used;
  if (const Json* node = args.object("parallelism", true)) {
    JsonReader r(*node, par, d);
    TrainingPlan& p = in.plan;
    read_axis_group(r, "data", *ctx.mesh, p.data, used, d);
    read_axis_group(r, "fsdp", *ctx.mesh, p.fsdp, used, d);
    read_axis_group(r, "tensor", *ctx.mesh, p.tensor, used, d);
    read_axis_group(r, "pipeline", *ctx.mesh, p.pipeline, used, d);
    read_axis_group(r, "expert", *ctx.mesh, p.expert, used, d);
    read_axis_group(r, "context", *ctx.mesh, p.context, used, d);
    p.zero_stage = static_cast<int>(r.number("zero_stage", false).value_or(3));
    p.sequence_parallel = r.boolean("sequence_parallel", false).value_or(true);
    const auto schedule = r.choice("pipeline_schedule", false, {"gpipe", "1f1b", "interleaved"}).value_or("1f1b");
    p.schedule = schedule == "gpipe" ? PipelineSchedule::gpipe
                 : schedule == "interleaved" ? PipelineSchedule::interleaved : PipelineSchedule::one_f_one_b;
    p.virtual_stages = r.number("virtual_stages", false).value_or(1);
    p.microbatches = r.number("microbatches", false).value_or(1);
    r.finish();
    check_all_axes_used(*ctx.mesh, used, par, d);
  }
  if (has_errors(d)) return false;
  peak_for(*ctx.hw, in.precision.matmul, args.path_of("precision") + "/matmul", d);
  check_training_plan(in, "/query", d);
  return !has_errors(d);
}

namespace {

void warn_out_of_hbm(const TrainingStep& s, const Hardware& hw, Diagnostics& d) {
  if (!s.fits)
    add_warning(d, "/query", "out_of_hbm",
                "the plan needs " + format_count(s.total_bytes / 1e9) + " GB per chip; " + hw.name + " has " +
                    format_count(s.hbm_capacity_bytes / 1e9) + " GB (" + format_count(s.shortfall_bytes / 1e9) + " GB more)");
}

Json comms_json(const std::array<double, kCommParts>& parts) {
  Json comms = Json::object();
  for (int i = 0; i < kCommParts; ++i) comms[std::string(comm_part_name(static_cast<CommPart>(i))) + "_s"] = parts[i];
  return comms;
}

// The result both fidelities share: the step's time, memory, throughput, cost and the book's thresholds.
Json training_step_json(const TrainingInput& in, const TrainingStep& s) {
  Json thresholds = Json::array();
  for (int i = 0; i < s.threshold_count; ++i) {
    const Threshold& t = s.thresholds[i];
    thresholds.push_back({{"name", t.name},
                          {"kind", t.kind == ThresholdKind::at_least ? "at_least" : "at_most"},
                          {"required", t.required},
                          {"actual", t.actual},
                          {"margin", t.margin},
                          {"ok", t.ok},
                          {"reason", threshold_reason(t)}});
  }
  Json out{{"degrees", {{"data", s.data}, {"fsdp", s.fsdp}, {"tensor", s.tensor}, {"pipeline", s.pipeline},
                        {"expert", s.expert}, {"context", s.context}, {"slices", s.slices}, {"chips", s.chips}}},
           {"tokens_per_chip", s.tokens_per_chip},
           {"tokens_per_data_shard", s.tokens_per_data_shard},
           {"microbatch_tokens", s.microbatch_tokens},
           {"time", {{"compute_s", s.compute_s}, {"bubble_s", s.bubble_s}, {"bubble_frac", s.bubble_frac},
                     {"hbm_s", s.hbm_s}, {"comms", comms_json(s.comms_s)}, {"comms_s", s.comms_s_total},
                     {"comms_sum_s", s.comms_s_sum}, {"exposed_comms_s", s.exposed_comms_s},
                     {"lower_bound_s", s.lower_bound_s}, {"upper_bound_s", s.upper_bound_s}, {"step_s", s.step_s},
                     {"bound", s.bound}, {"critical", s.critical}}},
           {"memory", {{"params_bytes", s.params_bytes}, {"master_weights_bytes", s.master_bytes},
                       {"grads_bytes", s.grads_bytes}, {"optimizer_bytes", s.optimizer_bytes},
                       {"activations_bytes", s.activations_bytes}, {"in_flight_microbatches", s.in_flight_microbatches},
                       {"context_buffers_bytes", s.context_buffers_bytes}, {"total_bytes", s.total_bytes},
                       {"hbm_capacity_bytes", s.hbm_capacity_bytes}, {"fits", s.fits},
                       {"shortfall_bytes", s.shortfall_bytes}, {"min_chips_for_memory", s.min_chips_for_memory}}},
           {"model_flops", s.model_flops},
           {"hardware_flops", s.hardware_flops},
           {"mfu_frac", s.mfu_frac},
           {"hfu_frac", s.hfu_frac},
           {"tokens_per_s", s.tokens_per_s},
           {"tokens_per_s_per_chip", s.tokens_per_s_per_chip},
           {"cost", {{"usd_per_hour", s.usd_per_hour}, {"train_tokens", in.train_tokens},
                     {"train_time_s", s.train_time_s}, {"train_usd", s.train_usd}}},
           {"thresholds", thresholds},
           {"binding", s.binding >= 0 ? s.thresholds[s.binding].name : ""}};
  if (s.fsdp_optimal_degree > 0) out["fsdp_optimal_degree"] = s.fsdp_optimal_degree;
  return out;
}

// The book's step beside a calibrated one: the ideal lower bound (DESIGN.md "Fidelity and calibration").
Json ideal_json(const TrainingStep& s) {
  return {{"step_s", s.step_s},           {"compute_s", s.compute_s},         {"comms_s", s.comms_s_total},
          {"bound", s.bound},             {"mfu_frac", s.mfu_frac},           {"tokens_per_s", s.tokens_per_s},
          {"train_time_s", s.train_time_s}, {"train_usd", s.train_usd},       {"total_bytes", s.total_bytes},
          {"fits", s.fits}};
}

Json breakdown_json(const CalibratedBreakdown& b) {
  Json comms = Json::object();
  for (int i = 0; i < kCommParts; ++i)
    comms[comm_part_name(static_cast<CommPart>(i))] = {{"full_s", b.comms_s[i]}, {"exposed_s", b.exposed_comms_s[i]}};
  return {{"matmul_s", b.matmul_s},         {"attention_s", b.attention_s},
          {"elementwise_s", b.elementwise_s}, {"op_overhead_s", b.op_overhead_s},
          {"recompute_s", b.recompute_s},   {"low_precision_cast_s", b.low_precision_cast_s},
          {"head_s", b.head_s},             {"bubble_s", b.bubble_s},
          {"comms", comms},                 {"optimizer_s", b.optimizer_s},
          {"step_overhead_s", b.step_overhead_s}, {"transient_bytes", b.transient_bytes}};
}

}  // namespace

Json run_training_step(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  TrainingInput in;
  const bool valid = read_training_step_args(ctx, args, d, in);
  const bool explain = args.boolean("explain", false).value_or(false);
  CalibrationProfile given;
  const CalibrationProfile* profile =
      ctx.fidelity == Fidelity::calibrated ? resolve_profile(ctx, args, given, d) : nullptr;
  if (!valid || has_errors(d)) return {};
  if (!profile) {
    const TrainingStep s = evaluate_training_step(in);
    warn_out_of_hbm(s, *ctx.hw, d);
    Json out = training_step_json(in, s);
    if (explain) out["explain"] = explain_training(in, s);
    return out;
  }
  const CalibratedTrainingStep c = evaluate_calibrated_training_step(in, *profile);
  warn_out_of_hbm(c.step, *ctx.hw, d);
  Json out = training_step_json(in, c.step);
  out["memory"]["transient_bytes"] = c.parts.transient_bytes;
  out["breakdown"] = breakdown_json(c.parts);
  out["ideal"] = ideal_json(c.ideal);
  out["calibration"] = calibration_json(*profile, *ctx.hw, "training");
  if (explain) out["explain"] = explain_training(in, c.ideal);
  return out;
}

}  // namespace scalescope

namespace scalescope {

namespace {

Json axis_names_of(const AxisGroup& g, const std::vector<std::string>& names, const Mesh* mesh) {
  Json out = Json::array();
  for (int i = 0; i < g.count; ++i) out.push_back(names.empty() ? mesh->axes[g.axes[i]].name : names[g.axes[i]]);
  return out;
}

}  // namespace

// Every plan for this mesh (TPU) or chip count (GPU), ranked: fitting plans first, then by step time.
Json run_plan_search(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  TrainingInput in = read_training_input(ctx, args, d);
  const int keep = static_cast<int>(args.number("keep", false).value_or(10));
  peak_for(*ctx.hw, in.precision.matmul, args.path_of("precision") + "/matmul", d);
  CalibrationProfile given;
  const CalibrationProfile* profile =
      ctx.fidelity == Fidelity::calibrated ? resolve_profile(ctx, args, given, d) : nullptr;
  if (has_errors(d)) return {};
  const PlanSearch search = search_training_plans(in, keep, profile);
  Json plans = Json::array();
  for (const PlanCandidate& c : search.best) {
    const TrainingStep& s = c.step;
    const TrainingPlan& p = c.plan;
    Json parallelism{{"zero_stage", p.zero_stage}, {"microbatches", p.microbatches}};
    const std::pair<const char*, const AxisGroup*> groups[] = {{"data", &p.data},         {"fsdp", &p.fsdp},
                                                               {"tensor", &p.tensor},     {"pipeline", &p.pipeline},
                                                               {"expert", &p.expert},     {"context", &p.context}};
    for (const auto& [key, group] : groups)
      if (group->count) parallelism[key] = axis_names_of(*group, c.axis_names, ctx.mesh);
    Json plan{{"parallelism", parallelism},
              {"remat", std::string(remat_name(c.remat))},
              {"degrees", {{"data", s.data}, {"fsdp", s.fsdp}, {"tensor", s.tensor}, {"pipeline", s.pipeline},
                           {"expert", s.expert}, {"context", s.context}, {"slices", s.slices}}},
              {"step_s", s.step_s},
              {"bound", s.bound},
              {"critical", s.critical},
              {"mfu_frac", s.mfu_frac},
              {"memory_bytes", s.total_bytes},
              {"fits", s.fits},
              {"binding", s.binding >= 0 ? s.thresholds[s.binding].name : ""},
              {"train_time_s", s.train_time_s},
              {"train_usd", s.train_usd}};
    if (!c.mesh_shape.empty()) plan["mesh"] = {{"shape", c.mesh_shape}, {"axis_names", c.axis_names}};
    if (profile) {
      // The book's step of the same plan: the ideal bound the calibrated ranking sits above.
      TrainingInput plan_in = in;
      Mesh plan_mesh;
      if (!c.mesh_shape.empty()) {
        Diagnostics ignored;
        plan_mesh = parse_mesh(Json{{"shape", c.mesh_shape}, {"axis_names", c.axis_names}}, "", *ctx.hw, ignored);
        plan_in.mesh = &plan_mesh;
      }
      plan_in.plan = c.plan;
      plan_in.remat = c.remat;
      const TrainingStep ideal = evaluate_training_step(plan_in);
      plan["ideal"] = {{"step_s", ideal.step_s}, {"mfu_frac", ideal.mfu_frac}, {"train_time_s", ideal.train_time_s}};
    }
    plans.push_back(plan);
  }
  if (search.fitting == 0)
    add_warning(d, "/query", "nothing_fits", "no plan fits in HBM; the list ranks the closest by step time");
  Json out{{"evaluated", search.evaluated}, {"valid", search.valid}, {"fitting", search.fitting}, {"plans", plans}};
  if (profile) out["calibration"] = calibration_json(*profile, *ctx.hw, "training");
  return out;
}

}  // namespace scalescope
