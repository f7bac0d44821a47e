// Issue 36: linear-attention hybrids (Gated DeltaNet, Yang, Kautz and Hatamizadeh 2024, arXiv 2412.06464; the layer
// Qwen3-Next and Qwen3.5 run on three of every four layers). A linear layer keeps a fixed-size state per sequence
// instead of a KV cache: its memory, its decode reads and the batch that fits stop growing with the context, and its
// prefill FLOPs are linear in it. Each number below is counted by hand from the published config.json
// (tests/hf_configs/qwen3.5-*.json) and the formulas in physics/transformer.h.
#include "api.h"
#include "physics/transformer.h"
#include "planners/serving.h"
#include "specs/hf_config.h"
#include "test_helpers.h"

using namespace scalescope;
using namespace scalescope::test;

namespace {

// Qwen3.5-397B-A17B's Gated DeltaNet layer, by hand: 64 value heads of a 128 x 128 fp32 state, and a 4-tap
// convolution over q, k (16 heads x 128 each) and v (64 x 128) keeping 3 inputs in bf16.
constexpr double kStateBytesPerLayer = 64.0 * 128 * 128 * 4 + (2.0 * 16 * 128 + 64 * 128) * 3 * 2;  // 4,268,032
constexpr double kLinearLayers = 45, kFullLayers = 15;
// A full layer's cache per token: K and V of 2 heads x 256, bf16.
constexpr double kKvBytesPerToken = kFullLayers * 2.0 * 2 * 256 * 2;  // 30,720

}  // namespace

TEST_CASE("a Gated DeltaNet layer's state, parameters and FLOPs against a hand count (Qwen3.5-397B-A17B)",
          "[linear_attention][issue36]") {
  const ModelConfig m = model("qwen3.5-397b-a17b");
  REQUIRE(m.pattern.span_layers[static_cast<int>(AttentionSpan::linear)] == kLinearLayers);
  REQUIRE(m.pattern.span_layers[static_cast<int>(AttentionSpan::full)] == kFullLayers);
  CHECK(recurrent_state_bytes(m) == kLinearLayers * kStateBytesPerLayer);
  // The cache grows only in the 15 full layers; the state is there from the first token.
  CHECK(kv_bytes_per_token(m, Dtype::bf16) == kKvBytesPerToken);
  for (double context : {8192.0, 131072.0})
    CHECK(kv_cache_bytes(m, Dtype::bf16, context) == kKvBytesPerToken * context + kLinearLayers * kStateBytesPerLayer);

  // Parameters (transformers' Qwen3NextGatedDeltaNet): in_proj_qkvz 4096 x (2 x 2048 + 2 x 8192), in_proj_ba
  // 4096 x 128, the convolution 12,288 x 4, A_log and dt_bias 64 each, the gated norm 128, out_proj 8192 x 4096.
  CHECK(linear_attention_params_per_layer(m) ==
        4096.0 * 20480 + 4096.0 * 128 + 12288.0 * 4 + 128 + 128 + 8192.0 * 4096);
  // The gated softmax layer: q and its gate 4096 x 2 x 8192, k and v 4096 x 2 x 512, o 8192 x 4096.
  CHECK(attention_params_per_layer(m, AttentionSpan::full) == 4096.0 * 16384 + 4096.0 * 1024 + 8192.0 * 4096);

  // FLOPs per token per layer beyond the projections: per value head 2C (3 dk + 2 dv) + 6 dk dv chunked (C = 64),
  // 7 dk dv recurrent, plus 2 x 4 taps over 12,288 channels.
  const double conv = 2.0 * 4 * 12288;
  CHECK(linear_attention_flops_per_token(m, false) == 64.0 * (2.0 * 64 * (3 * 128 + 2 * 128) + 6.0 * 128 * 128) + conv);
  CHECK(linear_attention_flops_per_token(m, true) == 64.0 * 7 * 128 * 128 + conv);
  // In the forward FLOPs the linear layers cost the same per token at any context; the full layers' attention grows.
  const FlopCounts at_8k = count_flops(m, 8192, 8192, true), at_128k = count_flops(m, 131072, 131072, true);
  const double linear_per_token = kLinearLayers * linear_attention_flops_per_token(m, false);
  const auto full_attention = [&](double s) { return 4.0 * (s / 2.0) * 32 * 256 * kFullLayers; };
  CHECK(at_8k.attention_forward / 8192 == Approx(linear_per_token + full_attention(8192)).epsilon(1e-12));
  CHECK(at_128k.attention_forward / 131072 == Approx(linear_per_token + full_attention(131072)).epsilon(1e-12));
}

