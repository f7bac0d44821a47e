// The serving load model (planners/serving_load.h, issue 35) and its check on measured deployments
// (tests/serving/measured-serving.csv: ai-dynamo/aiconfigurator's silicon_sample.csv at 095f58a51c4c, Apache-2.0).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

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
           {{"kind", "serving"},
            {"batch", concurrency},
            {"prompt_len", prompt},
            {"generated_len", generated},
            {"parallelism", {{"tensor", {"X"}}}},
            {"dtypes", {{"weights", "fp8"}, {"kv", "fp8"}}},
            {"load", {{"concurrency", concurrency}}}}}};
}

Json load_of(const Json& scenario) {
  const Json out = test::run_json(scenario);
  REQUIRE(out["ok"] == true);
  return out["result"]["load"];
}

const std::vector<BenchmarkRow>& fixture_rows() {
  static const std::vector<BenchmarkRow> rows = [] {
    std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/tests/serving/measured-serving.csv");
    std::stringstream text;
    text << in.rdbuf();
    std::string error;
    auto parsed = parse_benchmark_csv(text.str(), error);
    if (!error.empty()) parsed.clear();  // the first test's row count fails, naming nothing else
    return parsed;
  }();
  return rows;
}

// The shipped backends' report, with its refits, once for every test that reads it (seconds under the sanitizers).
const Json& fixture_report() {
  static const Json report = serving_benchmark_report(fixture_rows());
  return report;
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
  CHECK_THAT(more["output_tokens_per_s_per_chip"].get<double>(),
             WithinRel(l["output_tokens_per_s_per_chip"].get<double>(), 1e-12));
  CHECK(more["time_to_first_token_s"].get<double>() > l["time_to_first_token_s"].get<double>() + 1.0);
}

TEST_CASE("the engine's cap on sequences batched at once: the rest queue, and the throughput is the cap's",
          "[serving][load]") {
  // trtllm-bench caps max_batch_size at 4096 (TensorRT-LLM tensorrt_llm/bench/build/tuning.py @a7e572fb), vLLM
  // at max_num_seqs, JetStream at its slots: beyond the cap, requests queue even where KV caches would fit.
  Json capped = llama70b_h200(2048);
  capped["query"]["load"]["max_in_flight"] = 256;
  const Json l = load_of(capped);
  CHECK(l["in_flight"] == 256.0);
  CHECK(l["queued"] == 2048.0 - 256);
  CHECK(l["slot_wait_s"].get<double>() > 0);
  // The 256 in flight run as 256 clients would: the same steps, requests/s and throughput.
  const Json at_cap = load_of(llama70b_h200(256));
  CHECK_THAT(l["output_tokens_per_s"].get<double>(), WithinRel(at_cap["output_tokens_per_s"].get<double>(), 1e-12));
  CHECK_THAT(l["time_per_output_token_s"].get<double>(),
             WithinRel(at_cap["time_per_output_token_s"].get<double>(), 1e-12));
  // A cap above what fits changes nothing.
  Json loose = llama70b_h200(2048);
  loose["query"]["load"]["max_in_flight"] = 1000000;
  CHECK(load_of(loose) == load_of(llama70b_h200(2048)));
}

TEST_CASE("the load's decode step reads the KV length the query states: a static cache is read whole",
          "[serving][load]") {
  // jetstream-pytorch before its ragged attention (#93, 2024-05-23) allocates every slot's cache at
  // max_cache_length and its attention reads all of it each step (jetstream_pt/layers.py @781ec9e); the serving
  // query's kv_context_len says so, and the load's decode step is the serving query's decode at that length.
  const auto decode_at = [](const Json& scenario, double batch) {
    Json one = scenario;
    one["query"].erase("load");
    one["query"]["batch"] = batch;
    const Json out = test::run_json(one);
    REQUIRE(out["ok"] == true);
    return out["result"]["decode"]["step_s"].get<double>();
  };
  Json stated = llama70b_h200(64, 125, 250);
  const Json mean = load_of(stated);
  CHECK_THAT(mean["decode_step_s"].get<double>(), WithinRel(decode_at(stated, 64), 1e-12));
  stated["query"]["kv_context_len"] = 2048;
  const Json whole = load_of(stated);
  CHECK(whole["in_flight"] == 64.0);
  CHECK_THAT(whole["decode_step_s"].get<double>(), WithinRel(decode_at(stated, 64), 1e-12));
  CHECK(whole["decode_step_s"].get<double>() > mean["decode_step_s"].get<double>());
  // A slot holds the length it is read at: fewer fit than at prompt + generated.
  Json crowded = llama70b_h200(100000, 125, 250);
  const double fit_mean = load_of(crowded)["in_flight"].get<double>();
  crowded["query"]["kv_context_len"] = 2048;
  CHECK(load_of(crowded)["in_flight"].get<double>() < fit_mean / 4);
}

