// Saved activations against Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
// Models" (issue 22 item 27): their equations (Sec. 4.1-4.3, Table 2) for the four GPT models of their Table 3,
// evaluated here from the configurations, against the engine's per-chip activation memory with each attention
// kernel, dropout, sequence parallelism and remat.
#include <catch2/catch.hpp>
#include <cmath>

#include "test_helpers.h"

using namespace scalescope;

namespace {

struct Gpt {
  const char* name;
  double heads, hidden, layers, pipeline;  // a, h, L and p of Table 3; t = 8, s = 2048, microbatch 1 for all
};
constexpr Gpt kTable3[] = {
    {"22B", 64, 6144, 48, 1}, {"175B", 96, 12288, 96, 8}, {"530B", 128, 20480, 105, 35}, {"1T", 160, 25600, 128, 64}};
constexpr double kTensor = 8, kSeq = 2048;

Json scenario(const Gpt& g, const char* kernel, bool dropout, bool sequence_parallel, const char* remat,
              const char* fidelity) {
  const Json model = {{"name", std::string("GPT ") + g.name},
                      {"layers", g.layers},
                      {"d_model", g.hidden},
                      {"d_ff", 4 * g.hidden},
                      {"heads", g.heads},
                      {"kv_heads", g.heads},
                      {"head_dim", g.hidden / g.heads},
                      {"vocab", 51200},
                      {"mlp", "plain"},
                      {"tied_embeddings", false},
                      {"experts", 0},
                      {"active_experts", 0},
                      {"shared_experts", 0},
                      {"dense_layers", 0}};
  // 1F1B with as many microbatches as stages: the first stage holds p microbatches of L / p layers (Sec. 4.2.3).
  Json plan = {{"tensor", kTensor}, {"sequence_parallel", sequence_parallel}, {"zero_stage", 1}};
  if (g.pipeline > 1) plan.update({{"pipeline", g.pipeline}, {"microbatches", g.pipeline}});
  return {{"hardware", {{"preset", "a100-80gb"}}},
          {"model", model},
          {"mesh", {{"shape", {kTensor * g.pipeline}}}},
          {"query",
           {{"kind", "training_step"},
            {"batch_tokens", kSeq * g.pipeline},
            {"seq_len", kSeq},
            {"parallelism", plan},
            {"remat", remat},
            {"attention_kernel", kernel},
            {"dropout", dropout},
            {"fidelity", fidelity}}}};
}

double activations_bytes(const Json& s) {
  const Json r = test::run_json(s);
  INFO(r.dump());
  REQUIRE(r["ok"] == true);
  return r["result"]["memory"]["activations_bytes"].get<double>();
}

}  // namespace

TEST_CASE("saved activations follow Korthikanti et al.'s equations for their four GPT models", "[memory][issue22]") {
  for (const Gpt& g : kTable3) {
    const double sbh = kSeq * 1 * g.hidden, t = kTensor, as_h = g.heads * kSeq / g.hidden, L = g.layers;
    INFO("GPT " << g.name);
    // Eq. 2, tensor parallelism alone: sbh (10 + 24/t + 5as/(ht)) a layer.
    CHECK(activations_bytes(scenario(g, "materialized", true, false, "none", "calibrated")) ==
          Approx(L * sbh * (10 + 24 / t + 5 * as_h / t)).epsilon(0.05));
    // Eq. 4, with sequence parallelism: sbh/t (34 + 5as/h).
    CHECK(activations_bytes(scenario(g, "materialized", true, true, "none", "calibrated")) ==
          Approx(L * sbh / t * (34 + 5 * as_h)).epsilon(0.05));
    // Eq. 5's 34 sbh/t: their selective recompute, which redoes attention's core, keeps what a flash kernel keeps.
    CHECK(activations_bytes(scenario(g, "flash", true, true, "none", "calibrated")) ==
          Approx(L * sbh / t * 34).epsilon(0.05));
    // ... and their selective recompute itself: the materialized kernel's scores are redone, not kept.
    CHECK(activations_bytes(scenario(g, "materialized", true, true, "selective", "calibrated")) ==
          Approx(L * sbh / t * 34).epsilon(0.05));
    // Full recompute (Sec. 4.3): the layer's input alone, 2 sbh / t under sequence parallelism, whatever the kernel.
    CHECK(activations_bytes(scenario(g, "materialized", true, true, "block", "calibrated")) ==
          Approx(L * 2 * sbh / t).epsilon(0.05));
  }
}