TEST_CASE("Qwen3.5 from its public config.json: every Gated DeltaNet key read, the published parameter counts",
          "[linear_attention][issue36][hf_config]") {
  // The model cards give whole billions (Qwen/Qwen3.5-397B-A17B: 397B total, 17B activated; 122B-A10B; 35B-A3B;
  // 27B): each count rounds to its card's figure, and the 397B's total is within 1%. The cards' totals include the
  // vision tower, which the engine leaves out.
  const auto rounds_to = [](double count, double card_billions) {
    return std::abs(count / 1e9 - card_billions) <= 0.5;
  };
  const Json big = transformer_result({{"hf_config", hf_config_file("qwen3.5-397b-a17b.json")}}, 8192);
  CHECK(big["params"]["total"].get<double>() == Approx(397e9).epsilon(0.01));
  CHECK(rounds_to(big["params"]["active"].get<double>(), 17));
  CHECK(big["layers"]["moe_linear"] == 45);
  CHECK(big["layers"]["moe_full"] == 15);
  CHECK(big["recurrent_state_bytes_per_sequence"].get<double>() == kLinearLayers * kStateBytesPerLayer);
  struct Card {
    const char* file;
    double total, active;
  };
  for (const Card& c : {Card{"qwen3.5-122b-a10b.json", 122, 10}, Card{"qwen3.5-35b-a3b.json", 35, 3},
                        Card{"qwen3.5-27b.json", 27, 27}}) {
    INFO(c.file);
    const Json t = transformer_result({{"hf_config", hf_config_file(c.file)}}, 8192);
    CHECK(rounds_to(t["params"]["total"].get<double>(), c.total));
    CHECK(rounds_to(t["params"]["active"].get<double>(), c.active));
  }
  // The config and the preset are the same model.
  Diagnostics d;
  const ModelConfig from_config =
      resolve_model(Json{{"hf_config", hf_config_file("qwen3.5-397b-a17b.json")}}, "/model", d);
  REQUIRE(d.empty());
  const ModelConfig preset = model("qwen3.5-397b-a17b");
  CHECK(count_params(from_config).total == count_params(preset).total);
  CHECK(recurrent_state_bytes(from_config) == recurrent_state_bytes(preset));
  CHECK(from_config.attention_output_gate);
  CHECK(from_config.mtp_layers == 1);
}

TEST_CASE("serving a hybrid over context: decode reads the state, and the batch that fits shrinks slowly",
          "[linear_attention][issue36][serving]") {
  // Qwen3.5-397B-A17B in fp8 on 8 B200, TP 8, at the book's fidelity (scaling-book/inference): a decode step reads the
  // weights, every sequence's cache and state, and writes the state back.
  const Hardware hw = hardware("b200");
  const ModelConfig hybrid = model("qwen3.5-397b-a17b");
  // The same model with every layer softmax attention: what the hybrid's linear layers save.
  ModelConfig full = hybrid;
  full.linear = {};
  full.attention_pattern.clear();
  full.pattern = build_layer_pattern(full.layers, 0, true, {}, {});
  const Mesh mesh = mesh_of(hw, Json{{"shape", {8}}});
  const auto input = [&](const ModelConfig& m) { return serving_replica(hw, m, mesh, 8, Dtype::fp8); };
  const ServingInput h = input(hybrid), f = input(full);
  const double batch = 64, hbm = 8 * hw.hbm_bandwidth_bytes_per_s * h.efficiency.hbm_frac;
  const double state = kLinearLayers * kStateBytesPerLayer;
  for (double context : {8192.0, 32768.0, 131072.0}) {
    INFO("context " << context);
    const DecodeStep hs = decode_step(h, batch, context, 1);
    CHECK(hs.kv_load_s == Approx(batch * (kKvBytesPerToken * context + 2.0 * state) / hbm).epsilon(1e-12));
    const double full_kv_per_token = 60.0 * 2 * 2 * 256 * 2;
    CHECK(decode_step(f, batch, context, 1).kv_load_s ==
          Approx(batch * full_kv_per_token * context / hbm).epsilon(1e-12));
    // The batch that fits: HBM less the weights over each sequence's bytes.
    const double free = 8 * hw.hbm_capacity_bytes - serving_param_bytes(h);
    CHECK(serving_max_batch(h, context) == std::floor(free / (kKvBytesPerToken * context + state)));
  }
  // From 8k to 128k the full model's batch falls 16x; the hybrid's by its bytes per sequence, (128k tokens' cache +
  // state) / (8k tokens' cache + state), about 9.5x: they start at the state. Whole batches: 2% either way.
  const double hybrid_fall = serving_max_batch(h, 8192) / serving_max_batch(h, 131072);
  const double full_fall = serving_max_batch(f, 8192) / serving_max_batch(f, 131072);
  CHECK(full_fall == Approx(16).epsilon(0.02));
  CHECK(hybrid_fall == Approx((kKvBytesPerToken * 131072 + state) / (kKvBytesPerToken * 8192 + state)).epsilon(0.02));
  CHECK(hybrid_fall < 0.65 * full_fall);
}