TEST_CASE("the schema names exactly the backends the engine embeds, in both queries that take one",
          "[serving][load][schema]") {
  // calibration_profiles/serving/backends.json is the one source of the backends; the schema's enums (which
  // editors and the page's types read) must list the same ids, so a backend added or dropped fails here.
  std::vector<std::string> embedded = serving_backend_ids();
  std::sort(embedded.begin(), embedded.end());
  const auto schema_enum = [](const std::string& file, const std::vector<std::string>& at) {
    std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/schema/queries/" + file);
    Json node = Json::parse(in);
    for (const std::string& key : at) node = node.at(key);
    std::vector<std::string> ids = node.at("enum").get<std::vector<std::string>>();
    std::sort(ids.begin(), ids.end());
    return ids;
  };
  CHECK(schema_enum("serving.schema.json", {"properties", "load", "properties", "backend"}) == embedded);
  CHECK(schema_enum("serving_search.schema.json", {"properties", "backend"}) == embedded);
  CHECK(embedded.size() >= 3);
}

TEST_CASE("disaggregated: the decode replica never stalls for a prefill; too few prefill workers queue the requests",
          "[serving][load]") {
  // DeepSeek-V3 in FP8 on GB200: a decode replica of 32 GPUs (attention DP, wide EP) fed by prefill workers of 8.
  Json s = {{"hardware", {{"preset", "gb200-nvl72"}}},
            {"model", {{"preset", "deepseek-v3"}}},
            {"mesh", {{"shape", {32}}}},
            {"query",
             {{"kind", "serving"},
              {"batch", 1024},
              {"prompt_len", 8192},
              {"generated_len", 1024},
              {"dtypes", {{"weights", "fp8"}, {"kv", "fp8"}, {"activations", "fp8"}}},
              {"parallelism", {{"expert", {"X"}}, {"expert_tensor", 1}}},
              {"load", {{"concurrency", 1024}}}}}};
  const Json aggregated = load_of(s);
  s["query"]["load"]["prefill_pool"] = {{"workers_per_decode_replica", 4},
                                        {"mesh", {{"shape", {8}}}},
                                        {"parallelism", {{"expert", {"X"}}, {"expert_tensor", 1}}}};
  const Json pooled = load_of(s);
  CHECK(pooled["time_per_output_token_s"] == pooled["decode_step_s"]);
  CHECK(pooled["time_per_output_token_s"].get<double>() < aggregated["time_per_output_token_s"].get<double>());
  CHECK(pooled["prefill_pool"]["kv_transfer_s"].get<double>() > 0);
  // Throughput per chip counts both pools: 32 + 4 x 8 chips.
  CHECK_THAT(pooled["output_tokens_per_s_per_chip"].get<double>() * 64,
             WithinRel(pooled["output_tokens_per_s"].get<double>(), 1e-12));
  // One prefill worker for eight decode replicas cannot keep up with 8k prompts: it is saturated, and Little's law
  // still holds with the requests queued for it.
  s["query"]["load"]["prefill_pool"]["workers_per_decode_replica"] = 0.125;
  const Json starved = load_of(s);
  CHECK(starved["prefill_pool"]["busy_frac"] == 1.0);
  CHECK(starved["time_to_first_token_s"].get<double>() > 10 * pooled["time_to_first_token_s"].get<double>());
  CHECK_THAT(starved["requests_per_s"].get<double>() * starved["request_latency_s"].get<double>(),
             WithinRel(1024.0, 1e-9));
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
  const auto& rows = fixture_rows();
  CHECK(rows.size() == 3564);  // tests/serving/README.md
  Json skipped;
  const auto cases = benchmark_cases(rows, skipped);
  double kept_out = 0;
  for (const auto& [code, n] : skipped.items()) {
    INFO(code);
    CHECK((code == "unstated_workers" || code == "inconsistent_parallelism" || code == "concurrency_not_per_worker" ||
           code == "pipeline_parallel" || code.rfind("refused: ", 0) == 0));
    kept_out += n.get<double>();
  }
  CHECK(cases.size() + kept_out == rows.size());
  // Disaggregated rows are predicted where they state both pools' worker counts (tests/serving/README.md).
  std::size_t disaggregated = 0;
  for (const BenchmarkCase& c : cases) disaggregated += c.mode == "disagg";
  CHECK(disaggregated + skipped["unstated_workers"].get<double>() <= 1123);
  CHECK(disaggregated >= 100);
  // The rows whose id says tp8_ep8 but whose tp_size is 64 are read as the 8 GPUs the id names.
  std::size_t multiplied = 0;
  for (const BenchmarkCase& c : cases)
    if (c.id.find("_tp8_ep8_") != std::string::npos) {
      ++multiplied;
      CHECK(c.parts.chips == 8);
    }
  CHECK(multiplied >= 90);
}

