// The calibrated model's kernel level (issue 34; docs/validation.md "Kernel models"): the time formulas of
// physics/kernels.h, the fit of each chip's kernel models to its measured kernel tables (tests/kernels/, extracted
// from ai-dynamo/aiconfigurator @ 095f58a, Apache-2.0), their error on held-out shapes, the shipped profiles equal
// to what the fit gives today, and decode steps that load their weights no faster or slower than the chip's
// measured HBM rate.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "physics/kernels.h"
#include "specs/calibration_profile.h"
#include "specs/kernel_models.h"
#include "test_helpers.h"

using namespace scalescope;
using Catch::Matchers::WithinRel;
using scalescope::test::run_json;

namespace {

const char* const kTableChips[] = {"h100-sxm", "h200", "b200", "gb200-nvl72", "a100-80gb"};

const Json& kernel_tables(const std::string& chip) {
  static std::map<std::string, Json> cache;
  auto it = cache.find(chip);
  if (it != cache.end()) return it->second;
  std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/tests/kernels/" + chip + ".json");
  std::stringstream text;
  text << in.rdbuf();
  return cache[chip] = Json::parse(text.str());
}

const Json& kernel_fit(const std::string& chip) {
  static std::map<std::string, Json> cache;
  auto it = cache.find(chip);
  if (it != cache.end()) return it->second;
  const Json out = run_json(
      {{"hardware", {{"preset", chip}}}, {"query", {{"kind", "kernel_fit"}, {"tables", kernel_tables(chip)}}}});
  INFO(out["diagnostics"].dump());
  REQUIRE(out["ok"] == true);
  return cache[chip] = out["result"];
}

const Json& kernel_family() {
  static const Json out = [] {
    Json chips = Json::array();
    for (const char* chip : kTableChips)
      chips.push_back({{"hardware", chip}, {"kernels", kernel_fit(chip)["kernels"]}});
    return run_json({{"query", {{"kind", "kernel_family"}, {"chips", chips}}}});
  }();
  return out;
}

const Json* score(const std::string& chip, const std::string& op, const std::string& variant) {
  for (const Json& s : kernel_fit(chip)["scores"])
    if (s["op"] == op && s["variant"] == variant) return &s;
  return nullptr;
}

const CalibrationProfile& profile(const char* id) {
  for (const CalibrationProfile& p : embedded_calibration_profiles())
    if (p.id == id) return p;
  FAIL("no embedded profile " << id);
  return embedded_calibration_profiles().front();
}

}  // namespace

TEST_CASE("a GEMM kernel is a roofline with a floor, a ceiling and a ramp", "[kernels]") {
  GemmModel g;
  g.ceiling_frac = 0.8;
  g.half_rate_flops = 1e8;
  g.hbm_frac = 0.75;
  g.launch_s = 3e-6;
  g.input_passes = 2;
  const double peak = 1e15, hbm = 3e12;
  // Large and compute-bound: the ceiling, less the ramp's one half-rate's worth of work.
  const double flops = 2.0 * 8192 * 8192 * 8192;
  const KernelTime big = gemm_kernel_time(g, flops, 1.0, 1.0, 3.0 * 2 * 8192 * 8192, peak, hbm);
  CHECK(big.compute_bound());
  CHECK(big.compute_s == Approx((flops + 1e8) / (0.8 * peak)));
  CHECK(big.total() == Approx(3e-6 + big.compute_s));
  // A GEMV streams its weight at the GEMM's share of HBM.
  const double bytes = 2.0 * 8192 * 8192;
  const KernelTime gemv = gemm_kernel_time(g, 2.0 * 8192 * 8192, 1.0, 1.0, bytes, peak, hbm);
  CHECK(!gemv.compute_bound());
  CHECK(gemv.memory_s == Approx(bytes / (0.75 * hbm)));
  // A serving engine's quantisation of the input adds passes of 3 bytes an element; training casts elsewhere.
  const KernelTime quantised = gemm_kernel_time(g, 2.0 * 8192 * 8192, 1.0, 1.0, bytes, peak, hbm, 4096.0 * 8192);
  CHECK(quantised.serial_s - gemv.serial_s == Approx(2 * 3.0 * 4096 * 8192 / hbm));
  // Padding or idle SMs cost FLOPs at the same rate.
  CHECK(gemm_kernel_time(g, flops, 0.5, 1.0, 0, peak, hbm).compute_s == Approx((2 * flops + 1e8) / (0.8 * peak)));
}

