// A pasted Hugging Face config.json is read by the engine: real public configs (tests/hf_configs/) give the same
// shape as the model presets made from the same papers, the MoE families map their own keys, and missing or
// unknown keys are diagnostics that name them.
#include <fstream>
#include <sstream>

#include "api.h"
#include "specs/model_json.h"
#include "test_helpers.h"

using namespace scalescope;
using nlohmann::json;

namespace {

json config(const std::string& file) { return test::hf_config_file(file); }

// The model a scenario's model object resolves to (REQUIREs no diagnostics).
ModelConfig resolved(const json& model_node) {
  Diagnostics d;
  const ModelConfig m = resolve_model(model_node, "/model", d);
  for (const auto& x : d) INFO(x.path << ": " << x.code << ": " << x.message);
  REQUIRE(d.empty());
  return m;
}

json transformer(const json& model_node) {
  const json out = json::parse(evaluate_json(json{{"model", model_node}, {"query", {{"kind", "transformer"}}}}.dump()));
  INFO(out["diagnostics"].dump());
  REQUIRE(out["ok"] == true);
  return out["result"];
}

void same_shape(const ModelConfig& a, const ModelConfig& b) {
  CHECK(a.layers == b.layers);
  CHECK(a.d_model == b.d_model);
  CHECK(a.d_ff == b.d_ff);
  CHECK(a.heads == b.heads);
  CHECK(a.kv_heads == b.kv_heads);
  CHECK(a.head_dim == b.head_dim);
  CHECK(a.vocab == b.vocab);
  CHECK(a.tied_embeddings == b.tied_embeddings);
  CHECK(a.mlp == b.mlp);
  CHECK(a.experts == b.experts);
  CHECK(a.active_experts == b.active_experts);
  CHECK(a.shared_experts == b.shared_experts);
  CHECK(a.dense_layers == b.dense_layers);
  if (a.is_moe()) CHECK(a.expert_d_ff == b.expert_d_ff);
  CHECK(a.mla.q_lora_rank == b.mla.q_lora_rank);
  CHECK(a.mla.kv_lora_rank == b.mla.kv_lora_rank);
  CHECK(a.mla.qk_nope_head_dim == b.mla.qk_nope_head_dim);
  CHECK(a.mla.qk_rope_head_dim == b.mla.qk_rope_head_dim);
  CHECK(a.mla.v_head_dim == b.mla.v_head_dim);
  CHECK(a.sliding_window == b.sliding_window);
  CHECK(a.attention_chunk == b.attention_chunk);
  CHECK(a.mtp_layers == b.mtp_layers);
  // Every layer's kind, not only the counts: the pipeline's stages see the order.
  REQUIRE(a.pattern.runs.size() == b.pattern.runs.size());
  for (std::size_t i = 0; i < a.pattern.runs.size(); ++i) {
    CHECK(a.pattern.runs[i].start == b.pattern.runs[i].start);
    CHECK(a.pattern.runs[i].kind == b.pattern.runs[i].kind);
  }
}

std::vector<std::string> codes_at(const Diagnostics& d, const std::string& path) {
  std::vector<std::string> out;
  for (const auto& x : d)
    if (x.path == path) out.push_back(x.code);
  return out;
}

}  // namespace

TEST_CASE("real config.json files give the presets' shapes", "[hf_config]") {
  const std::pair<const char*, const char*> pairs[] = {{"meta-llama-3-70b.json", "llama-3-70b"},
                                                       {"meta-llama-3.1-8b.json", "llama-3-8b"},
                                                       {"mixtral-8x7b-v0.1.json", "mixtral-8x7b"},
                                                       {"gemma-2-27b.json", "gemma-2-27b"},
                                                       {"deepseek-v3.json", "deepseek-v3"},
                                                       {"kimi-k2-instruct.json", "kimi-k2"},
                                                       {"qwen3-235b-a22b.json", "qwen3-235b-a22b"},
                                                       {"qwen3-30b-a3b.json", "qwen3-30b-a3b"},
                                                       {"gpt-oss-120b.json", "gpt-oss-120b"},
                                                       {"gpt-oss-20b.json", "gpt-oss-20b"},
                                                       {"llama-4-scout-17b-16e.json", "llama-4-scout"},
                                                       {"llama-4-maverick-17b-128e.json", "llama-4-maverick"},
                                                       {"gemma-3-27b-pt.json", "gemma-3-27b"}};
  for (const auto& [file, preset] : pairs) {
    INFO(file << " vs preset " << preset);
    const json hf = {{"hf_config", config(file)}};
    same_shape(resolved(hf), test::model(preset));
    // The same shape is the same accounting: every parameter count and the KV cache agree exactly.
    const json a = transformer(hf), b = transformer({{"preset", preset}});
    CHECK(a["params"] == b["params"]);
    CHECK(a["kv_cache_bytes_per_token"] == b["kv_cache_bytes_per_token"]);
    CHECK(a["kv_cache_bytes_per_sequence"] == b["kv_cache_bytes_per_sequence"]);
  }
}

