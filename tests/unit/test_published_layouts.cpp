// The layouts of published MaxText and Megatron-style runs (tests/validation/published-runs.json), written as
// the sources state them, without the stand-ins the file's `approx` fields list: each evaluates (issue 9). The
// measured values and the calibration itself are the validation suite's; this checks that the plans are
// expressible and laid out as stated.
#include <catch2/catch.hpp>

#include "api.h"

namespace {

using nlohmann::json;

const json kMixedPrecision = {{"params", "bf16"}, {"master_weights", "fp32"}, {"optimizer_states", "fp32"}};

json step(json hardware, json model, json mesh, double batch_tokens, double seq_len, json parallelism,
          const char* remat, const char* matmul = "bf16") {
  json precision = kMixedPrecision;
  precision["matmul"] = matmul;
  return {{"hardware", hardware},
          {"model", model},
          {"mesh", mesh},
          {"query",
           {{"kind", "training_step"},
            {"fidelity", "book"},
            {"batch_tokens", batch_tokens},
            {"seq_len", seq_len},
            {"parallelism", parallelism},
            {"remat", remat},
            {"precision", precision}}}};
}

json evaluate(const json& scenario) {
  const json out = json::parse(scalescope::evaluate_json(scenario.dump()));
  INFO(scenario.dump() << "\n-> " << out["diagnostics"].dump());
  REQUIRE(out["ok"] == true);
  return out["result"];
}

const json k405b = {{"preset", "llama-3-405b"}};  // 126 layers, as published (no 128-layer proxy)

}  // namespace

TEST_CASE("V11: MaxText 512B on v5p-1024 (8x8x8) with TP16 over a split torus axis", "[published]") {
  // maxtext configs/v5p/README.md: "1x v5p-1024: FSDP32 x TP16" (the stand-in was a 4x8x16 mesh).
  const json model = {{"name", "MaxText 512B"}, {"layers", 128},    {"d_model", 20480},
                      {"d_ff", 65536},          {"heads", 64},      {"kv_heads", 64},
                      {"head_dim", 256},        {"vocab", 32768},   {"tied_embeddings", true},
                      {"mlp", "plain"},         {"experts", 0},     {"active_experts", 0},
                      {"shared_experts", 0},    {"dense_layers", 0}};
  const json r = evaluate(step({{"preset", "tpu-v5p"}}, model, {{"shape", {8, 8, 8}}}, 2097152, 2048,
                               {{"fsdp", 32}, {"tensor", 16}}, "block"));
  CHECK(r["degrees"]["tensor"] == 16);
  CHECK(r["layout"]["tensor"]["ici_axes"].get<int>() >= 2);  // no 8-long axis holds 16: TP is split over axes
  // The same plan with TP pinned as MaxText's mesh would lay it: all of Z and an inner factor 2 of Y.
  const json pinned = evaluate(step({{"preset", "tpu-v5p"}}, model, {{"shape", {8, 8, 8}}}, 2097152, 2048,
                                    {{"fsdp", {"X", {{"axis", "Y"}, {"size", 4}, {"stride", 2}}}},
                                     {"tensor", {{{"axis", "Y"}, {"size", 2}, {"stride", 1}}, "Z"}}},
                                    "block"));
  CHECK(pinned["layouts_considered"] == 1);
  CHECK(pinned["layout"]["tensor"]["ici_axes"] == 2);
  CHECK(pinned["time"]["step_s"].get<double>() >= r["time"]["step_s"].get<double>());  // the engine's is the fastest
}

TEST_CASE("Q1: Llama 3.1 405B on 2 x v6e-256, FSDP over ICI and DCN, activations offloaded", "[published]") {
  // tpu-recipes trillium Llama3.1-405B: "ICI FSDP256 x DCN FSDP2" with host offload (the stand-in: DCN DP2, no
  // offload, weights sharded 256-way instead of 512-way).
  json s = step({{"preset", "tpu-v6e"}}, k405b, {{"shape", {16, 16}}, {"slices", 2}}, 4194304, 8192,
                {{"fsdp", {"X", "Y", "DCN"}}}, "block");
  s["query"]["offload"] = {{"activations", true}};
  const json r = evaluate(s);
  CHECK(r["degrees"]["fsdp"] == 512);
  CHECK(r["time"]["comms"]["dcn_s"].get<double>() > 0);
  CHECK(r["memory"]["host_bytes"].get<double>() > 0);
}

TEST_CASE("Q3: Llama 3.1 70B on v6e-256, FSDP256 with activations offloaded to the host", "[published]") {
  json s = step({{"preset", "tpu-v6e"}}, {{"preset", "llama-3-70b"}}, {{"shape", {16, 16}}}, 10485760, 8192,
                {{"fsdp", {"X", "Y"}}}, "block");
  s["query"]["offload"] = {{"activations", true}};
  const json r = evaluate(s);
  CHECK(r["memory"]["host_bytes"].get<double>() > r["memory"]["activations_bytes"].get<double>());
  CHECK(r["time"].contains("offload_total_s"));
}

