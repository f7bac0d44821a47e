// Issue 36: Gemma 4's global layers. Five sliding-window layers (1,024 tokens) to one full-attention ("global")
// layer whose heads are twice as wide with fewer KV heads, and whose V is its K projection (attention_k_eq_v: no V
// weights, though the cache keeps K after RoPE and V apart). The 26B A4B runs a dense MLP beside its routed experts
// in every layer. Each number is counted by hand from the published config.json (tests/hf_configs/gemma-4-*.json).
#include "physics/transformer.h"
#include "specs/hf_config.h"
#include "test_helpers.h"

using namespace scalescope;
using namespace scalescope::test;

TEST_CASE("Gemma 4's global layers: their own KV heads and width, K = V, against a hand count",
          "[global_attention][issue36]") {
  const ModelConfig m = model("gemma-4-26b-a4b");
  // KV per token per layer in bf16: a sliding layer's 8 heads of 256, K and V; a global layer's 2 heads of 512.
  const double sliding_kv = 2.0 * 8 * 256 * 2, global_kv = 2.0 * 2 * 512 * 2;
  CHECK(kv_values_per_token_per_layer(m, AttentionSpan::sliding) * 2 == sliding_kv);
  CHECK(kv_values_per_token_per_layer(m, AttentionSpan::full) * 2 == global_kv);
  CHECK(kv_bytes_per_token(m, Dtype::bf16) == 25 * sliding_kv + 5 * global_kv);
  for (double context : {512.0, 8192.0, 131072.0}) {
    INFO("context " << context);
    CHECK(kv_cache_bytes(m, Dtype::bf16, context) ==
          25 * std::min(context, 1024.0) * sliding_kv + 5 * context * global_kv);
  }
  // Projections: a sliding layer's Q (16 x 256), K and V (8 x 256 each) and O; a global layer's Q (16 x 512),
  // K (2 x 512) and no V, and O.
  CHECK(attention_params_per_layer(m, AttentionSpan::sliding) == 2816.0 * (4096 + 4096) + 4096.0 * 2816);
  CHECK(attention_params_per_layer(m, AttentionSpan::full) == 2816.0 * (8192 + 1024) + 8192.0 * 2816);
  // Attention FLOPs per token grow in the 5 global layers only, with their 512-wide heads: 4 S N H
  // (scaling-book/transformers).
  CHECK(mixing_flops_per_token(m, AttentionSpan::full, 131072, false, true) == 4.0 * 131072 * 16 * 512);
  CHECK(mixing_flops_per_token(m, AttentionSpan::sliding, 131072, false, true) == 4.0 * 1024 * 16 * 256);
}

TEST_CASE("Gemma 4 from its public config.json: the dense MLP beside the experts, the published counts",
          "[global_attention][issue36][hf_config]") {
  Diagnostics d;
  const ModelConfig moe = resolve_model(Json{{"hf_config", hf_config_file("gemma-4-26b-a4b.json")}}, "/model", d);
  for (const auto& x : d) INFO(x.path << ": " << x.message);
  REQUIRE(d.empty());
  // The dense MLP of 2,112 beside 128 experts of 704: three always-on experts of the routed width.
  CHECK(moe.shared_experts == 3);
  CHECK(moe.global.head_dim == 512);
  CHECK(moe.global.kv_heads == 2);
  CHECK(moe.global.k_eq_v);
  // Model card google/gemma-4-26B-A4B: 25.2B total, 3.8B active.
  const ParamCounts p = count_params(moe);
  CHECK(p.total == Approx(25.2e9).epsilon(0.01));
  CHECK(p.active == Approx(3.8e9).epsilon(0.01));
  CHECK(p.total == count_params(model("gemma-4-26b-a4b")).total);
  // The 31B is dense (enable_moe_block false) and published in NVFP4 by NVIDIA (ModelOpt): 30.7e9, the name's 31B.
  const ModelConfig dense =
      resolve_model(Json{{"hf_config", hf_config_file("gemma-4-31b-it-nvfp4.json")}}, "/model", d);
  REQUIRE(d.empty());
  CHECK_FALSE(dense.is_moe());
  CHECK(std::abs(count_params(dense).total / 1e9 - 31) <= 0.5);
  REQUIRE(dense.weights_dtype.has_value());
  CHECK(*dense.weights_dtype == Dtype::fp4);
  CHECK(count_params(dense).total == count_params(model("gemma-4-31b")).total);
  // KV sharing across layers (Gemma 3n's num_kv_shared_layers) is refused by name, not silently dropped.
  Json shared = hf_config_file("gemma-4-26b-a4b.json");
  shared["text_config"]["num_kv_shared_layers"] = 10;
  Diagnostics refused;
  resolve_model(Json{{"hf_config", shared}}, "/model", refused);
  CHECK(has_code(refused, "not_modelled", "/model/hf_config/text_config/num_kv_shared_layers"));
}
