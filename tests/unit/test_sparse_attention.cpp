// Issue 36: DeepSeek Sparse Attention (DeepSeek-V3.2-Exp tech report, 2025; DeepSeek-V3.2, GLM-5). A lightning
// indexer of index_heads fp8 heads scores every cached token, and the layer's latent attention then reads only the
// index_topk best. The cache keeps every token (and an index key beside it), so memory per sequence is DeepSeek-V3's
// and a little more, but a decode step reads the index keys and 2,048 latents per layer: at 128k tokens an order
// of magnitude less. Each number is counted by hand from the published config.json (tests/hf_configs/).
#include "physics/transformer.h"
#include "planners/serving.h"
#include "specs/hf_config.h"
#include "test_helpers.h"

using namespace scalescope;
using namespace scalescope::test;

namespace {

// DeepSeek-V3.2's indexer, by hand: wq_b 1536 x (64 x 128), wk 7168 x 128, its LayerNorm 2 x 128, weights_proj
// 7168 x 64; and its cache: 128 fp8 values and one fp32 scale per token per layer.
constexpr double kIndexerParams = 1536.0 * 8192 + 7168.0 * 128 + 256 + 7168.0 * 64;  // 13,959,424
constexpr double kIndexBytes = 128 + 4;
constexpr double kLatentBytes = (512 + 64) * 2.0;  // MLA's cache per token per layer in bf16
constexpr double kLayers = 61;

}  // namespace

TEST_CASE("DeepSeek Sparse Attention's indexer and top-k against a hand count (DeepSeek-V3.2)",
          "[sparse_attention][issue36]") {
  const ModelConfig v32 = model("deepseek-v3.2"), v3 = model("deepseek-v3");
  CHECK(sparse_indexer_params_per_layer(v32) == kIndexerParams);
  CHECK(count_params(v32).total == count_params(v3).total + kLayers * kIndexerParams);
  CHECK(sparse_index_bytes_per_token_per_layer(v32) == kIndexBytes);

  // Prefill FLOPs per token per layer beyond the weights: the indexer scores every earlier key (S/2 on average,
  // 2 x 64 x 128 each); attention sees the 2,048 selected, which the first 2,048 queries cannot all have:
  // 2048 - 2048^2 / 2S on average; 4 x keys x 128 heads x (192 + 128) / 2.
  for (double s : {8192.0, 131072.0}) {
    INFO("context " << s);
    const double keys = 2048.0 - 2048.0 * 2048.0 / (2.0 * s);
    CHECK(mean_keys_per_query(v32, AttentionSpan::full, s, true) == keys);
    CHECK(mixing_flops_per_token(v32, AttentionSpan::full, s, true) ==
          Approx(2.0 * 64 * 128 * (s / 2.0) + 4.0 * keys * 128 * 160).epsilon(1e-12));
    // Decode: the indexer over all S keys, attention over 2,048.
    CHECK(mixing_flops_per_token(v32, AttentionSpan::full, s, false, true) ==
          Approx(2.0 * 64 * 128 * s + 4.0 * 2048 * 128 * 160).epsilon(1e-12));
    // The cache holds every token and its index key; a decode step reads every index key and 2,048 latents.
    CHECK(kv_cache_bytes(v32, Dtype::bf16, s) == kLayers * s * (kLatentBytes + kIndexBytes));
    CHECK(kv_cache_read_bytes(v32, Dtype::bf16, s) == kLayers * (s * kIndexBytes + 2048.0 * kLatentBytes));
    CHECK(kv_cache_read_bytes(v3, Dtype::bf16, s) == kv_cache_bytes(v3, Dtype::bf16, s));
  }
  // A short context reads all of it.
  CHECK(kv_cache_read_bytes(v32, Dtype::bf16, 1000) == kv_cache_bytes(v32, Dtype::bf16, 1000));
}

