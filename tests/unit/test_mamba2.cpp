// Issue 36: Nemotron-H and Nemotron 3, hybrids of Mamba-2 (Dao and Gu 2024, "Transformers are SSMs", arXiv
// 2405.21060), attention and LatentMoE blocks. Three things the engine did not have: a Mamba-2 recurrence, layers
// whose mixer has no MLP after it, and routed experts that run at a latent width. Each number below is counted by
// hand from the published config.json (tests/hf_configs/nemotron-3-*.json) and the formulas in physics/transformer.h.
#include "api.h"
#include "physics/layer_ops.h"
#include "physics/transformer.h"
#include "planners/serving.h"
#include "specs/hf_config.h"
#include "test_helpers.h"

using namespace scalescope;
using namespace scalescope::test;

namespace {

Json transformer(const Json& model) { return transformer_result(model, 8192); }

// Nemotron 3 Super's Mamba-2 layer by hand (config: mamba_num_heads 128 x mamba_head_dim 64, n_groups 8 of
// ssm_state_size 128, conv_kernel 4): 128 fp32 states of 128 x 64, and the convolution's last 3 inputs of x (8192)
// and B and C (2 x 8 x 128) in bf16.
constexpr double kInner = 128.0 * 64, kGroupsWidth = 8.0 * 128, kChannels = kInner + 2 * kGroupsWidth;  // 10,240
constexpr double kStateBytesPerLayer = 128.0 * 128 * 64 * 4 + kChannels * 3 * 2;                        // 4,255,744
constexpr double kMambaLayers = 40, kAttentionLayers = 8;
// An attention layer's cache per token: K and V of 2 heads x 128, bf16.
constexpr double kKvBytesPerToken = kAttentionLayers * 2.0 * 2 * 128 * 2;  // 8,192

Diagnostics diagnose_config(const Json& config) {
  Diagnostics d;
  resolve_model(Json{{"hf_config", config}}, "/model", d);
  return d;
}

}  // namespace

TEST_CASE("a Mamba-2 layer's state, parameters and FLOPs against a hand count (Nemotron 3 Super)",
          "[mamba2][issue36]") {
  const ModelConfig m = model("nemotron-3-super-120b-a12b");
  REQUIRE(m.linear.kind == LinearKind::mamba2);
  REQUIRE(m.pattern.span_layers[static_cast<int>(AttentionSpan::linear)] == kMambaLayers);
  REQUIRE(m.pattern.span_layers[static_cast<int>(AttentionSpan::full)] == kAttentionLayers);
  CHECK(recurrent_state_bytes(m) == kMambaLayers * kStateBytesPerLayer);
  CHECK(kv_bytes_per_token(m, Dtype::bf16) == kKvBytesPerToken);
  for (double context : {8192.0, 1048576.0})
    CHECK(kv_cache_bytes(m, Dtype::bf16, context) == kKvBytesPerToken * context + kMambaLayers * kStateBytesPerLayer);

  // transformers' NemotronHMamba2Mixer: in_proj 4096 x (z and x 2 x 8192, B and C 2 x 1024, dt 128), the
  // convolution's taps and bias (10,240 x 4 + 10,240), A_log, D and dt_bias (3 x 128), the gated norm over d_inner
  // (8192) and out_proj 8192 x 4096.
  CHECK(linear_attention_params_per_layer(m) ==
        4096.0 * (2 * kInner + 2 * kGroupsWidth + 128) + kChannels * 4 + kChannels + 3 * 128 + kInner + kInner * 4096);

  // FLOPs per token per layer (SSD, chunk 128 from chunk_size): per group the chunk's C B^T, 2 x 128 x 128; per
  // head the scores times x, 2 x 128 x 64, and the chunk state and the carried state's output, 4 x 128 x 64.
  // Decode: 5 x 128 x 64 per head. Plus 2 x 4 taps over 10,240 channels.
  const double conv = 2.0 * 4 * kChannels;
  CHECK(m.linear.chunk_tokens == 128);
  CHECK(linear_attention_flops_per_token(m, false) ==
        8.0 * 2 * 128 * 128 + 128.0 * (2.0 * 128 * 64 + 4.0 * 128 * 64) + conv);
  CHECK(linear_attention_flops_per_token(m, true) == 128.0 * 5 * 128 * 64 + conv);
}