TEST_CASE("flash attention visits the key blocks up to each query tile's diagonal", "[kernels]") {
  FlashAttentionShape s;
  s.sequences = 2;
  s.heads = 8;
  s.query_len = 1024;  // 8 tiles of 128
  s.mean_keys = (1024 + 1) / 2.0;
  s.max_keys = 1024;
  s.qk_head_dim = s.v_head_dim = 128;
  // Tile i of n visits i + 1 blocks: n (n + 1) / 2 = 36 for 8 tiles, 2 x 128 x 128 x 256 FLOPs a block.
  CHECK(flash_attention_block_flops(s, 1.0) == Approx(2 * 8 * 36.0 * 2 * 128 * 128 * 256).epsilon(0.01));
  // Not causal (an encoder, or decode's whole cache): every block of every tile.
  s.causal = false;
  s.mean_keys = 1024;
  CHECK(flash_attention_block_flops(s, 1.0) == Approx(2 * 8 * 8 * 8.0 * 2 * 128 * 128 * 256));
  // The softmax's work per score slows a narrow head more than a wide one.
  FlashAttentionModel a;
  a.softmax_head_dim = 64;
  a.tile_overhead_flops = 0;
  s.causal = true;
  s.mean_keys = 512.5;
  auto rate = [&](double d) {
    FlashAttentionShape w = s;
    w.qk_head_dim = w.v_head_dim = d;
    const KernelTime t = flash_attention_time(a, w, 132, 1e15, 2e15, 3e12);
    return flash_attention_block_flops(w, 1.0) / t.compute_s;
  };
  CHECK(rate(64) < rate(128));
  CHECK(rate(128) < rate(256));
  CHECK(rate(256) < 1e15 * a.ceiling_frac);
}

TEST_CASE("an MoE kernel loads only the experts its tokens touch, at its own HBM share", "[kernels]") {
  GemmModel g;
  g.hbm_frac = 0.8;
  g.launch_s = 0;
  g.input_passes = 1e-4;
  MoeKernelShape s;
  s.experts = 8;
  s.topk = 2;
  s.hidden = 4096;
  s.inter = 14336;
  s.weight_bytes = 1;
  const MatmulTiling tiling{64, 128, 64, 1};
  const double expert_bytes = 3.0 * 4096 * 14336;
  // One token touches 2 of 8 experts; 64 tokens touch all of them (1 - (3/4)^64 ~ 1).
  s.tokens = 1;
  const double one = moe_kernel_time(g, s, tiling, 1e15, 3e12).memory_s;
  s.tokens = 64;
  const double many = moe_kernel_time(g, s, tiling, 1e15, 3e12).memory_s;
  CHECK(one == Approx(2 * expert_bytes / (0.8 * 3e12)).epsilon(0.01));
  CHECK(many == Approx(8 * expert_bytes / (0.8 * 3e12)).epsilon(0.02));
  // Expert parallelism splits the experts: a rank of 4 loads its 2.
  s.expert_degree = 4;
  CHECK(moe_kernel_time(g, s, tiling, 1e15, 3e12).memory_s == Approx(many / 4).epsilon(0.02));
}

TEST_CASE("a collective runs the faster of NCCL's two protocols, and small groups reach less of the links",
          "[kernels]") {
  CollectiveModel c;
  c.link_frac = 0.8;
  c.latency_s = 2e-5;
  c.low_latency_link_frac = 0.2;
  c.low_latency_s = 3e-6;
  c.span_penalty = 0;
  CollectiveCost small{1e-7, 1e-6, 1e-6, true}, large{1e-3, 1e-6, 1e-3, false};
  // A small message takes the low-latency protocol, a large one the bandwidth protocol.
  CHECK(collective_kernel_s(c, small, 8) == Approx(3e-6 + 1e-6));
  CHECK(collective_kernel_s(c, large, 8) == Approx(2e-5 + 1e-3 / 0.8));
  c.span_penalty = 2;
  CHECK(collective_kernel_s(c, large, 2) == Approx(2e-5 + 1e-3 / (0.8 * 0.5)));
  CHECK(collective_kernel_s(c, CollectiveCost{}, 8) == 0);
}

