// The JSON entry point: bad input gets diagnostics naming the path and the valid choices, never a crash.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "api.h"
#include "io/json_pointer.h"
#include "specs/presets.h"

using namespace scalescope;
using nlohmann::json;

namespace {
json eval(const std::string& text) { return json::parse(evaluate_json(text)); }

bool has(const json& out, const std::string& path, const std::string& code) {
  for (const auto& d : out["diagnostics"])
    if (d["path"] == path && d["code"] == code) return true;
  return false;
}
}  // namespace

TEST_CASE("every embedded preset validates strictly, with a source for every number", "[presets]") {
  const auto d = validate_presets();
  for (const auto& x : d) INFO(x.path << ": " << x.message);
  CHECK(d.empty());
  CHECK(hardware_preset_texts().size() ==
        16);  // hardware_presets/: the book's 12 chips and the 2026 chips (B300, GB300, MI325X, MI355X)
  CHECK(model_preset_texts().size() >= 9);
}

TEST_CASE("a valid scenario answers with ok and a result", "[api]") {
  const json out = eval(R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "chip"}})");
  CHECK(out["ok"] == true);
  CHECK(out["result"]["id"] == "tpu-v5e");
  CHECK(out["diagnostics"].empty());
}

TEST_CASE("malformed JSON is a diagnostic with the byte position", "[api]") {
  const json out = eval(R"({"hardware": {"preset": "tpu-v5e"}, "query": )");
  CHECK(out["ok"] == false);
  CHECK(out["diagnostics"][0]["code"] == "malformed_json");
  CHECK(out["diagnostics"][0]["message"].get<std::string>().find("byte") != std::string::npos);
  CHECK(eval("")["ok"] == false);
  CHECK(eval("[1, 2]")["ok"] == false);
}

TEST_CASE("unknown presets, dtypes, keys and kinds name the valid choices", "[api]") {
  json out = eval(R"({"hardware": {"preset": "tpu-v9"}, "query": {"kind": "chip"}})");
  REQUIRE(has(out, "/hardware/preset", "unknown_preset"));
  CHECK(out["diagnostics"][0]["message"].get<std::string>().find("tpu-v5e") != std::string::npos);

  out = eval(
      R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "matmul", "batch": 8, "d": 8, "f": 8, "lhs_dtype": "bf61"}})");
  REQUIRE(has(out, "/query/lhs_dtype", "unknown_dtype"));
  CHECK(out["diagnostics"][0]["message"] == "unknown dtype 'bf61'; valid: fp32, bf16, fp8, int8, int4, fp4");

  out = eval(
      R"({"hardware": {"preset": "tpu-v5e", "overrides": {"hbm_bandwith_bytes_per_s": 1}}, "query": {"kind": "chip"}})");
  CHECK(has(out, "/hardware/overrides/hbm_bandwith_bytes_per_s", "unknown_key"));

  out = eval(R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "teleport"}})");
  CHECK(has(out, "/query/kind", "unknown_choice"));

  out = eval(R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "chip", "extra": 1}})");
  CHECK(has(out, "/query/extra", "unknown_key"));
}

TEST_CASE("zero, negative and absurd sizes are rejected at their path", "[api]") {
  json out = eval(
      R"({"hardware": {"preset": "tpu-v5e", "overrides": {"hbm_bandwidth_bytes_per_s": 0}}, "query": {"kind": "chip"}})");
  CHECK(has(out, "/hardware/overrides/hbm_bandwidth_bytes_per_s", "not_positive"));
  out = eval(R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "roofline", "flops": -1, "bytes": 1}})");
  CHECK(has(out, "/query/flops", "negative"));
  out = eval(R"({"hardware": {"preset": "tpu-v5e"}, "mesh": {"shape": [0, 4]}, "query": {"kind": "topology"}})");
  CHECK(has(out, "/mesh/shape/0", "not_positive"));
  out = eval(R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "matmul", "batch": 1e300, "d": 8, "f": 8}})");
  CHECK(has(out, "/query/batch", "too_large"));
  out = eval(R"({"model": {"preset": "llama-3-8b", "overrides": {"layers": 2.5}}, "query": {"kind": "transformer"}})");
  CHECK(has(out, "/model/overrides/layers", "not_integer"));
}