TEST_CASE("Nemotron 3 from its public config.json: blocks into layers, the published parameter counts",
          "[mamba2][issue36][hf_config]") {
  // NVIDIA (research.nvidia.com/labs/nemotron/Nemotron-3): Nano is "3.2B active (3.6B with embeddings), 31.6B
  // total". Active without embeddings counts the output head's matmul, not the input lookup (active_in_matmuls).
  const Json nano = transformer({{"hf_config", hf_config_file("nemotron-3-nano-30b-a3b.json")}});
  CHECK(nano["params"]["total"].get<double>() == Approx(31.6e9).epsilon(0.01));
  CHECK(nano["params"]["active_in_matmuls"].get<double>() == Approx(3.2e9).epsilon(0.01));
  CHECK(nano["params"]["active"].get<double>() == Approx(3.6e9).epsilon(0.01));
  // 52 blocks: 23 Mamba-2 and 6 attention mixers, 23 MoE blocks, so 6 mixers have no MLP after them.
  CHECK(nano["layers"] == Json({{"moe_full", 6}, {"moe_linear", 17}, {"none_linear", 6}}));

  // Super: "120B total" and "12B active" (NVIDIA's Nemotron 3 Super page and tech report; the active figure is the
  // model's name, rounded to a billion: 12.2e9 in matmuls). The MTP module is left out of the total, as in the
  // card. Its file carries Python's Infinity literal (time_step_limit).
  const Json super = transformer({{"hf_config", hf_config_file("nemotron-3-super-120b-a12b-fp8.json")}});
  CHECK(super["params"]["total"].get<double>() == Approx(120e9).epsilon(0.01));
  CHECK(std::abs(super["params"]["active_in_matmuls"].get<double>() / 1e9 - 12) <= 0.5);
  CHECK(super["layers"] == Json({{"moe_full", 8}, {"moe_linear", 32}, {"none_linear", 8}}));
  CHECK(super["recurrent_state_bytes_per_sequence"].get<double>() == kMambaLayers * kStateBytesPerLayer);
  // 88 blocks, each with its own norm, and the final norm.
  CHECK(super["params"]["norms"].get<double>() == (88.0 + 1) * 4096);

  // The config and the preset are the same model.
  Diagnostics d;
  const ModelConfig from_config =
      resolve_model(Json{{"hf_config", hf_config_file("nemotron-3-super-120b-a12b-fp8.json")}}, "/model", d);
  REQUIRE(d.empty());
  const ModelConfig preset = model("nemotron-3-super-120b-a12b");
  CHECK(count_params(from_config).total == count_params(preset).total);
  CHECK(count_params(from_config).mtp == count_params(preset).mtp);
  CHECK(recurrent_state_bytes(from_config) == recurrent_state_bytes(preset));
  CHECK(from_config.expert_latent_dim == 1024);
  CHECK(from_config.mlp == MlpKind::plain);
}