TEST_CASE("every kernel constant is read and written at its path, within its range", "[kernels]") {
  const KernelModels& k = profile("h100-sxm").kernels;
  const Json j = kernel_models_json(k);
  Diagnostics d;
  const KernelModels back = read_kernel_models(j, "/kernels", d);
  REQUIRE(d.empty());
  for (const KernelParameter& p : kernel_parameters()) {
    INFO(p.path());
    CHECK(p.value(back) == p.value(k));
    CHECK(p.value(k) >= p.lo);
    CHECK(p.value(k) <= p.hi);
    CHECK(find_kernel_parameter(p.path()) == &p);
  }
  Json bad = j;
  bad["gemm"]["fp8"]["ceiling_frac"] = 1.5;
  bad["moe"].erase("bf16");
  bad["collective"]["all_gather"]["warp"] = 1;
  read_kernel_models(bad, "/kernels", d);
  CHECK(scalescope::test::has_code(d, "too_large", "/kernels/gemm/fp8/ceiling_frac"));
  CHECK(scalescope::test::has_code(d, "missing_key", "/kernels/moe/bf16"));
  CHECK(scalescope::test::has_code(d, "unknown_key", "/kernels/collective/all_gather/warp"));
}

TEST_CASE("the shipped kernel models are what the fit of the kernel tables gives today", "[kernels][calibration]") {
  // `scalescope kernels tests/kernels/*.json --write calibration_profiles` writes them (docs/validation.md): each
  // chip's fit, the models it has no table for from the GPU family, and the family's in gpu.json.
  const Json& family = kernel_family();
  INFO(family["diagnostics"].dump());
  REQUIRE(family["ok"] == true);
  for (std::size_t i = 0; i < std::size(kTableChips); ++i) {
    const char* chip = kTableChips[i];
    INFO(chip);
    Diagnostics d;
    const KernelModels fitted = read_kernel_models(family["result"]["chips"][i]["kernels"], "", d);
    REQUIRE(d.empty());
    const CalibrationProfile& shipped = profile(chip);
    for (const KernelParameter& p : kernel_parameters()) {
      INFO(p.path());
      CHECK(p.value(shipped.kernels) == Approx(p.value(fitted)).epsilon(1e-9));
    }
    const Json& t = kernel_fit(chip)["tiling"];
    CHECK(shipped.tiling.tile_m == t["tile_m"].get<double>());
    CHECK(shipped.tiling.tile_n == t["tile_n"].get<double>());
    CHECK(shipped.tiling.parallel_tiles == t["parallel_tiles"].get<double>());
    CHECK(shipped.kernels.source.from_tables());
  }
  Diagnostics d;
  const KernelModels gpu = read_kernel_models(family["result"]["family"], "", d);
  for (const KernelParameter& p : kernel_parameters()) {
    INFO(p.path());
    CHECK(p.value(profile("gpu").kernels) == Approx(p.value(gpu)).epsilon(1e-9));
  }
  // A100's table has no balanced MoE rows: its MoE models are the family's, and it says so.
  const auto& unfitted = profile("a100-80gb").kernels.source.unfitted;
  CHECK(std::find(unfitted.begin(), unfitted.end(), "moe/bf16") != unfitted.end());
  // TPUs: no public tables; their profile says which constants rest on runs.
  CHECK(!profile("tpu-v5p").kernels.source.from_tables());
  CHECK(profile("tpu-v5p").kernels.source.note.find("end-to-end runs") != std::string::npos);
}

