// Today's models exactly (issue 17): multi-head latent attention against hand-computed parameters, FLOPs and KV
// cache; sliding-window and chunked layers; expected distinct experts at decode; capacity padding; each pipeline
// schedule's bubble and memory; expert parallelism folded over TP.
#include <cmath>
#include <set>

#include "api.h"
#include "physics/expert_dispatch.h"
#include "physics/layer_ops.h"
#include "physics/transformer.h"
#include "planners/calibrated_training.h"
#include "planners/pipeline.h"
#include "planners/serving.h"
#include "planners/training.h"
#include "test_helpers.h"

using namespace scalescope;
using nlohmann::json;

namespace {

ModelConfig parsed(const json& node) {
  Diagnostics d;
  const ModelConfig m = parse_model(node, "/model", false, d);
  for (const auto& x : d) INFO(x.path << ": " << x.message);
  REQUIRE(d.empty());
  return m;
}

// A small model with latent attention, every number chosen so the hand count below is easy to follow.
json tiny_mla() {
  return {{"layers", 2},
          {"d_model", 1024},
          {"d_ff", 2048},
          {"heads", 8},
          {"vocab", 1000},
          {"tied_embeddings", false},
          {"mlp", "gated"},
          {"experts", 0},
          {"active_experts", 0},
          {"shared_experts", 0},
          {"dense_layers", 0},
          {"mla",
           {{"q_lora_rank", 256},
            {"kv_lora_rank", 128},
            {"qk_nope_head_dim", 32},
            {"qk_rope_head_dim", 16},
            {"v_head_dim", 32}}}};
}

}  // namespace

TEST_CASE("MLA parameters, FLOPs and KV cache against a hand count (DeepSeek-V2 §2.1.2)", "[modern]") {
  const ModelConfig m = parsed(tiny_mla());
  CHECK(m.is_mla());
  CHECK(m.kv_heads == 8);   // every head has its own K and V after the up-projection
  CHECK(m.head_dim == 32);  // v_head_dim
  // q: 1024 x 256 down, 256 x 8 x (32 + 16) up; kv: 1024 x (128 + 16) down, 128 x 8 x (32 + 32) up; o: 8 x 32 x 1024.
  const double q = 1024.0 * 256 + 256.0 * 8 * 48, kv = 1024.0 * 144 + 128.0 * 8 * 64, o = 8.0 * 32 * 1024;
  CHECK(attention_params_per_layer(m, AttentionSpan::full) == q + kv + o);
  CHECK(attention_params_per_layer(m, AttentionSpan::full) == 835584);
  const ParamCounts p = count_params(m);
  CHECK(p.attention == 2 * 835584.0);
  // Norms: two D-wide per layer and the final one, plus the query and KV latents' (256 + 128 per layer).
  CHECK(p.norms == (2.0 * 2 + 1) * 1024 + 2.0 * (256 + 128));
  // KV cache: the latent and the shared RoPE key, (128 + 16) values x 2 layers x 2 bytes.
  CHECK(kv_values_per_token_per_layer(m) == 144);
  CHECK(kv_bytes_per_token(m, Dtype::bf16) == 144.0 * 2 * 2);
  // Attention over 64 causal tokens: 32 keys per query, 2 (H_qk + H_v) = 2 x 80 FLOPs per key per head.
  const FlopCounts f = count_flops(m, 64, 64, true);
  CHECK(f.attention_forward == 64.0 * 32 * 8 * 2 * (48 + 32) * 2);
  CHECK(f.matmul_forward == 2.0 * 64 * (p.mlp_active + p.attention + 1000.0 * 1024));
  // Decode absorbs the up-projections: scores against r + r_rope latent values and a weighted sum of r per key.
  LayerShape decode;
  decode.tokens = 1;
  decode.seq_len = 100;
  decode.at_end = true;
  const LayerOps ops = layer_ops(m, layer_kind(false, AttentionSpan::full), decode);
  double attention = 0, matmuls = 0;
  for (int i = 0; i < ops.count; ++i) {
    if (ops.op[i].kind == OpKind::attention) attention += ops.op[i].flops;
    if (ops.op[i].kind == OpKind::matmul) matmuls += ops.op[i].flops;
  }
  CHECK(attention == 100.0 * 8 * 2 * (2 * 128 + 16));
  // The absorbed projections do the same work as the expanded ones: 2 FLOPs per attention and MLP weight.
  CHECK(matmuls == 2.0 * (835584 + 3.0 * 1024 * 2048));
}