TEST_CASE("a mesh larger than the pod, or reusing an axis, is diagnosed", "[api]") {
  json out = eval(R"({"hardware": {"preset": "tpu-v5e"}, "mesh": {"shape": [32, 16]}, "query": {"kind": "topology"}})");
  CHECK(has(out, "/mesh/shape", "slice_too_large"));
  out = eval(R"({"hardware": {"preset": "tpu-v5e"}, "mesh": {"shape": [4, 4]},
                 "query": {"kind": "array", "array": "A[I_X, J_X]", "dims": {"I": 8, "J": 8}}})");
  CHECK(has(out, "/query/array", "axis_reused"));
  out = eval(R"({"hardware": {"preset": "tpu-v5e"}, "mesh": {"shape": [4, 4], "axis_names": ["X", "X"]},
                 "query": {"kind": "topology"}})");
  CHECK(has(out, "/mesh/axis_names", "duplicate_axis"));
}

TEST_CASE("a query missing its context says which key it needs", "[api]") {
  const json out = eval(R"({"query": {"kind": "collective", "op": "all_gather", "bytes": 1, "axes": ["X"]}})");
  CHECK(has(out, "/hardware", "missing_key"));
  CHECK(has(out, "/mesh", "missing_key"));
}

TEST_CASE("no result ever holds NaN or Inf", "[api]") {
  // A zero-byte roofline has no intensity: reported as 0, not Inf.
  const json out =
      eval(R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "roofline", "flops": 1e9, "bytes": 0}})");
  REQUIRE(out["ok"] == true);
  CHECK(out["result"]["intensity_flops_per_byte"] == 0.0);
}

TEST_CASE("evaluate_many answers an array of scenarios in order", "[api]") {
  const json out = json::parse(evaluate_many_json(R"([
    {"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "chip"}},
    {"hardware": {"preset": "nope"}, "query": {"kind": "chip"}}])"));
  REQUIRE(out.is_array());
  REQUIRE(out.size() == 2);
  CHECK(out[0]["ok"] == true);
  CHECK(out[1]["ok"] == false);
  CHECK(json::parse(evaluate_many_json(R"({"not": "an array"})"))["ok"] == false);
}

TEST_CASE("evaluate_fields answers each scenario's ok, first error and the values at its fields", "[api][sweep]") {
  const std::string step = R"({"hardware": {"preset": "h100-sxm"}, "model": {"preset": "llama-3-8b"},
    "mesh": {"shape": [8]}, "query": {"kind": "training_step", "batch_tokens": 1048576, "seq_len": 4096,
    "parallelism": {"fsdp": 8}}})";
  const std::string refused = R"({"hardware": {"preset": "nope"}, "query": {"kind": "chip"}})";
  const json out =
      json::parse(evaluate_fields_json(R"({"scenarios": [)" + step + "," + refused +
                                       R"(], "fields": ["/time/step_s", "/memory/fits", "/no/such", "/time"]})"));
  REQUIRE(out["ok"] == true);
  REQUIRE(out["rows"].size() == 2);
  // The same numbers as the whole answer: the fields are pointers into its result.
  const json whole = eval(step);
  const json& row = out["rows"][0];
  REQUIRE(row.size() == 6);
  CHECK(row[0] == true);
  CHECK(row[1].is_null());
  CHECK(row[2] == whole["result"]["time"]["step_s"]);
  CHECK(row[3] == whole["result"]["memory"]["fits"]);
  CHECK(row[4].is_null());
  CHECK(row[5] == whole["result"]["time"]);
  // A refused scenario: its first error as "path: code: message", every field null.
  const json& no = out["rows"][1];
  CHECK(no[0] == false);
  CHECK(no[1].get<std::string>().rfind("/hardware/preset: unknown_preset: ", 0) == 0);
  CHECK(no[2].is_null());
}

