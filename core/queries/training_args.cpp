// Reading a training query's arguments (queries/training_args.h): the input training_step and plan_search share,
// the plan with its parallelism laid out and checked, and the out-of-HBM warning.
#include "queries/training_args.h"

#include <cmath>

#include "io/format.h"
#include "planners/plan_layout.h"
#include "planners/step_evaluator.h"
#include "queries/plan_reader.h"
#include "queries/query.h"

namespace scalescope {

namespace {

// How MoE layers run (planners/training.h MoeSettings); an MoE model's settings only.
void read_moe_settings(const QueryContext& ctx, JsonReader& args, TrainingInput& in, Diagnostics& d) {
  const Json* node = args.object("moe", false);
  if (!node) return;
  JsonReader r(*node, args.path_of("moe"), d);
  MoeSettings& moe = in.moe;
  moe.capacity_factor = r.number("capacity_factor", false).value_or(0);
  const std::string policy = r.choice("token_policy", false, {"dropless", "drop", "pad"})
                                 .value_or(moe.capacity_factor > 0 ? "drop" : "dropless");
  moe.policy = policy == "pad" ? TokenPolicy::pad : policy == "drop" ? TokenPolicy::drop : TokenPolicy::dropless;
  moe.load_imbalance = r.number("load_imbalance", false).value_or(1);
  moe.dispatcher =
      r.choice("dispatcher", false, {"all_to_all", "hierarchical"}).value_or("all_to_all") == "hierarchical"
          ? Dispatcher::hierarchical
          : Dispatcher::all_to_all;
  moe.overlap = r.boolean("overlap", false).value_or(false);
  r.finish();
  if (ctx.model && !ctx.model->is_moe())
    add_diagnostic(d, args.path_of("moe"), "not_applicable",
                   "MoE settings need an MoE model (" + ctx.model->name + " is dense)");
  if (moe.policy != TokenPolicy::dropless && moe.capacity_factor <= 0)
    add_diagnostic(d, r.path_of("capacity_factor"), "missing_key",
                   "token_policy '" + policy + "' needs the capacity_factor it drops or pads at");
  if (moe.policy == TokenPolicy::dropless && moe.capacity_factor > 0)
    add_diagnostic(d, r.path_of("token_policy"), "conflicting",
                   "a dropless MoE has no capacity; give token_policy 'drop' or 'pad' with a capacity_factor");
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
  if (auto r = args.choice("remat", false, remat_names())) in.remat = *parse_remat(*r);
  in.checkpoints_per_layer = args.number("checkpoints_per_layer", in.remat == Remat::checkpoints).value_or(0);
  if (args.choice("attention_kernel", false, {"flash", "materialized"}).value_or("flash") == "materialized")
    in.attention.kernel = AttentionKernel::materialized;
  in.attention.dropout = args.boolean("dropout", false).value_or(false);
  in.efficiency = read_efficiency(args, d);
  in.flop_account = args.choice("flop_account", false, {"full", "6nd"}).value_or("full") == "6nd" ? FlopAccount::six_nd
                                                                                                  : FlopAccount::full;
  in.target_mfu_frac = args.number("target_mfu_frac", false).value_or(0);
  const Json* efficiency = args.value("efficiency", false);
  if (in.target_mfu_frac > 0 && efficiency && efficiency->is_object() && efficiency->contains("flops_frac"))
    add_diagnostic(d, args.path_of("target_mfu_frac"), "conflicting",
                   "give either target_mfu_frac (the share of peak the model FLOPs reach, all losses included) or "
                   "efficiency.flops_frac (the share of peak the hardware FLOPs run at), not both");
  if (const Json* node = args.object("precision", false)) {
    JsonReader r(*node, args.path_of("precision"), d);
    auto dtype_choice = [&](const char* key, std::vector<std::string> choices, Dtype fallback) {
      const auto name = r.choice(key, false, choices);
      return name ? *parse_dtype(*name) : fallback;
    };
    if (const auto name = r.choice("matmul", false, matmul_precision_choices()))
      set_matmul_precision(*name, in.precision);
    in.precision.params = dtype_choice("params", {"bf16", "fp32"}, Dtype::bf16);
    const std::string grads = r.choice("gradients", false, {"params", "fp32", "fused"}).value_or("params");
    in.precision.gradients = grads == "fused"  ? GradientBuffer::fused
                             : grads == "fp32" ? GradientBuffer::fp32
                                               : GradientBuffer::same_as_params;
    const std::string master = r.choice("master_weights", false, {"none", "bf16", "fp32"}).value_or("none");
    in.precision.master_weights = master != "none";
    in.precision.master = master == "bf16" ? Dtype::bf16 : Dtype::fp32;
    in.precision.optimizer = dtype_choice("optimizer_states", {"fp32", "bf16"}, Dtype::fp32);
    r.finish();
  }
  read_moe_settings(ctx, args, in, d);
  // Multi-token prediction: a model trains the modules it has (DeepSeek-V3 trained its one), unless told otherwise.
  const double model_mtp = ctx.model ? ctx.model->mtp_layers : 0.0;
  in.mtp_layers = args.number("mtp_layers", false).value_or(model_mtp);
  if (in.mtp_layers > model_mtp)
    add_diagnostic(d, args.path_of("mtp_layers"), "too_large",
                   "the model has " + format_count(model_mtp) +
                       " multi-token prediction modules ('mtp_layers' in the "
                       "model, num_nextn_predict_layers in a config.json); train at most those");
  return in;
}

namespace {

// The plan's knobs beside its strategies (shared by training_step; plan_search writes the same keys).
void read_plan_knobs(JsonReader& r, TrainingPlan& p, Diagnostics& d, double& microbatch_sequences) {
  p.zero_stage = static_cast<int>(r.number("zero_stage", false).value_or(3));
  p.sequence_parallel = r.boolean("sequence_parallel", false).value_or(true);
  const auto schedule = r.choice("pipeline_schedule", false, pipeline_schedule_choices()).value_or("1f1b");
  for (PipelineSchedule s : kPipelineSchedules)
    if (schedule == pipeline_schedule_name(s)) p.schedule = s;
  p.expert_tensor = r.number("expert_tensor", false).value_or(0);
  p.virtual_stages = r.number("virtual_stages", false).value_or(1);
  // Only the interleaved schedule reads it (dualpipe_v always runs two chunks): said, not silently ignored.
  if (p.virtual_stages != 1 && p.schedule != PipelineSchedule::interleaved)
    add_warning(
        d, r.path_of("virtual_stages"), "ignored",
        "virtual_stages applies to the interleaved schedule only; with " + std::string(schedule) + " it is ignored");
  p.microbatches = r.number("microbatches", false).value_or(1);
  microbatch_sequences = r.number("microbatch_sequences", false).value_or(0);
  if (microbatch_sequences > 0 && r.has("microbatches"))
    add_diagnostic(d, r.path_of("microbatch_sequences"), "conflicting",
                   "give either microbatches (how many) or microbatch_sequences (how large), not both");
  p.context_variant = r.choice("context_variant", false, {"ring", "all_gather"}).value_or("ring") == "all_gather"
                          ? ContextVariant::all_gather
                          : ContextVariant::ring;
}

// Microbatches of `sequences` whole sequences each: the sequences of one data shard (a shard is data x fsdp x
// expert; CP splits every sequence, not the batch) must divide into them.
void set_microbatch_size(TrainingInput& in, double sequences, const std::string& path, Diagnostics& d) {
  const TrainingPlan& p = in.plan;
  const double per_shard = in.batch_tokens / in.seq_len / (p.data.degree * p.fsdp.degree * p.expert.degree);
  if (std::fmod(per_shard, sequences) != 0) {
    add_diagnostic(d, path, "not_divisible",
                   "microbatches of " + format_count(sequences) + " sequences do not divide the " +
                       format_count(per_shard) + " sequences of a data shard");
    return;
  }
  in.plan.microbatches = per_shard / sequences;
}

void read_offload(JsonReader& args, TrainingPlan& p, Diagnostics& d) {
  if (const Json* node = args.object("offload", false)) {
    JsonReader r(*node, args.path_of("offload"), d);
    p.offload_optimizer = r.boolean("optimizer", false).value_or(false);
    p.offload_activations = r.boolean("activations", false).value_or(false);
    r.finish();
  }
}

}  // namespace

bool read_training_step_args(const QueryContext& ctx, JsonReader& args, Diagnostics& d, TrainingInput& in,
                             TrainingPlanForm* form) {
  in = read_training_input(ctx, args, d);
  const std::string par = args.path_of("parallelism");
  read_offload(args, in.plan, d);
  PlanSpec spec;
  double microbatch_sequences = 0;
  if (const Json* node = args.object("parallelism", true)) {
    JsonReader r(*node, par, d);
    spec = read_plan_spec(r, *ctx.mesh, d);
    read_plan_knobs(r, in.plan, d, microbatch_sequences);
    r.finish();
  }
  if (has_errors(d)) return false;
  peak_for(*ctx.hw, in.precision.matmul, args.path_of("precision") + "/matmul", d);
  // The original form (whole axes, in the order given) is taken as it is; degrees and sub-axes are laid out in
  // every way they allow and the layout with the fastest book step is kept (calibrated or not, one layout).
  if (spec.whole_axes_only)
    set_plan_groups(in.plan, spec.whole);
  else {
    MeshLayout layout;
    for_each_layout(
        *ctx.mesh, spec.rules,
        [](const MeshLayout& l, void* out) {
          *static_cast<MeshLayout*>(out) = l;
          return false;
        },
        &layout);
    std::array<AxisGroup, kLayoutStrategies> first{};
    layout_groups(*ctx.mesh, layout, first);
    set_plan_groups(in.plan, first);
  }
  if (microbatch_sequences > 0) set_microbatch_size(in, microbatch_sequences, par + "/microbatch_sequences", d);
  check_training_plan(in, args.path(), d);  // "/query", or "/query/training" in a summary
  if (has_errors(d)) return false;
  if (!spec.whole_axes_only && ctx.layout_budget) {
    if (spec.layouts > *ctx.layout_budget) {
      add_diagnostic(d, par, "too_large",
                     "these degrees lie on the mesh in " + format_count(static_cast<double>(spec.layouts)) +
                         " ways, each costed, and this query's scenarios may cost " +
                         format_count(static_cast<double>(kMaxQueryLayouts)) +
                         " in all; name the mesh axes each strategy takes (sub-axes)");
      return false;
    }
    *ctx.layout_budget -= spec.layouts;
  }
  const std::int64_t layouts = spec.whole_axes_only ? 1 : choose_layout(in, spec.rules, StepEvaluator{});
  if (form) *form = TrainingPlanForm{!spec.whole_axes_only, layouts, microbatch_sequences > 0};
  return true;
}

void warn_out_of_hbm(const TrainingStep& s, const Hardware& hw, Diagnostics& d, const std::string& query_path) {
  if (!s.fits)
    add_warning(d, query_path, "out_of_hbm",
                "the plan needs " + format_bytes(s.total_bytes) + " per chip; " + hw.name + " has " +
                    format_bytes(s.hbm_capacity_bytes) + " (" + format_bytes(s.shortfall_bytes) + " more)");
}

}  // namespace scalescope