TEST_CASE("latent MoE: the routed experts and their dispatch run at the latent width", "[mamba2][issue36][moe]") {
  const ModelConfig m = model("nemotron-3-super-120b-a12b");
  // One routed expert: up and down (squared ReLU, not gated) at 1024 x 2688; the shared expert at 4096 x 5376;
  // the latent projections 2 x 4096 x 1024; the router 4096 x 512. Per MoE layer, all 512 experts, 22 active.
  const double expert = 2.0 * 1024 * 2688, always = 2.0 * 4096 * 5376 + 2.0 * 4096 * 1024;
  const ParamCounts p = count_params(m);
  CHECK(p.mlp == 40 * (512 * expert + always));
  CHECK(p.mlp_active == 40 * (22 * expert + always));
  CHECK(p.router == 40.0 * 4096 * 512);

  // The layer's ops: the projections around the experts, whose matmuls read the latent.
  LayerShape s;
  s.tokens = 8192;
  s.seq_len = 8192;
  const LayerOps ops = layer_ops(m, layer_kind(MlpLayer::moe, AttentionSpan::linear), s);
  const auto find = [&](std::string_view name) -> const LayerOp* {
    for (int i = 0; i < ops.count; ++i)
      if (ops.op[i].name == name) return &ops.op[i];
    return nullptr;
  };
  REQUIRE(find("latent_down_projection"));
  REQUIRE(find("latent_up_projection"));
  CHECK(find("latent_down_projection")->flops == 2.0 * 8192 * 4096 * 1024);
  REQUIRE(find("experts_up"));
  CHECK(find("experts_up")->flops == Approx(2.0 * 8192 * 22 * 1024 * 2688));

  // Expert parallelism moves each token's 22 copies at the latent width: a quarter of the same model's at D.
  const auto expert_comms = [](const Json& overrides) {
    const Json out = run_json({{"hardware", {{"preset", "b200"}}},
                               {"model", {{"preset", "nemotron-3-super-120b-a12b"}, {"overrides", overrides}}},
                               {"mesh", {{"shape", {8}}}},
                               {"query",
                                {{"kind", "training_step"},
                                 {"fidelity", "book"},
                                 {"batch_tokens", 65536},
                                 {"seq_len", 8192},
                                 {"parallelism", {{"expert", 8}}}}}});
    INFO(out["diagnostics"].dump());
    REQUIRE(out["ok"] == true);
    return out["result"]["time"]["comms"]["expert_s"].get<double>();
  };
  const double latent = expert_comms(Json::object()), full_width = expert_comms({{"expert_latent_dim", 0}});
  REQUIRE(full_width > 0);
  CHECK(latent / full_width == Approx(1024.0 / 4096).epsilon(0.05));
}

TEST_CASE("a layer without an MLP: no MLP ops, one norm, half the tensor-parallel collectives",
          "[mamba2][issue36][layers]") {
  const ModelConfig m = model("nemotron-3-super-120b-a12b");
  LayerShape s;
  s.tokens = 4096;
  s.seq_len = 4096;
  const LayerOps mixer_only = layer_ops(m, layer_kind(MlpLayer::none, AttentionSpan::linear), s);
  for (int i = 0; i < mixer_only.count; ++i) {
    INFO(mixer_only.op[i].name);
    CHECK(std::string_view(mixer_only.op[i].name).rfind("mlp", 0) == std::string_view::npos);
    CHECK(!mixer_only.op[i].experts);
  }

  // Llama 3 8B with every other layer's MLP removed: a quarter fewer TP collectives (attention and MLP blocks 64 -
  // 16 of them), half the MLP weights, 16 fewer norms. At both fidelities.
  const auto step = [](const char* fidelity, const Json& overrides) {
    const Json out = run_json({{"hardware", {{"preset", "h100-sxm"}}},
                               {"model", {{"preset", "llama-3-8b"}, {"overrides", overrides}}},
                               {"mesh", {{"shape", {8}}}},
                               {"query",
                                {{"kind", "training_step"},
                                 {"fidelity", fidelity},
                                 {"batch_tokens", 65536},
                                 {"seq_len", 8192},
                                 {"parallelism", {{"tensor", 8}}}}}});
    INFO(out["diagnostics"].dump());
    REQUIRE(out["ok"] == true);
    return out["result"];
  };
  const Json halved = {{"mlp_pattern", {"dense", "none"}}};
  const double book_ratio = step("book", halved)["time"]["comms"]["tensor_s"].get<double>() /
                            step("book", Json::object())["time"]["comms"]["tensor_s"].get<double>();
  CHECK(book_ratio == Approx(0.75).epsilon(1e-9));
  const auto calibrated_tp = [&](const Json& overrides) {
    return step("calibrated", overrides)["breakdown"]["comms"]["tensor"]["full_s"].get<double>();
  };
  CHECK(calibrated_tp(halved) / calibrated_tp(Json::object()) == Approx(0.75).epsilon(1e-9));

  const Json full = transformer({{"preset", "llama-3-8b"}});
  const Json half = transformer({{"preset", "llama-3-8b"}, {"overrides", halved}});
  CHECK(half["params"]["mlp"].get<double>() == Approx(full["params"]["mlp"].get<double>() / 2).epsilon(1e-12));
  CHECK(full["params"]["norms"].get<double>() - half["params"]["norms"].get<double>() == 16.0 * 4096);
  CHECK(half["layers"] == Json({{"dense_full", 16}, {"none_full", 16}}));
}

