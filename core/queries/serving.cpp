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

Json run_serving(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const ModelConfig& m = *ctx.model;
  const Hardware& hw = *ctx.hw;
  const Mesh& mesh = *ctx.mesh;
  ServingArgs a;
  read_serving_args(ctx, args, d, a);
  const double latency_target = args.number("latency_target_s", false).value_or(0);
  const DeploymentArgs deployment = read_deployment(args, d);
  LoadArgs load;
  read_load(ctx, args, a, load, d);
  ServingInput& in = a.in;
  CalibrationProfile given;
  const CalibrationProfile* profile =
      ctx.fidelity == Fidelity::calibrated ? resolve_profile(ctx, args, in.efficiency, given, d) : nullptr;
  const ServingModel model{&in, profile};
  const double batch = a.batch, prompt = a.prompt_len, generated = a.generated_len, context = a.kv_context_len;
  // Speculative decoding: a draft model on the same chips proposes `lookahead` tokens per step.
  ModelConfig draft;
  double lookahead = 0, acceptance = 0;
  bool speculative = false;
  if (const Json* node = args.object("speculative", false)) {
    JsonReader r(*node, args.path_of("speculative"), d);
    if (const Json* dm = r.value("draft_model", true)) draft = resolve_model(*dm, r.path_of("draft_model"), d);
    lookahead = r.number("lookahead", true).value_or(1);
    acceptance = r.number("acceptance_rate", true).value_or(0.5);
    r.finish();
    speculative = true;
  }
  std::vector<double> sweep_batches, sweep_contexts;
  if (const Json* node = args.object("sweep", false)) {
    JsonReader r(*node, args.path_of("sweep"), d);
    sweep_batches = r.numbers("batches", false);
    sweep_contexts = r.numbers("contexts", false);
    r.finish();
    // Each list is capped by the reader; their product, the points, by kMaxSweepPoints (the default batches are
    // powers of two up to 2^20 and the largest that fits: at most kDefaultSweepBatches per context).
    const std::size_t points = (sweep_batches.empty() ? kDefaultSweepBatches : sweep_batches.size()) *
                               std::max<std::size_t>(1, sweep_contexts.size());
    if (points > kMaxSweepPoints)
      add_diagnostic(d, args.path_of("sweep"), "too_large",
                     "the sweep asks for " + std::to_string(points) + " points (batches x contexts); the limit is " +
                         std::to_string(kMaxSweepPoints));
  }
  if (has_errors(d)) return {};

  const double chips = mesh.chips;
  const double hbm_total = chips * hw.hbm_capacity_bytes;
  const double params_bytes = serving_param_bytes(in);
  const double final_context = prompt + generated;
  const double kv_seq = kv_bytes_per_sequence(in, final_context);
  const double max_batch = serving_max_batch(in, final_context);
  const double total_bytes = params_bytes + batch * kv_seq;
  if (total_bytes > hbm_total)
    add_warning(d, args.path_of("batch"), "out_of_hbm",
                "weights and KV caches need " + format_bytes(total_bytes) + "; the replica has " +
                    format_bytes(hbm_total) + " (at most " + format_count(max_batch) + " sequences fit at " +
                    format_count(final_context) + " tokens)");

  const DecodeStep step = model.decode(batch, context);
  const PrefillStep pre = model.prefill(batch, prompt);  // the whole batch's prompts together
  const PrefillStep one = model.prefill(1, prompt);      // one request's time to first token (scaling-book/inference)
  const double usd_per_s = chips * hw.price_usd_per_chip_hour / 3600.0;
  const double tokens_per_s = batch / step.step_s;
  const double c = hw.peak(in.activations);
  const double moe = m.is_moe() ? m.experts / m.active_experts : 1.0;
  const double d_ff = m.is_moe() ? m.expert_d_ff : m.d_ff;
  Json out{
      {"prefill",
       {{"sequences", batch},
        {"tokens", batch * prompt},
        {"matmul_flops_s", pre.matmul_flops_s},
        {"flops_s", pre.flops_s},
        {"param_load_s", pre.param_load_s},
        {"comms_s", pre.comms_s},
        {"overhead_s", pre.overhead_s},
        {"exposed", exposed_json(pre.exposed)},
        {"time_s", pre.time_s},
        {"bound", pre.bound}}},
      {"decode", decode_json(step)},
      {"kv_context_len", context},
      // The dtypes priced: a query without them gets the model's published weights dtype (DeepSeek-V3: fp8).
      {"dtypes",
       {{"weights", dtype_name(in.weights)}, {"kv", dtype_name(in.kv)}, {"activations", dtype_name(in.activations)}}},
      {"memory",
       {{"param_bytes", params_bytes},
        {"kv_bytes_per_sequence", kv_seq},
        {"kv_bytes_per_token", kv_bytes_per_token(m, in.kv)},
        {"total_bytes", total_bytes},
        {"hbm_capacity_bytes", hbm_total},
        {"fits", total_bytes <= hbm_total},
        {"max_batch", max_batch},
        // Applied inference: what the weights leave of the replica's HBM for KV caches.
        {"hbm_for_kv_bytes", std::max(0.0, hbm_total - params_bytes)},
        {"min_chips_for_params", std::ceil(params_bytes / hw.hbm_capacity_bytes)},
        {"chips_for_params", params_bytes / hw.hbm_capacity_bytes},
        // scaling-book/applied-inference, the smallest slice: chips whose HBM holds the weights and this
        // batch's KV caches.
        {"min_chips", std::ceil(total_bytes / hw.hbm_capacity_bytes)}}},
      {"tokens_per_s", tokens_per_s},
      {"tokens_per_s_per_chip", tokens_per_s / chips},
      {"latency_per_token_s", step.step_s},
      {"time_to_first_token_s", one.time_s},
      {"request_latency_s", one.time_s + generated * step.step_s},
      {"decode_time_s", generated * step.step_s},
      {"queries_per_s_per_chip", batch / (step.step_s * generated * chips)},  // scaling-book/inference, QPS
      {"usd_per_million_output_tokens", usd_per_s * step.step_s / batch * 1e6},
      {"usd_per_million_input_tokens", usd_per_s * pre.time_s / (batch * prompt) * 1e6},
      // scaling-book/inference and scaling-book/transformers, MoE: decode matmuls turn compute-bound above
      // (C/W) bytes_per_param / 2, x E/k for MoE.
      {"compute_bound_batch", matmul_critical_batch(c, hw.hbm_bandwidth_bytes_per_s, in.weights) * moe}};
  const DeploymentInput replica{.batch = batch,
                                .generated_len = generated,
                                .replica_chips = chips,
                                .usd_per_chip_hour = hw.price_usd_per_chip_hour};
  if (deployment.given) out["deployment"] = deployment_json(deployment, replica, step.step_s, one.time_s);
  if (load.given) out["load"] = load_json(load, ServingModel{&in, profile}, d, args.path_of("load"));
  if (latency_target > 0) {
    // The inverse question (scaling-book/inference): the step's HBM and FLOPs terms shrink as 1/chips, so a per-token
    // target needs chips x (step - comms) / target chips; communication, which does not shrink, is left out as in the
    // book's minimum-step model. The replica also needs the HBM for its weights and this batch's KV caches.
    const double for_latency = chips * (step.step_s - step.comms_s) / latency_target;
    const double for_memory = std::ceil(total_bytes / hw.hbm_capacity_bytes);
    out["chips_for_latency_target"] = {{"latency_target_s", latency_target},
                                       {"chips", for_latency},
                                       {"min_chips", std::max(std::ceil(for_latency), for_memory)},
                                       {"limited_by", std::ceil(for_latency) >= for_memory ? "latency" : "memory"}};
    if (std::max(for_latency, for_memory) > kMaxMeshChips)
      add_warning(d, "/result/chips_for_latency_target/min_chips", "outside_physics",
                  "the target needs " + format_count(std::max(for_latency, for_memory)) +
                      " chips, more than the largest mesh the engine takes (" + format_count(kMaxMeshChips) + ")");
  }
  if (hw.kind == ChipKind::tpu) {
    const double w_ici = 2.0 * hw.ici.link_unidir_bytes_per_s;
    const double m_y = std::max(1, in.tensor.ici_axes + in.x.ici_axes + in.yz.ici_axes);
    // scaling-book/inference: compute-roofline TP limit Y < M_Y F W/C; HBM-bound decode tolerates up to
    // Y = F W_ici / (B W_hbm).
    out["tensor_parallel_compute_limit"] = m_y * d_ff * w_ici / c;
    out["tensor_parallel_hbm_limit"] = d_ff * w_ici / (batch * hw.hbm_bandwidth_bytes_per_s);
    // scaling-book/inference: 2D weight-stationary beats 1D TP over three axes when N > 32 (F/D) (3/4)^2
    // (72 for F = 4D).
    out["weight_stationary_2d_min_chips"] = 32.0 * d_ff / m.d_model * 0.5625;
  }
  // scaling-book/inference, disaggregation: prefill servers per decode server = B T_prefill(one sequence) / (T_step G).
  out["disaggregation"] = {{"prefill_time_one_sequence_s", one.time_s},
                           {"prefill_servers_per_decode_server", batch * one.time_s / (step.step_s * generated)}};
  // scaling-book/inference, continuous batching: B/G sequences finish per step, freeing B (P + G)/G tokens of KV.
  out["continuous_batching"] = {{"sequences_finished_per_step", batch / generated},
                                {"tokens_evicted_per_step", batch * (prompt + generated) / generated}};
  if (speculative) {
    ServingInput draft_in = in;
    draft_in.model = &draft;
    const DecodeStep draft_step = ServingModel{&draft_in, profile}.decode(batch, context);
    const DecodeStep verify = model.decode(batch, context, lookahead + 1.0);
    const double expected = speculative_expected_tokens(acceptance, lookahead);
    const double iteration = lookahead * draft_step.step_s + verify.step_s;
    out["speculative"] = {{"expected_tokens_per_step", expected},
                          {"draft_step_s", draft_step.step_s},
                          {"verify_step_s", verify.step_s},
                          {"iteration_s", iteration},
                          {"latency_per_token_s", iteration / expected},
                          {"speedup", expected * step.step_s / iteration},
                          {"formula", "E[tokens] = (1 - a^(g+1)) / (1 - a): Leviathan, Kalman & Matias, ICML 2023"}};
  }
  // Sweep (the book's pareto and latency-breakdown figures, scaling-book/applied-inference).
  if (sweep_contexts.empty()) sweep_contexts.push_back(context);
  Json points = Json::array();
  for (double ctx_len : sweep_contexts) {
    // A batch fits when its KV caches fit at their longest, the generated tokens still to come on top of the decode
    // context (as memory.max_batch counts them: issue 22, the frontier drew 226 sequences where 219 fit).
    const double kv_fit_seq = kv_bytes_per_sequence(in, ctx_len + (final_context - context));
    std::vector<double> batches = sweep_batches;
    if (batches.empty()) {
      const double fit = std::floor((hbm_total - params_bytes) / kv_fit_seq);
      for (double b = 1; b <= fit && b <= 1 << 20; b *= 2) batches.push_back(b);
      if (fit >= 1 && (batches.empty() || batches.back() != fit) && fit <= 1 << 20) batches.push_back(fit);
    }
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
                        {"fits", params_bytes + b * kv_fit_seq <= hbm_total}});
    }
  }
  out["sweep"] = points;
  if (profile) {
    // The book's replica beside the calibrated one: the ideal bound (docs/design.md "Fidelity and calibration").
    const DecodeStep ideal = decode_step(in, batch, context);
    const PrefillStep ideal_one = prefill(in, 1, prompt);  // one request's, as time_to_first_token_s above
    out["ideal"] = {{"latency_per_token_s", ideal.step_s},
                    {"time_to_first_token_s", ideal_one.time_s},
                    {"tokens_per_s", batch / ideal.step_s},
                    {"request_latency_s", ideal_one.time_s + generated * ideal.step_s},
                    {"usd_per_million_output_tokens", usd_per_s * ideal.step_s / batch * 1e6}};
    if (deployment.given)
      out["ideal"]["deployment"] = deployment_json(deployment, replica, ideal.step_s, ideal_one.time_s);
    mark_ideal_ttft(out["ideal"], ideal_one, one);
    out["calibration"] = calibration_json(*profile, hw, "serving", scope_point(in, context));
  }
  return out;
}

}  // namespace scalescope
