#include <algorithm>
#include <catch2/catch.hpp>

#include "planners/serving.h"
#include "planners/serving_deployment.h"
#include "test_helpers.h"

using namespace scalescope;
using Catch::Matchers::WithinRel;

namespace {
struct Fixture {
  Hardware hw = test::hardware("tpu-v5e");
  ModelConfig model = test::model("llama-3-70b");
  Mesh mesh;
  ServingInput in;
  Fixture() {
    hw.hbm_bandwidth_bytes_per_s = 8.2e11;  // the inference chapters' constant (scaling-book/inference)
    Diagnostics d;
    mesh = parse_mesh(Json{{"shape", {4, 4}}}, "/mesh", hw, d);
    REQUIRE(d.empty());
    in.model = &model;
    in.hw = &hw;
    in.mesh = &mesh;
    in.weights = in.kv = Dtype::int8;
    in.include_comms = false;
    in.params_override = 70e9;
  }
};
}  // namespace

TEST_CASE(
    "decode step = max(params, FLOPs) + KV (scaling-book/inference; scaling-book/applied-inference, the "
    "latency breakdown figure)",
    "[serving]") {
  Fixture f;
  const DecodeStep one = decode_step(f.in, 1, 8192);
  CHECK_THAT(one.param_load_s, WithinRel(70e9 / (16 * 8.2e11), 1e-12));  // 5.3354 ms
  CHECK_THAT(one.step_s, WithinRel(5.4377e-3, 1e-4));
  CHECK_FALSE(one.compute_bound);
  // Above B = C / (2 W) = 120.1 the MLPs are compute-bound.
  CHECK_FALSE(decode_step(f.in, 120, 2048).compute_bound);
  CHECK(decode_step(f.in, 121, 2048).compute_bound);
  // KV loading grows linearly in B x S.
  const DecodeStep a = decode_step(f.in, 16, 8192), b = decode_step(f.in, 32, 8192);
  CHECK_THAT(b.kv_load_s, WithinRel(2 * a.kv_load_s, 1e-12));
}

TEST_CASE("MoE decode loads only the experts a small batch touches", "[serving]") {
  Fixture f;
  f.in.params_override = 0;
  f.model = test::model("mixtral-8x7b");
  const double small = decode_step(f.in, 1, 1024).param_load_s;
  const double large = decode_step(f.in, 512, 1024).param_load_s;
  CHECK(small < large);
  // At a large batch every expert is loaded: the full parameter bytes.
  CHECK_THAT(large, WithinRel(serving_param_bytes(f.in) / (16 * 8.2e11), 1e-6));
}

TEST_CASE(
    "prefill: the book's 2 N T / (chips C MFU) plus attention (scaling-book/applied-inference, the prefill "
    "question)",
    "[serving]") {
  Fixture f;
  f.in.prefill_flops_frac = 0.4;
  f.in.weights = Dtype::bf16;
  const PrefillStep p = prefill(f.in, 1, 8192);
  CHECK_THAT(p.matmul_flops_s, WithinRel(0.91, 0.01));
  CHECK(p.flops_s > p.matmul_flops_s);
  CHECK(p.compute_bound);
}

TEST_CASE("speculative decoding's expected tokens per step (Leviathan et al. 2023)", "[serving]") {
  CHECK_THAT(speculative_expected_tokens(0.8, 4), WithinRel((1 - 0.8 * 0.8 * 0.8 * 0.8 * 0.8) / 0.2, 1e-12));
  CHECK(speculative_expected_tokens(1.0, 4) == 5.0);
  CHECK_THAT(speculative_expected_tokens(0.0, 4), WithinRel(1.0, 1e-12));
}

TEST_CASE(
    "decode bound names what sets the step, KV loading included (scaling-book/inference; "
    "scaling-book/applied-inference, the latency breakdown figure)",
    "[serving]") {
  Fixture f;
  // 8192 context, B = 137 (the figure's last batch): the MLPs are compute-bound (6.1 ms of FLOPs > 5.3 ms of
  // weights) but loading 137 KV caches takes 14.0 ms: the step is HBM-bound on KV (the book: beyond 2048 tokens
  // KV loading exceeds the FLOPs time).
  const DecodeStep s = decode_step(f.in, 137, 8192);
  CHECK(s.compute_bound);  // the MLPs' own roofline
  CHECK(s.kv_load_s > s.flops_s);
  CHECK(std::string(s.bound) == "memory");
  CHECK(std::string(s.critical) == "kv_load");
  // At 2048 context and B = 511 the FLOPs (22.7 ms) outweigh the KV (13.1 ms).
  const DecodeStep c = decode_step(f.in, 511, 2048);
  CHECK(std::string(c.bound) == "compute");
  CHECK(std::string(c.critical) == "flops");
  // A small batch loads weights.
  CHECK(std::string(decode_step(f.in, 1, 2048).critical) == "param_load");
}

