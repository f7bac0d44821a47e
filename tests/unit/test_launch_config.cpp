// Framework launch configs in and out (issue 40 item 5): a plan written as MaxText, Megatron-LM, Megatron-Bridge,
// DeepSpeed, vLLM, SGLang or TensorRT-LLM config reads back as the same plan, every setting it cannot carry named;
// each published run's own launch settings, transcribed from its source (tests/launch/published_configs.json), read
// as the plan its scenario states; bad configs are refused with the field named.
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "test_helpers.h"

using namespace scalescope;

namespace {

Json read_json_file(const std::string& relative) {
  std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/" + relative);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

Json with_query(const Json& scenario, Json query) {
  Json out{{"query", std::move(query)}};
  for (const char* key : {"hardware", "model", "mesh"})
    if (scenario.contains(key)) out[key] = scenario[key];
  return out;
}

Json launch(const Json& scenario, const char* framework) {
  return test::run_json(
      with_query(scenario, {{"kind", "launch_config"}, {"framework", framework}, {"plan", scenario["query"]}}));
}

Json import_config(const Json& scenario, const std::string& framework, const std::string& text, Json extra = {}) {
  Json query{{"kind", "import_config"}, {"framework", framework}, {"text", text}};
  if (extra.is_object()) query.update(extra);
  return test::run_json(with_query(scenario, query));
}

// The JSON pointers at which two canonical queries differ.
std::set<std::string> differing(const Json& a, const Json& b) {
  const Json fa = a.flatten(), fb = b.flatten();
  std::set<std::string> out;
  for (const auto& [k, v] : fa.items())
    if (!fb.contains(k) || fb[k] != v) out.insert(k);
  for (const auto& [k, v] : fb.items())
    if (!fa.contains(k)) out.insert(k);
  return out;
}

bool named_in(const std::string& pointer, const Json& unexpressed) {
  for (const Json& n : unexpressed)
    if (pointer.rfind(n["setting"].get<std::string>(), 0) == 0) return true;
  return false;
}

// The plan written for `framework` and read back: the settings that changed are exactly those the written config
// said it could not carry, and the plan read back is a fixed point (written again, the same text).
void check_round_trip(const Json& scenario, const char* framework, const std::string& label) {
  INFO(label << " via " << framework);
  const Json out = launch(scenario, framework);
  REQUIRE(out["ok"] == true);
  const Json& written = out["result"];
  Json extra{{"seq_len", scenario["query"].value("seq_len", 0.0)}};
  const Json back = import_config(scenario, framework, written["text"].get<std::string>(), extra);
  INFO(written["text"].get<std::string>());
  if (back["ok"] != true) {
    // Only a config whose framework leaves a strategy to the model's code (DeepSpeed's pipeline, experts or
    // sequence parallelism) cannot be read alone: it says so, and the written config said which strategy.
    CHECK(back["diagnostics"][0]["code"] == "incomplete_config");
    bool strategy_left_out = false;
    for (const char* s : {"/parallelism/pipeline", "/parallelism/expert", "/parallelism/context"})
      strategy_left_out = strategy_left_out || named_in(s, written["unexpressed"]);
    CHECK(strategy_left_out);
    return;
  }
  const Json& read = back["result"]["scenario"]["query"];
  for (const std::string& pointer : differing(written["plan"], read)) {
    INFO(pointer << ": written " << written["plan"].flatten().value(pointer, Json()) << ", read "
                 << read.flatten().value(pointer, Json()));
    CHECK(named_in(pointer, written["unexpressed"]));
  }
  Json again = scenario;
  again["query"] = read;
  if (back["result"]["scenario"].contains("mesh")) again["mesh"] = back["result"]["scenario"]["mesh"];
  const Json rewritten = launch(again, framework);
  REQUIRE(rewritten["ok"] == true);
  CHECK(rewritten["result"]["plan"] == read);
  if (written["unexpressed"].empty()) CHECK(rewritten["result"]["text"] == written["text"]);
}

std::string whole(const Json& number) { return std::to_string(number.get<long long>()); }

bool is_gpu(const Json& scenario) {
  const Json r = test::run_json(with_query(scenario, {{"kind", "chip"}}));
  return r["ok"] == true && r["result"].value("kind", "") == "gpu";
}

}  // namespace

TEST_CASE("a searched TPU plan launched with MaxText reads back as the same plan", "[launch]") {
  const Json search{{"hardware", {{"preset", "tpu-v5p"}}},
                    {"model", {{"preset", "llama-3-70b"}}},
                    {"mesh", {{"shape", {4, 4, 8}}}},
                    {"query", {{"kind", "plan_search"}, {"batch_tokens", 4194304}, {"seq_len", 8192}, {"keep", 3}}}};
  const Json found = test::run_json(search);
  REQUIRE(found["ok"] == true);
  REQUIRE(found["result"]["plans"].size() == 3);
  for (const Json& plan : found["result"]["plans"]) {
    Json step = search;
    step["query"] = {{"kind", "training_step"},   {"batch_tokens", 4194304},
                     {"seq_len", 8192},           {"parallelism", plan["parallelism"]},
                     {"remat", plan["remat"]},    {"precision", plan["precision"]},
                     {"offload", plan["offload"]}};
    check_round_trip(step, "maxtext", "searched plan " + plan["index"].dump());
    // What MaxText reads: the ici degrees of the plan and its batch per chip.
    const std::string text = launch(step, "maxtext")["result"]["text"];
    for (const char* key : {"tensor", "fsdp", "data"})
      CHECK(text.find(std::string("ici_") + key + "_parallelism=" + whole(plan["degrees"][key])) != std::string::npos);
    CHECK(text.find("per_device_batch_size=4") != std::string::npos);  // 4M tokens / 8192 / 128 chips
  }
}

TEST_CASE("a searched GPU plan launched with Megatron-Bridge reads back as the same plan", "[launch]") {
  const Json search{{"hardware", {{"preset", "h100-sxm"}}},
                    {"model", {{"preset", "llama-3-70b"}}},
                    {"mesh", {{"shape", {128}}}},
                    {"query", {{"kind", "plan_search"}, {"batch_tokens", 4194304}, {"seq_len", 8192}, {"keep", 3}}}};
  const Json found = test::run_json(search);
  REQUIRE(found["ok"] == true);
  for (const Json& plan : found["result"]["plans"]) {
    Json step = search;
    step["mesh"] = plan["mesh"];
    step["query"] = {{"kind", "training_step"},   {"batch_tokens", 4194304},
                     {"seq_len", 8192},           {"parallelism", plan["parallelism"]},
                     {"remat", plan["remat"]},    {"precision", plan["precision"]},
                     {"offload", plan["offload"]}};
    for (const char* framework : {"megatron-bridge", "megatron"})
      check_round_trip(step, framework, "searched plan " + plan["index"].dump());
    // Megatron's batch: the global batch in sequences, the microbatch the search chose.
    const std::string text = launch(step, "megatron-bridge")["result"]["text"];
    CHECK(text.find("global_batch_size: 512\n") != std::string::npos);
    CHECK(text.find("micro_batch_size: " + whole(plan["microbatch_sequences"]) + "\n") != std::string::npos);
    CHECK(text.find("tensor_model_parallel_size: " + whole(plan["degrees"]["tensor"]) + "\n") != std::string::npos);
  }
}

TEST_CASE("every published training run round-trips through each framework that runs on its chips", "[launch]") {
  const Json runs = read_json_file("tests/validation/published-runs.json");
  int round_trips = 0;
  for (const Json& run : runs["runs"]) {
    if (run["task"] != "training") continue;
    const Json& scenario = run["scenario"];
    const bool gpu = is_gpu(scenario);
    for (const char* framework : {"maxtext", "megatron", "megatron-bridge", "deepspeed"}) {
      if (!gpu && std::string(framework) != "maxtext") continue;
      check_round_trip(scenario, framework, run["id"].get<std::string>());
      ++round_trips;
    }
  }
  CHECK(round_trips > 300);
}

TEST_CASE("each published run's own launch settings read as the plan its scenario states", "[launch]") {
  const Json runs = read_json_file("tests/validation/published-runs.json");
  const Json configs = read_json_file("tests/launch/published_configs.json");
  std::map<std::string, Json> by_id;
  for (const Json& run : runs["runs"]) by_id[run["id"]] = run;
  REQUIRE(configs["configs"].size() > 140);
  for (const Json& c : configs["configs"]) {
    const std::string id = c["run"];
    INFO(id << " (" << c["source"].get<std::string>() << "): " << c["text"].get<std::string>());
    REQUIRE(by_id.count(id));
    const Json& scenario = by_id[id]["scenario"];
    const std::string framework = c["framework"];
    const Json written = launch(scenario, framework.c_str());
    REQUIRE(written["ok"] == true);
    const Json read = import_config(scenario, framework, c["text"]);
    REQUIRE(read["ok"] == true);
    std::set<std::string> expected;
    for (const Json& d : c.value("differs", Json::array())) expected.insert(d["setting"].get<std::string>());
    std::set<std::string> found;
    for (const std::string& pointer : differing(written["result"]["plan"], read["result"]["scenario"]["query"]))
      for (const std::string& setting : expected)
        if (pointer.rfind(setting, 0) == 0) found.insert(setting);
    // Every difference is one the file names (the source and the scenario disagree there), and each it names is one.
    for (const std::string& pointer : differing(written["result"]["plan"], read["result"]["scenario"]["query"])) {
      bool listed = false;
      for (const std::string& setting : expected) listed = listed || pointer.rfind(setting, 0) == 0;
      INFO(pointer);
      CHECK(listed);
    }
    CHECK(found == expected);
  }
}

TEST_CASE("a serving deployment round-trips through vLLM, SGLang and TensorRT-LLM", "[launch]") {
  const Json deepseek{{"hardware", {{"preset", "h200"}}},
                      {"model", {{"preset", "deepseek-v3"}}},
                      {"mesh", {{"shape", {8}}, {"axis_names", {"EP"}}}},
                      {"query",
                       {{"kind", "serving"},
                        {"batch", 256},
                        {"prompt_len", 1024},
                        {"generated_len", 1024},
                        {"dtypes", {{"kv", "fp8"}}},
                        {"parallelism", {{"tensor", Json::array()}, {"expert", {"EP"}}}}}}};
  const Json llama{{"hardware", {{"preset", "h100-sxm"}}},
                   {"model", {{"preset", "llama-3-70b"}}},
                   {"mesh", {{"shape", {4}}, {"axis_names", {"TP"}}}},
                   {"query",
                    {{"kind", "serving"},
                     {"batch", 64},
                     {"prompt_len", 2048},
                     {"generated_len", 512},
                     {"dtypes", {{"weights", "fp8"}}},
                     {"parallelism", {{"tensor", {"TP"}}}}}}};
  for (const Json* scenario : {&deepseek, &llama})
    for (const char* framework : {"vllm", "sglang", "trtllm"}) {
      INFO(framework << " " << (*scenario)["model"].dump());
      const Json out = launch(*scenario, framework);
      REQUIRE(out["ok"] == true);
      const Json& w = out["result"];
      const Json& q = (*scenario)["query"];
      const Json back = import_config(*scenario, framework, w["text"].get<std::string>(),
                                      {{"prompt_len", q["prompt_len"]}, {"generated_len", q["generated_len"]}});
      REQUIRE(back["ok"] == true);
      for (const std::string& pointer : differing(w["plan"], back["result"]["scenario"]["query"])) {
        INFO(pointer);
        CHECK(named_in(pointer, w["unexpressed"]));
      }
      // The imported scenario runs as it stands, on the mesh it names.
      Json imported = back["result"]["scenario"];
      imported["hardware"] = (*scenario)["hardware"];
      imported["model"] = (*scenario)["model"];
      CHECK(test::run_json(imported)["ok"] == true);
    }
  // Speculative decoding: the lookahead goes out and comes back in each engine's own spelling (vLLM's inside its
  // --speculative-config JSON); a disaggregated deployment says the prefill pool is launched apart.
  Json speculative = llama;
  speculative["query"]["speculative"] = {
      {"draft_model", {{"preset", "llama-3-8b"}}}, {"lookahead", 3}, {"acceptance_rate", 0.7}};
  speculative["query"]["deployment"] = {{"prefill", "disaggregated"}};
  for (const char* framework : {"vllm", "sglang", "trtllm"}) {
    INFO(framework);
    const Json out = launch(speculative, framework);
    REQUIRE(out["ok"] == true);
    CHECK(out["result"]["plan"]["speculative"] == Json{{"lookahead", 3}});
    CHECK(out["result"]["undecided"].dump().find("prefill") != std::string::npos);
    CHECK(out["result"]["text"].get<std::string>().find("prefill servers") != std::string::npos);
    const Json back = import_config(speculative, framework, out["result"]["text"].get<std::string>(),
                                    {{"prompt_len", 2048}, {"generated_len", 512}});
    REQUIRE(back["ok"] == true);
    CHECK(back["result"]["scenario"]["query"]["speculative"] == Json{{"lookahead", 3}});
  }
  // Keys the launch takes unread are never trusted to be well formed: a deployment of the wrong shape is no
  // disaggregation (the serving query itself reports it).
  Json odd = llama;
  odd["query"]["deployment"] = {{"prefill", 5}};
  const Json odd_out = launch(odd, "vllm");
  REQUIRE(odd_out["ok"] == true);
  CHECK(odd_out["result"]["undecided"].dump().find("prefill") == std::string::npos);
  // A memory budget goes out in each engine's own form and comes back: vLLM's and SGLang's a share of the whole,
  // TensorRT-LLM's the caches' share of what the weights leave (LLaMA-3 70B as published, bf16: 141 GB of weights in
  // 4 x 80 GB; TensorRT-LLM serves the checkpoint's dtype).
  Json budget = llama;
  budget["query"].erase("dtypes");
  const double weights = test::run_json(budget)["result"]["memory"]["param_bytes"];
  budget["query"]["memory_frac"] = 0.85;
  const double hbm = 4 * test::hardware("h100-sxm").hbm_capacity_bytes;
  const double of_free = (0.85 * hbm - weights) / (hbm - weights);
  for (const auto& [framework, spelling, value] : {std::tuple{"vllm", "--gpu-memory-utilization 0.85", 0.85},
                                                   std::tuple{"sglang", "--mem-fraction-static 0.85", 0.85},
                                                   std::tuple{"trtllm", "free_gpu_memory_fraction: ", of_free}}) {
    INFO(framework);
    const Json out = launch(budget, framework);
    REQUIRE(out["ok"] == true);
    const std::string text = out["result"]["text"];
    CHECK(text.find(spelling) != std::string::npos);
    const Json back = import_config(budget, framework, text, {{"prompt_len", 2048}, {"generated_len", 512}});
    REQUIRE(back["ok"] == true);
    const Json& q = back["result"]["scenario"]["query"];
    const char* key = std::string(framework) == "trtllm" ? "free_memory_frac" : "memory_frac";
    CHECK_THAT(q[key].get<double>(), Catch::Matchers::WithinRel(value, 1e-3));
    CHECK(q == out["result"]["plan"]);
    // The same KV room either way: the imported scenario fits the batch the original does.
    Json imported = back["result"]["scenario"];
    imported["hardware"] = budget["hardware"];
    imported["model"] = budget["model"];
    CHECK_THAT(
        test::run_json(imported)["result"]["memory"]["hbm_for_kv_bytes"].get<double>(),
        Catch::Matchers::WithinRel(test::run_json(budget)["result"]["memory"]["hbm_for_kv_bytes"].get<double>(), 1e-3));
  }
  // Unstated, the engines keep their own defaults: no memory flag.
  CHECK(launch(llama, "vllm")["result"]["text"].get<std::string>().find("gpu-memory-utilization") == std::string::npos);
  // The batch each scheduler takes: vLLM per attention-DP rank, SGLang the whole replica's.
  CHECK(launch(deepseek, "vllm")["result"]["text"].get<std::string>().find("--max-num-seqs 32") != std::string::npos);
  CHECK(launch(deepseek, "sglang")["result"]["text"].get<std::string>().find("--max-running-requests 256") !=
        std::string::npos);
}

TEST_CASE("an imported config without a scenario gives the mesh and the model it describes", "[launch]") {
  const std::string megatron =
      "torchrun --nnodes 4 --nproc-per-node 8 pretrain_gpt.py --tensor-model-parallel-size 8 "
      "--pipeline-model-parallel-size 2 --num-layers 32 --hidden-size 4096 --num-attention-heads 32 "
      "--group-query-attention --num-query-groups 8 --ffn-hidden-size 14336 --swiglu --vocab-size 128256 "
      "--seq-length 8192 --micro-batch-size 1 --global-batch-size 64 --bf16 --use-distributed-optimizer";
  const Json r =
      test::run_json({{"query", {{"kind", "import_config"}, {"framework", "megatron"}, {"text", megatron}}}});
  REQUIRE(r["ok"] == true);
  const Json& s = r["result"]["scenario"];
  CHECK(s["mesh"]["shape"] == Json::array({32}));
  CHECK(s["model"]["layers"] == 32);
  CHECK(s["model"]["kv_heads"] == 8);
  CHECK(s["query"]["parallelism"]["tensor"] == 8);
  CHECK(s["query"]["parallelism"]["fsdp"] == 2);           // 32 / (TP8 x PP2), the distributed optimizer over them
  CHECK(s["query"]["parallelism"]["microbatches"] == 32);  // 64 sequences / (2 data ranks x 1)
  Json runnable = s;
  runnable["hardware"] = {{"preset", "h100-sxm"}};
  CHECK(test::run_json(runnable)["ok"] == true);
  // Dropout: Megatron-LM's default, said.
  CHECK(r["result"]["assumed"].dump().find("dropout") != std::string::npos);
}

TEST_CASE("a MaxText YAML config reads as its command-line overrides do", "[launch]") {
  // The same settings as a config file (MaxText/configs/*.yml: `key: value`, comments, quoted strings, lists).
  const std::string yaml =
      "# LLaMA-3 70B on a v5p-256 slice\n"
      "model_name: \"llama3-70b\"\n"
      "ici_fsdp_parallelism: -1   # the rest of the slice\n"
      "ici_tensor_parallelism: 4\n"
      "per_device_batch_size: 2\n"
      "max_target_length: 8192\n"
      "remat_policy: 'full'\n"
      "mlp_activations:\n  - silu\n  - linear\n";
  const std::string overrides =
      "model_name=llama3-70b ici_fsdp_parallelism=-1 ici_tensor_parallelism=4 "
      "per_device_batch_size=2 max_target_length=8192 remat_policy=full";
  const Json v5p{{"hardware", {{"preset", "tpu-v5p"}}}, {"mesh", {{"shape", {4, 4, 8}}}}};
  const Json from_yaml = import_config(v5p, "maxtext", yaml), from_line = import_config(v5p, "maxtext", overrides);
  REQUIRE(from_yaml["ok"] == true);
  REQUIRE(from_line["ok"] == true);
  CHECK(from_yaml["result"]["scenario"]["query"] == from_line["result"]["scenario"]["query"]);
  CHECK(from_yaml["result"]["scenario"]["model"] == Json{{"preset", "llama-3-70b"}});
  CHECK(from_yaml["result"]["scenario"]["query"]["parallelism"]["fsdp"] == 32);  // 128 chips / TP 4
  CHECK(from_yaml["result"]["scenario"]["query"]["batch_tokens"] == 2 * 128 * 8192);
}

TEST_CASE("bad configs and plans are refused with the field named", "[launch][bad_input]") {
  const Json v5p{
      {"hardware", {{"preset", "tpu-v5p"}}}, {"model", {{"preset", "llama-3-8b"}}}, {"mesh", {{"shape", {2, 2, 2}}}}};
  auto code_at = [](const Json& r, const std::string& path) {
    for (const Json& d : r["diagnostics"])
      if (d["path"] == path) return d["code"].get<std::string>();
    return std::string("none");
  };
  const Json step{
      {"kind", "training_step"}, {"batch_tokens", 65536}, {"seq_len", 8192}, {"parallelism", {{"fsdp", 8}}}};
  // A GPU framework for a TPU plan, and a serving engine for a training plan: the choices that fit are named.
  Json r = test::run_json(with_query(v5p, {{"kind", "launch_config"}, {"framework", "megatron"}, {"plan", step}}));
  CHECK(code_at(r, "/query/framework") == "not_applicable");
  CHECK(r["diagnostics"][0]["message"].get<std::string>().find("maxtext") != std::string::npos);
  r = test::run_json(with_query(v5p, {{"kind", "launch_config"}, {"framework", "vllm"}, {"plan", step}}));
  CHECK(code_at(r, "/query/framework") == "not_applicable");
  r = test::run_json(with_query(v5p, {{"kind", "launch_config"}, {"framework", "jax"}, {"plan", step}}));
  CHECK(code_at(r, "/query/framework") == "unknown_choice");
  // The plan is checked as training_step checks it, at its own path.
  Json bad = step;
  bad["parallelism"]["fsdp"] = 3;
  r = test::run_json(with_query(v5p, {{"kind", "launch_config"}, {"framework", "maxtext"}, {"plan", bad}}));
  CHECK(code_at(r, "/query/plan/parallelism/fsdp") == "not_divisible");
  bad = step;
  bad["remat_policy"] = "full";
  r = test::run_json(with_query(v5p, {{"kind", "launch_config"}, {"framework", "maxtext"}, {"plan", bad}}));
  CHECK(code_at(r, "/query/plan/remat_policy") == "unknown_key");
  // Configs that do not give a plan: each says why, at the text.
  auto import = [&](const char* framework, const Json& text) {
    return test::run_json(with_query(v5p, {{"kind", "import_config"}, {"framework", framework}, {"text", text}}));
  };
  CHECK(code_at(import("maxtext", "ici_fsdp_parallelism=-1 ici_tensor_parallelism=-1"), "/query/text") ==
        "incomplete_config");
  CHECK(code_at(import("maxtext", "ici_fsdp_parallelism=3"), "/query/text") == "incomplete_config");
  CHECK(code_at(import("megatron", "--tensor-model-parallel-size 'unclosed"), "/query/text") == "malformed_config");
  CHECK(code_at(import("megatron", "--tensor-model-parallel-size 3 --seq-length 8192"), "/query/text") ==
        "incomplete_config");
  CHECK(code_at(import("megatron",
                       "--pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 5 "
                       "--seq-length 8192"),
                "/query/text") == "incomplete_config");  // 5 x 2 does not divide LLaMA-3 8B's 32 layers
  CHECK(code_at(import("deepspeed", "{\"train_batch_size\": "), "/query/text") == "malformed_config");
  CHECK(code_at(import("deepspeed", "[1, 2]"), "/query/text") == "malformed_config");
  std::string deep(40, '{');
  deep += std::string(40, '}');
  CHECK(code_at(import("deepspeed", deep), "/query/text") == "malformed_config");
  std::string nested;  // each YAML key repeats its parents': the depth is bounded as a JSON document's is
  for (int i = 0; i < 40; ++i) nested += std::string(i, ' ') + "k:\n";
  CHECK(code_at(import("megatron-bridge", nested + std::string(40, ' ') + "x: 1"), "/query/text") ==
        "malformed_config");
  CHECK(code_at(import("maxtext", 42), "/query/text") == "wrong_type");
  CHECK(code_at(import("maxtext", std::string(300 * 1024, 'a')), "/query/text") == "too_large");
  // Non-ASCII and values that are not numbers are read, then refused one by one in `unmapped` with the reason.
  r = import("maxtext", "ici_fsdp_parallelism=8 per_device_batch_size=zwei remat_policy=vollständig modèle=λ");
  REQUIRE(r["ok"] == true);
  std::map<std::string, std::string> reasons;
  for (const Json& u : r["result"]["unmapped"]) reasons[u["key"]] = u["reason"];
  CHECK(reasons["per_device_batch_size"] == "not a number");
  CHECK(reasons["remat_policy"].find("no engine remat") != std::string::npos);
  CHECK(reasons["modèle"] == "not a setting the engine prices");
  CHECK(r["result"]["assumed"].dump().find("per_device_batch_size") != std::string::npos);
}