TEST_CASE("kernel models on shapes the fit never saw: held-out error per op and chip", "[kernels][validation]") {
  // docs/validation.md "Kernel models": every fifth row and one whole shape family per op held out before the fit.
  // The goal is a median of at most 10% and a p90 of at most 25% for every op kind and chip; the bars here
  // hold what the models reach (regression bars, a few points above), and the goal's misses are listed there.
  struct Bar {
    const char* op;
    const char* variant;
    double median, p90;
  };
  const Bar bars[] = {
      {"gemm", "bf16", 0.13, 0.50},
      {"gemm", "fp8", 0.08, 0.20},
      {"gemm", "fp8_block", 0.17, 0.45},
      {"gemm", "fp4", 0.15, 0.60},
      {"prefill_attention", "", 0.13, 0.40},
      {"decode_attention", "", 0.30, 0.85},
      {"prefill_attention", "mla", 0.13, 0.35},
      {"decode_attention", "mla", 0.40, 0.95},
      {"moe", "bf16", 0.15, 0.55},
      {"moe", "fp8", 0.18, 0.55},
      {"moe", "fp8_block", 0.13, 0.35},
      {"moe", "fp4", 0.27, 1.10},
      {"collective", "all_gather", 0.14, 0.35},
      {"collective", "reduce_scatter", 0.14, 0.35},
      {"collective", "all_reduce", 0.17, 0.40},
      {"collective", "all_to_all", 0.22, 0.80},
      {"collective", "custom_all_reduce", 0.15, 0.70},
  };
  int checked = 0;
  for (const char* chip : kTableChips)
    for (const Bar& b : bars) {
      const Json* s = score(chip, b.op, b.variant);
      if (!s) continue;
      INFO(chip << " " << b.op << " " << b.variant);
      ++checked;
      CHECK((*s)["held_rows"].get<double>() >= 8);
      CHECK((*s)["held_median_frac"].get<double>() <= b.median);
      CHECK((*s)["held_p90_frac"].get<double>() <= b.p90);
      // Interpolation is no easier than the fit by much: a model that only memorised its rows would show it.
      CHECK((*s)["held_median_frac"].get<double>() <= 1.5 * (*s)["fit_median_frac"].get<double>() + 0.02);
    }
  CHECK(checked >= 70);
}

TEST_CASE("the kernel fit refuses malformed tables, at their paths", "[kernels]") {
  Json tables = kernel_tables("h100-sxm");
  Json& gemm = tables["tables"][0];
  REQUIRE(gemm["op"] == "gemm");
  gemm["rows"][0][4] = -1.0;                // a negative time
  gemm["rows"][1][0] = "bf61";              // no such dtype
  tables["tables"][1]["columns"].erase(0);  // a column the op needs
  const Json out =
      run_json({{"hardware", {{"preset", "h100-sxm"}}}, {"query", {{"kind", "kernel_fit"}, {"tables", tables}}}});
  CHECK(out["ok"] == false);
  auto has = [&](const std::string& path, const std::string& code) {
    for (const Json& d : out["diagnostics"])
      if (d["path"] == path && d["code"] == code) return true;
    return false;
  };
  CHECK(has("/query/tables/tables/0/rows/0/4", "invalid_value"));
  CHECK(has("/query/tables/tables/0/rows/1/0", "invalid_value"));
  CHECK(has("/query/tables/tables/1/columns", "missing_column"));
  // Another chip's tables, and a TPU.
  const Json other = run_json(
      {{"hardware", {{"preset", "h200"}}}, {"query", {{"kind", "kernel_fit"}, {"tables", kernel_tables("h100-sxm")}}}});
  CHECK(other["ok"] == false);
  const Json tpu = run_json({{"hardware", {{"preset", "tpu-v5p"}}},
                             {"query", {{"kind", "kernel_fit"}, {"tables", kernel_tables("h100-sxm")}}}});
  CHECK(tpu["ok"] == false);
}