TEST_CASE("T6: BLOOM 176B's 70 layers over 12 pipeline stages, microbatches of 2 sequences", "[published]") {
  // bigscience tr11-176B-ml: TP4 x PP12 x DP8, MBS 2, ZeRO-1 (the stand-in: a 72-layer proxy).
  const json bloom = {
      {"name", "BLOOM 176B"}, {"layers", 70},        {"d_model", 14336},    {"d_ff", 57344},           {"heads", 112},
      {"kv_heads", 112},      {"head_dim", 128},     {"vocab", 250880},     {"tied_embeddings", true}, {"mlp", "plain"},
      {"experts", 0},         {"active_experts", 0}, {"shared_experts", 0}, {"dense_layers", 0}};
  const json hw = {{"preset", "a100-80gb"},
                   {"overrides", {{"scale_out", {{"nic_unidir_bytes_per_s_per_gpu", 6.25e9}}}}}};
  const json r = evaluate(
      step(hw, bloom, {{"shape", {12, 8, 4}}, {"axis_names", {"PP", "DP", "TP"}}}, 4194304, 2048,
           {{"pipeline", {"PP"}}, {"fsdp", {"DP"}}, {"zero_stage", 1}, {"tensor", {"TP"}}, {"microbatch_sequences", 2}},
           "block"));
  CHECK(r["pipeline_stage_layers"] == 6);  // ceil(70 / 12): the busiest stage sets the pace
  CHECK(r["microbatches"] == 128);         // 2048 sequences / 8 data shards / 2
}

TEST_CASE("B10, B14, X11: Llama 3.1 405B's 126 layers over interleaved pipelines", "[published]") {
  // Megatron-Bridge performance summary: DP2 x TP4 x PP8 x CP2, VP8, MBS 1 on B200 (B10); DP4 x TP4 x PP16, VP4,
  // MBS 1 on GB200 NVL72 (B14). torchtitan: FSDP8 x TP8 x PP8 on 512 H100 (X11). The stand-ins: 128 layers.
  const json b10 = evaluate(step({{"preset", "b200"}}, k405b,
                                 {{"shape", {8, 2, 2, 4}}, {"axis_names", {"PP", "DP", "CP", "TP"}}}, 524288, 8192,
                                 {{"fsdp", {"DP"}},
                                  {"zero_stage", 1},
                                  {"microbatch_sequences", 1},
                                  {"context", {"CP"}},
                                  {"tensor", {"TP"}},
                                  {"pipeline", {"PP"}},
                                  {"pipeline_schedule", "interleaved"},
                                  {"virtual_stages", 8}},
                                 "none", "fp8"));
  CHECK(b10["pipeline_stage_layers"] == 16);  // 64 chunks of at most ceil(126/64) = 2 layers, 8 per stage
  const json b14 = evaluate(step({{"preset", "gb200-nvl72"}}, k405b,
                                 {{"shape", {16, 4, 4}}, {"axis_names", {"PP", "DP", "TP"}}}, 12582912, 8192,
                                 {{"fsdp", {"DP"}},
                                  {"zero_stage", 1},
                                  {"microbatch_sequences", 1},
                                  {"tensor", {"TP"}},
                                  {"pipeline", {"PP"}},
                                  {"pipeline_schedule", "interleaved"},
                                  {"virtual_stages", 4}},
                                 "none", "fp8"));
  CHECK(b14["pipeline_stage_layers"] == 8);
  const json x11 = evaluate(step(
      {{"preset", "h100-sxm"}, {"overrides", {{"hbm_capacity_bytes", 96e9}, {"hbm_bandwidth_bytes_per_s", 2.4e12}}}},
      k405b, {{"shape", {8, 8, 8}}, {"axis_names", {"PP", "DP", "TP"}}}, 2097152, 8192,
      {{"fsdp", {"DP"}}, {"zero_stage", 2}, {"tensor", {"TP"}}, {"pipeline", {"PP"}}, {"microbatches", 32}}, "block",
      "fp8"));
  CHECK(x11["pipeline_stage_layers"] == 16);  // ceil(126 / 8)
}

TEST_CASE("N12 and P1: NeMo and MLPerf layouts as degrees on a flat GPU mesh", "[published]") {
  // NeMo 24.07 Llama 3 70B: TP4 x PP4 x CP2 x DP2 (ZeRO-1 distributed optimizer), VP5, MBS 1, on 64 H100: the
  // engine lays the degrees along the GPU order and says where each landed.
  const json n12 =
      evaluate(step({{"preset", "h100-sxm"}}, {{"preset", "llama-3-70b"}}, {{"shape", {64}}}, 1048576, 8192,
                    {{"tensor", 4},
                     {"pipeline", 4},
                     {"context", 2},
                     {"fsdp", 2},
                     {"zero_stage", 1},
                     {"pipeline_schedule", "interleaved"},
                     {"virtual_stages", 5},
                     {"microbatch_sequences", 1}},
                    "none", "fp8"));
  CHECK(n12["layouts_considered"].get<int>() == 24);  // four strategies in every order along one GPU axis
  CHECK(n12["layout"]["tensor"]["nvlink_domains_spanned"] == 1);
  // MLPerf v4.0 GPT-3 175B on 512 H100: TP4 x PP8 x DP16, MBS 2 (VP 6 as NeMo's recipe), fp8.
  const json p1 = evaluate(step({{"preset", "h100-sxm"}}, {{"preset", "gpt-3-175b"}}, {{"shape", {512}}}, 4718592, 2048,
                                {{"tensor", 4},
                                 {"pipeline", 8},
                                 {"fsdp", 16},
                                 {"zero_stage", 1},
                                 {"pipeline_schedule", "interleaved"},
                                 {"virtual_stages", 6},
                                 {"microbatch_sequences", 2}},
                                "block", "fp8"));
  CHECK(p1["microbatches"] == 72);  // 2304 sequences / 16 data shards / 2
}