TEST_CASE("families without a preset: Mistral, Qwen2, Qwen2-MoE, Qwen3-MoE, Gemma 3", "[hf_config]") {
  SECTION("Mistral 7B: dense GQA, a 4096-token window on every layer") {
    const json hf = {{"hf_config", config("mistral-7b-v0.1.json")}};
    const ModelConfig m = resolved(hf);
    CHECK(m.layers == 32);
    CHECK(m.heads == 32);
    CHECK(m.kv_heads == 8);
    CHECK(m.head_dim == 128);
    CHECK(m.vocab == 32000);
    CHECK_FALSE(m.is_moe());
    CHECK(m.sliding_window == 4096);
    CHECK(m.pattern.all.span(AttentionSpan::sliding) == 32);
    // 7.24e9 parameters (mistral.ai's model card: 7.3B).
    CHECK(transformer(hf)["params"]["total"].get<double>() == Approx(7.24e9).epsilon(0.002));
    // The cache stops growing at the window: 2 x 32 layers x 8 x 128 x 2 bytes x 4096 tokens at 8k and at 32k.
    const json at_32k = json::parse(
        evaluate_json(json{{"model", hf}, {"query", {{"kind", "transformer"}, {"seq_len", 32768}}}}.dump()));
    CHECK(at_32k["result"]["kv_cache_bytes_per_sequence"].get<double>() == 2.0 * 32 * 8 * 128 * 2 * 4096);
    const json out = json::parse(resolve_model_json(hf.dump()));
    CHECK(out["ok"] == true);
    CHECK(out["model"]["not_modelled"].empty());
  }
  SECTION("Qwen2 72B: a window it does not use is not a caveat") {
    const json hf = {{"hf_config", config("qwen2-72b.json")}};
    const ModelConfig m = resolved(hf);
    CHECK(m.d_ff == 29568);
    CHECK(m.vocab == 152064);
    // 72.7e9 parameters (Qwen2 technical report; the engine leaves out the q/k/v biases, 0.01%).
    CHECK(transformer(hf)["params"]["total"].get<double>() == Approx(72.7e9).epsilon(0.002));
    CHECK(json::parse(resolve_model_json(hf.dump()))["model"]["not_modelled"].empty());
  }
  SECTION("Qwen1.5-MoE-A2.7B: a shared expert four routed experts wide") {
    const ModelConfig m = resolved({{"hf_config", config("qwen1.5-moe-a2.7b.json")}});
    CHECK(m.experts == 60);
    CHECK(m.active_experts == 4);
    CHECK(m.expert_d_ff == 1408);
    CHECK(m.shared_experts == 4);  // shared_expert_intermediate_size 5632 = 4 x 1408
    CHECK(m.dense_layers == 0);
    // 14.3e9 total and 2.7e9 activated parameters (Qwen's model card), less the shared expert's one-row gate.
    const json p = transformer({{"hf_config", config("qwen1.5-moe-a2.7b.json")}})["params"];
    CHECK(p["total"].get<double>() == Approx(14.3e9).epsilon(0.01));
    CHECK(p["active"].get<double>() == Approx(2.7e9).epsilon(0.03));
  }
  SECTION("Qwen3-30B-A3B: 128 experts, 8 active, explicit head_dim") {
    const json hf = {{"hf_config", config("qwen3-30b-a3b.json")}};
    const ModelConfig m = resolved(hf);
    CHECK(m.experts == 128);
    CHECK(m.active_experts == 8);
    CHECK(m.expert_d_ff == 768);
    CHECK(m.head_dim == 128);  // not hidden_size / heads = 64
    CHECK(m.shared_experts == 0);
    // 30.5e9 total, 3.3e9 activated (Qwen3 model card).
    const json p = transformer(hf)["params"];
    CHECK(p["total"].get<double>() == Approx(30.5e9).epsilon(0.01));
    CHECK(p["active"].get<double>() == Approx(3.3e9).epsilon(0.03));
  }
  SECTION("Gemma 3 27B: the language model from text_config, the tied embeddings and vocabulary by default") {
    const json hf = {{"hf_config", config("gemma-3-27b-pt.json")}};
    const ModelConfig m = resolved(hf);
    CHECK(m.layers == 62);
    CHECK(m.d_model == 5376);
    CHECK(m.head_dim == 128);
    CHECK(m.vocab == 262208);
    CHECK(m.tied_embeddings);
    // Gemma3TextConfig's default: five 1024-token sliding-window layers, then a global one.
    CHECK(m.sliding_window == 1024);
    CHECK(m.pattern.all.span(AttentionSpan::sliding) == 52);
    CHECK(m.pattern.all.span(AttentionSpan::full) == 10);
    const json notes = json::parse(resolve_model_json(hf.dump()))["model"]["not_modelled"];
    CHECK(notes.size() == 1);  // the vision tower
  }
  SECTION("DeepSeek-V3: node-limited routing is the caveat left; latent attention and MTP are modelled") {
    const json notes = json::parse(
        resolve_model_json(json{{"hf_config", config("deepseek-v3.json")}}.dump()))["model"]["not_modelled"];
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].get<std::string>().find("Node-limited routing") == 0);
  }
}

