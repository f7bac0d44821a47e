// The main ops a training_step and a serving result list for the roofline (issue 39): the ops the step prices,
// from layer_ops, each with its intensity and bound at the chip's roofline.
#include <catch2/catch.hpp>
#include <string>

#include "test_helpers.h"

using namespace scalescope;
using Catch::Matchers::WithinRel;

namespace {

Json evaluate_ok(const std::string& text) {
  const Json out = evaluate(Json::parse(text));
  REQUIRE(out["ok"] == true);
  REQUIRE(out["result"]["main_ops"].is_array());
  REQUIRE(!out["result"]["main_ops"].empty());
  return out["result"];
}

const Json* find_op(const Json& ops, const std::string& name, const char* phase = nullptr) {
  for (const Json& o : ops)
    if (o["name"] == name && (!phase || o["phase"] == phase)) return &o;
  return nullptr;
}

// Every op: a matmul or attention, intensity FLOPs / bytes, time at the roofline of its dtype, bound on the side of
// the chip's ridge (scaling-book/roofline).
void check_roofline(const Json& ops, const Hardware& hw) {
  for (const Json& o : ops) {
    INFO(o.dump());
    CHECK((o["kind"] == "matmul" || o["kind"] == "attention"));
    const double flops = o["flops"], bytes = o["hbm_bytes"], intensity = o["intensity_flops_per_byte"];
    REQUIRE(bytes > 0);
    CHECK_THAT(intensity, WithinRel(flops / bytes, 1e-12));
    const double peak = hw.peak(*parse_dtype(o["dtype"].get<std::string>()));
    const double ridge = peak / hw.hbm_bandwidth_bytes_per_s;
    CHECK(o["bound"] == (intensity > ridge ? "compute" : "memory"));
    CHECK_THAT(o["time_s"].get<double>(),
               WithinRel(std::max(flops / peak, bytes / hw.hbm_bandwidth_bytes_per_s), 1e-12));
  }
}

}  // namespace

TEST_CASE("main ops: LLaMA-3 70B at TP 8, the QKV projection's FLOPs per chip", "[main_ops]") {
  const Json r = evaluate_ok(R"({"hardware": {"preset": "h100-sxm"}, "model": {"preset": "llama-3-70b"},
    "mesh": {"shape": [64]}, "query": {"kind": "training_step", "batch_tokens": 4194304, "seq_len": 8192,
    "parallelism": {"fsdp": 8, "tensor": 8}}})");
  const ModelConfig m = test::model("llama-3-70b");
  const Json& ops = r["main_ops"];
  const Json* qkv = find_op(ops, "qkv_projection");
  REQUIRE(qkv);
  // jax-ml.github.io/scaling-book/transformers, "Counting parameters and FLOPs": the QKV projection is
  // 2 T D (N + 2K) H FLOPs; TP splits the heads (N and K over 8: 64 and 8 heads, 8 and 1 a chip).
  const double tokens = r["microbatch_tokens"];
  const double expected = 2.0 * tokens * m.d_model * (m.heads + 2.0 * m.kv_heads) * m.head_dim / 8.0;
  CHECK_THAT((*qkv)["flops"].get<double>(), WithinRel(expected, 1e-12));
  CHECK((*qkv)["layers"] == m.layers);
  CHECK(find_op(ops, "attention"));
  CHECK(find_op(ops, "mlp_up"));
  CHECK(find_op(ops, "logits"));
  CHECK_FALSE(find_op(ops, "rotary"));  // elementwise ops are left out
  CHECK_FALSE(find_op(ops, "mlp_norm"));
  check_roofline(ops, test::hardware("h100-sxm"));
  // The book's fidelity lists the same ops.
  const Json book = evaluate_ok(R"({"hardware": {"preset": "h100-sxm"}, "model": {"preset": "llama-3-70b"},
    "mesh": {"shape": [64]}, "query": {"kind": "training_step", "fidelity": "book", "batch_tokens": 4194304,
    "seq_len": 8192, "parallelism": {"fsdp": 8, "tensor": 8}}})");
  CHECK(book["main_ops"] == ops);
}

TEST_CASE("main ops: DeepSeek-V3 runs MLA's projections and no QKV projection", "[main_ops]") {
  const Hardware hw = test::hardware("h100-sxm");
  const Json t = evaluate_ok(R"({"hardware": {"preset": "h100-sxm"}, "model": {"preset": "deepseek-v3"},
    "mesh": {"shape": [256]}, "query": {"kind": "training_step", "batch_tokens": 4194304, "seq_len": 4096,
    "parallelism": {"fsdp": 32, "expert": 8}}})");
  const Json& ops = t["main_ops"];
  CHECK_FALSE(find_op(ops, "qkv_projection"));
  for (const char* mla : {"q_down_projection", "q_up_projection", "kv_down_projection", "kv_up_projection"})
    CHECK(find_op(ops, mla));
  CHECK(find_op(ops, "experts_up"));
  CHECK(find_op(ops, "mlp_up"));  // the three dense layers
  check_roofline(ops, hw);

  const Json s = evaluate_ok(R"({"hardware": {"preset": "h100-sxm"}, "model": {"preset": "deepseek-v3"},
    "mesh": {"shape": [8]}, "query": {"kind": "serving", "batch": 32, "prompt_len": 4096, "generated_len": 512,
    "parallelism": {"tensor": ["X"]}}})");
  const Json& serving = s["main_ops"];
  CHECK_FALSE(find_op(serving, "qkv_projection"));
  // Decode keeps the latent and absorbs the up-projections (DeepSeek-V2 §2.1.2); prefill expands it.
  CHECK(find_op(serving, "q_absorb_k_up", "decode"));
  CHECK_FALSE(find_op(serving, "kv_up_projection", "decode"));
  CHECK(find_op(serving, "kv_up_projection", "prefill"));
  // A decode step reads every sequence's latent cache: its attention is memory-bound, its prefill compute-bound.
  CHECK((*find_op(serving, "attention", "decode"))["bound"] == "memory");
  CHECK((*find_op(serving, "attention", "prefill"))["bound"] == "compute");
  check_roofline(serving, hw);
}