TEST_CASE("evaluate_fields stops writing whole results past the answer limit, row by row", "[api][sweep]") {
  // docs/api.md Limits: each whole result (the pointer "") counts, so 1024 results of ~5 KB asked four times over
  // pass the 8 MiB; the rows after that one are refused in place, and the call still answers every row.
  std::string request = R"({"fields": ["", "", "", ""], "scenarios": [)";
  for (int i = 0; i < 1024; ++i)
    request += std::string(i ? "," : "") + R"({"hardware": {"preset": "h100-sxm"}, "model": {"preset": "llama-3-8b"},
      "mesh": {"shape": [8]}, "query": {"kind": "training_step", "batch_tokens": 1048576, "seq_len": 4096,
      "parallelism": {"fsdp": 8}}})";
  const json out = json::parse(evaluate_fields_json(request + "]}"));
  REQUIRE(out["ok"] == true);
  REQUIRE(out["rows"].size() == 1024);
  CHECK(out["rows"][0][0] == true);
  const json& last = out["rows"][1023];
  CHECK(last[0] == false);
  CHECK(last[1].get<std::string>().rfind(": too_large: this call's fields passed 8388608 bytes", 0) == 0);
  CHECK(last[2].is_null());
}

TEST_CASE("a field's JSON pointer is followed without exceptions, a bad index leading nowhere", "[api][sweep]") {
  // nlohmann's json_pointer throws on these, and under wasm nothing may throw: the engine reads pointers itself.
  const json doc = json::parse(R"({"a": [10, 20, {"b/c": 1, "d~e": 2}], "": 3})");
  const auto at = [&](std::string_view pointer) -> const json* {
    const auto tokens = parse_json_pointer(pointer);
    return tokens ? find_at(doc, *tokens) : nullptr;
  };
  REQUIRE(at("") != nullptr);
  CHECK(*at("") == doc);
  CHECK(*at("/a/1") == 20);
  CHECK(*at("/a/2/b~1c") == 1);
  CHECK(*at("/a/2/d~0e") == 2);
  CHECK(*at("/") == 3);
  for (const char* nowhere : {"/a/3", "/a/01", "/a/-", "/a/x", "/a/99999999999999999999", "/a/1/z", "/zz"})
    CHECK(at(nowhere) == nullptr);
  for (const char* malformed : {"a", "/~2", "/a~", "~1"}) CHECK_FALSE(parse_json_pointer(malformed));
}

TEST_CASE("a bad fields request names the field", "[api][sweep]") {
  const auto diagnostics = [](const std::string& text) { return json::parse(evaluate_fields_json(text)); };
  CHECK(has(diagnostics(R"([1, 2])"), "", "wrong_type"));
  CHECK(has(diagnostics(R"({"fields": []})"), "/scenarios", "missing_key"));
  CHECK(has(diagnostics(R"({"scenarios": []})"), "/fields", "missing_key"));
  CHECK(has(diagnostics(R"({"scenarios": [], "fields": [], "columns": 1})"), "/columns", "unknown_key"));
  CHECK(has(diagnostics(R"({"scenarios": [], "fields": [3]})"), "/fields/0", "wrong_type"));
  // RFC 6901: a pointer starts with "/", and "~" is followed by 0 or 1.
  CHECK(has(diagnostics(R"({"scenarios": [], "fields": ["/a", "time"]})"), "/fields/1", "wrong_type"));
  CHECK(has(diagnostics(R"({"scenarios": [], "fields": ["/a~2"]})"), "/fields/0", "wrong_type"));
  CHECK(has(diagnostics(R"({"scenarios": [], "fields": [)"), "", "malformed_json"));
  std::string many = R"({"fields": [], "scenarios": [)";
  for (int i = 0; i < 1025; ++i) many += std::string(i ? "," : "") + "{}";
  CHECK(has(diagnostics(many + "]}"), "/scenarios", "too_large"));
}