TEST_CASE("MLA in the schema: kv_heads and head_dim are the MLA's own, or an error naming why", "[modern]") {
  json bad = tiny_mla();
  bad["kv_heads"] = 4;
  bad["head_dim"] = 64;
  Diagnostics d;
  parse_model(bad, "/model", false, d);
  CHECK(test::has_code(d, "inconsistent", "/model/kv_heads"));
  CHECK(test::has_code(d, "inconsistent", "/model/head_dim"));
  json ok = tiny_mla();
  ok["kv_heads"] = 8;  // the same as heads: accepted
  Diagnostics d2;
  parse_model(ok, "/model", false, d2);
  CHECK(d2.empty());
  json missing = tiny_mla();
  missing["mla"].erase("kv_lora_rank");
  Diagnostics d3;
  parse_model(missing, "/model", false, d3);
  CHECK(test::has_code(d3, "missing_key", "/model/mla/kv_lora_rank"));
}

TEST_CASE("sliding-window layers keep their window of KV; full layers every token", "[modern]") {
  // Gemma 3's pattern: five 1024-token sliding layers, then a global one (Gemma 3 Technical Report §2.1).
  const ModelConfig m = test::model("gemma-3-27b");
  const double per_layer_token = 2.0 * 16 * 128 * 2;  // K and V, 16 KV heads of 128, bf16
  CHECK(m.pattern.all.span(AttentionSpan::sliding) == 52);
  CHECK(m.pattern.all.span(AttentionSpan::full) == 10);
  // Below the window every layer holds every token.
  CHECK(kv_cache_bytes(m, Dtype::bf16, 1000) == 62.0 * 1000 * per_layer_token);
  // At 32k: the 10 full layers hold 32768 tokens, the 52 sliding ones 1024.
  CHECK(kv_cache_bytes(m, Dtype::bf16, 32768) == (10.0 * 32768 + 52.0 * 1024) * per_layer_token);
  // The mean keys per causal query over a window W of an S-token sequence is W - W^2 / 2S (the continuous count
  // the book's S/2 uses): within 0.1% of the exact discrete mean of min(i, W).
  double exact = 0;
  for (int i = 1; i <= 8192; ++i) exact += std::min(i, 1024);
  CHECK(mean_keys_per_query(m, AttentionSpan::sliding, 8192, true) == 1024.0 - 1024.0 * 1024 / (2 * 8192));
  CHECK(mean_keys_per_query(m, AttentionSpan::sliding, 8192, true) == Approx(exact / 8192).epsilon(1e-3));
  CHECK(mean_keys_per_query(m, AttentionSpan::sliding, 512, true) == 256);  // shorter than the window: S/2
  // A decode step at 10000 tokens reads a window's worth on a sliding layer, everything on a full one.
  CHECK(mean_keys_per_query(m, AttentionSpan::sliding, 10000, false, true) == 1024);
  CHECK(mean_keys_per_query(m, AttentionSpan::full, 10000, false, true) == 10000);
}

TEST_CASE("chunked attention (Llama 4): queries see their own chunk", "[modern]") {
  const ModelConfig m = test::model("llama-4-scout");
  CHECK(m.attention_chunk == 8192);
  CHECK(m.pattern.all.span(AttentionSpan::chunked) == 36);
  CHECK(m.pattern.all.span(AttentionSpan::full) == 12);
  // Two whole chunks and a half: (2 x 8192^2 / 2 + 4096^2 / 2) / 20480 keys per causal query.
  CHECK(mean_keys_per_query(m, AttentionSpan::chunked, 20480, true) ==
        (2.0 * 8192 * 8192 / 2 + 4096.0 * 4096 / 2) / 20480);
  // Decode at 20000 tokens: the current chunk's 20000 - 2 x 8192 tokens.
  CHECK(mean_keys_per_query(m, AttentionSpan::chunked, 20000, false, true) == 20000 - 2 * 8192);
  // The cache of a chunked layer holds at most a chunk.
  const double per_layer_token = 2.0 * 8 * 128 * 2;
  CHECK(kv_cache_bytes(m, Dtype::bf16, 100000) == (12.0 * 100000 + 36.0 * 8192) * per_layer_token);
}