TEST_CASE("a Mamba-2 layer's saved activations are its own widths, not attention's", "[mamba2][issue36][memory]") {
  // Without remat, on one chip, a mixer-only Mamba-2 layer keeps its input and the norm's (2 x 4096 a token), the
  // input projection's outputs (18,560), the convolution's outputs (10,240) and the scan's output (8192), in bf16; an
  // attention layer of the same model keeps q, k and v (32 + 2 x 2 heads of 128) and its output (32 x 128).
  const ModelConfig m = model("nemotron-3-super-120b-a12b");
  LayerShape s;
  s.tokens = 4096;
  s.seq_len = 4096;
  const auto saved = [&](MlpLayer mlp, AttentionSpan span) {
    return saved_activation_bytes(m, layer_kind(mlp, span), s, Remat::none, 0);
  };
  CHECK(saved(MlpLayer::none, AttentionSpan::linear) ==
        2.0 * 4096 * (2.0 * 4096 + (2 * kInner + 2 * kGroupsWidth + 128) + kChannels + kInner));
  CHECK(saved(MlpLayer::none, AttentionSpan::full) == 2.0 * 4096 * (2.0 * 4096 + 36.0 * 128 + 32.0 * 128));
  // The MoE block adds the same to either mixer.
  CHECK(saved(MlpLayer::moe, AttentionSpan::linear) - saved(MlpLayer::none, AttentionSpan::linear) ==
        Approx(saved(MlpLayer::moe, AttentionSpan::full) - saved(MlpLayer::none, AttentionSpan::full)).epsilon(1e-12));
}

TEST_CASE("serving Nemotron 3 Super over context: decode reads 8 layers' cache and 40 states",
          "[mamba2][issue36][serving]") {
  // Book fidelity (scaling-book/inference), fp8 weights on 8 B200 at TP 8: the step reads each sequence's cache and
  // state and writes the state back; the batch that fits is HBM less the weights over each sequence's bytes.
  const Hardware hw = hardware("b200");
  const ModelConfig m = model("nemotron-3-super-120b-a12b");
  const Mesh mesh = mesh_of(hw, Json{{"shape", {8}}});
  const ServingInput in = serving_replica(hw, m, mesh, 8, Dtype::fp8);
  const double batch = 64, hbm = 8 * hw.hbm_bandwidth_bytes_per_s * in.efficiency.hbm_frac;
  const double state = kMambaLayers * kStateBytesPerLayer;
  const double free = 8 * hw.hbm_capacity_bytes - serving_param_bytes(in);
  for (double context : {8192.0, 32768.0, 131072.0}) {
    INFO("context " << context);
    CHECK(decode_step(in, batch, context, 1).kv_load_s ==
          Approx(batch * (kKvBytesPerToken * context + 2.0 * state) / hbm).epsilon(1e-12));
    CHECK(serving_max_batch(in, context) == std::floor(free / (kKvBytesPerToken * context + state)));
  }
  // From 8k to 128k tokens a sequence's bytes grow from 237 MB to 1.24 GB: the batch falls about 5x, not 16x.
  const double fall = serving_max_batch(in, 8192) / serving_max_batch(in, 131072);
  CHECK(fall == Approx((kKvBytesPerToken * 131072 + state) / (kKvBytesPerToken * 8192 + state)).epsilon(0.02));
  CHECK(fall < 6);
}

