// The serving load model (planners/serving_load.h, issue 35) and its check on measured deployments
// (tests/serving/measured-serving.csv: ai-dynamo/aiconfigurator's silicon_sample.csv at 095f58a51c4c, Apache-2.0).
#include <cmath>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "calibration/serving_benchmarks.h"
#include "test_helpers.h"

using namespace scalescope;
using Catch::Matchers::WithinRel;

namespace {

// Llama 3.1 70B (LLaMA-3 70B's shapes) in FP8 on 8 H200 at TP 8: the deployment the frontier names.
Json llama70b_h200(double concurrency, double prompt = 1024, double generated = 1024) {
  return {{"hardware", {{"preset", "h200"}}},
          {"model", {{"preset", "llama-3-70b"}}},
          {"mesh", {{"shape", {8}}}},
          {"query",
           {{"kind", "serving"}, {"batch", concurrency}, {"prompt_len", prompt}, {"generated_len", generated},
            {"parallelism", {{"tensor", {"X"}}}}, {"dtypes", {{"weights", "fp8"}, {"kv", "fp8"}}},
            {"load", {{"concurrency", concurrency}}}}}};
}

Json load_of(const Json& scenario) {
  const Json out = test::run_json(scenario);
  REQUIRE(out["ok"] == true);
  return out["result"]["load"];
}

std::vector<BenchmarkRow> fixture_rows() {
  std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/tests/serving/measured-serving.csv");
  std::stringstream text;
  text << in.rdbuf();
  std::string error;
  auto rows = parse_benchmark_csv(text.str(), error);
  REQUIRE(error.empty());
  return rows;
}

}  // namespace

TEST_CASE("Little's law holds in the closed loop: requests/s x request latency = concurrency", "[serving][load]") {
  for (double c : {1.0, 8.0, 64.0, 512.0}) {
    const Json l = load_of(llama70b_h200(c));
    INFO("concurrency " << c);
    // Every client is always waiting for a slot, for its first token or for the rest.
    CHECK_THAT(l["requests_per_s"].get<double>() * l["request_latency_s"].get<double>(), WithinRel(c, 1e-9));
    CHECK_THAT(l["output_tokens_per_s"].get<double>(), WithinRel(l["requests_per_s"].get<double>() * 1024, 1e-12));
    CHECK_THAT(l["tokens_per_s_per_user"].get<double>() * l["time_per_output_token_s"].get<double>(),
               WithinRel(1.0, 1e-12));
  }
}

TEST_CASE("one client: TTFT is half a step, its prefill and a decode step; TPOT pays its own prefill once",
          "[serving][load]") {
  const Json l = load_of(llama70b_h200(1));
  Json one = llama70b_h200(1);
  one["query"].erase("load");
  one["query"]["kv_context_len"] = 1024 + 512;
  const Json r = test::run_json(one)["result"];
  const double decode = r["decode"]["step_s"], prefill = r["time_to_first_token_s"];
  CHECK(l["prefill_group"] == 1.0);
  CHECK_THAT(l["decode_step_s"].get<double>(), WithinRel(decode, 1e-12));
  // A lone client's request arrives once per cycle, so less than one prompt a step: TPOT adds the share.
  const double tpot = l["time_per_output_token_s"];
  CHECK(tpot > decode);
  CHECK(tpot < decode + prefill / 1024 + 1e-12);
  CHECK_THAT(l["time_to_first_token_s"].get<double>(), WithinRel(0.5 * tpot + prefill + decode, 1e-9));
}

