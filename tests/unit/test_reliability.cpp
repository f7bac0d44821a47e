// Issue 12 ("Reliability: no input crashes, hangs or poisons the engine"): each numbered defect of the issue is a
// case here, written to fail before its fix. docs/api.md "Limits" states the limits these tests hold the engine to.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>

#include "api.h"
#include "invariants.h"
#include "io/ranges.h"
#include "io/text.h"
#include "specs/presets.h"

using namespace scalescope;
using nlohmann::json;

namespace {

// Evaluates `text` and requires a sound answer (tests/invariants.h) before returning it parsed.
json eval(const std::string& text) {
  const std::string answer = evaluate_json(text);
  const auto problems = invariants::answer_problems(answer);
  for (const auto& p : problems) INFO(p);
  REQUIRE(problems.empty());
  return json::parse(answer);
}

const json* find(const json& out, const std::string& code) {
  for (const auto& d : out["diagnostics"])
    if (d["code"] == code) return &d;
  return nullptr;
}

std::string message_of(const json& out, const std::string& code) {
  const json* d = find(out, code);
  return d ? d->at("message").get<std::string>() : std::string("(no '" + code + "' diagnostic)");
}

bool has(const json& out, const std::string& path, const std::string& code) {
  for (const auto& d : out["diagnostics"])
    if (d["path"] == path && d["code"] == code) return true;
  return false;
}

const std::string kChip = R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "chip"}})";

std::string chip_with_override(const std::string& field, const std::string& value) {
  return R"({"hardware": {"preset": "tpu-v5e", "overrides": {")" + field + "\": " + value +
         R"(}}, "query": {"kind": "chip"}})";
}

// {"a": {"a": ... 1 ...}} nested `levels` deep, as text.
std::string nested_text(int levels) {
  std::string s;
  for (int i = 0; i < levels; ++i) s += "{\"a\": ";
  s += "1";
  s += std::string(levels, '}');
  return s;
}

// The same as a JSON value, built by moves (an initializer list would copy, recursively).
json nested_value(int levels) {
  json v = 1;
  for (int i = 0; i < levels; ++i) {
    json outer = json::object();
    outer["a"] = std::move(v);
    v = std::move(outer);
  }
  return v;
}

}  // namespace

TEST_CASE("issue 12 #1: non-ASCII or invalid UTF-8 at a parse error is a diagnostic: not a crash", "[reliability]") {
  for (const std::string& text :
       {std::string("\xff"), std::string("{\"x\": \xc3\xa9}"), std::string("{\"x\": \"\xff\"}"),
        std::string("{\"x\": \xe2\x82"), std::string(50, '\xc3')}) {
    INFO("input bytes: " << text.size());
    const json out = eval(text);
    CHECK(out["ok"] == false);
    CHECK(has(out, "", "malformed_json"));
    CHECK(invariants::answer_problems(validate_json(text)).empty());
    CHECK(invariants::answer_problems(evaluate_many_json("[" + text + "]")).empty());
  }
  // The bad token is quoted escaped: nlohmann stops at the first byte of 'é', shown as \xC3.
  CHECK(message_of(eval("{\"x\": \xc3\xa9}"), "malformed_json").find("\\xC3'") != std::string::npos);
  CHECK(message_of(eval("\xff"), "malformed_json").find("\\xFF") != std::string::npos);
}

TEST_CASE("issue 12 #1: quote() keeps whole characters and cuts at a character boundary", "[reliability]") {
  std::string accents;
  for (int i = 0; i < 50; ++i) accents += "\xc3\xa9";
  std::string forty;
  for (int i = 0; i < 40; ++i) forty += "\xc3\xa9";
  CHECK(quote(accents) == "'" + forty + "'... (cut, 100 bytes)");
  CHECK(quote("a\xc3") == "'a\\xC3'");                  // a character cut short by the input
  CHECK(quote("\xed\xa0\x80") == "'\\xED\\xA0\\x80'");  // a UTF-16 surrogate is not UTF-8
  CHECK(quote("it's \\ \n") == "'it\\'s \\\\ \\n'");
}

TEST_CASE("issue 12 #8: quoted user text is escaped and cut at a character boundary", "[reliability]") {
  // A key with a quote, a control character and 200 accented letters: the message shows it escaped and cut.
  std::string key = "a'b\\u0001";
  for (int i = 0; i < 200; ++i) key += "\xc3\xa9";
  const json out = eval(R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "chip", ")" + key + R"(": 1}})");
  const std::string m = message_of(out, "unknown_key");
  CHECK(m.find("a\\'b\\u0001") != std::string::npos);
  CHECK(m.size() < 300);
  // Choices quote the user's text the same way.
  const std::string kind =
      message_of(eval(R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "x'y"}})"), "unknown_choice");
  CHECK(kind.find("'x\\'y'") != std::string::npos);
}