TEST_CASE("per-layer kinds: a stretch of layers is counted by kind, and the busiest stage is found", "[modern]") {
  // Llama 4 Maverick: MoE on odd layers, full attention on every fourth.
  const ModelConfig m = test::model("llama-4-maverick");
  CHECK(m.moe_layers() == 24);
  CHECK(m.dense_mlp_layers() == 24);
  const LayerCounts first8 = m.pattern.first(8);
  CHECK(first8.moe() == 4);
  CHECK(first8.n[layer_kind(true, AttentionSpan::full)] == 2);   // layers 3 and 7
  CHECK(first8.n[layer_kind(false, AttentionSpan::full)] == 0);  // the full layers are all odd
  // DeepSeek-V3 on 8 stages of 8 layers (61 of them): weighing MoE layers more, the busiest stage holds no dense
  // layer (stage 0 holds the 3 dense ones).
  const ModelConfig ds = test::model("deepseek-v3");
  std::array<double, kLayerKinds> weight{};
  weight[layer_kind(false, AttentionSpan::full)] = 1;
  weight[layer_kind(true, AttentionSpan::full)] = 2;
  const LayerCounts busiest = busiest_stage(ds.pattern, 8, 1, weight);
  CHECK(busiest.moe() == 8);
  CHECK(busiest.dense() == 0);
}

TEST_CASE("expected distinct experts at decode: E (1 - (1 - k/E)^B), exact for uniform top-k routing", "[modern]") {
  // Brute force: 4 experts, top-2, 2 tokens: every pair of 2-subsets, the size of their union.
  const std::vector<std::pair<int, int>> subsets = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  double sum = 0;
  for (const auto& a : subsets)
    for (const auto& b : subsets) sum += std::set<int>{a.first, a.second, b.first, b.second}.size();
  ModelConfig m;
  m.experts = 4;
  m.active_experts = 2;
  CHECK(4.0 * routed_fraction_touched(m, 2) == Approx(sum / 36.0).epsilon(1e-12));
  // DeepSeek-V3 at batch 1 loads its 8 routed experts of 256 per layer, and all of them at batch 1024.
  const ModelConfig ds = test::model("deepseek-v3");
  CHECK(routed_fraction_touched(ds, 1) == Approx(8.0 / 256));
  CHECK(routed_fraction_touched(ds, 1024) > 0.9999);
  // expected_distinct (with replacement) is what the hierarchical dispatch counts nodes with.
  CHECK(expected_distinct(8, 4) == Approx(4.0 * (1 - std::pow(0.75, 8))));
}

TEST_CASE("capacity: padding to it runs capacity x the expert FLOPs, dropping caps the busiest rank", "[modern]") {
  MoeSettings moe;
  CHECK(expert_load(moe) == 1);
  moe.load_imbalance = 1.4;
  CHECK(expert_load(moe) == 1.4);  // dropless: the busiest rank runs all its tokens
  moe.capacity_factor = 1.25;
  moe.policy = TokenPolicy::drop;
  CHECK(expert_load(moe) == 1.25);  // dropping at 1.25 caps it
  moe.policy = TokenPolicy::pad;
  CHECK(expert_load(moe) == 1.25);  // padding runs the capacity whatever the routing
  // The book's step adds the padding to the hardware FLOPs: 0.25 x the routed experts' 3 x forward.
  const ModelConfig m = test::model("mixtral-8x7b");
  const Hardware hw = test::hardware("tpu-v6e");
  const Mesh mesh = test::mesh_of(hw, Json{{"shape", {16, 16}}});
  TrainingInput in;
  in.model = &m;
  in.hw = &hw;
  in.mesh = &mesh;
  in.batch_tokens = 4096.0 * 256;
  in.seq_len = 4096;
  in.plan.fsdp = make_axis_group(mesh, {0, 1});
  const TrainingStep dropless = evaluate_training_step(in);
  in.moe.capacity_factor = 1.25;
  in.moe.policy = TokenPolicy::pad;
  const TrainingStep padded = evaluate_training_step(in);
  const double routed_forward = 2.0 * in.batch_tokens * 32 * 2 * 3 * 4096 * 14336;
  CHECK(padded.hardware_flops - dropless.hardware_flops == Approx(3 * 0.25 * routed_forward).epsilon(1e-12));
  CHECK(padded.model_flops == dropless.model_flops);
  // The calibrated step runs the padded rows: slower, never faster.
  const CalibrationProfile& prof = *calibration_profile_for(hw);
  in.moe = MoeSettings{};
  const double base = evaluate_calibrated_training_step(in, prof).parts.expert_matmul_s;
  in.moe.capacity_factor = 1.25;
  in.moe.policy = TokenPolicy::pad;
  CHECK(evaluate_calibrated_training_step(in, prof).parts.expert_matmul_s == Approx(1.25 * base).epsilon(0.05));
}

