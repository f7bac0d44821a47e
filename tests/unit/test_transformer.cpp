#include <catch2/catch.hpp>

#include "physics/transformer.h"
#include "test_helpers.h"

using namespace scalescope;
using Catch::Matchers::WithinRel;

TEST_CASE("LLaMA-3 70B parameters by component (scaling-book/applied-training, counting parameters)", "[transformer]") {
  const ParamCounts p = count_params(test::model("llama-3-70b"));
  CHECK_THAT(p.mlp, WithinRel(8192.0 * 28672 * 3 * 80, 1e-12));
  CHECK_THAT(p.embeddings, WithinRel(2.0 * 128256 * 8192, 1e-12));
  CHECK_THAT(p.attention, WithinRel(80 * (2.0 * 8192 * 64 * 128 + 2.0 * 8192 * 8 * 128), 1e-12));
  CHECK_THAT(p.total, WithinRel(70.55e9, 1e-3));
  CHECK(p.active == p.total);
}

TEST_CASE("tied embeddings and plain MLPs change the counts (scaling-book/transformers)", "[transformer]") {
  ModelConfig m = test::model("llama-3-8b");
  const double untied = count_params(m).embeddings;
  m.tied_embeddings = true;
  CHECK(count_params(m).embeddings == untied / 2);
  const double gated = count_params(m).mlp;
  m.mlp = MlpKind::plain;
  CHECK_THAT(count_params(m).mlp, WithinRel(gated * 2 / 3, 1e-12));
}

TEST_CASE("MoE: total counts every expert, active only k + shared (scaling-book/transformers, MoE)", "[transformer]") {
  const ModelConfig mixtral = test::model("mixtral-8x7b");
  const ParamCounts p = count_params(mixtral);
  CHECK_THAT(p.mlp, WithinRel(32 * 8 * 3.0 * 4096 * 14336, 1e-12));
  CHECK_THAT(p.mlp_active, WithinRel(32 * 2 * 3.0 * 4096 * 14336, 1e-12));
  CHECK_THAT(p.total, WithinRel(46.7e9, 2e-3));
  CHECK_THAT(p.active, WithinRel(12.9e9, 5e-3));
}

TEST_CASE("training FLOPs are 3x forward and about 6 N per token (scaling-book/transformers, training FLOPs)",
          "[transformer]") {
  const ModelConfig m = test::model("llama-3-70b");
  const FlopCounts f = count_flops(m, 4096, 4096, true);
  CHECK_THAT(f.training, WithinRel(3 * f.forward, 1e-12));
  // Without attention the forward pass is 2 x (params in matmuls) per token.
  const double six_n = 6 * count_params(m).total;
  // Norm weights (1.3M of 70.6B) are not matmul FLOPs: 1e-4 covers them.
  CHECK_THAT(f.training - 3 * f.attention_forward, WithinRel(4096 * (six_n - 6 * 128256.0 * 8192), 1e-4));
  // Causal attention does half the work of full attention.
  CHECK_THAT(count_flops(m, 4096, 4096, false).attention_forward, WithinRel(2 * f.attention_forward, 1e-12));
}

TEST_CASE("KV cache bytes per token and attention intensity (scaling-book/transformers)", "[transformer]") {
  const ModelConfig m = test::model("llama-3-70b");
  CHECK(kv_bytes_per_token(m, Dtype::bf16) == 327680);
  CHECK(kv_bytes_per_token(m, Dtype::int8) == 163840);
  // Decode intensity tends to G = N/K = 8 as S grows; prefill grows with T.
  CHECK_THAT(attention_intensity_flops_per_byte(m, 1, 1e9), WithinRel(8.0, 1e-6));
  CHECK(attention_intensity_flops_per_byte(m, 8192, 8192) > 1000);
}

TEST_CASE("remat policies trade memory for FLOPs (scaling-book/transformers, gradient checkpointing)",
          "[transformer]") {
  ModelConfig m = test::model("llama-3-70b");
  m.layers = 64;  // the book's example: L = 64, D = 8192, 4M tokens
  const RematCost none = remat_cost(m, Remat::none, 4e6, 4096, 0, Dtype::bf16, true);
  const RematCost block = remat_cost(m, Remat::block, 4e6, 4096, 0, Dtype::bf16, true);
  CHECK_THAT(none.activation_bytes, WithinRel(84e12, 0.01));
  CHECK_THAT(block.activation_bytes, WithinRel(4.2e12, 0.01));
  CHECK(none.extra_forward_flops == 0);
  // Block remat reruns the forward pass of every layer: training goes from ~6N to ~8N per token.
  const double six = count_flops(m, 4e6, 4096, true).training;
  CHECK_THAT((six + block.extra_forward_flops) / six, WithinRel(8.0 / 6.0, 0.02));
  const RematCost four = remat_cost(m, Remat::checkpoints, 4e6, 4096, 4, Dtype::bf16, true);
  CHECK(four.activation_bytes == 4 * block.activation_bytes);
}