TEST_CASE("issue 12 #2: thousands of rejected inputs leave the engine answering valid scenarios", "[reliability]") {
  // Under wasm a throw aborts the instance (-sDISABLE_EXCEPTION_CATCHING=1): the same suite runs there.
  for (int i = 0; i < 3000; ++i) {
    const std::string bad = i % 3 == 0 ? "\xff" : i % 3 == 1 ? "{\"x\": \xc3\xa9}" : nested_text(200);
    REQUIRE(invariants::answer_problems(evaluate_json(bad)).empty());
  }
  CHECK(eval(kChip)["ok"] == true);
}

TEST_CASE("issue 12 #3: deep nesting is a diagnostic naming the path and the limit: not a stack overflow",
          "[reliability]") {
  const int deep = 100'000;
  SECTION("in hardware overrides, as text") {
    const json out = eval(R"({"hardware": {"preset": "tpu-v5e", "overrides": )" + nested_text(deep) +
                          R"(}, "query": {"kind": "chip"}})");
    const json* d = find(out, "too_deep");
    REQUIRE(d);
    CHECK(d->at("path").get<std::string>().rfind("/hardware/overrides/a/a", 0) == 0);
    CHECK(d->at("message").get<std::string>().find("32") != std::string::npos);
  }
  SECTION("in model overrides, evaluate_many and validate") {
    const std::string s = R"({"model": {"preset": "llama-3-8b", "overrides": )" + nested_text(deep) +
                          R"(}, "query": {"kind": "transformer"}})";
    CHECK(find(eval(s), "too_deep"));
    CHECK(invariants::answer_problems(evaluate_many_json("[" + s + "]")).empty());
    CHECK(invariants::answer_problems(validate_json(s)).empty());
    CHECK(invariants::answer_problems(evaluate_json(std::string(deep, '['))).empty());
  }
  SECTION("a deep document handed over as JSON (no text)") {
    json overrides = nested_value(deep);
    json scenario = json::object();
    scenario["query"] = {{"kind", "chip"}};
    scenario["hardware"] = {{"preset", "tpu-v5e"}};
    scenario["hardware"]["overrides"] = std::move(overrides);
    const json out = evaluate(scenario);
    CHECK(out["ok"] == false);
    CHECK(find(out, "too_deep"));
  }
  SECTION("merge patch of overrides, called directly") {
    json overrides = nested_value(deep);
    json node = {{"preset", "tpu-v5e"}};
    node["overrides"] = std::move(overrides);
    Diagnostics d;
    resolve_hardware(node, "/hardware", d);
    bool too_deep = false;
    for (const auto& x : d)
      too_deep = too_deep || (x.code == "too_deep" && x.path.rfind("/hardware/overrides/a", 0) == 0);
    CHECK(too_deep);
  }
}

TEST_CASE("issue 12 #4: a sweep is limited in points: not only per list", "[reliability]") {
  std::string batches = "[", contexts = "[";
  for (int i = 1; i <= 4096; ++i) batches += (i > 1 ? "," : "") + std::to_string(i);
  for (int i = 1; i <= 64; ++i) contexts += (i > 1 ? "," : "") + std::to_string(1024 * i);
  const json out =
      eval(R"({"hardware": {"preset": "tpu-v5e"}, "model": {"preset": "llama-3-8b"}, "mesh": {"shape": [2, 2]},
    "query": {"kind": "serving", "batch": 8, "prompt_len": 1024, "generated_len": 128,
              "parallelism": {"tensor": ["X", "Y"]}, "sweep": {"batches": )" +
           batches + "], \"contexts\": " + contexts + "]}}}");
  CHECK(has(out, "/query/sweep", "too_large"));
  CHECK(message_of(out, "too_large").find("16384") != std::string::npos);
}

TEST_CASE("issue 12 #4: unknown keys do not repeat the valid keys and are capped per object", "[reliability]") {
  std::string keys;
  for (int i = 0; i < 20'000; ++i) keys += ", \"unknown_" + std::to_string(i) + "\": 1";
  const std::string text = R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "chip")" + keys + "}}";
  const std::string answer = evaluate_json(text);
  CHECK(invariants::answer_problems(answer).empty());
  CHECK(answer.size() < 10'000);  // 209 KB in gave 3.6 MB out
  const json out = json::parse(answer);
  CHECK(out["diagnostics"].size() == 21);
  CHECK(out["diagnostics"][0]["message"].get<std::string>().find("valid: ") != std::string::npos);
  CHECK(out["diagnostics"][1]["message"].get<std::string>().find("valid: ") == std::string::npos);
  CHECK(has(out, "/query", "unknown_key"));
  CHECK(out["diagnostics"][20]["message"].get<std::string>().find("19980 more") != std::string::npos);
}