TEST_CASE("more clients: slower tokens, more throughput per chip until the KV caches are full, then a queue",
          "[serving][load]") {
  double last_tpot = 0, last_throughput = 0;
  for (double c : {1.0, 4.0, 16.0, 64.0, 128.0}) {
    const Json l = load_of(llama70b_h200(c));
    CHECK(l["time_per_output_token_s"].get<double>() > last_tpot);
    CHECK(l["output_tokens_per_s_per_chip"].get<double>() > last_throughput);
    CHECK(l["queued"] == 0.0);
    last_tpot = l["time_per_output_token_s"];
    last_throughput = l["output_tokens_per_s_per_chip"];
  }
  // 70 GB of FP8 weights on 8 x 141 GB leave room for ~3,000 sequences of 9,216 tokens at 160 KB a token (FP8):
  // past that, requests wait for a slot, and the throughput stops growing.
  Json full = llama70b_h200(4096, 8192, 1024);
  const Json l = load_of(full);
  const double fit = l["in_flight"];
  CHECK(fit < 4096);
  CHECK(l["queued"].get<double>() == 4096 - fit);
  CHECK(l["slot_wait_s"].get<double>() > 0);
  full["query"]["load"]["concurrency"] = 8192;
  const Json more = load_of(full);
  CHECK_THAT(more["output_tokens_per_s_per_chip"].get<double>(), WithinRel(l["output_tokens_per_s_per_chip"].get<double>(), 1e-12));
  CHECK(more["time_to_first_token_s"].get<double>() > l["time_to_first_token_s"].get<double>() + 1.0);
}

TEST_CASE("a replica whose weights leave no room for one sequence serves nothing, and says so", "[serving][load]") {
  Json s = llama70b_h200(16);
  s["hardware"] = {{"preset", "h100-sxm"}};  // 810 GB of bf16 weights on 8 x 80 GB
  s["model"] = {{"preset", "llama-3-405b"}};
  s["query"]["dtypes"] = {{"weights", "bf16"}};
  const Json out = test::run_json(s);
  REQUIRE(out["ok"] == true);
  CHECK(out["result"]["load"]["fits"] == false);
  CHECK(out["result"]["load"]["time_to_first_token_s"].is_null());
  bool said = false;
  for (const Json& d : out["diagnostics"]) said = said || (d["code"] == "out_of_hbm" && d["path"] == "/query/load");
  CHECK(said);
}

TEST_CASE("measured deployments: every row read, each kept out by a written rule or predicted", "[serving][load]") {
  const auto rows = fixture_rows();
  CHECK(rows.size() == 3564);  // tests/serving/README.md
  const Json report = serving_benchmark_report(rows);
  double skipped = 0;
  for (const auto& [code, n] : report["skipped"].items()) {
    INFO(code);
    CHECK((code == "disaggregated" || code == "inconsistent_parallelism" || code.rfind("refused: ", 0) == 0));
    skipped += n.get<double>();
  }
  CHECK(report["rows"].size() + skipped == rows.size());
  CHECK(report["skipped"]["disaggregated"] == 1123.0);
  // The rows whose id says tp8_ep8 but whose tp_size is 64 are read as 8 GPUs: none left as 64.
  for (const Json& r : report["rows"])
    if (r["id"].get<std::string>().find("_tp8_ep8_") != std::string::npos) CHECK(r["predicted_tpot_s"].get<double>() > 0);
}

TEST_CASE("measured deployments: the load model's errors stay under their bars, TTFT better than one step",
          "[serving][load]") {
  const Json report = serving_benchmark_report(fixture_rows());
  const Json* all = nullptr;
  for (const Json& g : report["groups"])
    if (g["by"] == "all") all = &g;
  REQUIRE(all);
  // Regression bars at this stop's figures (docs/validation.md "Measured serving deployments"); issue 35's goals are
  // 12% TPOT and 20% TTFT medians, not met yet.
  CHECK((*all)["tpot"]["runs"].get<double>() >= 2300);
  CHECK((*all)["tpot"]["median_abs_frac"].get<double>() <= 0.28);
  CHECK((*all)["ttft"]["median_abs_frac"].get<double>() <= 0.72);
  CHECK((*all)["ttft"]["median_abs_frac"].get<double>() < (*all)["one_step_ttft"]["median_abs_frac"].get<double>());
  CHECK((*all)["tpot"]["median_abs_frac"].get<double>() <= (*all)["one_step_tpot"]["median_abs_frac"].get<double>());
}
