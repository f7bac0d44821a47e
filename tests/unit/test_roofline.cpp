#include <catch2/catch.hpp>

#include "physics/roofline.h"
#include "test_helpers.h"

using namespace scalescope;
using Catch::Matchers::WithinRel;

TEST_CASE("roofline: max and sum bounds, intensity and bound label (scaling-book/roofline)", "[roofline]") {
  // scaling-book/roofline: v5e 1.97e14 FLOP/s over 8.2e11 B/s -> critical intensity 240.
  const Roofline r = roofline(1e12, 1e10, 1.97e14, 8.2e11);
  CHECK_THAT(r.critical_intensity_flops_per_byte, WithinRel(240.24, 1e-3));
  CHECK_THAT(r.intensity_flops_per_byte, WithinRel(100.0, 1e-12));
  CHECK_FALSE(r.compute_bound);
  CHECK_THAT(r.lower_bound_s, WithinRel(1e10 / 8.2e11, 1e-12));
  CHECK_THAT(r.upper_bound_s, WithinRel(1e12 / 1.97e14 + 1e10 / 8.2e11, 1e-12));
  // Attainable FLOP/s below the ridge is intensity x bandwidth.
  CHECK_THAT(r.attainable_flops_per_s, WithinRel(100.0 * 8.2e11, 1e-12));
  // scaling-book/roofline: the two bounds differ by at most 2x.
  CHECK(r.upper_bound_s <= 2.0 * r.lower_bound_s);
  const Roofline c = roofline(1e15, 1e9, 1.97e14, 8.2e11);
  CHECK(c.compute_bound);
  CHECK(c.attainable_flops_per_s == 1.97e14);
}

TEST_CASE("matmul bytes follow each operand's dtype (scaling-book/roofline, Questions 2 and 3)", "[roofline]") {
  const MatmulShape s{64, 4096, 8192};
  // scaling-book/gpus, Quiz 1 Question 4: fp16[64,4096] x fp16[4096,8192] moves 2BD + 2DF + 2BF = 68,681,728 bytes.
  CHECK(matmul_bytes(s, MatmulDtypes{}) == 68'681'728.0);
  CHECK(matmul_flops(s) == 2.0 * 64 * 4096 * 8192);
  // int8 weights halve only the DF term.
  const MatmulDtypes int8_weights{Dtype::bf16, Dtype::int8, Dtype::bf16};
  CHECK(matmul_bytes(s, int8_weights) == 2.0 * 64 * 4096 + 4096.0 * 8192 + 2.0 * 64 * 8192);
}

TEST_CASE("matmul crossover batch solves compute time = memory time exactly (scaling-book/roofline, Question 3)",
          "[roofline]") {
  const MatmulDtypes int8_weights{Dtype::bf16, Dtype::int8, Dtype::bf16};
  const double b = matmul_crossover_batch(4096, 4096, int8_weights, 1.97e14, 8.2e11);
  CHECK_THAT(b, WithinRel(136.1, 1e-3));
  // At the crossover the two times are equal.
  const MatmulShape s{b, 4096, 4096};
  CHECK_THAT(matmul_flops(s) / 1.97e14, WithinRel(matmul_bytes(s, int8_weights) / 8.2e11, 1e-9));
  // Smaller matrices need a larger batch ("almost doubles": 226.3 for D = F = 1024).
  CHECK_THAT(matmul_crossover_batch(1024, 1024, int8_weights, 1.97e14, 8.2e11), WithinRel(226.3, 1e-3));
  // If activations alone outrun the FLOPs no batch is compute-bound: reported as 0.
  CHECK(matmul_crossover_batch(1, 1, MatmulDtypes{}, 1e15, 1e9) == 0.0);
}

TEST_CASE(
    "critical batch scales with bytes per weight (scaling-book/roofline and scaling-book/inference, "
    "quantization)",
    "[roofline]") {
  CHECK_THAT(matmul_critical_batch(1.97e14, 8.2e11, Dtype::bf16), WithinRel(240.24, 1e-3));
  CHECK_THAT(matmul_critical_batch(1.97e14, 8.2e11, Dtype::int8), WithinRel(120.12, 1e-3));
  // int8 weights and int8 FLOPs (3.94e14): back to about 240, not the literal beta formula's 486.
  CHECK_THAT(matmul_critical_batch(3.94e14, 8.2e11, Dtype::int8), WithinRel(240.24, 1e-3));
}

TEST_CASE("issue 39: a chip's vector FLOP/s from its lanes and clock (the TPU chapter's VPU pop quiz)", "[roofline]") {
  // v5p: 8 sublanes x 128 lanes x 4 ALUs x 2 cores = 8,192 lanes at 1.75 GHz, one FLOP a cycle: 1.43e13 FLOP/s,
  // about a tenth of the MXUs'.
  const auto chip = [](const char* preset) {
    const scalescope::Json a =
        scalescope::test::run_json({{"hardware", {{"preset", preset}}}, {"query", {{"kind", "chip"}}}});
    REQUIRE(a["ok"] == true);
    return a["result"];
  };
  const scalescope::Json v5p = chip("tpu-v5p");
  CHECK(v5p["vector_flops_per_s_from_lanes"].get<double>() == Approx(8.0 * 128 * 4 * 2 * 1.75e9));
  CHECK(v5p["vector_flops_per_s_from_lanes"].get<double>() == Approx(1.434e13).epsilon(1e-3));
  CHECK(v5p["vector_flops_per_s_from_lanes_with_fma"].get<double>() == Approx(2 * 1.4336e13));
  // H100: 16,896 CUDA cores at the preset's 1.76 GHz.
  CHECK(chip("h100-sxm")["vector_flops_per_s_from_lanes"].get<double>() == Approx(16896 * 1.76e9));
}

TEST_CASE("issue 39: a roofline at a training matmul precision runs at the dtype its recipe runs in", "[roofline]") {
  const auto roofline = [](const Json& peak) {
    Json query = {{"kind", "roofline"}, {"flops", 1e12}, {"bytes", 1e9}};
    query.update(peak);
    return scalescope::test::run_json({{"hardware", {{"preset", "b200"}}}, {"query", query}});
  };
  const Json fp8 = roofline({{"dtype", "fp8"}});
  const Json fp4 = roofline({{"dtype", "fp4"}});
  REQUIRE(fp8["ok"] == true);
  // DeepSeek-V3's 1x128/128x128 blocks and OCP MX run FP8 GEMMs; NVFP4 runs FP4 GEMMs (their scales ride along).
  for (const char* recipe : {"fp8_blockwise", "mxfp8"}) {
    const Json r = roofline({{"precision", recipe}});
    INFO(recipe);
    CHECK(r["result"]["dtype"] == "fp8");
    CHECK(r["result"]["peak_flops_per_s"] == fp8["result"]["peak_flops_per_s"]);
  }
  CHECK(roofline({{"precision", "nvfp4"}})["result"]["peak_flops_per_s"] == fp4["result"]["peak_flops_per_s"]);
  CHECK(roofline({{"precision", "bf16"}})["result"]["dtype"] == "bf16");
  const Json both = roofline({{"precision", "mxfp8"}, {"dtype", "bf16"}});
  CHECK(both["ok"] == false);
  CHECK(both["diagnostics"][0]["path"] == "/query/precision");
  CHECK(roofline({{"precision", "fp6"}})["ok"] == false);
}