TEST_CASE("calibrated serving of a hybrid: the state is the KV share of decode, and costs less than a cache",
          "[linear_attention][issue36][calibrated]") {
  const auto decode = [](const Json& model, double context) {
    return serving_on_8("b200", model,
                        {{"fidelity", "calibrated"},
                         {"batch", 32},
                         {"prompt_len", context},
                         {"generated_len", 256},
                         {"dtypes", {{"weights", "fp8"}}}})["decode"];
  };
  const Json hybrid = {{"preset", "qwen3.5-397b-a17b"}};
  const Json full = {{"preset", "qwen3.5-397b-a17b"},
                     {"overrides", {{"attention_pattern", {"full"}}, {"linear_attention", nullptr}}}};
  for (double context : {8192.0, 131072.0}) {
    INFO("context " << context);
    const Json h = decode(hybrid, context), f = decode(full, context);
    CHECK(h["kv_load_s"].get<double>() > 0);
    CHECK(h["kv_load_s"].get<double>() < f["kv_load_s"].get<double>());
    CHECK(h["step_s"].get<double>() < f["step_s"].get<double>());
  }
  // The hybrid's KV share grows with the context only through its 15 full layers: less than the full model's.
  const double hybrid_growth =
      decode(hybrid, 131072)["kv_load_s"].get<double>() - decode(hybrid, 8192)["kv_load_s"].get<double>();
  const double full_growth =
      decode(full, 131072)["kv_load_s"].get<double>() - decode(full, 8192)["kv_load_s"].get<double>();
  CHECK(hybrid_growth < 0.4 * full_growth);
}

TEST_CASE("linear layers in a model: the pattern names them, the shape is checked, errors name the field",
          "[linear_attention][issue36][reliability]") {
  Json m = Json::parse(find_preset(model_preset_texts(), "qwen3.5-397b-a17b")->json);
  for (const char* k : {"schema", "id", "name", "sources", "notes", "not_modelled"}) m.erase(k);
  const auto diagnose = [](const Json& model) {
    Diagnostics d;
    parse_model(model, "/model", false, d);
    return d;
  };
  REQUIRE(diagnose(m).empty());
  Json no_shape = m;
  no_shape.erase("linear_attention");
  CHECK(has_code(diagnose(no_shape), "missing_key", "/model/linear_attention"));
  Json no_layers = m;
  no_layers["attention_pattern"] = {"full"};
  CHECK(has_code(diagnose(no_layers), "inconsistent", "/model/attention_pattern"));
  Json odd_heads = m;
  odd_heads["linear_attention"]["value_heads"] = 40;
  CHECK(has_code(diagnose(odd_heads), "not_divisible", "/model/linear_attention/value_heads"));
  Json bad_kind = m;
  bad_kind["linear_attention"]["kind"] = "rwkv7";  // RWKV-7's recurrence: not modelled
  CHECK(has_code(diagnose(bad_kind), "unknown_choice", "/model/linear_attention/kind"));
  // A config.json of another family that lists linear layers is told which families have them.
  Json qwen3 = hf_config_file("qwen3-30b-a3b.json");
  qwen3["layer_types"] = Json::array();
  for (int i = 0; i < qwen3["num_hidden_layers"].get<int>(); ++i) qwen3["layer_types"].push_back("linear_attention");
  Diagnostics d;
  resolve_model(Json{{"hf_config", qwen3}}, "/model", d);
  CHECK(has_code(d, "unknown_choice", "/model/hf_config/layer_types"));
}