TEST_CASE("decode steps load their weights at the chip's measured HBM rate, never faster or far slower",
          "[kernels][serving][issue34]") {
  // Issue 34 item 5: the end-to-end fit once priced MoE decode's expert loads at 0.2-0.3 of HBM (one fitted factor
  // divided both their bytes and FLOPs). Now each memory-bound kernel streams at its own measured share: a decode
  // step's weight time lies between the weights at the chip's peak HBM bandwidth and the weights plus every
  // activation at the slowest measured share.
  struct Case {
    const char* chip;
    const char* model;
    int chips;
    const char* weights;
    double batch;
  };
  const Case cases[] = {
      {"h100-sxm", "mixtral-8x7b", 1, "fp8", 254},   {"h100-sxm", "mixtral-8x7b", 2, "bf16", 64},
      {"h200", "qwen3-235b-a22b", 8, "fp8", 128},    {"b200", "llama-3-70b", 4, "fp8", 32},
      {"gb200-nvl72", "deepseek-v3", 8, "fp8", 256}, {"a100-80gb", "llama-3-8b", 1, "bf16", 16},
      {"h100-sxm", "gpt-oss-120b", 2, "fp8", 512},
  };
  for (const Case& c : cases) {
    INFO(c.chip << " " << c.model << " batch " << c.batch);
    const Json scenario = {{"hardware", {{"preset", c.chip}}},
                           {"model", {{"preset", c.model}}},
                           {"mesh", {{"shape", {c.chips}}}},
                           {"query",
                            {{"kind", "serving"},
                             {"batch", c.batch},
                             {"prompt_len", 1000},
                             {"generated_len", 1000},
                             {"dtypes", {{"weights", c.weights}, {"kv", c.weights}, {"activations", c.weights}}},
                             {"parallelism", {{"expert", {"X"}}}}}}};
    Json s = scenario;
    if (!scalescope::test::model(c.model).is_moe()) s["query"]["parallelism"] = {{"tensor", {"X"}}};
    const Json out = run_json(s);
    INFO(out["diagnostics"].dump());
    REQUIRE(out["ok"] == true);
    const Json& r = out["result"];
    const Hardware hw = scalescope::test::hardware(c.chip);
    const KernelModels& k = calibration_profile_for(hw)->kernels;
    // Every expert is touched at these batches: each GPU loads its share of all the weights.
    const double weights = r["memory"]["param_bytes"].get<double>() / c.chips;
    const double param_load = r["decode"]["param_load_s"].get<double>();
    CHECK(param_load >= weights / hw.hbm_bandwidth_bytes_per_s);
    double slowest = k.stream_hbm_frac;
    for (std::size_t g = 0; g < kGemmKinds; ++g) slowest = std::min({slowest, k.gemm[g].hbm_frac, k.moe[g].hbm_frac});
    // The activations a memory-bound decode step moves are a few per cent of its weights at these batches.
    CHECK(param_load <= 1.25 * weights / (slowest * hw.hbm_bandwidth_bytes_per_s));
  }
  // The example: Mixtral 8x7B in FP8 at batch 254 on one H100 loads 46.7 GB, 14 ms at 3.35 TB/s; the
  // calibrated step once priced it at 70 ms.
  const Json mixtral = run_json({{"hardware", {{"preset", "h100-sxm"}}},
                                 {"model", {{"preset", "mixtral-8x7b"}}},
                                 {"mesh", {{"shape", {1}}}},
                                 {"query",
                                  {{"kind", "serving"},
                                   {"batch", 254},
                                   {"prompt_len", 128},
                                   {"generated_len", 2048},
                                   {"dtypes", {{"weights", "fp8"}, {"kv", "fp8"}, {"activations", "fp8"}}},
                                   {"parallelism", {{"tensor", {"X"}}}}}}});
  const double load = mixtral["result"]["decode"]["param_load_s"].get<double>();
  CHECK(load > 0.014);
  CHECK(load < 0.022);
}