TEST_CASE("missing, unknown and wrong config.json keys are diagnostics that name them", "[hf_config]") {
  const std::string at = "/model/hf_config/";
  SECTION("a missing key the shape needs") {
    json c = config("meta-llama-3-70b.json");
    c.erase("num_hidden_layers");
    Diagnostics d;
    resolve_model({{"hf_config", c}}, "/model", d);
    REQUIRE(d.size() == 1);
    CHECK(d[0].code == "missing_key");
    CHECK(d[0].path == at + "num_hidden_layers");
    CHECK(d[0].message.find("a llama config.json needs 'num_hidden_layers'") == 0);
  }
  SECTION("an unknown key is named; a key of another family is unknown here") {
    json c = config("meta-llama-3-70b.json");
    c["num_local_experts"] = 8;
    c["my_new_flag"] = true;
    Diagnostics d;
    resolve_model({{"hf_config", c}}, "/model", d);
    CHECK(codes_at(d, at + "num_local_experts") == std::vector<std::string>{"unknown_key"});
    CHECK(codes_at(d, at + "my_new_flag") == std::vector<std::string>{"unknown_key"});
    CHECK(d.size() == 2);
    for (const auto& x : d) CHECK(x.message.find("'" + x.path.substr(at.size()) + "'") != std::string::npos);
  }
  SECTION("many unknown keys: at most 20 named, then a count") {
    json c = config("mistral-7b-v0.1.json");
    for (int i = 0; i < 25; ++i) c["k" + std::to_string(i)] = i;
    Diagnostics d;
    resolve_model({{"hf_config", c}}, "/model", d);
    REQUIRE(d.size() == 21);
    CHECK(d.back().path == "/model/hf_config");
    CHECK(d.back().message.find("5 more unknown keys") == 0);
  }
  SECTION("an unknown or missing model_type lists the families") {
    Diagnostics d;
    resolve_model({{"hf_config", {{"model_type", "gpt2"}, {"n_layer", 12}}}}, "/model", d);
    REQUIRE(d.size() == 1);
    CHECK(d[0].code == "unknown_choice");
    CHECK(d[0].path == at + "model_type");
    CHECK(d[0].message.find("llama, mistral, qwen2") != std::string::npos);
    Diagnostics d2;
    resolve_model({{"hf_config", {{"hidden_size", 4096}}}}, "/model", d2);
    CHECK(codes_at(d2, at + "model_type") == std::vector<std::string>{"missing_key"});
  }
  SECTION("wrong types and shapes the engine cannot model") {
    json c = config("meta-llama-3-70b.json");
    c["hidden_size"] = "8192";
    c["num_key_value_heads"] = 7;
    Diagnostics d;
    resolve_model({{"hf_config", c}}, "/model", d);
    CHECK(codes_at(d, at + "hidden_size") == std::vector<std::string>{"wrong_type"});
    CHECK(codes_at(d, at + "num_key_value_heads") == std::vector<std::string>{"not_divisible"});
    json q = config("qwen3-30b-a3b.json");
    q["mlp_only_layers"] = json::array({5, 48});
    Diagnostics d2;
    resolve_model({{"hf_config", q}}, "/model", d2);
    CHECK(codes_at(d2, at + "mlp_only_layers/1") == std::vector<std::string>{"too_large"});
    q["layer_types"] = json::array({"full_attention"});
    Diagnostics d4;
    resolve_model({{"hf_config", q}}, "/model", d4);
    CHECK(codes_at(d4, at + "layer_types") == std::vector<std::string>{"inconsistent"});
    Diagnostics d3;
    resolve_model({{"hf_config", "not an object"}}, "/model", d3);
    CHECK(codes_at(d3, "/model/hf_config") == std::vector<std::string>{"wrong_type"});
  }
  SECTION("the scenario's model object: overrides, a name, and nothing else") {
    const json c = config("meta-llama-3-70b.json");
    const ModelConfig m = resolved({{"hf_config", c}, {"overrides", {{"layers", 40}}}, {"name", "half a Llama"}});
    CHECK(m.layers == 40);
    CHECK(m.name == "half a Llama");
    Diagnostics d;
    resolve_model({{"hf_config", c}, {"preset", "llama-3-8b"}}, "/model", d);
    CHECK(codes_at(d, "/model/preset") == std::vector<std::string>{"unknown_key"});
  }
}