TEST_CASE("each pipeline schedule's bubble and memory (deepseek-ai/DualPipe's table; Qi et al. 2023)", "[modern]") {
  TrainingPlan p;
  p.pipeline.degree = 8;
  p.microbatches = 32;
  // In units of one microbatch's F + B, with the 6ND split F = W = B/2 = 1, B = 2 (so F + B = 3):
  p.schedule = PipelineSchedule::one_f_one_b;  // (S - 1)(F + B)
  CHECK(bubble_fraction(p) == Approx(7.0 / (32 + 7)));
  p.schedule = PipelineSchedule::zero_bubble;  // (S - 1)(F + B - 2W) = 7 units = 7/3 microbatches
  CHECK(bubble_fraction(p) == Approx((7.0 / 3) / (32 + 7.0 / 3)));
  p.schedule = PipelineSchedule::dualpipe;  // (S/2 - 1)(F&B + B - 3W) = 3 x (3 + 2 - 3) = 6 units
  CHECK(bubble_fraction(p) == Approx(2.0 / (32 + 2.0)));
  p.schedule = PipelineSchedule::dualpipe_v;  // on half-stage chunks: (S - 1)(1.5 + 1 - 1.5) = 7 units
  CHECK(bubble_fraction(p) == Approx((7.0 / 3) / (32 + 7.0 / 3)));
  p.schedule = PipelineSchedule::interleaved;
  p.virtual_stages = 4;
  CHECK(bubble_fraction(p) == Approx(7.0 / (4 * 32 + 7)));
  // Memory: DualPipe holds two stages' parameters; its activations PP + 1 microbatches, DualPipeV's 2S + 1 chunks
  // of half a stage.
  CHECK(schedule_parameter_copies(PipelineSchedule::dualpipe) == 2);
  CHECK(schedule_parameter_copies(PipelineSchedule::dualpipe_v) == 1);
  CHECK(schedule_in_flight_microbatches(PipelineSchedule::dualpipe, 8, 32) == 9);
  CHECK(schedule_in_flight_microbatches(PipelineSchedule::dualpipe_v, 8, 32) == 8.5);
  CHECK(schedule_in_flight_microbatches(PipelineSchedule::one_f_one_b, 8, 32) == 8);
  CHECK(schedule_in_flight_microbatches(PipelineSchedule::gpipe, 8, 32) == 32);
  // The seconds version weighs the passes given: ZB-H1 fills the bubble with the weight gradients.
  p.schedule = PipelineSchedule::zero_bubble;
  CHECK(bubble_s(p, {1.0, 2.0, 1.0}) == Approx(7.0));
  p.schedule = PipelineSchedule::one_f_one_b;
  CHECK(bubble_s(p, {1.0, 2.0, 1.0}) == Approx(21.0));
}

TEST_CASE("DualPipe warns below the schedule its reference runs: an even count of at least twice the stages",
          "[modern]") {
  // deepseek-ai/DualPipe @3da1bbe dualpipe/dualpipe.py step(): num_chunks % 2 == 0 and num_chunks >= num_ranks * 2;
  // dualpipev.py: num_chunks >= num_ranks * 2. DeepSeek-V3 at PP 8 on 64 H800s, 4,096-token sequences.
  const auto warned = [](const char* schedule, int microbatches) {
    const json scenario = {{"hardware", {{"preset", "h800"}}},
                           {"model", {{"preset", "deepseek-v3"}}},
                           {"mesh", {{"shape", {8, 8}}, {"axis_names", {"P", "E"}}}},
                           {"query",
                            {{"kind", "training_step"},
                             {"batch_tokens", 4096 * 8 * 64},
                             {"seq_len", 4096},
                             {"parallelism",
                              {{"pipeline", {"P"}},
                               {"expert", {"E"}},
                               {"pipeline_schedule", schedule},
                               {"microbatches", microbatches},
                               {"zero_stage", 1}}}}}};
    const json out = evaluate(scenario);
    INFO(out["diagnostics"].dump());
    REQUIRE(out["ok"] == true);
    for (const json& d : out["diagnostics"])
      if (d["code"] == "dualpipe_microbatches") {
        CHECK(d["severity"] == "warning");
        CHECK(d["path"] == "/query/parallelism/microbatches");
        return true;
      }
    return false;
  };
  CHECK_FALSE(warned("dualpipe", 16));    // 2 x 8 stages, even
  CHECK(warned("dualpipe", 17));          // odd
  CHECK(warned("dualpipe", 14));          // under 2 x 8
  CHECK_FALSE(warned("dualpipe_v", 17));  // DualPipeV takes any count from 2 x 8
  CHECK(warned("dualpipe_v", 15));
  CHECK_FALSE(warned("1f1b", 2));  // 1F1B's only bound is the batch
}