TEST_CASE("a config.json given as the model itself gets one hint to wrap it, not a missing key per field", "[api]") {
  // issue 40: a raw Hugging Face config passed as `model` listed 34 missing keys of the engine's own model.
  const json out = eval(R"({"hardware": {"preset": "h100-sxm"}, "mesh": {"shape": [8]},
    "model": {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32},
    "query": {"kind": "training_step", "batch_tokens": 1048576, "seq_len": 4096, "parallelism": {"fsdp": 8}}})");
  CHECK(out["ok"] == false);
  std::vector<json> model_errors;
  for (const auto& d : out["diagnostics"])
    if (d["path"].get<std::string>().rfind("/model", 0) == 0) model_errors.push_back(d);
  REQUIRE(model_errors.size() == 1);
  CHECK(model_errors[0]["path"] == "/model");
  CHECK(model_errors[0]["code"] == "wrong_type");
  const std::string message = model_errors[0]["message"];
  CHECK(message.find("'llama'") != std::string::npos);
  CHECK(message.find(R"({"hf_config": {...}})") != std::string::npos);
  // Wrapped, the same config is read.
  const json wrapped = eval(R"({"hardware": {"preset": "h100-sxm"}, "model": {"hf_config": {"model_type": "llama",
    "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
    "num_key_value_heads": 8, "vocab_size": 128256}}, "mesh": {"shape": [8]},
    "query": {"kind": "training_step", "batch_tokens": 1048576, "seq_len": 4096, "parallelism": {"fsdp": 8}}})");
  CHECK(wrapped["ok"] == true);
  CHECK(wrapped["result"]["time"]["step_s"] > 0);
}

TEST_CASE("an absurd serving batch is a warning with numbers, not an overflow", "[api]") {
  // 1e8 sequences of 1e8 tokens: the KV caches need ~1e22 bytes; the message must print it without int overflow.
  const json out =
      eval(R"({"hardware": {"preset": "tpu-v5e"}, "model": {"preset": "llama-3-70b"}, "mesh": {"shape": [4, 4]},
    "query": {"kind": "serving", "batch": 100000000, "prompt_len": 100000000, "generated_len": 1,
              "parallelism": {"tensor": ["X", "Y"]}}})");
  REQUIRE(out["ok"] == true);
  CHECK(has(out, "/query/batch", "out_of_hbm"));
}

TEST_CASE("every result says its fidelity; calibrated only where a query offers it", "[api][fidelity]") {
  // docs/design.md "Fidelity and calibration": query.fidelity is "book" or "calibrated"; primitives stay "book".
  json out = eval(R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "chip"}})");
  CHECK(out["result"]["fidelity"] == "book");
  out = eval(R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "roofline", "flops": 1e12, "bytes": 1e9,
                 "fidelity": "book"}})");
  CHECK(out["ok"] == true);
  CHECK(out["result"]["fidelity"] == "book");
  out = eval(R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "roofline", "flops": 1e12, "bytes": 1e9,
                 "fidelity": "calibrated"}})");
  REQUIRE(has(out, "/query/fidelity", "not_applicable"));
  CHECK(out["diagnostics"][0]["message"].get<std::string>().find("'roofline' has the book fidelity only") !=
        std::string::npos);
  out = eval(R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "chip", "fidelity": "ideal"}})");
  REQUIRE(has(out, "/query/fidelity", "unknown_choice"));
  CHECK(out["diagnostics"][0]["message"] == "unknown fidelity 'ideal'; valid: book, calibrated");
}

TEST_CASE(
    "serving: time to first token is one request's prefill; the batch prefill is labelled "
    "(scaling-book/inference)",
    "[api]") {
  const auto out = nlohmann::json::parse(scalescope::evaluate_json(R"({
    "hardware": {"preset": "tpu-v5e"}, "model": {"preset": "llama-3-70b"}, "mesh": {"shape": [4, 4]},
    "query": {"kind": "serving", "fidelity": "book", "batch": 32, "prompt_len": 8192, "generated_len": 512,
              "dtypes": {"weights": "int8", "kv": "int8"}, "parallelism": {"tensor": ["X", "Y"]}}})"));
  REQUIRE(out["ok"] == true);
  const auto& r = out["result"];
  // scaling-book/inference: TTFT = 2 N T_prompt / (chips C MFU) for one prompt; the batch's 32 prompts take ~32x that.
  CHECK(r["time_to_first_token_s"] == r["disaggregation"]["prefill_time_one_sequence_s"]);
  CHECK(r["prefill"]["sequences"] == 32);
  CHECK(r["prefill"]["time_s"].get<double>() > 30 * r["time_to_first_token_s"].get<double>());
  CHECK(r["request_latency_s"].get<double>() ==
        r["time_to_first_token_s"].get<double>() + r["decode_time_s"].get<double>());
}