TEST_CASE("resolve_model_json answers the model's fields for presets too", "[hf_config]") {
  const json out = json::parse(resolve_model_json(R"({"preset": "deepseek-v3", "overrides": {"layers": 30}})"));
  CHECK(out["ok"] == true);
  CHECK(out["model"]["layers"] == 30);
  CHECK(out["model"]["expert_d_ff"] == 2048);
  CHECK(out["model"]["not_modelled"].size() == 2);  // the preset's own list
  CHECK(out["model"]["mla"]["kv_lora_rank"] == 512);
  CHECK(out["model"]["mtp_layers"] == 1);
  const json bad = json::parse(resolve_model_json("{\"preset\": \"nope\"}"));
  CHECK(bad["ok"] == false);
  CHECK(bad["diagnostics"][0]["code"] == "unknown_preset");
  CHECK(json::parse(resolve_model_json("{"))["diagnostics"][0]["code"] == "malformed_json");
}

TEST_CASE("the model query: resolve_model_json's model, which a scenario can carry inline for the same numbers",
          "[hf_config]") {
  const auto ask = [](const json& model, const json& query) {
    return json::parse(evaluate_json(json{
        {"hardware", {{"preset", "b200"}}},
        {"mesh", {{"shape", {8}}, {"axis_names", {"X"}}}},
        {"model", model},
        {"query", query}}.dump()));
  };
  // Every config.json the tests keep, each family's: the answer is the model_json answer, and sent back inline it
  // prices a training step, a serving step and the model's accounting exactly as the file did.
  for (const char* file :
       {"deepseek-v3.json", "gpt-oss-120b.json", "qwen3.5-397b-a17b.json", "nemotron-3-super-120b-a12b-fp8.json",
        "gemma-4-26b-a4b.json", "kimi-linear-48b-a3b.json", "llama-4-maverick-17b-128e.json", "mistral-7b-v0.1.json"}) {
    INFO(file);
    const json hf = {{"hf_config", config(file)}};
    const json answer = ask(hf, {{"kind", "model"}});
    REQUIRE(answer["ok"] == true);
    const json& inline_model = answer["result"]["model"];
    CHECK(inline_model == json::parse(resolve_model_json(hf.dump()))["model"]);
    for (const json& query : {json{{"kind", "transformer"}, {"seq_len", 8192}},
                              json{{"kind", "training_step"},
                                   {"fidelity", "calibrated"},
                                   {"batch_tokens", 1 << 22},
                                   {"seq_len", 4096},
                                   {"parallelism", {{"fsdp", {"X"}}}}},
                              json{{"kind", "serving"},
                                   {"fidelity", "calibrated"},
                                   {"batch", 32},
                                   {"prompt_len", 4096},
                                   {"generated_len", 1024},
                                   {"parallelism", {{"tensor", {"X"}}}}}}) {
      INFO(query["kind"]);
      const json from_file = ask(hf, query), from_answer = ask(inline_model, query);
      CHECK(from_file["ok"] == from_answer["ok"]);
      CHECK(from_file["result"] == from_answer["result"]);
    }
  }
  // A preset's answer carries its own not_modelled; a bad model is the model's diagnostics.
  const json preset = ask({{"preset", "deepseek-v3"}}, {{"kind", "model"}});
  CHECK(preset["result"]["model"]["not_modelled"].size() == 2);
  const json bad = ask({{"hf_config", {{"model_type", "llama"}}}}, {{"kind", "model"}});
  CHECK(bad["ok"] == false);
  CHECK(bad["diagnostics"][0]["code"] == "missing_key");
}