TEST_CASE(
    "a deployment: replicas for a demand, prefill colocated or on prefill servers (scaling-book/inference; "
    "scaling-book/applied-inference, the disaggregation question)",
    "[serving]") {
  // The disaggregation question's inputs: prefill 0.91 s (8192 tokens on a 16-chip replica), decode 19 ms per step,
  // G = 512, B = 32.
  const DeploymentInput base{.decode_step_s = 0.019,
                             .prefill_one_s = 0.91,
                             .batch = 32,
                             .generated_len = 512,
                             .demand_tokens_per_s = 1000,
                             .replica_chips = 16,
                             .usd_per_chip_hour = 1.2};
  DeploymentInput split = base;
  split.disaggregated = true;
  const DeploymentCost d = deployment_cost(split);
  // P_servers / T_prefill = B G_servers / (T_step G): 32 x 0.91 / (0.019 x 512) = 2.99 prefill servers per decoder.
  CHECK(d.replicas == 1);  // 32 / 0.019 = 1684 tokens/s >= 1000
  CHECK(d.prefill_servers == 3);
  CHECK(d.latency_per_token_s == 0.019);
  CHECK(d.total_chips == 4 * 16);
  CHECK_THAT(d.usd_per_million_output_tokens, WithinRel(64 * 1.2 / 3600 / (32 / 0.019) * 1e6, 1e-12));
  // Colocated: B/G = 1/16 of the batch is prefilled between steps, 56.9 ms, so a token waits 75.9 ms.
  const DeploymentCost c = deployment_cost(base);
  CHECK_THAT(c.latency_per_token_s, WithinRel(0.019 + 32.0 / 512 * 0.91, 1e-12));
  CHECK(c.prefill_bound);
  CHECK(c.replicas == 3);  // 421.7 tokens/s each
  CHECK(c.prefill_servers == 0);
  CHECK(c.total_chips == 48);
  CHECK_THAT(c.tokens_per_s_per_chip, WithinRel(3 * 32 / c.latency_per_token_s / 48, 1e-12));
  // No demand: one replica, however small the rate (issue 22: 5e-324 tokens/s must not underflow to none).
  DeploymentInput none = base;
  none.demand_tokens_per_s = 5e-324;
  CHECK(deployment_cost(none).replicas == 1);
}

TEST_CASE("the serving frontier's largest batch is memory.max_batch: KV counted at its longest in both",
          "[serving][issue22]") {
  // Issue 22 ("40 against 41 sequences"): the sweep fitted its batches at the decode context, memory.max_batch at
  // prompt + generated, so the frontier drew 226 fitting sequences of LLaMA-3 70B on a v5p 2x2x2 where 219 fit.
  for (const char* fidelity : {"book", "calibrated"})
    for (const double generated : {512.0, 4096.0}) {
      INFO(fidelity << ", " << generated << " generated tokens");
      const Json r = test::run_json({{"hardware", {{"preset", "tpu-v5p"}}},
                                     {"model", {{"preset", "llama-3-70b"}}},
                                     {"mesh", {{"shape", {2, 2, 2}}}},
                                     {"query",
                                      {{"kind", "serving"},
                                       {"batch", 32},
                                       {"prompt_len", 8192},
                                       {"generated_len", generated},
                                       {"parallelism", {{"tensor", {"X", "Y", "Z"}}}},
                                       {"fidelity", fidelity}}}});
      REQUIRE(r["ok"] == true);
      const double max_batch = r["result"]["memory"]["max_batch"].get<double>();
      double largest_fitting = 0;
      for (const Json& p : r["result"]["sweep"])
        if (p["fits"].get<bool>()) largest_fitting = std::max(largest_fitting, p["batch"].get<double>());
      CHECK(largest_fitting == max_batch);
    }
}