TEST_CASE("transfer between chips uses every disjoint shortest path by default (scaling-book/tpus, Question 5)",
          "[api]") {
  // bf16[8, 128, 8192] from TPU{0,0} to TPU{3,3} on a v5e 4x4: two ports at 4.5e10 each, six hops of 1 us.
  const auto out = eval(R"({"hardware": {"preset": "tpu-v5e"}, "mesh": {"shape": [4, 4]},
    "query": {"kind": "transfer", "bytes": 16777216, "from": [0, 0], "to": [3, 3]}})");
  REQUIRE(out["ok"] == true);
  CHECK(out["result"]["ports"] == 2);
  CHECK(out["result"]["bandwidth_s"].get<double>() == 16777216 / (2 * 4.5e10));
  CHECK(out["result"]["latency_s"].get<double>() == 6e-6);
  // An explicit 'ports' still wins.
  const auto one = eval(R"({"hardware": {"preset": "tpu-v5e"}, "mesh": {"shape": [4, 4]},
    "query": {"kind": "transfer", "bytes": 16777216, "from": [0, 0], "to": [3, 3], "ports": 1}})");
  CHECK(one["result"]["ports"] == 1);
}

TEST_CASE("issue 41 #4: a query kind of any JSON type is a diagnostic at every entry point, never internal_error",
          "[api]") {
  // evaluate_whole_json looks at the kind again to resume a plan search; value("kind", "") threw on a number.
  for (const char* kind : {"1", "null", "[\"plan_search\"]", "{\"a\": 1}", "true", "1e308"}) {
    INFO(kind);
    const std::string s = std::string(R"({"query": {"kind": )") + kind + "}}";
    for (const std::string& text : {evaluate_whole_json(s), evaluate_json(s), validate_json(s)}) {
      const json out = json::parse(text);
      CHECK(out["ok"] == false);
      CHECK(has(out, "/query/kind", "wrong_type"));
      for (const auto& d : out["diagnostics"]) CHECK(d["code"] != "internal_error");
    }
  }
}

TEST_CASE("issue 41 #5: validate reads the query's arguments as evaluate does", "[api]") {
  const std::string s = R"({"hardware": {"preset": "h100-sxm"}, "model": {"preset": "llama-3-8b"},
    "mesh": {"shape": [8]}, "query": {"kind": "serving", "batch": -1, "prompt_len": 1024, "generated_len": 128,
    "parallelism": {"tensor": ["X"]}, "bogus": 1}})";
  const json validated = json::parse(validate_json(s));
  CHECK(validated["ok"] == false);
  CHECK(has(validated, "/query/batch", "not_positive"));
  CHECK(has(validated, "/query/bogus", "unknown_key"));
  CHECK(validated["diagnostics"] == eval(s)["diagnostics"]);
  CHECK_FALSE(validated.contains("result"));
}