TEST_CASE("Nemotron-H block lists: every way a config can be wrong names its key", "[mamba2][issue36][reliability]") {
  const Json nano = hf_config_file("nemotron-3-nano-30b-a3b.json");
  REQUIRE(diagnose_config(nano).empty());
  // Newer configs list the blocks by name (Nemotron 3 Ultra's layers_block_type) and may leave the count out.
  Json named = nano;
  named.erase("hybrid_override_pattern");
  named.erase("num_hidden_layers");
  named["layers_block_type"] = Json::array();
  for (char c : nano["hybrid_override_pattern"].get<std::string>())
    named["layers_block_type"].push_back(c == 'M' ? "mamba" : c == '*' ? "attention" : "moe");
  Diagnostics d;
  const ModelConfig from_names = resolve_model(Json{{"hf_config", named}}, "/model", d);
  REQUIRE(d.empty());
  CHECK(from_names.layers == 29);

  Json short_list = nano;
  short_list["num_hidden_layers"] = 51;
  CHECK(has_code(diagnose_config(short_list), "inconsistent", "/model/hf_config/hybrid_override_pattern"));
  Json unknown = nano;
  unknown["hybrid_override_pattern"] = "MEM?E";
  unknown["num_hidden_layers"] = 5;
  CHECK(has_code(diagnose_config(unknown), "unknown_choice", "/model/hf_config/hybrid_override_pattern/3"));
  // An MLP block right after another has no mixer to pair with: refused, not silently merged.
  Json orphan = nano;
  orphan["hybrid_override_pattern"] = "MEE*E";
  orphan["num_hidden_layers"] = 5;
  CHECK(has_code(diagnose_config(orphan), "inconsistent", "/model/hf_config/hybrid_override_pattern"));
  Json neither = nano;
  neither.erase("hybrid_override_pattern");
  CHECK(has_code(diagnose_config(neither), "missing_key", "/model/hf_config/hybrid_override_pattern"));
  Json wrong_type = nano;
  wrong_type["hybrid_override_pattern"] = 7;
  CHECK(has_code(diagnose_config(wrong_type), "wrong_type", "/model/hf_config/hybrid_override_pattern"));
  Json no_experts = nano;
  no_experts.erase("n_routed_experts");
  CHECK(has_code(diagnose_config(no_experts), "missing_key", "/model/hf_config/n_routed_experts"));

  // The engine's own model: mamba2 and none are choices; a latent width without experts is not.
  Json m = preset_json(*find_preset(model_preset_texts(), "nemotron-3-nano-30b-a3b"));
  for (const char* k : {"schema", "id", "name", "sources", "notes", "not_modelled"}) m.erase(k);
  const auto diagnose = [](const Json& model) {
    Diagnostics out;
    parse_model(model, "/model", false, out);
    return out;
  };
  REQUIRE(diagnose(m).empty());
  Json dense = m;
  for (const char* k : {"experts", "active_experts", "shared_experts", "expert_d_ff"}) dense[k] = 0;
  dense.erase("expert_d_ff");
  dense["mlp_pattern"] = {"dense", "none"};
  dense["expert_latent_dim"] = 512;
  CHECK(has_code(diagnose(dense), "inconsistent", "/model/expert_latent_dim"));
  Json bad_mlp = m;
  bad_mlp["mlp_pattern"] = {"moe", "nothing"};
  CHECK(has_code(diagnose(bad_mlp), "unknown_choice", "/model/mlp_pattern/1"));
}