TEST_CASE("serving DeepSeek-V3.2 over context: the decode step grows with the index keys only",
          "[sparse_attention][issue36][serving]") {
  // Book fidelity (scaling-book/inference) on 8 B200 with TP 8: MLA's cache has no heads to split, so every rank reads
  // it whole.
  const Hardware hw = hardware("b200");
  const ModelConfig v32 = model("deepseek-v3.2"), v3 = model("deepseek-v3");
  const Mesh mesh = mesh_of(hw, Json{{"shape", {8}}});
  const auto input = [&](const ModelConfig& m) { return serving_replica(hw, m, mesh, 8, Dtype::fp8); };
  const ServingInput sparse = input(v32), dense = input(v3);
  const double batch = 32, w = 8 * hw.hbm_bandwidth_bytes_per_s * sparse.efficiency.hbm_frac;
  for (double context : {8192.0, 32768.0, 131072.0}) {
    INFO("context " << context);
    CHECK(decode_step(sparse, batch, context).kv_load_s ==
          Approx(batch * 8 * kLayers * (context * kIndexBytes + 2048 * kLatentBytes) / w).epsilon(1e-12));
    CHECK(decode_step(dense, batch, context).kv_load_s ==
          Approx(batch * 8 * kLayers * context * kLatentBytes / w).epsilon(1e-12));
    // The batch that fits: every token's latent and index key are held.
    const double free = 8 * hw.hbm_capacity_bytes - serving_param_bytes(sparse);
    CHECK(serving_max_batch(sparse, context) ==
          std::floor(free / (8 * kLayers * context * (kLatentBytes + kIndexBytes))));
  }
  // From 8k to 128k the dense model's KV reads grow 16x; the sparse model's by the index keys: at 128k its decode
  // reads a ninth of V3's cache (132 + 1152 x 2048 / 131072 bytes per token per layer against 1152).
  const double growth_sparse =
      decode_step(sparse, batch, 131072).kv_load_s / decode_step(sparse, batch, 8192).kv_load_s;
  const double growth_dense = decode_step(dense, batch, 131072).kv_load_s / decode_step(dense, batch, 8192).kv_load_s;
  CHECK(growth_dense == Approx(16).epsilon(1e-9));
  CHECK(
      growth_sparse ==
      Approx((131072 * kIndexBytes + 2048 * kLatentBytes) / (8192 * kIndexBytes + 2048 * kLatentBytes)).epsilon(1e-9));
  CHECK(decode_step(dense, batch, 131072).kv_load_s / decode_step(sparse, batch, 131072).kv_load_s > 7.5);
}

TEST_CASE("calibrated serving of DeepSeek-V3.2: the indexer's keys are the KV share, and long decode is faster",
          "[sparse_attention][issue36][calibrated]") {
  const auto decode = [](const char* preset, double context) {
    return serving_on_8(
        "b200", {{"preset", preset}},
        {{"fidelity", "calibrated"}, {"batch", 32}, {"prompt_len", context}, {"generated_len", 512}})["decode"];
  };
  const Json sparse = decode("deepseek-v3.2", 130560), dense = decode("deepseek-v3", 130560);
  CHECK(sparse["kv_load_s"].get<double>() > 0);
  CHECK(sparse["kv_load_s"].get<double>() < dense["kv_load_s"].get<double>() / 5);
  CHECK(sparse["step_s"].get<double>() < dense["step_s"].get<double>() / 2);
}

TEST_CASE("DeepSeek-V3.2 and GLM-5 from their public config.json, against the published parameter counts",
          "[sparse_attention][issue36][hf_config]") {
  Diagnostics d;
  const ModelConfig from_config = resolve_model(Json{{"hf_config", hf_config_file("deepseek-v3.2.json")}}, "/model", d);
  for (const auto& x : d) INFO(x.path << ": " << x.message);
  REQUIRE(d.empty());
  const ModelConfig preset = model("deepseek-v3.2");
  CHECK(from_config.sparse.index_heads == preset.sparse.index_heads);
  CHECK(from_config.sparse.index_head_dim == preset.sparse.index_head_dim);
  CHECK(from_config.sparse.index_topk == preset.sparse.index_topk);
  CHECK(count_params(from_config).total == count_params(preset).total);
  // GLM-5's card: 744B parameters, 40B active (whole billions; the active count leaves the embedding and output
  // matrices out, as 39.88e9 rounds to it and 41.78e9 with them does not).
  const ModelConfig glm = resolve_model(Json{{"hf_config", hf_config_file("glm-5.json")}}, "/model", d);
  REQUIRE(d.empty());
  const ParamCounts p = count_params(glm);
  CHECK(p.total == Approx(744e9).epsilon(0.01));
  CHECK(std::abs((p.active - p.embeddings) / 1e9 - 40) <= 0.5);
  CHECK(count_params(model("glm-5")).total == p.total);
  // A sparse model has full-attention layers only.
  Json bad = Json::parse(find_preset(model_preset_texts(), "deepseek-v3.2")->json);
  for (const char* k : {"schema", "id", "name", "sources", "notes", "not_modelled"}) bad.erase(k);
  bad["attention_pattern"] = {"sliding", "full"};
  bad["sliding_window"] = 4096;
  Diagnostics bad_d;
  parse_model(bad, "/model", false, bad_d);
  CHECK(has_code(bad_d, "inconsistent", "/model/sparse_attention"));
}