TEST_CASE("a serving step's collectives carry what the engines send: bf16 partial sums, low-precision dispatch",
          "[kernels][serving][issue34]") {
  // The row-parallel GEMMs write bf16 whatever their inputs' dtype, and the tensor-parallel all-reduce sums those
  // (TensorRT-LLM quantises after the all-reduce and the norm): an fp8 or fp4 replica all-reduces as many bytes as a
  // bf16 one. TensorRT-LLM's B200 FP4 sweep (perf-overview v0.19.0) slowed with TP as bf16 all-reduces would.
  const auto decode = [](const char* model, const char* activations, const Json& split, double batch) {
    const Json out = run_json({{"hardware", {{"preset", "h200"}}},
                               {"model", {{"preset", model}}},
                               {"mesh", {{"shape", {8}}}},
                               {"query",
                                {{"kind", "serving"},
                                 {"batch", batch},
                                 {"prompt_len", 1000},
                                 {"generated_len", 1000},
                                 {"dtypes", {{"weights", "fp8"}, {"kv", "fp8"}, {"activations", activations}}},
                                 {"parallelism", split}}}});
    INFO(out["diagnostics"].dump());
    REQUIRE(out["ok"] == true);
    return out["result"]["decode"];
  };
  const Json tensor = {{"tensor", {"X"}}};
  const double bf16_s = decode("llama-3-70b", "bf16", tensor, 1024)["comms_s"].get<double>();
  CHECK(bf16_s > 0);
  CHECK_THAT(decode("llama-3-70b", "fp8", tensor, 1024)["comms_s"].get<double>(), WithinRel(bf16_s, 1e-12));
  // The expert group's tokens go out in the activations' dtype and come back as the experts' bf16 outputs
  // (DeepSeek-V3 §3.3.2; DeepEP: FP8 dispatch, BF16 combine): fp8 activations send 1 + 2 bytes per value where
  // bf16 ones send 2 + 2, so at a batch where bandwidth dominates (16K tokens over 8 H200s) the exchange takes
  // about 3/4 of the time (half, were the combine in fp8 too).
  const Json expert = {{"expert", {"X"}}};
  const double moe_bf16_s = decode("qwen3-235b-a22b", "bf16", expert, 16384)["comms_s"].get<double>();
  const double moe_fp8_s = decode("qwen3-235b-a22b", "fp8", expert, 16384)["comms_s"].get<double>();
  CHECK(moe_fp8_s > 0.70 * moe_bf16_s);
  CHECK(moe_fp8_s < 0.80 * moe_bf16_s);
}

TEST_CASE("latent attention runs its own kernel models where its tables fitted them", "[kernels][serving][issue34]") {
  // TensorRT-LLM runs DeepSeek's attention in MLA kernels of its own (the context and generation MLA tables): a
  // decode step reads the latent cache at decode_attention/mla's constants, never the standard kernels'; a chip
  // without MLA tables (a TPU) prices it with its standard attention models.
  auto kv_load_s = [](const char* chip, const CalibrationProfile& p) {
    const bool tpu = p.kind == "tpu";  // a TPU v5p has no fp8: int8 weights
    const Json out = run_json(
        {{"hardware", {{"preset", chip}}},
         {"model", {{"preset", "deepseek-v3"}}},
         {"mesh", {{"shape", {8}}}},
         {"query",
          {{"kind", "serving"},
           {"batch", 64},
           {"prompt_len", 8000},
           {"generated_len", 1000},
           {"dtypes", {{"weights", tpu ? "int8" : "fp8"}, {"kv", "bf16"}, {"activations", tpu ? "bf16" : "fp8"}}},
           {"parallelism", {{"expert", {"X"}}}},
           {"calibration", calibration_profile_json(p)}}}});
    INFO(out["diagnostics"].dump());
    REQUIRE(out["ok"] == true);
    return out["result"]["decode"]["kv_load_s"].get<double>();
  };
  for (const char* chip : {"h200", "tpu-v5p"}) {
    INFO(chip);
    const CalibrationProfile& shipped = *calibration_profile_for(scalescope::test::hardware(chip));
    const double base = kv_load_s(chip, shipped);
    CalibrationProfile latent = shipped, standard = shipped;
    latent.kernels.decode_mla.hbm_frac /= 2;
    standard.kernels.decode.hbm_frac /= 2;
    const bool tables = std::string(chip) == "h200";
    CHECK(shipped.kernels.latent_fitted() == tables);
    // The cache reads are memory-bound at this batch and context: halving the share the model uses doubles them.
    CHECK(kv_load_s(chip, tables ? latent : standard) == Approx(2 * base).epsilon(0.05));
    CHECK(kv_load_s(chip, tables ? standard : latent) == Approx(base).epsilon(1e-12));
  }
}