TEST_CASE("measured deployments: the shipped backends are the fit of their fit rows, never of a held row",
          "[serving][load]") {
  const auto& rows = fixture_rows();
  const Json& report = fixture_report();
  REQUIRE(report["fits"].size() == embedded_serving_backends().size());
  for (const Json& f : report["fits"]) {
    const ServingBackend* shipped = serving_backend(f["backend"]["id"].get<std::string>());
    REQUIRE(shipped);
    INFO(shipped->id);
    for (const ServingBackendParameter& p : serving_backend_parameters())
      CHECK_THAT(shipped->*p.field, WithinRel(f["backend"][p.name].get<double>(), 1e-6));
  }
  // Doubling every held row's measurements leaves every fitted parameter where it was.
  std::vector<BenchmarkRow> doubled = rows;
  Json skipped;
  const auto cases = benchmark_cases(rows, skipped);
  std::set<std::string> held;
  for (const BenchmarkCase& c : cases)
    if (!c.fit) held.insert(c.id);
  for (BenchmarkRow& r : doubled)
    if (held.count(r["id"]))
      for (const char* key : {"silicon_ttft_ms", "silicon_tpot_ms"}) r[key] = std::to_string(2 * std::stod(r[key]));
  const Json again = serving_benchmark_report(doubled, embedded_serving_backends(), false);
  for (std::size_t i = 0; i < report["fits"].size(); ++i)
    for (const ServingBackendParameter& p : serving_backend_parameters())
      CHECK(again["fits"][i]["backend"][p.name] == report["fits"][i]["backend"][p.name]);
}

TEST_CASE("measured deployments: held-out and transfer errors stay under their bars, better than without a backend",
          "[serving][load]") {
  const Json& report = fixture_report();
  const Json* all = nullptr;
  for (const Json& g : report["groups"])
    if (g["by"] == "all") all = &g;
  REQUIRE(all);
  // Regression bars at this stop's figures (docs/validation.md "Measured serving deployments"); issue 35's goals
  // (TPOT 12%, TTFT 20% medians with each model and each system held out) are not met yet.
  const Json& held = (*all)["held"];
  CHECK(held["tpot"]["runs"].get<double>() >= 1100);
  CHECK(held["tpot"]["median_abs_frac"].get<double>() <= 0.14);
  CHECK(held["ttft"]["median_abs_frac"].get<double>() <= 0.30);
  CHECK(held["tpot"]["median_abs_frac"].get<double>() <
        (*all)["kernels_step"]["tpot"]["median_abs_frac"].get<double>());
  CHECK(held["ttft"]["median_abs_frac"].get<double>() <
        (*all)["kernels_step"]["ttft"]["median_abs_frac"].get<double>());
  CHECK((*all)["kernels_step"]["ttft"]["median_abs_frac"].get<double>() <
        (*all)["one_step"]["ttft"]["median_abs_frac"].get<double>());
  // Each model held out whole: the backend refitted without it. Bars on the median over the held-out models.
  for (const Json& t : report["transfer"]) {
    std::vector<double> tpot, ttft;
    for (const Json& h : t["model_held_out"]) {
      tpot.push_back(h["tpot"]["median_abs_frac"]);
      ttft.push_back(h["ttft"]["median_abs_frac"]);
    }
    std::sort(tpot.begin(), tpot.end());
    std::sort(ttft.begin(), ttft.end());
    INFO(t["backend"]);
    CHECK(tpot[tpot.size() / 2] <= 0.22);
    CHECK(ttft[ttft.size() / 2] <= 0.60);
  }
}

