#include "queries/serving_load_args.h"

#include <cmath>

#include "io/format.h"
#include "io/limits.h"

namespace scalescope {

namespace {

// A non-finite time (no sequence fits) is null, never Inf (api.h).
Json finite_or_null(double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); }

Json point_json(const ServingLoad& l) {
  return {{"concurrency", l.concurrency},
          {"fits", l.fits},
          {"in_flight", l.in_flight},
          {"queued", l.queued},
          {"prefill_group", l.prefill_group},
          {"prefill_group_s", l.prefill_group_s},
          {"admission_gate_steps", l.admission_gate_steps},
          {"decode_step_s", l.decode_step_s},
          {"time_per_output_token_s", finite_or_null(l.time_per_output_token_s)},
          {"time_to_first_token_s", finite_or_null(l.time_to_first_token_s)},
          {"slot_wait_s", l.slot_wait_s},
          {"request_latency_s", finite_or_null(l.request_latency_s)},
          {"requests_per_s", l.requests_per_s},
          {"output_tokens_per_s", l.output_tokens_per_s},
          {"output_tokens_per_s_per_chip", l.output_tokens_per_s_per_chip},
          {"tokens_per_s_per_user", l.tokens_per_s_per_user}};
}

// A disaggregated prefill pool: its workers per decode replica, a worker's mesh of the same chip, its split.
void read_prefill_pool(const QueryContext& ctx, JsonReader& r, const ServingInput& decode, LoadArgs& out,
                       Diagnostics& d) {
  const Json* node = r.object("prefill_pool", false);
  if (!node) return;
  JsonReader pool(*node, r.path_of("prefill_pool"), d);
  out.in.prefill_workers = pool.number("workers_per_decode_replica", true).value_or(1);
  if (const Json* mesh = pool.value("mesh", true)) {
    out.prefill_mesh = std::make_unique<Mesh>(parse_mesh(*mesh, pool.path_of("mesh"), *ctx.hw, d));
    out.prefill_in = std::make_unique<ServingInput>(decode);
    ServingInput& in = *out.prefill_in;
    in.mesh = out.prefill_mesh.get();
    in.tensor = in.x = in.yz = in.expert = AxisGroup{};
    in.layout_2d = false;
    in.expert_tensor = 0;
    if (!has_errors(d)) read_serving_parallelism(pool, *in.mesh, in, d);
  }
  pool.finish();
}

}  // namespace

void read_load(const QueryContext& ctx, JsonReader& args, const ServingArgs& serving, LoadArgs& out, Diagnostics& d) {
  const Json* node = args.object("load", false);
  if (!node) return;
  JsonReader r(*node, args.path_of("load"), d);
  out.given = true;
  out.in.prompt_len = serving.prompt_len;
  out.in.generated_len = serving.generated_len;
  out.in.kv_context_len = serving.kv_context_len;
  out.in.concurrency = r.number("concurrency", true).value_or(1);
  out.in.max_tokens_per_step = r.number("max_tokens_per_step", false).value_or(out.in.max_tokens_per_step);
  out.in.max_in_flight = r.number("max_in_flight", false).value_or(0);
  out.in.attention_dp_balance = r.boolean("attention_dp_balance", false).value_or(false);
  out.concurrencies = r.numbers("concurrencies", false);
  if (out.concurrencies.size() > kMaxSweepPoints)
    add_diagnostic(d, r.path_of("concurrencies"), "too_large",
                   "the frontier asks for " + std::to_string(out.concurrencies.size()) + " points; the limit is " +
                       std::to_string(kMaxSweepPoints));
  if (const auto id = r.choice("backend", false, serving_backend_ids())) {
    if (ctx.fidelity != Fidelity::calibrated)
      add_diagnostic(d, r.path_of("backend"), "needs_calibrated",
                     "a serving engine's runtime is fitted beside the calibrated kernels; drop 'backend' or use the "
                     "calibrated fidelity");
    else if (const ServingBackend* b = serving_backend(*id))
      out.backend = *b;
  }
  read_prefill_pool(ctx, r, serving.in, out, d);
  r.finish();
}

ServingLoad serve_load_args(const LoadArgs& load, const ServingModel& model, const ServingBackend& backend,
                            double concurrency) {
  ServingLoadInput in = load.in;
  in.concurrency = concurrency;
  const ServingModel prefill{load.prefill_in.get(), model.profile};
  if (load.prefill_in) in.prefill = &prefill;
  return serve_under_load(model, in, backend);
}

Json load_json(const LoadArgs& load, const ServingModel& model, Diagnostics& d, const std::string& path) {
  const ServingLoadInput& in = load.in;
  const ServingLoad l = serve_load_args(load, model, load.backend, in.concurrency);
  if (!l.fits)
    add_warning(d, path, "out_of_hbm",
                "not one sequence's KV cache fits beside the weights at " +
                    format_count(in.prompt_len + in.generated_len) + " tokens, so no request is served");
  Json out = point_json(l);
  out["backend"] = load.backend.id.empty() ? Json(nullptr) : serving_backend_json(load.backend);
  if (l.disaggregated)
    out["prefill_pool"] = {{"workers_per_decode_replica", in.prefill_workers},
                           {"chips_per_worker", load.prefill_mesh->chips},
                           {"busy_frac", l.prefill_busy_frac},
                           {"kv_transfer_s", l.kv_transfer_s}};
  if (!load.concurrencies.empty()) {
    // The interactivity frontier (throughput per chip against tokens per second per user), one point a concurrency.
    Json frontier = Json::array();
    for (double concurrency : load.concurrencies) {
      const ServingLoad p = serve_load_args(load, model, load.backend, concurrency);
      if (!p.fits) break;
      frontier.push_back({{"concurrency", concurrency},
                          {"in_flight", p.in_flight},
                          {"output_tokens_per_s_per_chip", p.output_tokens_per_s_per_chip},
                          {"tokens_per_s_per_user", p.tokens_per_s_per_user},
                          {"time_to_first_token_s", p.time_to_first_token_s},
                          {"time_per_output_token_s", p.time_per_output_token_s}});
    }
    out["frontier"] = frontier;
  }
  return out;
}

}  // namespace scalescope