TEST_CASE("per-layer kinds from each family's keys: interleaved MoE, dense layers anywhere, windows and chunks",
          "[hf_config]") {
  SECTION("Qwen3 MoE: mlp_only_layers makes those layers dense, wherever they are") {
    json q = config("qwen3-30b-a3b.json");
    q["mlp_only_layers"] = json::array({5, 9});
    const ModelConfig m = resolved({{"hf_config", q}});
    CHECK(m.dense_mlp_layers() == 2);
    CHECK(m.moe_layers() == 46);
    CHECK(m.pattern.range(5, 6).dense() == 1);
    CHECK(m.pattern.range(9, 10).dense() == 1);
    CHECK(m.pattern.range(6, 9).moe() == 3);
  }
  SECTION("Qwen2-MoE decoder_sparse_step 2: MoE on every second layer, from layer 1 (transformers' rule)") {
    json q = config("qwen1.5-moe-a2.7b.json");
    q["decoder_sparse_step"] = 2;
    const ModelConfig m = resolved({{"hf_config", q}});
    CHECK(m.moe_layers() == 12);
    CHECK(m.pattern.range(0, 1).dense() == 1);
    CHECK(m.pattern.range(1, 2).moe() == 1);
  }
  SECTION("DeepSeek moe_layer_freq 2: after the leading dense layers, MoE where i % 2 == 0") {
    json c = config("deepseek-v3.json");
    c["moe_layer_freq"] = 2;
    const ModelConfig m = resolved({{"hf_config", c}});
    CHECK(m.dense_layers == 3);
    CHECK(m.pattern.range(0, 4).moe() == 0);  // layers 0-2 lead dense, 3 is odd
    CHECK(m.pattern.range(4, 5).moe() == 1);
    CHECK(m.moe_layers() == 29);  // 4, 6, ..., 60
  }
  SECTION("Llama 4 Maverick: interleave_moe_layer_step 2 and chunked attention on the RoPE layers") {
    const ModelConfig m = resolved({{"hf_config", config("llama-4-maverick-17b-128e.json")}});
    CHECK(m.moe_layers() == 24);
    CHECK(m.d_ff == 16384);        // intermediate_size_mlp: the dense layers
    CHECK(m.expert_d_ff == 8192);  // intermediate_size: one expert
    CHECK(m.shared_experts == 1);
    CHECK(m.attention_chunk == 8192);
    CHECK(m.pattern.all.span(AttentionSpan::full) == 12);  // no_rope_layers' zeros: every fourth layer
    CHECK(m.pattern.range(3, 4).span(AttentionSpan::full) == 1);
  }
  SECTION("gpt-oss: layer_types alternates 128-token windows and full attention") {
    const ModelConfig m = resolved({{"hf_config", config("gpt-oss-120b.json")}});
    CHECK(m.sliding_window == 128);
    CHECK(m.pattern.range(0, 1).span(AttentionSpan::sliding) == 1);
    CHECK(m.pattern.range(1, 2).span(AttentionSpan::full) == 1);
    CHECK(m.pattern.all.span(AttentionSpan::sliding) == 18);
  }
}

