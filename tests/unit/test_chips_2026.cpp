// Issue 36: the chips of 2026 (B300, GB300 NVL72, MI325X, MI355X), each number sourced in its preset. They have no
// calibration runs of their own, so the calibrated fidelity prices them with the GPU family's profile and says so:
// its error band is the family's transfer band (each chip held out whole), not a fitted chip's.
#include "planners/serving.h"
#include "test_helpers.h"

using namespace scalescope;
using namespace scalescope::test;

namespace {

Json serving(const char* chip, const char* model, const char* fidelity, const Json& dtypes) {
  return serving_on_8(
      chip, {{"preset", model}},
      {{"fidelity", fidelity}, {"batch", 64}, {"prompt_len", 8192}, {"generated_len", 1024}, {"dtypes", dtypes}});
}

}  // namespace

TEST_CASE("the chips of 2026 serve with the GPU family's profile and its transfer band", "[chips][issue36]") {
  for (const char* chip : {"b300", "gb300-nvl72", "mi325x", "mi355x"}) {
    INFO(chip);
    const Hardware hw = hardware(chip);  // parses with a source for every number (require_sources)
    const Json r = serving(chip, "llama-3-70b", "calibrated", {{"weights", "fp8"}});
    const Json& band = r["calibration"]["error_band"];
    CHECK(band["scope"] == "transfer");
    CHECK(band["text"].get<std::string>().find(hw.name + " has no runs of its own") != std::string::npos);
    CHECK(r["decode"]["step_s"].get<double>() > 0);
  }
}

TEST_CASE("Blackwell Ultra against Blackwell: the same HBM rate, half again the capacity, no int8",
          "[chips][issue36]") {
  // Book fidelity (scaling-book/inference), LLaMA-3 70B in fp8 on 8 GPUs: the decode step reads the same bytes at the
  // same 8 TB/s, so it is the same step; the batch that fits grows with the HBM left after the weights.
  const Json fp8 = {{"weights", "fp8"}};
  const Json b200 = serving("b200", "llama-3-70b", "book", fp8), b300 = serving("b300", "llama-3-70b", "book", fp8);
  CHECK(b300["decode"]["step_s"].get<double>() == Approx(b200["decode"]["step_s"].get<double>()).epsilon(1e-9));
  const double weights = b200["memory"]["param_bytes"].get<double>();
  const double per_sequence = b200["memory"]["kv_bytes_per_sequence"].get<double>();
  CHECK(b300["memory"]["max_batch"].get<double>() == std::floor((8 * 288e9 - weights) / per_sequence));
  CHECK(b200["memory"]["max_batch"].get<double>() == std::floor((8 * 192e9 - weights) / per_sequence));
  // Blackwell Ultra cut its INT8 tensor rate: an int8 query is refused, naming the dtypes the chip has.
  const Json refused = run_json({{"hardware", {{"preset", "b300"}}},
                                 {"model", {{"preset", "llama-3-70b"}}},
                                 {"mesh", {{"shape", {8}}}},
                                 {"query",
                                  {{"kind", "serving"},
                                   {"batch", 8},
                                   {"prompt_len", 1024},
                                   {"generated_len", 128},
                                   {"dtypes", {{"weights", "int8"}, {"activations", "int8"}}},
                                   {"parallelism", {{"tensor", {"X"}}}}}}});
  REQUIRE(refused["ok"] == false);
  CHECK(refused["diagnostics"][0]["code"] == "dtype_not_supported");
  CHECK(refused["diagnostics"][0]["message"].get<std::string>().find("bf16, fp8, fp4") != std::string::npos);
  // The MI355X's dense rates are twice the MI325X's in bf16 and fp8 (CDNA 4 against CDNA 3), with fp4 added.
  const Hardware mi325 = hardware("mi325x"), mi355 = hardware("mi355x");
  CHECK(mi355.peak(Dtype::bf16) / mi325.peak(Dtype::bf16) == Approx(2516.6 / 1307.4).epsilon(1e-3));
  CHECK(mi355.peak(Dtype::fp4) == Approx(2.0 * mi355.peak(Dtype::fp8)).epsilon(1e-3));
}
