// The training_step query: reads and validates a plan, evaluates one step, explains the numbers.
#include "planners/training.h"

#include <cmath>

#include "io/format.h"
#include "planners/calibrated_training.h"
#include "planners/plan_layout.h"
#include "queries/calibration_result.h"
#include "queries/main_ops.h"
#include "queries/pipeline_timeline.h"
#include "queries/plan_reader.h"
#include "queries/query.h"
#include "queries/training_args.h"
#include "specs/model_json.h"

namespace scalescope {

namespace {

// One line a person can read: "comms-bound: 468 tokens per chip < 850 needed for FSDP over 3 axes". When the step
// model's own pricing of the same comparison gives the other verdict, the line says so (issue 10 defect 2).
std::string threshold_reason(const Threshold& t, const Hardware& hw) {
  const std::string name = t.name;
  const std::string axes = t.axes > 1 ? " over " + format_count(t.axes) + " axes" : "";
  const char* verdict = t.ok ? "ok" : "comms-bound";
  std::string line = name;
  if (name == "dp_fsdp_tokens_per_chip")
    line = std::string(verdict) + ": " + format_count(t.actual) +
           (hw.kind == ChipKind::gpu ? " tokens per GPU " : " tokens per data shard ") + (t.ok ? ">= " : "< ") +
           format_count(t.required) + " needed for DP/FSDP" + axes;
  else if (name == "tensor_parallel_degree")
    line = std::string(verdict) + ": " + format_count(t.actual) + "-way TP " + (t.ok ? "<= " : "> ") + "the limit of " +
           format_count(t.required) + " (M_Y F W / C" + axes + ")";
  else if (name == "fsdp_tp_tokens_per_chip")
    line = std::string(verdict) + ": " + format_count(t.actual) + " tokens per chip " + (t.ok ? ">= " : "< ") +
           format_count(t.required) + " needed for FSDP x TP (alpha^2 / (M_X M_Y F))";
  else if (name == "dcn_tokens_per_slice")
    line = std::string(verdict) + ": " + format_count(t.actual) + " tokens per slice " + (t.ok ? ">= " : "< ") +
           format_count(t.required) + " needed to all-reduce over DCN";
  else if (name == "expert_d_ff")
    line = std::string(verdict) + ": expert d_ff " + format_count(t.actual) + (t.ok ? " >= " : " < ") +
           format_count(t.required) + " needed for this EP degree";
  const bool step_ok = t.step_margin >= 1.0;
  if (step_ok != t.ok)
    line += std::string("; the step model prices this plan ") + (step_ok ? "compute-bound" : "comms-bound") +
            " here (margin " + format_count(t.step_margin) + "): the closed form is the book's simplification";
  return line;
}

std::string g(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

Json explained(std::string formula, std::string values, double result, const char* section) {
  return {{"formula", std::move(formula)}, {"values", std::move(values) + " = " + g(result)}, {"section", section}};
}

// The headline numbers with their formulas and the values substituted (docs/design.md: results explain themselves, on
// request, so the search path does not pay for it).
Json explain_training(const TrainingInput& in, const TrainingStep& s) {
  const double c = in.hw->peak(in.precision.matmul);
  Json out;
  const char* account = in.flop_account == FlopAccount::six_nd
                            ? "scaling-book/transformers, training FLOPs (6ND"
                            : "scaling-book/transformers, training FLOPs (6ND + attention";
  if (in.target_mfu_frac > 0)
    out["compute_s"] =
        explained("model FLOPs / (chips x C x target MFU)",
                  g(s.model_flops) + " / (" + g(s.chips) + " x " + g(c) + " x " + g(in.target_mfu_frac) + ")",
                  s.compute_s, (std::string(account) + "; the MFU covers remat and the bubble)").c_str());
  else
    out["compute_s"] =
        explained("hardware FLOPs / (chips x C x flops_frac)",
                  g(s.hardware_flops) + " / (" + g(s.chips) + " x " + g(c) + " x " + g(in.efficiency.flops_frac) + ")",
                  s.compute_s, (std::string(account) + " + remat recompute)").c_str());
  if (s.bubble_s > 0)
    out["bubble_s"] =
        explained("compute x f / (1 - f), f = (S - 1)/(v m + S - 1)",
                  g(s.compute_s) + " x " + g(s.bubble_frac) + " / (1 - " + g(s.bubble_frac) + ")", s.bubble_s,
                  "GPipe (Huang et al. 2019); the book gives no closed form "
                  "(scaling-book/training, pipelining)");
  // Each strategy's comms by name, so the values say which one is the largest (not the step's critical part).
  std::string parts;
  for (int i = 0; i < kCommParts; ++i) {
    if (s.comms_s[i] <= 0) continue;
    parts +=
        (parts.empty() ? "" : ", ") + std::string(comm_part_name(static_cast<CommPart>(i))) + " " + g(s.comms_s[i]);
  }
  if (parts.empty()) parts = "none";
  out["comms_total_s"] = explained(in.sum_comms_model ? "sum of the parallelism axes' comms (Feb-2025)"
                                                      : "max of the parallelism axes' comms (Aug-2025: they overlap)",
                                   std::string(in.sum_comms_model ? "sum(" : "max(") + parts + ")", s.comms_s_total,
                                   "scaling-book/training, mixed FSDP + TP");
  out["step_s"] = explained("max(compute + bubble, HBM, comms)",
                            "max(" + g(s.compute_s + s.bubble_s) + ", " + g(s.hbm_s) + ", " + g(s.comms_s_total) + ")",
                            s.step_s, "scaling-book/roofline (perfect overlap; the upper bound is the sum)");
  out["mfu_frac"] = explained("model FLOPs / (step x chips x peak)",
                              g(s.model_flops) + " / (" + g(s.step_s) + " x " + g(s.chips) + " x " + g(c) + ")",
                              s.mfu_frac, "scaling-book/applied-training, training time at an MFU");
  out["memory_bytes"] = explained(
      "params + grads + master + Adam moments + activations x in-flight + CP buffers",
      g(s.params_bytes) + " + " + g(s.grads_bytes) + " + " + g(s.master_bytes) + " + " + g(s.optimizer_bytes) + " + " +
          g(s.activations_bytes) + " + " + g(s.context_buffers_bytes),
      s.total_bytes,
      s.state_bytes_per_param == 10.0 ? "scaling-book/training, memory (2 + 8 = 10 bytes per parameter: params and "
                                        "fp32 Adam); scaling-book/transformers, remat"
                                      : "scaling-book/training, memory (the book's 10 bytes per parameter leave out "
                                        "the gradient buffer); scaling-book/transformers, remat");
  out["train_usd"] =
      explained("train tokens / (tokens per s) / 3600 x chips x $ per chip-hour",
                g(in.train_tokens) + " / " + g(s.tokens_per_s) + " / 3600 x " + g(s.chips) + " x " +
                    g(in.hw->price_usd_per_chip_hour),
                s.train_usd, "scaling-book/applied-training, training time; prices: scaling-book/applied-inference");
  return out;
}

Json comms_json(const std::array<double, kCommParts>& parts) {
  Json comms = Json::object();
  for (int i = 0; i < kCommParts; ++i) comms[std::string(comm_part_name(static_cast<CommPart>(i))) + "_s"] = parts[i];
  return comms;
}

// The book's thresholds the plan meets or misses, each with its reason in words.
Json thresholds_json(const TrainingInput& in, const TrainingStep& s) {
  Json thresholds = Json::array();
  for (int i = 0; i < s.threshold_count; ++i) {
    const Threshold& t = s.thresholds[i];
    thresholds.push_back({{"name", t.name},
                          {"kind", t.kind == ThresholdKind::at_least ? "at_least" : "at_most"},
                          {"required", t.required},
                          {"actual", t.actual},
                          {"margin", t.margin},
                          {"ok", t.ok},
                          {"step_margin", t.step_margin},
                          {"step_ok", t.step_margin >= 1.0},
                          {"simplification", t.simplification},
                          {"reason", threshold_reason(t, *in.hw)}});
  }
  return thresholds;
}

// Where the step's time goes: compute, bubble, HBM, each strategy's comms, what is exposed, the bounds.
Json step_time_json(const TrainingStep& s) {
  return {{"compute_s", s.compute_s},
          {"bubble_s", s.bubble_s},
          {"bubble_frac", s.bubble_frac},
          {"hbm_total_s", s.hbm_s},
          {"hbm_exposed_s", s.hbm_exposed_s},
          {"comms", comms_json(s.comms_s)},
          {"comms_total_s", s.comms_s_total},
          {"comms_sum_s", s.comms_s_sum},
          {"comms_exposed_s", s.comms_exposed_s},
          {"overhead_s", s.overhead_s},
          {"lower_bound_s", s.lower_bound_s},
          {"upper_bound_s", s.upper_bound_s},
          {"step_s", s.step_s},
          {"bound", s.bound},
          {"critical", s.critical}};
}

// What one chip holds, in bytes, and whether it fits.
Json step_memory_json(const TrainingStep& s) {
  return {{"params_bytes", s.params_bytes},
          {"master_weights_bytes", s.master_bytes},
          {"grads_bytes", s.grads_bytes},
          {"optimizer_bytes", s.optimizer_bytes},
          {"activations_bytes", s.activations_bytes},
          {"in_flight_microbatches", s.in_flight_microbatches},
          {"context_buffers_bytes", s.context_buffers_bytes},
          {"total_bytes", s.total_bytes},
          {"hbm_capacity_bytes", s.hbm_capacity_bytes},
          {"fits", s.fits},
          {"shortfall_bytes", s.shortfall_bytes},
          {"min_chips_for_memory", s.min_chips_for_memory},
          {"state_bytes_per_param", s.state_bytes_per_param}};
}

// How the experts run: parallel folding's degrees, the busiest rank's rows over the mean, and what the padding to
// capacity adds to the hardware FLOPs.
Json moe_json(const TrainingInput& in) {
  const char* policy = in.moe.policy == TokenPolicy::pad    ? "pad"
                       : in.moe.policy == TokenPolicy::drop ? "drop"
                                                            : "dropless";
  return {{"expert_parallel", expert_parallel_degree(in.plan)},
          {"expert_tensor", expert_tensor_degree(in.plan)},
          {"token_policy", policy},
          {"capacity_factor", in.moe.capacity_factor},
          {"load_imbalance", in.moe.load_imbalance},
          {"expert_load", expert_load(in.moe)},
          {"dispatcher", in.moe.dispatcher == Dispatcher::hierarchical ? "hierarchical" : "all_to_all"},
          {"overlap", in.moe.overlap}};
}

// The result both fidelities share: the step's time, memory, throughput, cost and the book's thresholds.
Json training_step_json(const TrainingInput& in, const TrainingStep& s) {
  Json out{{"degrees",
            {{"data", s.data},
             {"fsdp", s.fsdp},
             {"tensor", s.tensor},
             {"pipeline", s.pipeline},
             {"expert", s.expert},
             {"context", s.context},
             {"slices", s.slices},
             {"chips", s.chips}}},
           {"tokens_per_chip", s.tokens_per_chip},
           {"tokens_per_data_shard", s.tokens_per_data_shard},
           {"microbatch_tokens", s.microbatch_tokens},
           {"time", step_time_json(s)},
           {"memory", step_memory_json(s)},
           {"flop_account", in.flop_account == FlopAccount::six_nd ? "6nd" : "full"},
           {"model_flops", s.model_flops},
           {"hardware_flops", s.hardware_flops},
           {"mfu_frac", s.mfu_frac},
           {"hfu_frac", s.hfu_frac},
           {"tokens_per_s", s.tokens_per_s},
           {"tokens_per_s_per_chip", s.tokens_per_s_per_chip},
           {"cost",
            {{"usd_per_hour", s.usd_per_hour},
             {"train_tokens", in.train_tokens},
             {"train_time_s", s.train_time_s},
             {"train_usd", s.train_usd}}},
           {"thresholds", thresholds_json(in, s)},
           {"binding", s.binding >= 0 ? s.thresholds[s.binding].name : ""}};
  if (in.target_mfu_frac > 0) out["target_mfu_frac"] = in.target_mfu_frac;
  if (s.fsdp_optimal_degree > 0) out["fsdp_optimal_degree"] = s.fsdp_optimal_degree;
  if (s.stage_imbalance != 1.0) {
    out["pipeline_stage_layers"] = s.stage_layers;
    out["pipeline_stage_imbalance"] = s.stage_imbalance;
  }
  if (in.plan.offload_optimizer || in.plan.offload_activations) {
    out["time"]["offload_total_s"] = s.offload_s;
    out["time"]["offload_exposed_s"] = s.offload_exposed_s;
    out["memory"]["host_bytes"] = s.host_bytes;
  }
  const ModelConfig& m = *in.model;
  if (m.is_moe()) out["moe"] = moe_json(in);
  if (m.pattern.runs.size() > 1 && s.pipeline > 1) out["pipeline_stage_kinds"] = layer_counts_json(s.stage_kinds);
  if (in.mtp_layers > 0) out["mtp_layers"] = in.mtp_layers;
  return out;
}

// The plan's form in the result: for degrees or sub-axes the layout the engine chose (pieces as training_step
// reads them back, rings, bandwidth) and how many it weighed; the microbatch count a microbatch size gave.
void add_plan_form(const QueryContext& ctx, const TrainingInput& in, const TrainingPlanForm& form, Json& out) {
  if (form.laid_out) {
    out["layout"] = layout_json(*ctx.hw, *ctx.mesh, in.plan);
    out["layouts_considered"] = form.layouts;
    Json parallelism = Json::object();
    for (int k = 0; k < kLayoutStrategies; ++k)
      if (plan_group(in.plan, k).count) parallelism[kStrategyKeys[k]] = group_json(plan_group(in.plan, k), *ctx.mesh);
    out["parallelism"] = parallelism;
  }
  if (form.microbatch_sizes) out["microbatches"] = in.plan.microbatches;
}

// The book's step beside a calibrated one: the ideal lower bound (docs/design.md "Fidelity and calibration").
Json ideal_json(const TrainingStep& s) {
  return {{"step_s", s.step_s},
          {"compute_s", s.compute_s},
          {"comms_total_s", s.comms_s_total},
          {"bound", s.bound},
          {"mfu_frac", s.mfu_frac},
          {"tokens_per_s", s.tokens_per_s},
          {"train_time_s", s.train_time_s},
          {"train_usd", s.train_usd},
          {"total_bytes", s.total_bytes},
          {"fits", s.fits}};
}

// The book's ideal is a lower bound on the calibrated step except where the book prices one strategy's collectives
// above what the calibrated model prices them at: an MoE's expert all-to-all across NVLink domains, which the book
// takes as one exchange through each domain's egress (scaling-book/gpus, cross-node AllToAll) and the calibrated
// dispatch as the token copies each rank routes (physics/expert_dispatch.h). The ideal then says so, naming the part
// whose excess is the largest, so that no page calls it a bound when it is not.
void mark_ideal_bound(Json& ideal, const CalibratedTrainingStep& c) {
  const bool bound = c.ideal.step_s <= c.step.step_s;
  ideal["lower_bound"] = bound;
  if (bound) return;
  int part = 0;
  for (int i = 1; i < kCommParts; ++i)
    if (c.ideal.comms_s[i] - c.parts.comms_s[i] > c.ideal.comms_s[part] - c.parts.comms_s[part]) part = i;
  const std::string name = comm_part_name(static_cast<CommPart>(part));
  ideal["above_estimate"] = {
      {"part", name},
      {"book_s", c.ideal.comms_s[part]},
      {"calibrated_s", c.parts.comms_s[part]},
      {"text", (name == "expert" ? "the book's all-to-all (one exchange through each NVLink domain's egress: "
                                   "scaling-book/gpus, cross-node AllToAll) prices the expert collectives at "
                                 : "the book's bandwidth model prices the " + name + " collectives at ") +
                   format_count(c.ideal.comms_s[part]) + " s, above the calibrated " +
                   format_count(c.parts.comms_s[part]) + " s" +
                   (name == "expert" ? " (the token copies each rank routes, over its NVLink and network links at the "
                                       "rates the runs measured)"
                                     : "") +
                   ", so here the book's step is not a lower bound"}};
}

Json breakdown_json(const CalibratedBreakdown& b) {
  Json comms = Json::object();
  for (int i = 0; i < kCommParts; ++i)
    comms[comm_part_name(static_cast<CommPart>(i))] = {{"full_s", b.comms_s[i]}, {"exposed_s", b.exposed_comms_s[i]}};
  return {{"matmul_s", b.matmul_s},
          {"attention_s", b.attention_s},
          {"elementwise_s", b.elementwise_s},
          {"op_overhead_s", b.op_overhead_s},
          {"recompute_s", b.recompute_s},
          {"low_precision_cast_s", b.low_precision_cast_s},
          {"expert_matmul_s", b.expert_matmul_s},
          {"head_s", b.head_s},
          {"bubble_s", b.bubble_s},
          {"comms", comms},
          {"optimizer_s", b.optimizer_s},
          {"step_overhead_s", b.step_overhead_s},
          {"transient_bytes", b.transient_bytes}};
}

}  // namespace

Json run_training_step(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  TrainingInput in;
  TrainingPlanForm form;
  const bool valid = read_training_step_args(ctx, args, d, in, &form);
  const bool explain = args.boolean("explain", false).value_or(false);
  const bool timeline = args.boolean("pipeline_timeline", false).value_or(false);
  const GoodputAsk goodput = read_goodput_settings(ctx, args, d);
  CalibrationProfile given;
  const CalibrationProfile* profile =
      ctx.fidelity == Fidelity::calibrated ? resolve_profile(ctx, args, in.efficiency, given, d) : nullptr;
  if (!valid || has_errors(d)) return {};
  if (!profile) {
    const TrainingStep s = evaluate_training_step(in);
    warn_out_of_hbm(s, *ctx.hw, d, args.path());
    Json out = training_step_json(in, s);
    add_plan_form(ctx, in, form, out);
    out["main_ops"] = training_main_ops_json(in, s);
    if (in.train_tokens > 0 && goodput.given)
      out["goodput"] = goodput_json(in, s, goodput);
    else if (in.train_tokens > 0)
      out["cost"]["note"] =
          "the book’s time to train assumes no failures, checkpoints or restarts; the calibrated "
          "estimate counts them (its goodput)";
    if (explain) out["explain"] = explain_training(in, s);
    if (timeline)
      out["pipeline_timeline"] =
          pipeline_timeline_json(in.plan, book_pipeline_passes(s.compute_s, in.plan.microbatches), s.bubble_s);
    return out;
  }
  const CalibratedTrainingStep c = evaluate_calibrated_training_step(in, *profile);
  warn_out_of_hbm(c.step, *ctx.hw, d, args.path());
  Json out = training_step_json(in, c.step);
  add_plan_form(ctx, in, form, out);
  out["main_ops"] = training_main_ops_json(in, c.step);
  out["memory"]["transient_bytes"] = c.parts.transient_bytes;
  out["breakdown"] = breakdown_json(c.parts);
  out["ideal"] = ideal_json(c.ideal);
  mark_ideal_bound(out["ideal"], c);
  out["calibration"] = calibration_json(*profile, *ctx.hw, "training", scope_point(in));
  if (in.train_tokens > 0) out["goodput"] = goodput_json(in, c.step, goodput);
  if (explain) out["explain"] = explain_training(in, c.ideal);
  if (timeline) out["pipeline_timeline"] = pipeline_timeline_json(in.plan, c.parts.pipeline_passes, c.parts.bubble_s);
  return out;
}

}  // namespace scalescope