TEST_CASE("today's models from their public config.json, against the published parameter counts", "[hf_config]") {
  // Done-when of issue 17: DeepSeek-V3 671e9 +- 1% total, 37.5e9 +- 2% active, 70,272 bytes of KV per token in bf16
  // ((512 + 64) x 61 x 2); gpt-oss-120b 116.8e9 +- 1% total.
  const json ds = transformer({{"hf_config", config("deepseek-v3.json")}});
  CHECK(ds["params"]["total"].get<double>() == Approx(671e9).epsilon(0.01));
  CHECK(ds["params"]["active"].get<double>() == Approx(37.5e9).epsilon(0.02));
  CHECK(ds["kv_cache_bytes_per_token"].get<double>() == (512.0 + 64.0) * 61.0 * 2.0);
  CHECK(ds["attention"]["decode"] == "absorbed");
  const json oss = transformer({{"hf_config", config("gpt-oss-120b.json")}});
  CHECK(oss["params"]["total"].get<double>() == Approx(116.8e9).epsilon(0.01));
  // The gpt-oss model card's "active" (5.13e9) counts the unembedding and not the embedding lookup.
  CHECK(oss["params"]["active_in_matmuls"].get<double>() == Approx(5.13e9).epsilon(0.01));
  const json oss20 = transformer({{"hf_config", config("gpt-oss-20b.json")}});
  CHECK(oss20["params"]["total"].get<double>() == Approx(20.91e9).epsilon(0.01));
  CHECK(oss20["params"]["active_in_matmuls"].get<double>() == Approx(3.61e9).epsilon(0.01));
  // The model cards' rounded counts: Kimi K2 "1 trillion total, 32 billion activated"; Llama 4 Maverick 400B / 17B
  // and Scout 109B / 17B (the language model only: Scout's card counts its vision encoder too); Qwen3-235B-A22B.
  const auto counts = [&](const char* file, double total, double active, double tolerance) {
    const json t = transformer({{"hf_config", config(file)}});
    INFO(file);
    CHECK(t["params"]["total"].get<double>() == Approx(total).epsilon(tolerance));
    CHECK(t["params"]["active"].get<double>() == Approx(active).epsilon(tolerance));
  };
  counts("kimi-k2-instruct.json", 1.0e12, 32e9, 0.03);
  counts("llama-4-maverick-17b-128e.json", 400e9, 17e9, 0.02);
  counts("llama-4-scout-17b-16e.json", 109e9, 17e9, 0.02);
  counts("qwen3-235b-a22b.json", 235e9, 22e9, 0.01);
}

TEST_CASE("the MoE models of 2026 from their public config.json: Kimi K2.5 and MiniMax-M2.5", "[hf_config][issue36]") {
  // Kimi K2.5 (model card: 1T total, 32B activated) is Kimi K2's language model in a multimodal config whose
  // text_config carries every generic transformers key and an int4 quantization of its routed experts.
  const json kimi = transformer({{"hf_config", config("kimi-k2.5.json")}});
  CHECK(kimi["params"]["total"].get<double>() == Approx(1.0e12).epsilon(0.03));
  CHECK(kimi["params"]["active"].get<double>() == Approx(32e9).epsilon(0.03));
  const ModelConfig k25 = resolved({{"hf_config", config("kimi-k2.5.json")}});
  same_shape(k25, test::model("kimi-k2"));
  REQUIRE(k25.weights_dtype.has_value());
  CHECK(*k25.weights_dtype == Dtype::int4);
  CHECK(test::model("kimi-k2.5").weights_dtype == k25.weights_dtype);
  // MiniMax-M2.5 (model card: 229B total, 10B activated, counted without the embedding and output matrices), with
  // three one-layer MTP modules.
  const json mm = transformer({{"hf_config", config("minimax-m2.5.json")}});
  CHECK(mm["params"]["total"].get<double>() == Approx(229e9).epsilon(0.01));
  CHECK(std::abs((mm["params"]["active"].get<double>() - mm["params"]["embeddings"].get<double>()) / 1e9 - 10) <= 0.5);
  const ModelConfig m25 = resolved({{"hf_config", config("minimax-m2.5.json")}});
  CHECK(m25.mtp_layers == 3);
  same_shape(m25, test::model("minimax-m2.5"));
}