TEST_CASE("parallel folding: EP over the TP ranks the experts do not split over (Megatron-Core MoE)", "[modern]") {
  TrainingPlan p;
  p.tensor.degree = 2;
  p.expert.degree = 16;
  CHECK(expert_tensor_degree(p) == 2);  // ETP defaults to TP, Megatron's default
  CHECK(expert_parallel_degree(p) == 16);
  p.expert_tensor = 1;  // Qwen3-235B on H100: TP2, EP32 = 2 x 16, ETP1
  CHECK(expert_parallel_degree(p) == 32);
  // The engine states it and checks it: ETP must divide TP, and EP x TP / ETP the experts.
  const json bad =
      json::parse(evaluate_json(json{{"hardware", {{"preset", "h100-sxm"}}},
                                     {"model", {{"preset", "qwen3-235b-a22b"}}},
                                     {"mesh", {{"shape", {64}}}},
                                     {"query",
                                      {{"kind", "training_step"},
                                       {"batch_tokens", 4096 * 64},
                                       {"seq_len", 4096},
                                       {"parallelism", {{"tensor", 4}, {"expert", 16}, {"expert_tensor", 3}}}}}}
                                    .dump()));
  CHECK(bad["ok"] == false);
  CHECK(bad["diagnostics"].dump().find("/query/parallelism/expert_tensor") != std::string::npos);
  const json ok =
      json::parse(evaluate_json(json{{"hardware", {{"preset", "h100-sxm"}}},
                                     {"model", {{"preset", "qwen3-235b-a22b"}}},
                                     {"mesh", {{"shape", {64}}}},
                                     {"query",
                                      {{"kind", "training_step"},
                                       {"batch_tokens", 4096 * 64},
                                       {"seq_len", 4096},
                                       {"parallelism", {{"tensor", 2}, {"expert", 32}, {"expert_tensor", 1}}}}}}
                                    .dump()));
  INFO(ok["diagnostics"].dump());
  REQUIRE(ok["ok"] == true);
  CHECK(ok["result"]["moe"]["expert_parallel"] == 64);
  CHECK(ok["result"]["moe"]["expert_tensor"] == 1);
}

TEST_CASE("plan_search over the MoE settings: the experts' TP, dropless or a capacity, DualPipe (docs/api.md space)",
          "[modern]") {
  // Qwen3-30B-A3B (128 experts) on 32 H100s: every plan the search ranks is the training_step of its own settings.
  const json base = {
      {"hardware", {{"preset", "h100-sxm"}}}, {"model", {{"preset", "qwen3-30b-a3b"}}}, {"mesh", {{"shape", {32}}}}};
  json search = base;
  search["query"] = {{"kind", "plan_search"},
                     {"batch_tokens", 4096 * 256},
                     {"seq_len", 4096},
                     {"keep", 60},
                     {"space",
                      {{"expert_tensor", {"tp", 1}},
                       {"capacity_factors", {"dropless", 1.25}},
                       {"pipeline_schedules", {"1f1b", "dualpipe", "dualpipe_v"}}}}};
  const json out = json::parse(evaluate_json(search.dump()));
  INFO(out["diagnostics"].dump());
  REQUIRE(out["ok"] == true);
  const json& plans = out["result"]["plans"];
  REQUIRE(plans.size() > 20);
  std::set<std::string> seen;
  for (const json& p : plans) {
    if (p["parallelism"].contains("expert_tensor")) seen.insert("expert_tensor");
    seen.insert(p.contains("moe") ? "capacity" : "dropless");
    json step = base;
    step["query"] = {{"kind", "training_step"},         {"batch_tokens", 4096 * 256}, {"seq_len", 4096},
                     {"parallelism", p["parallelism"]}, {"remat", p["remat"]},        {"precision", p["precision"]}};
    if (p.contains("mesh")) step["mesh"] = p["mesh"];
    if (p.contains("moe")) step["query"]["moe"] = p["moe"];
    const json r = json::parse(evaluate_json(step.dump()));
    INFO(p.dump());
    REQUIRE(r["ok"] == true);
    CHECK(r["result"]["time"]["step_s"].get<double>() == p["step_s"].get<double>());
    CHECK(r["result"]["moe"]["capacity_factor"].get<double>() == (p.contains("moe") ? 1.25 : 0.0));
  }
  CHECK(seen == std::set<std::string>{"capacity", "dropless", "expert_tensor"});
  search["query"]["space"]["capacity_factors"] = {"none", 0};
  const json bad = json::parse(evaluate_json(search.dump()));
  CHECK(bad["ok"] == false);
  const std::string d = bad["diagnostics"].dump();
  CHECK(d.find("/query/space/capacity_factors/0") != std::string::npos);
  CHECK(d.find("/query/space/capacity_factors/1") != std::string::npos);
}