TEST_CASE("a backend's runtime: TensorRT-LLM's CUDA graphs make a small decode step faster than the kernels' step",
          "[serving][load]") {
  Json s = llama70b_h200(8);
  const double kernels = load_of(s)["decode_step_s"];
  s["query"]["load"]["backend"] = "trtllm";
  const Json l = load_of(s);
  CHECK(l["backend"]["id"] == "trtllm");
  CHECK(l["decode_step_s"].get<double>() < kernels);
  // Measured: 6.7 ms TPOT and 82 ms TTFT at concurrency 8 (tests/serving/measured-serving.csv,
  // 2026_04_06_llama_3_1_70b_h200_sxm_trtllm_fp8_agg_1024x1024_c8_tp8_ep1_584).
  CHECK_THAT(l["time_per_output_token_s"].get<double>(), WithinRel(6.7e-3, 0.1));
  // TTFT is pessimistic here (docs/validation.md: this deployment's front end is faster than TensorRT-LLM's fitted
  // mean); the bar holds it under 2.5x until a finer model of the front end brings it in.
  CHECK(l["time_to_first_token_s"].get<double>() > 82e-3);
  CHECK(l["time_to_first_token_s"].get<double>() < 2.5 * 82e-3);
  s["query"]["fidelity"] = "book";
  const Json book = test::run_json(s);
  CHECK(book["ok"] == false);  // a runtime is fitted beside the calibrated kernels only
  s["query"]["fidelity"] = "calibrated";
  s["query"]["load"]["backend"] = "tgi";
  const Json unknown = test::run_json(s);
  REQUIRE(unknown["ok"] == false);
  CHECK(unknown["diagnostics"][0]["message"].get<std::string>().find("trtllm") != std::string::npos);
}

// DeepSeek-R1 (DeepSeek-V3's shapes) in FP8 on 8 B200 with attention data parallelism over the 8 GPUs and the experts
// over 8 ranks (TensorRT-LLM's enable_attention_dp), 1k/8k, under TensorRT-LLM's runtime.
Json deepseek_adp_b200(double concurrency) {
  return {{"hardware", {{"preset", "b200"}}},
          {"model", {{"preset", "deepseek-v3"}}},
          {"mesh", {{"shape", {8}}, {"axis_names", {"gpus"}}}},
          {"query",
           {{"kind", "serving"},
            {"fidelity", "calibrated"},
            {"batch", concurrency},
            {"prompt_len", 1024},
            {"generated_len", 8192},
            {"parallelism", {{"expert", {"gpus"}}, {"expert_tensor", 1}}},
            {"dtypes", {{"weights", "fp8"}, {"kv", "fp8"}, {"activations", "fp8"}}},
            {"load", {{"concurrency", concurrency}, {"backend", "trtllm"}, {"attention_dp_balance", true}}}}}};
}

TEST_CASE("attention DP: new prompts wait for the balancer's gate while every rank decodes", "[serving][load]") {
  // TensorRT-LLM's attention-DP balancer (tensorrt_llm/_torch/pyexecutor/py_executor.py, _balance_adp_requests)
  // holds new prompts until every rank has one or its timeout ends the wait, unless a rank has nothing to decode.
  const Json busy = load_of(deepseek_adp_b200(128));
  const double gate_cap = busy["backend"]["dp_gate_steps"], tpot = busy["time_per_output_token_s"];
  REQUIRE(gate_cap > 1);
  // 128 clients of 8,192 tokens each: about one new prompt every 64 steps, so 8 ranks' prompts take ~500 steps to
  // gather, and the timeout opens the gate.
  const double arriving = busy["requests_per_s"].get<double>() * tpot;
  const double expected_gate = std::clamp(8.0 / arriving, 1.0, gate_cap);
  CHECK_THAT(busy["admission_gate_steps"].get<double>(), WithinRel(expected_gate, 1e-3));
  CHECK(busy["time_to_first_token_s"].get<double>() >
        0.5 * expected_gate * tpot + busy["prefill_group_s"].get<double>() + busy["decode_step_s"].get<double>());
  // Measured: 1.85 s TTFT and 16.7 ms TPOT for this deployment (DeepSeek-R1, TensorRT-LLM 1.2.0rc6: tests/serving/
  // measured-serving.csv, 2026_03_25_deepseek_r1_b200_sxm_trtllm_fp8_agg_1024x8192_c128_tp8_0_ep8_0_1032); without
  // the gate the model said 0.25 s.
  CHECK_THAT(busy["time_to_first_token_s"].get<double>(), WithinRel(1.85, 0.5));
  // Four clients on eight ranks: an idle rank lets each prompt through at the next step.
  const Json idle = load_of(deepseek_adp_b200(4));
  CHECK(idle["admission_gate_steps"] == 1.0);
  CHECK(idle["time_to_first_token_s"].get<double>() < busy["time_to_first_token_s"].get<double>() / 4);
  // The balancer off (TensorRT-LLM's default): no gate.
  Json off = deepseek_adp_b200(128);
  off["query"]["load"]["attention_dp_balance"] = false;
  CHECK(load_of(off)["admission_gate_steps"] == 1.0);
  // A backlog of a prompt a rank (an offline run): every rank has one, and the gate opens every step.
  Json backlog = deepseek_adp_b200(128);
  backlog["query"]["load"]["max_in_flight"] = 64;
  CHECK(load_of(backlog)["admission_gate_steps"] == 1.0);
  // One attention rank (TP 8): no gate at any load.
  Json tp = deepseek_adp_b200(128);
  tp["query"]["parallelism"] = {{"tensor", {"gpus"}}, {"expert_tensor", 1}};
  CHECK(load_of(tp)["admission_gate_steps"] == 1.0);
}