TEST_CASE("issue 41 #1: a layer count is bounded before any per-layer rule expands it", "[hf_config][reliability]") {
  // Each family's per-layer rule at 1e9 layers, the key that sets its period equal to the layer count: before the
  // bound, a 200-byte Mistral config took 1.9 s and 954 MB and was accepted, Qwen2 at 3e7 layers 4.25 GB, and 1e8
  // layers aborted the process. Now each is refused at num_hidden_layers, with the limit in the message.
  const double huge = 1e9;
  std::vector<json> configs;
  json mistral = config("mistral-7b-v0.1.json");
  configs.push_back(mistral);
  json qwen2 = config("qwen2-72b.json");
  qwen2["use_sliding_window"] = true;
  qwen2["sliding_window"] = 4096;
  qwen2["max_window_layers"] = huge - 1;
  configs.push_back(qwen2);
  json qwen_moe = config("qwen3-30b-a3b.json");
  qwen_moe["decoder_sparse_step"] = huge;
  configs.push_back(qwen_moe);
  json gemma = config("gemma-3-27b-pt.json");
  gemma["text_config"]["sliding_window_pattern"] = huge;
  configs.push_back(gemma);
  json maverick = config("llama-4-maverick-17b-128e.json");
  maverick["text_config"]["interleave_moe_layer_step"] = huge;
  maverick["text_config"]["no_rope_layer_interval"] = huge;
  configs.push_back(maverick);
  for (json& c : configs) {
    json& text = c.contains("text_config") ? c["text_config"] : c;
    text["num_hidden_layers"] = huge;
    INFO(text.value("model_type", c.value("model_type", "")));
    Diagnostics d;
    resolve_model({{"hf_config", c}}, "/model", d);
    const std::string at = c.contains("text_config") ? "/model/hf_config/text_config/num_hidden_layers"
                                                     : "/model/hf_config/num_hidden_layers";
    REQUIRE(codes_at(d, at) == std::vector<std::string>{"too_large"});
    for (const auto& x : d)
      if (x.path == at) CHECK(x.message == "expected a whole number from 1 to 4096, got 1000000000");
  }
  // The bound is the patterned model's own (layer_pattern.h): 4,096 layers still read.
  mistral["num_hidden_layers"] = 4096;
  CHECK(resolved({{"hf_config", mistral}}).layers == 4096);
}

TEST_CASE("issue 41 #17: a config.json's values the engine refuses are diagnosed at the config's own keys",
          "[hf_config]") {
  // The engine reads num_nextn_predict_layers as mtp_layers (at most 1e6): the path and the message name the key
  // the reader wrote, not the engine's field.
  json deepseek = config("deepseek-v3.json");
  deepseek["num_nextn_predict_layers"] = 2000000;
  Diagnostics d;
  resolve_model({{"hf_config", deepseek}}, "/model", d);
  REQUIRE(codes_at(d, "/model/hf_config/num_nextn_predict_layers") == std::vector<std::string>{"too_large"});
  CHECK(d[0].message.find("'num_nextn_predict_layers' must be") == 0);
  // Under a multimodal config's text_config.
  json maverick = config("llama-4-maverick-17b-128e.json");
  maverick["text_config"]["num_experts_per_tok"] = 4096;
  Diagnostics m;
  resolve_model({{"hf_config", maverick}}, "/model", m);
  bool at_key = false;
  for (const auto& x : m) at_key = at_key || x.path == "/model/hf_config/text_config/num_experts_per_tok";
  CHECK(at_key);
}

TEST_CASE("issue 41 #17: a quantized checkpoint's config.json gives the weights dtype it is published in",
          "[hf_config]") {
  // transformers' quantization_config: DeepSeek-V3 ships fp8 (e4m3, 128x128 blocks), gpt-oss mxfp4 experts.
  CHECK(resolved({{"hf_config", config("deepseek-v3.json")}}).weights_dtype == Dtype::fp8);
  CHECK(resolved({{"hf_config", config("gpt-oss-120b.json")}}).weights_dtype == Dtype::fp4);
  CHECK_FALSE(resolved({{"hf_config", config("meta-llama-3-70b.json")}}).weights_dtype.has_value());
  json llama = config("meta-llama-3-70b.json");
  llama["quantization_config"] = {{"quant_method", "gptq"}, {"bits", 4}, {"group_size", 128}};
  CHECK(resolved({{"hf_config", llama}}).weights_dtype == Dtype::int4);
  llama["quantization_config"] = {{"quant_method", "awq"}, {"bits", 8}};
  CHECK(resolved({{"hf_config", llama}}).weights_dtype == Dtype::int8);
  // A method with no dtype of the engine's is left to the query (bf16 unless it says).
  llama["quantization_config"] = {{"quant_method", "bitsandbytes"}, {"load_in_4bit", true}};
  CHECK_FALSE(resolved({{"hf_config", llama}}).weights_dtype.has_value());
  // The resolved model's fields say it, for the page and Python.
  const json answer = json::parse(resolve_model_json(json{{"hf_config", config("deepseek-v3.json")}}.dump()));
  CHECK(answer["model"]["weights_dtype"] == "fp8");
}