TEST_CASE("issue 41 #14: a calibrated TTFT under the book's says which of the book's terms is above it",
          "[serving][calibrated]") {
  // DeepSeek-V3 in FP8 on 64 H200s, TP 8 x EP 8: the book takes the expert all-to-all as one exchange through each
  // NVLink domain's egress (its TTFT is its largest term, communication); the calibrated prefill routes token copies.
  const Json answer = scalescope::test::run_json({{"hardware", {{"preset", "h200"}}},
                                                  {"model", {{"preset", "deepseek-v3"}}},
                                                  {"mesh", {{"shape", {8, 8}}}},
                                                  {"query",
                                                   {{"kind", "serving"},
                                                    {"batch", 32},
                                                    {"prompt_len", 8192},
                                                    {"generated_len", 512},
                                                    {"dtypes", {{"weights", "fp8"}, {"kv", "fp8"}}},
                                                    {"parallelism", {{"tensor", {"Y"}}, {"expert", {"X"}}}}}}});
  REQUIRE(answer["ok"] == true);
  const Json& r = answer["result"];
  const Json& ideal = r["ideal"];
  REQUIRE(ideal["time_to_first_token_s"].get<double>() > r["time_to_first_token_s"].get<double>());
  CHECK(ideal["lower_bound"] == false);
  CHECK(ideal["above_estimate"]["part"] == "comms");
  const double excess =
      ideal["above_estimate"]["book_s"].get<double>() - ideal["above_estimate"]["calibrated_s"].get<double>();
  CHECK(excess >= ideal["time_to_first_token_s"].get<double>() - r["time_to_first_token_s"].get<double>());
  CHECK(ideal["above_estimate"]["text"].get<std::string>().find("not a lower bound") != std::string::npos);
  // A dense model on one node: the book's TTFT is below, and says so.
  const Json dense = scalescope::test::run_json({{"hardware", {{"preset", "h100-sxm"}}},
                                                 {"model", {{"preset", "llama-3-70b"}}},
                                                 {"mesh", {{"shape", {8}}}},
                                                 {"query",
                                                  {{"kind", "serving"},
                                                   {"batch", 32},
                                                   {"prompt_len", 2048},
                                                   {"generated_len", 256},
                                                   {"parallelism", {{"tensor", {"X"}}}}}}});
  CHECK(dense["result"]["ideal"]["lower_bound"] == true);
  CHECK_FALSE(dense["result"]["ideal"].contains("above_estimate"));
}

TEST_CASE("issue 41 #17: serving prices the weights in the dtype the model is published in, unless asked",
          "[serving]") {
  // DeepSeek-V3's checkpoint is fp8 (its public config.json's quantization_config): 671e9 parameters are 671 GB,
  // which 8 H200s (8 x 141 GB) hold; in bf16 they would not.
  const auto serve = [](const Json& dtypes) {
    Json query = {{"kind", "serving"},
                  {"batch", 8},
                  {"prompt_len", 2048},
                  {"generated_len", 256},
                  {"parallelism", {{"tensor", {"X"}}}}};
    if (!dtypes.is_null()) query["dtypes"] = dtypes;
    const Json answer = scalescope::test::run_json({{"hardware", {{"preset", "h200"}}},
                                                    {"model", {{"preset", "deepseek-v3"}}},
                                                    {"mesh", {{"shape", {8}}}},
                                                    {"query", query}});
    REQUIRE(answer["ok"] == true);
    return answer["result"];
  };
  const Json published = serve(nullptr);
  CHECK(published["dtypes"]["weights"] == "fp8");
  CHECK(published["dtypes"]["kv"] == "bf16");
  const Json bf16 = serve({{"weights", "bf16"}});
  CHECK(bf16["dtypes"]["weights"] == "bf16");
  CHECK(bf16["memory"]["param_bytes"].get<double>() == Approx(2.0 * published["memory"]["param_bytes"].get<double>()));
  CHECK(published["memory"]["param_bytes"].get<double>() == Approx(671e9).epsilon(0.01));
  CHECK(published["memory"]["fits"] == true);
  CHECK(bf16["memory"]["fits"] == false);
  // A model published in bf16 keeps the book's default.
  const Json llama = scalescope::test::run_json({{"hardware", {{"preset", "h100-sxm"}}},
                                                 {"model", {{"preset", "llama-3-70b"}}},
                                                 {"mesh", {{"shape", {8}}}},
                                                 {"query",
                                                  {{"kind", "serving"},
                                                   {"batch", 8},
                                                   {"prompt_len", 2048},
                                                   {"generated_len", 256},
                                                   {"parallelism", {{"tensor", {"X"}}}}}}});
  CHECK(llama["result"]["dtypes"]["weights"] == "bf16");
}