TEST_CASE("issue 12 #4: at most 100 diagnostics are listed and the rest counted", "[reliability]") {
  std::string axes = "[";
  for (int i = 0; i < 4000; ++i) axes += (i ? ",\"Q" : "\"Q") + std::to_string(i) + "\"";
  const json out = eval(R"({"hardware": {"preset": "h100-sxm"}, "mesh": {"shape": [8]},
    "query": {"kind": "collective", "op": "all_gather", "bytes": 1e9, "axes": )" +
                        axes + "]}}");
  CHECK(out["diagnostics"].size() == 101);
  CHECK(message_of(out, "too_many_diagnostics").find("3900 more diagnostics were dropped") != std::string::npos);
}

TEST_CASE("issue 12 #4: calibrate and validation take at most 512 runs", "[reliability]") {
  const json run = json::parse(R"({"id": "r", "task": "training", "metric": "step_s", "measured": 6.1, "split": "fit",
    "scenario": {"hardware": {"preset": "tpu-v5e"}, "model": {"preset": "llama-3-8b"}, "mesh": {"shape": [16, 16]},
                 "query": {"kind": "training_step", "batch_tokens": 4194304, "seq_len": 8192, "parallelism": {"fsdp": ["X", "Y"]}}}})");
  json runs = json::array();
  for (int i = 0; i < 513; ++i) runs.push_back(run);
  for (const char* kind : {"calibrate", "validation"}) {
    const json out = eval(json{{"query", {{"kind", kind}, {"runs", runs}}}}.dump());
    CHECK(has(out, "/query/runs", "too_large"));
  }
}

TEST_CASE("issue 12 #4: input bytes; evaluate_many length and array lengths have stated limits", "[reliability]") {
  const std::string big = R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "chip", "notes": ")" +
                          std::string(2 << 20, 'x') + "\"}}";
  CHECK(has(eval(big), "", "too_large"));
  std::string many = "[" + kChip;
  for (int i = 0; i < 1024; ++i) many += "," + kChip;
  const json rejected = json::parse(evaluate_many_json(many + "]"));
  CHECK(rejected.is_object());
  CHECK(has(rejected, "", "too_large"));
  std::string axes = "[";
  for (int i = 0; i < 10'000; ++i) axes += (i ? ",\"X\"" : "\"X\"");
  const json out = eval(R"({"hardware": {"preset": "h100-sxm"}, "mesh": {"shape": [8]},
    "query": {"kind": "collective", "op": "all_gather", "bytes": 1e9, "axes": )" +
                        axes + "]}}");
  CHECK(has(out, "/query/axes", "too_large"));
}

TEST_CASE("issue 12 #5: tiny positive numbers are out of range: not overflows", "[reliability]") {
  for (const char* field : {"hbm_bandwidth_bytes_per_s", "host_pcie_unidir_bytes_per_s", "price_usd_per_chip_hour",
                            "dcn_unidir_bytes_per_s_per_chip"})
    for (const char* value : {"5e-324", "1e-300", "1e-290"}) {
      INFO(field << " = " << value);
      const json out = eval(chip_with_override(field, value));
      CHECK(out["ok"] == false);
      CHECK(has(out, std::string("/hardware/overrides/") + field, "too_small"));
      // The message names the field and its valid range.
      CHECK(message_of(out, "too_small").find(field) != std::string::npos);
      CHECK(message_of(out, "too_small").find(" to ") != std::string::npos);
    }
  const json out =
      eval(R"({"hardware": {"preset": "tpu-v5p"}, "model": {"preset": "llama-3-8b"}, "mesh": {"shape": [2, 2, 1]},
    "query": {"kind": "training_step", "batch_tokens": 1048576, "seq_len": 4096, "efficiency": {"flops_frac": 5e-324},
              "parallelism": {"fsdp": ["X", "Y"]}}})");
  CHECK(has(out, "/query/efficiency/flops_frac", "too_small"));
  const json serving = eval(R"({"hardware": {"preset": "tpu-v5e", "overrides": {"hbm_bandwidth_bytes_per_s": 1e-290}},
    "model": {"preset": "llama-3-8b"}, "mesh": {"shape": [2, 2]},
    "query": {"kind": "serving", "batch": 8, "prompt_len": 1024, "generated_len": 128, "parallelism": {"tensor": ["X", "Y"]}}})");
  CHECK(serving["ok"] == false);  // 3.7e300 s of request latency passed silently
}