TEST_CASE("utilisation from chip-hours (scaling-book/transformers, Question 7)", "[transformer]") {
  CHECK_THAT(utilisation_from_chip_hours(37e9, 14.8e12, 2.79e6, 1.513e15), WithinRel(0.216, 0.01));
}

TEST_CASE(
    "the 6ND account: 6 x active params per token, no attention; block remat adds one forward "
    "(scaling-book/transformers, training FLOPs and gradient checkpointing)",
    "[transformer]") {
  const ModelConfig m = test::model("llama-3-70b");
  const double n = count_params(m).active, tokens = 4e6;
  const FlopCounts f = count_flops(m, tokens, 4096, true, FlopAccount::six_nd);
  CHECK_THAT(f.training, WithinRel(6.0 * n * tokens, 1e-12));
  CHECK(f.attention_forward == 0.0);
  // scaling-book/transformers: block remat re-runs the forward (less the unembedding, which is not redone):
  // 6ND -> ~8ND.
  const RematCost r = remat_cost(m, Remat::block, tokens, 4096, 0, Dtype::bf16, true, FlopAccount::six_nd);
  CHECK_THAT(r.extra_forward_flops, WithinRel(2.0 * tokens * (n - m.vocab * m.d_model), 1e-12));
  // The fuller account stays the default.
  CHECK(count_flops(m, tokens, 4096, true).attention_forward > 0.0);
}

TEST_CASE(
    "the sequence length where attention catches up honours causal masking (scaling-book/transformers, "
    "Question 5)",
    "[transformer]") {
  ModelConfig m = test::model("llama-2-13b");  // MHA, D = N H
  // Full attention: 4 T N H FLOPs per token per layer (forward) equal the QKVO's 4 D (N + K) H at T = 2D; with
  // causal masking a query sees T/2 keys on average, so it takes twice the length.
  CHECK(attention_equals_qkvo_seq_len(m, false) == 2.0 * m.d_model);
  CHECK(attention_equals_qkvo_seq_len(m, true) == 4.0 * m.d_model);
  const double full = attention_equals_matmuls_seq_len(m, false).value();
  CHECK(attention_equals_matmuls_seq_len(m, true) == 2.0 * full);
  // The lengths agree with count_flops: at that T, attention FLOPs equal the layers' matmul FLOPs.
  const FlopCounts f = count_flops(m, 1, full, false);
  const double layer_matmuls = 2.0 * (count_params(m).mlp_active + count_params(m).attention);
  CHECK_THAT(f.attention_forward, WithinRel(layer_matmuls, 1e-12));
}

TEST_CASE("issue 39: attention catches up with the matmuls over each layer's own span (sliding windows included)",
          "[transformer]") {
  const auto transformer = [](const Json& model, double seq_len) {
    const Json a =
        scalescope::test::run_json({{"model", model}, {"query", {{"kind", "transformer"}, {"seq_len", seq_len}}}});
    REQUIRE(a["ok"] == true);
    return a["result"];
  };
  // Full attention: the closed form of scaling-book/transformers, Question 5, causal: S = 2 x (the layer's matmul
  // parameters) / (2 N H).
  const ModelConfig llama = scalescope::test::model("llama-3-70b");
  const ParamCounts p = count_params(llama);
  const Json full = transformer({{"preset", "llama-3-70b"}}, 4096);
  CHECK(full["attention_equals_matmuls_seq_len"].get<double>() ==
        Approx(2.0 * (p.mlp_active + p.attention) / llama.layers / (2.0 * llama.heads * llama.head_dim)).epsilon(1e-6));
  // Gemma-2 27B: every other layer slides over 4,096 tokens, so attention catches up later than the closed form says,
  // and at that context its FLOPs per token equal the matmuls' (2 per parameter).
  const ModelConfig gemma = scalescope::test::model("gemma-2-27b");
  const ParamCounts g = count_params(gemma);
  const double all_full = 2.0 * (g.mlp_active + g.attention) / gemma.layers / (2.0 * gemma.heads * gemma.head_dim);
  const double s = transformer({{"preset", "gemma-2-27b"}}, 4096)["attention_equals_matmuls_seq_len"];
  CHECK(s > 1.5 * all_full);
  CHECK_THAT(count_flops(gemma, 1, s, true).attention_forward, WithinRel(2.0 * (g.mlp_active + g.attention), 1e-6));
  // A model whose every layer slides never gets there: the key is left out, not a number from the full formula.
  const Json mistral =
      transformer({{"preset", "gemma-2-27b"}, {"overrides", {{"attention_pattern", {"sliding"}}}}}, 4096);
  CHECK_FALSE(mistral.contains("attention_equals_matmuls_seq_len"));
  CHECK(mistral.contains("attention_equals_qkvo_seq_len") == false);
}