TEST_CASE("issue 39: a serving answer says how much HBM the weights leave for KV caches", "[serving]") {
  // Applied inference (jax-ml.github.io/scaling-book/applied-inference): LLaMA-3 70B in int8 on a v5e 4x2 keeps
  // 70e9 bytes of weights in 8 x 16 GB, leaving 58 GB for caches; the batch that fits is that over one sequence's KV.
  const Json answer = scalescope::test::run_json({{"hardware", {{"preset", "tpu-v5e"}}},
                                                  {"model", {{"preset", "llama-3-70b"}}},
                                                  {"mesh", {{"shape", {4, 2}}}},
                                                  {"query",
                                                   {{"kind", "serving"},
                                                    {"fidelity", "book"},
                                                    {"batch", 32},
                                                    {"prompt_len", 7680},
                                                    {"generated_len", 512},
                                                    {"params_override", 70e9},
                                                    {"dtypes", {{"weights", "int8"}, {"kv", "int8"}}},
                                                    {"parallelism", {{"tensor", {"X", "Y"}}}}}}});
  REQUIRE(answer["ok"] == true);
  const Json& memory = answer["result"]["memory"];
  const double hbm = 8 * scalescope::test::hardware("tpu-v5e").hbm_capacity_bytes;
  CHECK(memory["hbm_for_kv_bytes"].get<double>() == Approx(hbm - 70e9));
  CHECK(memory["max_batch"].get<double>() ==
        std::floor(memory["hbm_for_kv_bytes"].get<double>() / memory["kv_bytes_per_sequence"].get<double>()));
}

TEST_CASE("issue 35: the engine's memory budget: the caches get what the budget leaves beside the weights",
          "[serving][memory]") {
  // LLaMA-3 70B in bf16 on 8 H100s at TP 8 (80 GB each): 141 GB of weights in 640 GB.
  auto ask = [](const Json& extra) {
    Json s = {{"hardware", {{"preset", "h100-sxm"}}},
              {"model", {{"preset", "llama-3-70b"}}},
              {"mesh", {{"shape", {8}}}},
              {"query",
               {{"kind", "serving"},
                {"batch", 16},
                {"prompt_len", 4096},
                {"generated_len", 1024},
                {"parallelism", {{"tensor", {"X"}}}}}}};
    s["query"].update(extra);
    return scalescope::test::run_json(s);
  };
  const double hbm = 8 * scalescope::test::hardware("h100-sxm").hbm_capacity_bytes;
  const Json book = ask({{"fidelity", "book"}})["result"]["memory"];
  const double weights = book["param_bytes"];
  // The book: every byte the weights leave (scaling-book/applied-inference).
  CHECK(book["hbm_for_kv_bytes"].get<double>() == Approx(hbm - weights));
  // Calibrated, unset: 0.9 of the whole for weights and caches (vLLM's default gpu_memory_utilization).
  const Json calibrated = ask(Json::object())["result"]["memory"];
  CHECK(calibrated["hbm_for_kv_bytes"].get<double>() == Approx(0.9 * hbm - weights));
  CHECK(calibrated["budget_bytes"].get<double>() == Approx(0.9 * hbm));
  CHECK(book["budget_bytes"].get<double>() == Approx(hbm));
  CHECK(calibrated["max_batch"].get<double>() < book["max_batch"].get<double>());
  // A share of what the weights leave (TensorRT-LLM's free_gpu_memory_fraction).
  const Json free = ask({{"free_memory_frac", 0.5}})["result"]["memory"];
  CHECK(free["hbm_for_kv_bytes"].get<double>() == Approx(0.5 * (hbm - weights)));
  CHECK(free["budget_bytes"].get<double>() == Approx(weights + 0.5 * (hbm - weights)));
  CHECK(free["max_batch"].get<double>() ==
        std::floor(free["hbm_for_kv_bytes"].get<double>() / free["kv_bytes_per_sequence"].get<double>()));
  // A budget smaller than the weights leaves the caches nothing: the answer says it does not fit, and warns.
  const Json tight = ask({{"memory_frac", 0.2}});
  REQUIRE(tight["ok"] == true);
  CHECK(tight["result"]["memory"]["fits"] == false);
  CHECK(tight["result"]["memory"]["max_batch"] == 0.0);
  CHECK(tight["diagnostics"][0]["code"] == "out_of_hbm");
  // Both ways at once is a question with two answers.
  const Json both = ask({{"memory_frac", 0.9}, {"free_memory_frac", 0.9}});
  REQUIRE(both["ok"] == false);
  CHECK(both["diagnostics"][0]["code"] == "conflicting");
  CHECK(both["diagnostics"][0]["path"] == "/query/free_memory_frac");
  const Json out_of_range = ask({{"memory_frac", 1.5}});
  CHECK(out_of_range["ok"] == false);
}