TEST_CASE("serving search under load: each row is the serving query's steady state, targets on its TTFT and TPOT",
          "[serving][load][serving_search]") {
  const Json search = test::run_json({{"hardware", {{"preset", "h200"}}},
                                      {"model", {{"preset", "llama-3-70b"}}},
                                      {"query",
                                       {{"kind", "serving_search"},
                                        {"prompt_len", 1024},
                                        {"generated_len", 1024},
                                        {"backend", "vllm"},
                                        {"targets", {{"latency_per_token_s", 0.03}, {"time_to_first_token_s", 1.0}}},
                                        {"objective", "tokens_per_s_per_chip"},
                                        {"replica_chips", {4, 8}},
                                        {"batches", {8, 64, 256}},
                                        {"dtypes", {{"weights", {"fp8"}}, {"kv", {"fp8"}}, {"activations", "fp8"}}},
                                        {"keep", 50}}}});
  REQUIRE(search["ok"] == true);
  const Json& rows = search["result"]["deployments"];
  REQUIRE(rows.size() > 2);
  CHECK(search["result"]["backend"]["id"] == "vllm");
  bool disaggregated = false;
  for (const Json& row : rows) {
    CHECK(row["latency_per_token_s"].get<double>() <= 0.03);
    CHECK(row["time_to_first_token_s"].get<double>() <= 1.0);
    // The same deployment asked of the serving query, under the same load, gives the same steady state.
    Json load = {{"concurrency", row["batch"]}, {"backend", "vllm"}};
    if (row["disaggregated"] == true) {
      disaggregated = true;
      CHECK(row["prefill_workers_per_replica"].get<double>() > 0);
      load["prefill_pool"] = {{"workers_per_decode_replica", row["prefill_workers_per_replica"]},
                              {"mesh", row["mesh"]},
                              {"parallelism", row["parallelism"]}};
    }
    const Json l = load_of({{"hardware", {{"preset", "h200"}}},
                            {"model", {{"preset", "llama-3-70b"}}},
                            {"mesh", row["mesh"]},
                            {"query",
                             {{"kind", "serving"},
                              {"batch", row["batch"]},
                              {"prompt_len", 1024},
                              {"generated_len", 1024},
                              {"dtypes", {{"weights", "fp8"}, {"kv", "fp8"}, {"activations", "fp8"}}},
                              {"parallelism", row["parallelism"]},
                              {"load", load}}}});
    CHECK_THAT(l["time_per_output_token_s"].get<double>(), WithinRel(row["latency_per_token_s"].get<double>(), 1e-12));
    CHECK_THAT(l["time_to_first_token_s"].get<double>(), WithinRel(row["time_to_first_token_s"].get<double>(), 1e-12));
    // The row's decode step is the runtime's under that load, not the kernels' step as it is.
    CHECK_THAT(l["decode_step_s"].get<double>(), WithinRel(row["decode_step_s"].get<double>(), 1e-12));
  }
  CHECK(disaggregated);
}