TEST_CASE("a materialized kernel adds its scores to the book's count and costs HBM time at the calibrated fidelity",
          "[memory][issue22]") {
  const Gpt& g = kTable3[1];                          // 175B
  const double tokens_in_flight = kSeq * g.pipeline;  // p microbatches of one sequence each on the first stage
  const double layers_here = g.layers / g.pipeline;
  // The book's 20 intermediates of width D (scaling-book/transformers, gradient checkpointing) plus the
  // probabilities: 2 bytes per score, a / t heads.
  const double flash = activations_bytes(scenario(g, "flash", false, true, "none", "book"));
  const double materialized = activations_bytes(scenario(g, "materialized", false, true, "none", "book"));
  CHECK(materialized - flash == Approx(layers_here * tokens_in_flight * g.heads / kTensor * kSeq * 2).epsilon(1e-9));
  // Dropout adds the dropped copy and its mask (3 more bytes per score) and two 1-byte masks of width h / t.
  const double with_dropout = activations_bytes(scenario(g, "materialized", true, true, "none", "book"));
  CHECK(with_dropout - materialized ==
        Approx(layers_here * tokens_in_flight * (g.heads / kTensor * kSeq * 3 + 2 * g.hidden / kTensor)).epsilon(1e-9));

  // Writing and reading the scores through HBM makes the step slower, never faster.
  const Json fast = test::run_json(scenario(g, "flash", false, true, "none", "calibrated"));
  const Json slow = test::run_json(scenario(g, "materialized", false, true, "none", "calibrated"));
  REQUIRE(fast["ok"] == true);
  REQUIRE(slow["ok"] == true);
  CHECK(slow["result"]["time"]["step_s"].get<double>() > fast["result"]["time"]["step_s"].get<double>());
  // And an unknown kernel is named with the valid ones.
  Json bad = scenario(g, "paged", false, true, "none", "calibrated");
  const Json r = test::run_json(bad);
  REQUIRE(r["ok"] == false);
  CHECK(r["diagnostics"][0]["path"] == "/query/attention_kernel");
  CHECK(r["diagnostics"][0]["message"].get<std::string>().find("flash, materialized") != std::string::npos);
}

TEST_CASE("selective recompute redoes the attention core and nothing else (Korthikanti et al. 2022 Sec. 4.2)",
          "[memory][issue22]") {
  const Gpt& g = kTable3[1];  // 175B
  auto step = [&](const char* remat, const char* fidelity) {
    const Json r = test::run_json(scenario(g, "materialized", true, true, remat, fidelity));
    INFO(r.dump());
    REQUIRE(r["ok"] == true);
    return r["result"];
  };
  // The book counts QK^T and AV again, as for big_matmuls (scaling-book/transformers), and nothing for none.
  const double none = step("none", "book")["hardware_flops"].get<double>();
  CHECK(step("selective", "book")["hardware_flops"].get<double>() ==
        Approx(step("big_matmuls", "book")["hardware_flops"].get<double>()).epsilon(1e-12));
  CHECK(step("selective", "book")["hardware_flops"].get<double>() > none);
  // The calibrated step redoes the attention op's forward pass only: its recompute is that op's forward time, far
  // below full recompute's, and no linear layer is redone (the matmul time is none's).
  const Json sel = step("selective", "calibrated"), plain = step("none", "calibrated"),
             full = step("block", "calibrated");
  CHECK(sel["breakdown"]["recompute_s"].get<double>() > 0);
  CHECK(sel["breakdown"]["recompute_s"].get<double>() < 0.1 * full["breakdown"]["recompute_s"].get<double>());
  CHECK(sel["breakdown"]["matmul_s"].get<double>() ==
        Approx(plain["breakdown"]["matmul_s"].get<double>()).epsilon(1e-12));
  CHECK(sel["breakdown"]["attention_s"].get<double>() > plain["breakdown"]["attention_s"].get<double>());
}