TEST_CASE("a config.json as Python writes it: Infinity and NaN literals, and transformers' generic keys",
          "[hf_config][issue36][reliability]") {
  // Python's json.dump writes float('inf') as Infinity (Nemotron-H's "time_step_limit": [0.0, Infinity]). The
  // document reads; a key the engine does not know is named as unknown, and a number field given one says so.
  Json config = hf_config_file("qwen3.5-27b.json");
  config["text_config"]["time_step_limit"] = {0.0, "INFINITY"};
  std::string with_infinity = Json{{"model", {{"hf_config", config}}}, {"query", {{"kind", "transformer"}}}}.dump();
  with_infinity.replace(with_infinity.find("\"INFINITY\""), 10, "Infinity");
  const Json out = Json::parse(evaluate_json(with_infinity));
  REQUIRE(out["ok"] == false);
  REQUIRE(out["diagnostics"].size() == 1);
  CHECK(out["diagnostics"][0]["code"] == "unknown_key");
  CHECK(out["diagnostics"][0]["path"] == "/model/hf_config/text_config/time_step_limit");
  std::string nan_size = with_infinity;
  nan_size.replace(nan_size.find("\"hidden_size\":5120"), 18, "\"hidden_size\":NaN");
  const Json nan = Json::parse(evaluate_json(nan_size));
  REQUIRE(nan["ok"] == false);
  bool named = false;
  for (const Json& x : nan["diagnostics"])
    named = named || (x["path"] == "/model/hf_config/text_config/hidden_size" &&
                      x["message"].get<std::string>().find("NaN (not a finite number)") != std::string::npos);
  CHECK(named);
  // A word inside a string stays as it was (the document would not read otherwise), and text that is malformed for
  // another reason still says so.
  const Json in_string = Json::parse(evaluate_json(
      R"({"model": {"preset": "llama-3-8b"}, "query": {"kind": "transformer", "seq_len": -Infinity, "remat": "NaN"}})"));
  bool seq_len_named = false, remat_named = false;
  for (const Json& x : in_string["diagnostics"]) {
    seq_len_named =
        seq_len_named || (x["path"] == "/query/seq_len" && x["code"] == "wrong_type" &&
                          x["message"].get<std::string>().find("-Infinity (not a finite number)") != std::string::npos);
    remat_named = remat_named || (x["path"] == "/query/remat" && x["code"] == "unknown_choice");
  }
  CHECK(seq_len_named);
  CHECK(remat_named);
  const Json broken = Json::parse(evaluate_json(R"({"query": {"kind": "transformer", "seq_len": Infinity,}})"));
  CHECK(broken["diagnostics"][0]["code"] == "malformed_json");

  // transformers' PretrainedConfig attributes that older versions wrote into every config.json change nothing.
  Json generic = hf_config_file("qwen3-30b-a3b.json");
  generic["add_cross_attention"] = false;
  generic["bad_words_ids"] = nullptr;
  generic["id2label"] = {{"0", "LABEL_0"}};
  generic["num_beams"] = 1;
  generic["tie_encoder_decoder"] = false;
  Diagnostics d;
  resolve_model(Json{{"hf_config", generic}}, "/model", d);
  for (const auto& x : d) INFO(x.path << ": " << x.message);
  CHECK(d.empty());
}