TEST_CASE("issue 12 #6: fractional and denormal counts are rejected", "[reliability]") {
  CHECK(has(eval(R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "matmul", "batch": 0.5, "d": 8, "f": 8}})"),
            "/query/batch", "not_integer"));
  CHECK(
      has(eval(R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "matmul", "batch": 8, "d": 1e-300, "f": 8}})"),
          "/query/d", "not_integer"));
  CHECK(has(eval(R"({"hardware": {"preset": "tpu-v5p"}, "model": {"preset": "llama-3-8b"}, "mesh": {"shape": [2, 2, 1]},
    "query": {"kind": "training_step", "batch_tokens": 4096.5, "seq_len": 4096, "parallelism": {"fsdp": ["X", "Y"]}}})"),
            "/query/batch_tokens", "not_integer"));
}

TEST_CASE("issue 12 #6: results outside physics are flagged; -0 is normalised", "[reliability]") {
  // 2.79e6 chip-hours cannot train 37e9 parameters on 14.8e15 tokens: 21,600% utilisation.
  const json out = eval(R"({"hardware": {"preset": "h800"}, "query": {"kind": "utilization", "chip_hours": 2.79e6,
                           "tokens": 14.8e15, "active_params": 37e9, "dtype": "fp8"}})");
  CHECK(out["ok"] == true);
  CHECK(has(out, "/result/utilization_frac", "outside_physics"));
  const std::string answer = evaluate_json(
      R"({"hardware": {"preset": "tpu-v5e"}, "query": {"kind": "roofline", "flops": -0.0, "bytes": -0.0}})");
  CHECK(answer.find("-0.0") == std::string::npos);
  CHECK(invariants::answer_problems(answer).empty());
}

TEST_CASE("issue 12 #7: a NUL byte is malformed input in every entry point", "[reliability]") {
  const std::string nul = kChip + std::string(1, '\0') + "junk";
  CHECK(has(eval(nul), "", "malformed_json"));
  CHECK(json::parse(validate_json(nul))["ok"] == false);
  const json many = json::parse(evaluate_many_json("[" + nul + "]"));
  CHECK(many.is_object());
  CHECK(has(many, "", "malformed_json"));
  CHECK(json::parse(evaluate_many_json("[" + kChip + "]" + std::string(1, '\0')))["ok"] == false);
}

TEST_CASE("issue 12 #8: the whole document's path is the empty pointer; choices list the valid values",
          "[reliability]") {
  CHECK(has(eval("[1, 2]"), "", "wrong_type"));
  CHECK(has(eval("42"), "", "wrong_type"));
  const json out = eval(R"({"hardware": {"preset": "tpu-v5p"}, "mesh": {"shape": [4, 4, 4]},
    "query": {"kind": "array", "array": "A[I_X, J]", "dims": {"I": 128, "J": 64, "K": 8}}})");
  REQUIRE(has(out, "/query/dims/K", "unknown_dim"));
  CHECK(message_of(out, "unknown_dim").find("I, J") != std::string::npos);
}

TEST_CASE("issue 12: every input in tests/fuzz/regressions gets a sound answer, natively and in wasm",
          "[reliability]") {
  // scripts/test.sh replays the same files through the libFuzzer target (ASan, UBSan) when clang is present.
  std::size_t replayed = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(SCALESCOPE_SOURCE_DIR) + "/tests/fuzz/regressions")) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string input((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    INFO(entry.path().filename().string());
    for (const auto& p : invariants::answer_problems(evaluate_json(input))) FAIL_CHECK(p);
    for (const auto& p : invariants::answer_problems(evaluate_many_json(input))) FAIL_CHECK(p);
    ++replayed;
  }
  CHECK(replayed >= 15);
}

TEST_CASE("issue 12 #5: every number the engine reads by key has a row in the range table", "[reliability]") {
  // JsonReader::number("key"[, required, "range"]) and numbers(...) look their range up by name; a missing row
  // would be an internal_error at run time, so the sources are checked here. A read that passes a NumberRange of
  // its own (a parameter table that keeps its ranges beside its data) needs no row.
  const std::regex read(R"re(\bnumbers?\("(\w+)"(?![^)]*NumberRange)(?:, [^,)]+)?(?:, "(\w+)")?)re");
  std::size_t reads = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::string(SCALESCOPE_SOURCE_DIR) + "/core")) {
    if (entry.path().extension() != ".cpp") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (auto it = std::sregex_iterator(source.begin(), source.end(), read); it != std::sregex_iterator(); ++it) {
      const std::string field = (*it)[2].matched ? (*it)[2].str() : (*it)[1].str();
      INFO(entry.path().filename().string() << " reads '" << field << "', which has no row in core/io/ranges.cpp");
      CHECK(find_range(field) != nullptr);
      ++reads;
    }
  }
  CHECK(reads >= 50);
}