TEST_CASE("issue 41 #10: summary's own training and serving arguments are diagnosed at their keys", "[api]") {
  const std::string base = R"({"hardware": {"preset": "tpu-v5e"}, "model": {"preset": "llama-3-8b"},
    "mesh": {"shape": [16, 16]}, "query": {"kind": "summary")";
  const json bad = eval(base + R"(, "training": {"batch_tokens": -1, "seq_len": 4096, "bogus": 1,
    "parallelism": {"fsdp": ["X"], "tensor": ["Y"]}}}})");
  CHECK(bad["ok"] == false);
  CHECK(has(bad, "/query/training/batch_tokens", "not_positive"));
  CHECK(has(bad, "/query/training/bogus", "unknown_key"));
  const json serving = eval(base + R"(, "serving": {"batch": 8, "prompt_len": 1024, "generated_len": 128,
    "parallelism": {"tensor": ["Q"]}}}})");
  CHECK(has(serving, "/query/serving/parallelism/tensor/0", "unknown_mesh_axis"));
  // A plan check's path is under the summary's key too (64-way TP over 32 heads).
  const json heads = eval(R"({"hardware": {"preset": "h100-sxm"}, "model": {"preset": "llama-3-8b"},
    "mesh": {"shape": [4, 64]}, "query": {"kind": "summary", "training": {"batch_tokens": 1048576, "seq_len": 4096,
    "parallelism": {"fsdp": ["X"], "tensor": ["Y"]}}}})");
  CHECK(has(heads, "/query/training/parallelism/tensor", "not_divisible"));
  // The defaults are the engine's choice: a default that does not suit is a problem inside an answer that runs.
  const json fine = eval(base + "}}");
  CHECK(fine["ok"] == true);
  CHECK(fine["result"]["training_step"].contains("time"));
}

TEST_CASE("issue 41 #17: a number the reader gave is echoed exactly, not rounded", "[api]") {
  const json layers = eval(R"({"model": {"hf_config": {"model_type": "llama", "num_hidden_layers": 16777217,
    "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32, "vocab_size": 128256}},
    "query": {"kind": "transformer"}})");
  bool exact = false;
  for (const auto& d : layers["diagnostics"])
    exact = exact || d["message"].get<std::string>().find("got 16777217") != std::string::npos;
  CHECK(exact);
}

TEST_CASE("issue 41 #17: virtual_stages outside the interleaved schedule is a warning, not silently ignored", "[api]") {
  const std::string s = R"({"hardware": {"preset": "tpu-v5p"}, "model": {"preset": "llama-3-70b"},
    "mesh": {"shape": [8, 8, 8]}, "query": {"kind": "training_step", "batch_tokens": 4194304, "seq_len": 4096,
    "parallelism": {"fsdp": ["X", "Y"], "pipeline": ["Z"], "virtual_stages": 2}}})";
  const json out = eval(s);
  CHECK(out["ok"] == true);
  CHECK(has(out, "/query/parallelism/virtual_stages", "ignored"));
  std::string interleaved = s;
  interleaved.replace(interleaved.find("\"virtual_stages\""), 0, "\"pipeline_schedule\": \"interleaved\", ");
  CHECK_FALSE(has(eval(interleaved), "/query/parallelism/virtual_stages", "ignored"));
}

TEST_CASE("issue 40: summary's default plan for a GPU count keeps TP inside one NVLink domain", "[api][summary]") {
  // The GPUs chapter: TP beyond a node rarely pays. 64 H100s as one 64-way TP group ran at 13% MFU, and 128 were
  // refused (128-way TP splits no 64 heads); the default is now TP 8 x FSDP 8, in degree form.
  const auto plan = [](const char* hw, const char* model, json shape) {
    const json a = eval(json{{"hardware", {{"preset", hw}}},
                             {"model", {{"preset", model}}},
                             {"mesh", {{"shape", shape}}},
                             {"query", {{"kind", "summary"}}}}
                            .dump());
    REQUIRE(a["ok"] == true);
    return a["result"]["training_step"]["query"]["parallelism"];
  };
  CHECK(plan("h100-sxm", "llama-3-70b", {64}) == json({{"tensor", 8}, {"fsdp", 8}}));
  CHECK(plan("h100-sxm", "llama-3-70b", {128}) == json({{"tensor", 8}, {"fsdp", 16}}));
  CHECK(plan("h100-sxm", "llama-3-8b", {4}) == json({{"tensor", 4}}));
  // A GB200 NVL72 domain holds 72, which splits no 64 heads: the largest degree dividing both is 8.
  CHECK(plan("gb200-nvl72", "llama-3-70b", {144})["tensor"] == 8);
  // A mesh given by axes keeps the axis rule: TP over the innermost.
  CHECK(plan("h100-sxm", "llama-3-70b", {8, 8})["tensor"] == json::array({"Y"}));
}
