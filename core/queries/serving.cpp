// The serving query: prefill and decode of one replica, the largest batch that fits, throughput, cost, the
// book's serving thresholds, disaggregation, continuous batching, speculative decoding and a batch x context sweep.
#include "planners/serving.h"

#include <algorithm>
#include <cmath>

#include "io/format.h"
#include "io/limits.h"
#include "physics/roofline.h"
#include "planners/calibrated_serving.h"
#include "planners/serving_deployment.h"
#include "queries/calibration_result.h"
#include "queries/main_ops.h"
#include "queries/plan_reader.h"
#include "queries/query.h"
#include "queries/serving_args.h"
#include "queries/serving_load_args.h"
#include "specs/presets.h"

namespace scalescope {

namespace {

constexpr std::size_t kDefaultSweepBatches = 22;

Json exposed_json(const ServingExposed& e) {
  return {{"flops_s", e.flops_s},
          {"param_load_s", e.param_load_s},
          {"kv_load_s", e.kv_load_s},
          {"comms_s", e.comms_s},
          {"overhead_s", e.overhead_s}};
}

Json decode_json(const DecodeStep& s) {
  return {{"param_load_s", s.param_load_s},
          {"kv_load_s", s.kv_load_s},
          {"flops_s", s.flops_s},
          {"comms_s", s.comms_s},
          {"overhead_s", s.overhead_s},
          {"exposed", exposed_json(s.exposed)},
          {"step_s", s.step_s},
          {"bound", s.bound},
          {"critical", s.critical},
          {"mlp_bound", s.compute_bound ? "compute" : "memory"}};
}

// A deployment of this replica for a demand (planners/serving_deployment.h), the serving search's row for it.
struct DeploymentArgs {
  bool given = false, disaggregated = false;
  double demand_tokens_per_s = 0;
};

DeploymentArgs read_deployment(JsonReader& args, Diagnostics& d) {
  DeploymentArgs out;
  if (const Json* node = args.object("deployment", false)) {
    JsonReader r(*node, args.path_of("deployment"), d);
    out.given = true;
    out.disaggregated =
        r.choice("prefill", true, {"colocated", "disaggregated"}).value_or("colocated") == "disaggregated";
    out.demand_tokens_per_s = r.number("demand_tokens_per_s", false).value_or(0);
    r.finish();
  }
  return out;
}

Json deployment_json(const DeploymentArgs& a, const DeploymentInput& base, double decode_step_s, double prefill_one_s) {
  DeploymentInput in = base;
  in.decode_step_s = decode_step_s;
  in.prefill_one_s = prefill_one_s;
  in.disaggregated = a.disaggregated;
  in.demand_tokens_per_s = a.demand_tokens_per_s;
  const DeploymentCost c = deployment_cost(in);
  return {{"prefill", a.disaggregated ? "disaggregated" : "colocated"},
          {"demand_tokens_per_s", a.demand_tokens_per_s},
          {"latency_per_token_s", c.latency_per_token_s},
          {"replicas", c.replicas},
          {"prefill_servers", c.prefill_servers},
          {"total_chips", c.total_chips},
          {"tokens_per_s", c.tokens_per_s},
          {"tokens_per_s_per_chip", c.tokens_per_s_per_chip},
          {"usd_per_million_output_tokens", c.usd_per_million_output_tokens},
          {"prefill_bound", c.prefill_bound}};
}

}  // namespace

// The replica's split over `mesh`: `parallelism`'s tensor axes (or 2D x and yz), expert axes and expert TP, checked.
void read_serving_parallelism(JsonReader& args, const Mesh& mesh, ServingInput& in, Diagnostics& d) {
  const std::string par = args.path_of("parallelism");
  std::vector<int> used;
  if (const Json* node = args.object("parallelism", false)) {
    JsonReader r(*node, par, d);
    in.layout_2d = r.choice("layout", false, {"1d", "2d"}).value_or("1d") == "2d";
    if (in.layout_2d) {
      read_axis_group(r, "x", mesh, in.x, used, d);
      read_axis_group(r, "yz", mesh, in.yz, used, d);
      in.tensor.degree = in.x.degree * in.yz.degree;
    } else {
      read_axis_group(r, "tensor", mesh, in.tensor, used, d);
    }
    read_axis_group(r, "expert", mesh, in.expert, used, d);
    in.expert_tensor = r.number("expert_tensor", false).value_or(0);
    r.finish();
  }
  check_all_axes_used(mesh, used, par, d);
  check_serving_plan(in, par, par + (in.layout_2d ? "/yz" : "/tensor"), d);
  for (const auto& g : {in.tensor, in.expert, in.x, in.yz})
    if (g.has_dcn) add_diagnostic(d, par, "dcn_in_replica", "a serving replica lives inside one slice; drop 'slices'");
}

HbmBudget read_hbm_budget(JsonReader& args, Fidelity fidelity, Diagnostics& d) {
  const std::optional<double> of_total = args.number("memory_frac", false);
  const std::optional<double> of_free = args.number("free_memory_frac", false);
  if (of_total && of_free)
    add_diagnostic(d, args.path_of("free_memory_frac"), "conflicting",
                   "give the engine's memory budget one way: 'memory_frac' (of the whole HBM) or "
                   "'free_memory_frac' (of what the weights leave)");
  if (of_free) return {.of_total = 1.0, .of_free = *of_free, .stated = true};
  if (of_total) return {.of_total = *of_total, .stated = true};
  return {.of_total = fidelity == Fidelity::calibrated ? 0.9 : 1.0};
}

bool read_serving_args(const QueryContext& ctx, JsonReader& args, Diagnostics& d, ServingArgs& a) {
  const Hardware& hw = *ctx.hw;
  const Mesh& mesh = *ctx.mesh;
  ServingInput& in = a.in;
  in.model = ctx.model;
  in.hw = ctx.hw;
  in.mesh = ctx.mesh;
  in.weights = ctx.model->weights_dtype.value_or(Dtype::bf16);  // the published checkpoint's, unless asked
  a.batch = args.number("batch", true).value_or(1);
  a.prompt_len = args.number("prompt_len", true).value_or(1);
  a.generated_len = args.number("generated_len", true).value_or(1);
  a.kv_context_len = args.number("kv_context_len", false).value_or(a.prompt_len + a.generated_len / 2.0);
  if (const Json* node = args.object("dtypes", false)) {
    JsonReader r(*node, args.path_of("dtypes"), d);
    in.weights = r.dtype("weights", false).value_or(in.weights);
    in.kv = r.dtype("kv", false).value_or(Dtype::bf16);
    in.activations = r.dtype("activations", false).value_or(Dtype::bf16);
    r.finish();
  }
  in.efficiency = read_efficiency(args, d);
  in.prefill_flops_frac = args.number("prefill_flops_frac", false).value_or(in.efficiency.flops_frac);
  in.include_comms = args.boolean("include_comms", false).value_or(true);
  in.params_override = args.number("params_override", false).value_or(0);
  in.hbm_budget = read_hbm_budget(args, ctx.fidelity, d);
  read_serving_parallelism(args, mesh, in, d);
  peak_for(hw, in.activations, args.path_of("dtypes") + "/activations", d);
  return !has_errors(d);
}

namespace {

// The book's time to first token is a lower bound on the calibrated one except where the book prices one of its terms
// above the calibrated prefill's whole time: an MoE's expert all-to-all across NVLink domains, which the book takes
// as one exchange through each domain's egress (scaling-book/gpus, cross-node AllToAll; issue 41: DeepSeek-V3 on 64
// H200s, 294 ms against a calibrated 94 ms). The book's TTFT is the largest of its terms, the calibrated one their
// sum, so the book's largest term alone is above the calibrated total, and its excess covers the gap. The ideal says
// so, naming it.
void mark_ideal_ttft(Json& ideal, const PrefillStep& book, const PrefillStep& calibrated) {
  const bool bound = book.time_s <= calibrated.time_s;
  ideal["lower_bound"] = bound;
  if (bound) return;
  const std::pair<const char*, double> terms[] = {
      {"flops", book.flops_s}, {"param_load", book.param_load_s}, {"comms", book.comms_s}};
  const auto* top = &terms[0];
  for (const auto& t : terms)
    if (t.second > top->second) top = &t;
  // What that term adds to the calibrated time (its exposed share: the shares sum to the time).
  const double mine = top->first == std::string("flops")        ? calibrated.exposed.flops_s
                      : top->first == std::string("param_load") ? calibrated.exposed.param_load_s
                                                                : calibrated.exposed.comms_s;
  const std::string what = top->first == std::string("comms")   ? "communication"
                           : top->first == std::string("flops") ? "FLOPs"
                                                                : "weight loads";
  ideal["above_estimate"] = {
      {"part", top->first},
      {"metric", "time_to_first_token_s"},
      {"book_s", top->second},
      {"calibrated_s", mine},
      {"text", "the book prices one request's prefill " + what + " at " + format_count(top->second) +
                   " s, above the calibrated prefill's whole " + format_count(calibrated.time_s) + " s" +
                   (top->first == std::string("comms") ? " (the book takes an MoE's all-to-all as one exchange through "
                                                         "each NVLink domain's egress: scaling-book/gpus, "
                                                         "cross-node AllToAll)"
                                                       : "") +
                   ", so here the book's time to first token is not a lower bound"}};
}

}  // namespace

namespace {

// Speculative decoding: a draft model on the same chips proposes `lookahead` tokens per step.
struct SpeculativeArgs {
  bool given = false;
  ModelConfig draft;
  double lookahead = 0, acceptance = 0;
};

SpeculativeArgs read_speculative(JsonReader& args, Diagnostics& d) {
  SpeculativeArgs out;
  if (const Json* node = args.object("speculative", false)) {
    JsonReader r(*node, args.path_of("speculative"), d);
    if (const Json* dm = r.value("draft_model", true)) out.draft = resolve_model(*dm, r.path_of("draft_model"), d);
    out.lookahead = r.number("lookahead", true).value_or(1);
    out.acceptance = r.number("acceptance_rate", true).value_or(0.5);
    r.finish();
    out.given = true;
  }
  return out;
}

// The batch x context sweep's points (empty batches: the defaults, serving_sweep_batches; empty contexts: the query's).
struct SweepArgs {
  std::vector<double> batches, contexts;
};

SweepArgs read_sweep(JsonReader& args, Diagnostics& d) {
  SweepArgs out;
  if (const Json* node = args.object("sweep", false)) {
    JsonReader r(*node, args.path_of("sweep"), d);
    out.batches = r.numbers("batches", false);
    out.contexts = r.numbers("contexts", false);
    r.finish();
    // Each list is capped by the reader; their product, the points, by kMaxSweepPoints (the default batches are
    // powers of two up to 2^20 and the largest that fits: at most kDefaultSweepBatches per context).
    const std::size_t points = (out.batches.empty() ? kDefaultSweepBatches : out.batches.size()) *
                               std::max<std::size_t>(1, out.contexts.size());
    if (points > kMaxSweepPoints)
      add_diagnostic(d, args.path_of("sweep"), "too_large",
                     "the sweep asks for " + std::to_string(points) + " points (batches x contexts); the limit is " +
                         std::to_string(kMaxSweepPoints));
  }
  return out;
}

// Everything a serving query asks. `profile` points at `given` or a preset: filled in place, never copied.
struct ServingQuery {
  ServingArgs a;
  double latency_target_s = 0;
  DeploymentArgs deployment;
  LoadArgs load;
  CalibrationProfile given;
  const CalibrationProfile* profile = nullptr;
  SpeculativeArgs speculative;
  SweepArgs sweep;
};

// Reads the query in its keys' order (so the diagnostics come in the same order); false on errors.
bool read_serving_query(const QueryContext& ctx, JsonReader& args, Diagnostics& d, ServingQuery& q) {
  read_serving_args(ctx, args, d, q.a);
  q.latency_target_s = args.number("latency_target_s", false).value_or(0);
  q.deployment = read_deployment(args, d);
  read_load(ctx, args, q.a, q.load, d);
  if (ctx.fidelity == Fidelity::calibrated) q.profile = resolve_profile(ctx, args, q.a.in.efficiency, q.given, d);
  q.speculative = read_speculative(args, d);
  q.sweep = read_sweep(args, d);
  return !has_errors(d);
}

void warn_if_out_of_hbm(const ServingMemory& memory, const std::string& path, Diagnostics& d) {
  const double budget = memory.budget_bytes;
  if (memory.total_bytes <= budget) return;
  const std::string room = budget < memory.hbm_total_bytes
                               ? "; the engine's memory budget gives them " + format_bytes(budget) +
                                     " of the replica's " + format_bytes(memory.hbm_total_bytes)
                               : "; the replica has " + format_bytes(memory.hbm_total_bytes);
  add_warning(d, path, "out_of_hbm",
              "weights and KV caches need " + format_bytes(memory.total_bytes) + room + " (at most " +
                  format_count(memory.max_batch) + " sequences fit at " + format_count(memory.final_context) +
                  " tokens)");
}

// The replica's decode step at the query's context, the whole batch's prefill (the prompts together) and one
// request's (its time to first token, scaling-book/inference).
struct ServingSteps {
  DecodeStep decode;
  PrefillStep batch_prefill, one_prefill;
};

ServingSteps price_steps(const ServingModel& model, const ServingRequests& r, double context) {
  return {model.decode(r.batch, context), model.prefill(r.batch, r.prompt_len), model.prefill(1, r.prompt_len)};
}

Json prefill_json(const PrefillStep& pre, const ServingRequests& r) {
  return {{"sequences", r.batch},
          {"tokens", r.batch * r.prompt_len},
          {"matmul_flops_s", pre.matmul_flops_s},
          {"flops_s", pre.flops_s},
          {"param_load_s", pre.param_load_s},
          {"comms_s", pre.comms_s},
          {"overhead_s", pre.overhead_s},
          {"exposed", exposed_json(pre.exposed)},
          {"time_s", pre.time_s},
          {"bound", pre.bound}};
}

Json memory_json(const ServingInput& in, const ServingMemory& mem) {
  const double hbm_per_chip = in.hw->hbm_capacity_bytes;
  return {{"param_bytes", mem.param_bytes},
          {"kv_bytes_per_sequence", mem.kv_bytes_per_sequence},
          {"kv_bytes_per_token", kv_bytes_per_token(*in.model, in.kv)},
          {"total_bytes", mem.total_bytes},
          {"hbm_capacity_bytes", mem.hbm_total_bytes},
          {"budget_bytes", mem.budget_bytes},
          {"fits", mem.total_bytes <= mem.budget_bytes},
          {"max_batch", mem.max_batch},
          // Applied inference: what the weights leave of the replica's HBM for KV caches, within the engine's budget.
          {"hbm_for_kv_bytes", mem.kv_budget_bytes},
          {"min_chips_for_params", std::ceil(mem.param_bytes / hbm_per_chip)},
          {"chips_for_params", mem.param_bytes / hbm_per_chip},
          // scaling-book/applied-inference, the smallest slice: chips whose HBM holds the weights and this
          // batch's KV caches.
          {"min_chips", std::ceil(mem.total_bytes / hbm_per_chip)}};
}

// The replica's answer: its steps, memory, throughput, latency and cost.
Json replica_json(const ServingInput& in, const ServingRequests& r, double context, const ServingSteps& steps,
                  const ServingMemory& mem) {
  const DecodeStep& step = steps.decode;
  const ServingRates rates = serving_rates(in, r, step.step_s, steps.batch_prefill.time_s, steps.one_prefill.time_s);
  return {
      {"prefill", prefill_json(steps.batch_prefill, r)},
      {"decode", decode_json(step)},
      {"kv_context_len", context},
      // The dtypes priced: a query without them gets the model's published weights dtype (DeepSeek-V3: fp8).
      {"dtypes",
       {{"weights", dtype_name(in.weights)}, {"kv", dtype_name(in.kv)}, {"activations", dtype_name(in.activations)}}},
      {"memory", memory_json(in, mem)},
      {"tokens_per_s", rates.tokens_per_s},
      {"tokens_per_s_per_chip", rates.tokens_per_s_per_chip},
      {"latency_per_token_s", step.step_s},
      {"time_to_first_token_s", steps.one_prefill.time_s},
      {"request_latency_s", rates.request_latency_s},
      {"decode_time_s", rates.decode_time_s},
      {"queries_per_s_per_chip", rates.queries_per_s_per_chip},
      {"usd_per_million_output_tokens", rates.usd_per_million_output_tokens},
      {"usd_per_million_input_tokens", rates.usd_per_million_input_tokens},
      {"compute_bound_batch", serving_compute_bound_batch(in)}};
}

DeploymentInput deployment_input(const ServingInput& in, const ServingRequests& r) {
  return {.batch = r.batch,
          .generated_len = r.generated_len,
          .replica_chips = in.mesh->chips,
          .usd_per_chip_hour = in.hw->price_usd_per_chip_hour};
}

Json latency_target_json(const ServingInput& in, const DecodeStep& step, const ServingMemory& mem, double target_s,
                         Diagnostics& d) {
  const ChipsForLatency c = chips_for_latency_target(in, step, mem.total_bytes, target_s);
  if (std::max(c.chips, c.chips_for_memory) > kMaxMeshChips)
    add_warning(d, "/result/chips_for_latency_target/min_chips", "outside_physics",
                "the target needs " + format_count(std::max(c.chips, c.chips_for_memory)) +
                    " chips, more than the largest mesh the engine takes (" + format_count(kMaxMeshChips) + ")");
  return {{"latency_target_s", target_s},
          {"chips", c.chips},
          {"min_chips", c.min_chips},
          {"limited_by", c.limited_by_latency ? "latency" : "memory"}};
}

// The book's thresholds the replica meets: a TPU's tensor-parallel limits, disaggregation, continuous batching.
void add_serving_thresholds(Json& out, const ServingInput& in, const ServingRequests& r, const ServingSteps& steps) {
  if (in.hw->kind == ChipKind::tpu) {
    const TensorParallelLimits limits = tpu_tensor_parallel_limits(in, r.batch);
    out["tensor_parallel_compute_limit"] = limits.compute_limit;
    out["tensor_parallel_hbm_limit"] = limits.hbm_limit;
    out["weight_stationary_2d_min_chips"] = limits.weight_stationary_2d_min_chips;
  }
  const ServingRates rates =
      serving_rates(in, r, steps.decode.step_s, steps.batch_prefill.time_s, steps.one_prefill.time_s);
  out["disaggregation"] = {{"prefill_time_one_sequence_s", steps.one_prefill.time_s},
                           {"prefill_servers_per_decode_server", rates.prefill_servers_per_decode_server}};
  out["continuous_batching"] = {{"sequences_finished_per_step", rates.sequences_finished_per_step},
                                {"tokens_evicted_per_step", rates.tokens_evicted_per_step}};
}

Json speculative_json(const SpeculativeArgs& spec, const ServingModel& model, double batch, double context,
                      const DecodeStep& step) {
  ServingInput draft_in = *model.in;
  draft_in.model = &spec.draft;
  const DecodeStep draft_step = ServingModel{&draft_in, model.profile}.decode(batch, context);
  const DecodeStep verify = model.decode(batch, context, spec.lookahead + 1.0);
  const SpeculativeDecode s =
      speculative_decode(spec.acceptance, spec.lookahead, draft_step.step_s, verify.step_s, step.step_s);
  return {{"expected_tokens_per_step", s.expected_tokens_per_step},
          {"draft_step_s", draft_step.step_s},
          {"verify_step_s", verify.step_s},
          {"iteration_s", s.iteration_s},
          {"latency_per_token_s", s.latency_per_token_s},
          {"speedup", s.speedup},
          {"formula", "E[tokens] = (1 - a^(g+1)) / (1 - a): Leviathan, Kalman & Matias, ICML 2023"}};
}

// The sweep (the book's pareto and latency-breakdown figures, scaling-book/applied-inference).
Json sweep_json(const ServingModel& model, const ServingMemory& mem, const SweepArgs& sweep, double context) {
  const double chips = model.in->mesh->chips;
  std::vector<double> contexts = sweep.contexts;
  if (contexts.empty()) contexts.push_back(context);
  Json points = Json::array();
  for (double ctx_len : contexts) {
    // A batch fits when its KV caches fit at their longest, the generated tokens still to come on top of the decode
    // context (as memory.max_batch counts them: issue 22, the frontier drew 226 sequences where 219 fit).
    const double kv_fit_seq = kv_bytes_per_sequence(*model.in, ctx_len + (mem.final_context - context));
    const std::vector<double> batches = sweep.batches.empty() ? serving_sweep_batches(mem, kv_fit_seq) : sweep.batches;
    for (double b : batches) {
      const DecodeStep s = model.decode(b, ctx_len);
      points.push_back({{"batch", b},
                        {"context", ctx_len},
                        {"step_s", s.step_s},
                        {"tokens_per_s_per_chip", b / s.step_s / chips},
                        {"latency_per_token_s", s.step_s},
                        {"param_load_s", s.param_load_s},
                        {"kv_load_s", s.kv_load_s},
                        {"flops_s", s.flops_s},
                        {"comms_s", s.comms_s},
                        {"overhead_s", s.overhead_s},
                        {"fits", b * kv_fit_seq <= mem.kv_budget_bytes}});
    }
  }
  return points;
}

// The book's replica beside the calibrated one: the ideal bound (docs/design.md "Fidelity and calibration").
Json ideal_json(const ServingQuery& q, const ServingRequests& r, double context, const PrefillStep& calibrated_one) {
  const ServingInput& in = q.a.in;
  const DecodeStep ideal = decode_step(in, r.batch, context);
  const PrefillStep ideal_one = prefill(in, 1, r.prompt_len);  // one request's, as time_to_first_token_s
  const ServingRates rates = serving_rates(in, r, ideal.step_s, 0.0, ideal_one.time_s);
  Json out = {{"latency_per_token_s", ideal.step_s},
              {"time_to_first_token_s", ideal_one.time_s},
              {"tokens_per_s", rates.tokens_per_s},
              {"request_latency_s", rates.request_latency_s},
              {"usd_per_million_output_tokens", rates.usd_per_million_output_tokens}};
  if (q.deployment.given)
    out["deployment"] = deployment_json(q.deployment, deployment_input(in, r), ideal.step_s, ideal_one.time_s);
  mark_ideal_ttft(out, ideal_one, calibrated_one);
  return out;
}

}  // namespace

// Reads the query, prices the replica's steps (the §2.10 serving facts are planners/serving's), writes the answer.
Json run_serving(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  ServingQuery q;
  if (!read_serving_query(ctx, args, d, q)) return {};
  const ServingInput& in = q.a.in;
  const ServingModel model{&in, q.profile};
  const ServingRequests requests{q.a.batch, q.a.prompt_len, q.a.generated_len};
  const double context = q.a.kv_context_len;
  const ServingMemory memory = serving_memory(in, requests);
  warn_if_out_of_hbm(memory, args.path_of("batch"), d);
  const ServingSteps steps = price_steps(model, requests, context);
  Json out = replica_json(in, requests, context, steps, memory);
  out["main_ops"] = serving_main_ops_json(in, requests.batch, context, requests.prompt_len);
  if (q.deployment.given)
    out["deployment"] =
        deployment_json(q.deployment, deployment_input(in, requests), steps.decode.step_s, steps.one_prefill.time_s);
  if (q.load.given) out["load"] = load_json(q.load, model, d, args.path_of("load"));
  if (q.latency_target_s > 0)
    out["chips_for_latency_target"] = latency_target_json(in, steps.decode, memory, q.latency_target_s, d);
  add_serving_thresholds(out, in, requests, steps);
  if (q.speculative.given)
    out["speculative"] = speculative_json(q.speculative, model, requests.batch, context, steps.decode);
  out["sweep"] = sweep_json(model, memory, q.sweep, context);
  if (q.profile) {
    out["ideal"] = ideal_json(q, requests, context, steps.one_prefill);
    out["calibration"] = calibration_json(*q.profile, *in.hw, "serving", scope_point(in, context));
  }
  return out;
}

}  // namespace scalescope