TEST_CASE("Kimi Linear from its config.json: KDA layers beside latent attention, by hand and by its card",
          "[linear_attention][issue36][hf_config]") {
  // Kimi Delta Attention (Kimi Linear, arXiv 2510.26692; flash-linear-attention's KimiDeltaAttention): q, k and v
  // projected apart, a decay per key channel and an output gate through low-rank projections of head_dim, the write
  // strength per head. Kimi-Linear-48B-A3B (tests/hf_configs/kimi-linear-48b-a3b.json): 27 layers, KDA on 20, latent
  // attention (no query LoRA) on layers 4, 8, ..., 24 and 27; 256 experts of 1024, 8 routed and 1 shared.
  Diagnostics d;
  const ModelConfig m = resolve_model(Json{{"hf_config", hf_config_file("kimi-linear-48b-a3b.json")}}, "/model", d);
  for (const Diagnostic& x : d) INFO(x.code + " " + x.path + ": " + x.message);
  REQUIRE(d.empty());
  REQUIRE(m.linear.kind == LinearKind::kda);
  REQUIRE(m.pattern.span_layers[static_cast<int>(AttentionSpan::linear)] == 20);
  REQUIRE(m.pattern.span_layers[static_cast<int>(AttentionSpan::full)] == 7);
  REQUIRE(m.is_mla());
  // One KDA layer by hand: q, k, v 2304 x 4096 each; the decay's and the output gate's low-rank pairs 2304 x 128 and
  // 128 x 4096 (the gate's with a 4096 bias); the write strength 2304 x 32; A 32, the decay bias 4096, the norm 128;
  // the three convolutions' 4 taps over 4096 channels each; o 4096 x 2304.
  const double kda = 3.0 * 2304 * 4096 + 2.0 * (2304.0 * 128 + 128.0 * 4096) + 4096 + 2304.0 * 32 + 32 + 4096 + 128 +
                     3.0 * 4096 * 4 + 4096.0 * 2304;
  CHECK(kda == 39518368.0);
  CHECK(linear_attention_params_per_layer(m) == kda);
  // The state: 32 heads of 128 x 128 in fp32, and each convolution's last 3 inputs in bf16.
  CHECK(recurrent_state_bytes(m) == 20.0 * (32.0 * 128 * 128 * 4 + 3.0 * 4096 * 3 * 2));
  // The cache grows in the 7 latent layers only: (512 + 64) values a token, 74% less than latent attention on all
  // 27 (the README: "reducing KV cache usage by up to 75%").
  CHECK(kv_bytes_per_token(m, Dtype::bf16) == 7.0 * 576 * 2);
  // The card: 48B total and 3B activated (github.com/MoonshotAI/Kimi-Linear README), counted without the 755M
  // embedding and output matrices (163,840 x 2304 each); with them 49.1B and 3.5B.
  const ParamCounts p = count_params(m);
  CHECK(p.embeddings == 2.0 * 163840 * 2304);
  CHECK(std::abs((p.total - p.embeddings) / 1e9 - 48) <= 0.5);
  CHECK(std::abs((p.active - p.embeddings) / 1e9 - 3) <= 0.5);
  // Layer 1 is KDA with the dense MLP (first_k_dense_replace 1); the other 19 KDA layers and the 7 latent ones MoE.
  const Json t = transformer_result({{"hf_config", hf_config_file("kimi-linear-48b-a3b.json")}}, 8192);
  CHECK(t["layers"]["dense_linear"] == 1);
  CHECK(t["layers"]["moe_linear"] == 19);
  CHECK(t["layers"]["moe_full"] == 7);
}

TEST_CASE("a Kimi Linear config.json that lists its layers wrongly is refused at the key",
          "[linear_attention][issue36]") {
  Json config = hf_config_file("kimi-linear-48b-a3b.json");
  const auto codes = [](const Json& c) {
    Diagnostics d;
    resolve_model(Json{{"hf_config", c}}, "/model", d);
    std::vector<std::string> out;
    for (const Diagnostic& x : d) out.push_back(x.code + " " + x.path);
    return out;
  };
  Json twice = config;
  twice["linear_attn_config"]["kda_layers"].push_back(4);
  // Layer 4 in both lists: the second list names it.
  CHECK(codes(twice) ==
        std::vector<std::string>{"inconsistent /model/hf_config/linear_attn_config/full_attn_layers/0"});
  Json gap = config;
  gap["linear_attn_config"]["full_attn_layers"] = {4, 8, 12, 16, 20, 24};
  CHECK(codes(gap) == std::vector<std::string>{"inconsistent /model/hf_config/linear_attn_config/kda_layers"});
  Json outside = config;
  outside["linear_attn_config"]["full_attn_layers"][6] = 28;
  CHECK(codes(outside).size() == 1);
  Json unknown = config;
  unknown["linear_attn_config"]["num_v_heads"] = 64;
  CHECK(codes(unknown) == std::vector<std::string>{"unknown_key /model/hf_config/linear_attn_config/num_v_heads"});
  Json missing = config;
  missing.erase("linear_attn_config");
  CHECK(codes(missing) == std::vector<std::string>{"missing_key /model/hf_config/linear_attn_config"});
}
