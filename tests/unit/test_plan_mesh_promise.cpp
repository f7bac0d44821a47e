// plan_mesh's promise, tested the way independent testers broke it (issue 41: 181 of 733 `runs: true` answers
// described plans that training_step or serving rejected; 384 of 2,168 `nearest` answers did not run). For random
// questions over every preset chip and model:
// - `runs: true` implies that the scenario it describes (its mesh and parallelism, as the explorer sends them) is
//   accepted by the query of its mode;
// - a `nearest` always runs, asked again.
// The questions are drawn with a fixed seed, so a failure replays; each one failed is printed whole.
#include <random>
#include <string>
#include <vector>

#include "planners/plan_degrees.h"
#include "test_helpers.h"

using scalescope::Json;
using scalescope::test::run_json;

namespace {

const std::vector<const char*> kChips = {"tpu-v4p", "tpu-v5e", "tpu-v5p",     "tpu-v6e", "tpu7x",    "h100-sxm",
                                         "h200",    "b200",    "gb200-nvl72", "mi300x",  "a100-80gb"};
const std::vector<const char*> kModels = {"llama-3-8b",   "llama-3-70b", "llama-3-405b",  "gpt-3-175b",
                                          "mixtral-8x7b", "deepseek-v3", "qwen3-30b-a3b", "llama-4-maverick",
                                          "gpt-oss-120b", "gemma-3-27b"};
const char* const kTraining[] = {"data", "fsdp", "tensor", "pipeline", "expert", "context"};

struct Draw {
  std::mt19937_64 rng;
  // Independent of the standard library's distributions, so the questions are the same natively and in wasm.
  std::uint64_t below(std::uint64_t n) { return rng() % n; }
  bool chance(int percent) { return below(100) < static_cast<std::uint64_t>(percent); }
  // A degree as people and hostile links give them: mostly small powers of two, some odd, some huge.
  std::int64_t degree() {
    const auto pick = below(10);
    if (pick < 4) return 1;
    if (pick < 8) return std::int64_t{1} << below(7);
    if (pick < 9) return 1 + static_cast<std::int64_t>(below(96));
    return std::int64_t{1} << (7 + below(18));  // up to 2^24, the readers' bound
  }
};

Json question(Draw& g, bool serving) {
  Json q{{"kind", "plan_mesh"}, {"mode", serving ? "serving" : "training"}};
  Json& par = q["parallelism"] = Json::object();
  for (const char* s : kTraining) {
    if (serving && std::string(s) != "tensor" && std::string(s) != "expert") continue;
    if (const auto d = g.degree(); d > 1) par[s] = d;
  }
  if (g.chance(20)) par["expert_tensor"] = std::int64_t{1} << g.below(4);
  if (!serving && g.chance(15)) {
    par["pipeline_schedule"] = g.chance(50) ? "interleaved" : "dualpipe";
    if (g.chance(50)) par["virtual_stages"] = 1 + g.below(4);
  }
  if (g.chance(30))
    q["chips"] = g.chance(70) ? std::int64_t{1} << g.below(21) : 1 + static_cast<std::int64_t>(g.below(5000));
  if (!serving) {
    q["seq_len"] = 4096;
    q["batch_tokens"] = 4096 * static_cast<std::int64_t>(1 + g.below(4096));
    if (g.chance(15)) {
      q["slices"] = 1 + g.below(8);
      if (g.chance(50)) q["dcn_strategy"] = "fsdp";
    }
  }
  return q;
}

// The scenario a plan_mesh answer describes, as the explorer sends it: its mesh, its parallelism, and the settings
// the question carried.
Json described(const Json& base, const Json& q, const Json& answer) {
  Json s = base;
  s["mesh"] = answer["mesh"];
  Json query = answer["parallelism"];
  const bool serving = q["mode"] == "serving";
  for (const char* key : {"expert_tensor", "pipeline_schedule", "virtual_stages"})
    if (q["parallelism"].contains(key) && !(serving && std::string(key) != "expert_tensor"))
      query[key] = q["parallelism"][key];
  Json args = serving ? Json{{"kind", "serving"}, {"batch", 8}, {"prompt_len", 1024}, {"generated_len", 128}}
                      : Json{{"kind", "training_step"}, {"seq_len", q["seq_len"]}, {"batch_tokens", q["batch_tokens"]}};
  args["parallelism"] = query;
  s["query"] = args;
  return s;
}

std::vector<std::string> errors(const Json& answer) {
  std::vector<std::string> out;
  for (const Json& d : answer["diagnostics"])
    if (d["severity"] == "error") out.push_back(d["path"].get<std::string>() + ": " + d["message"].get<std::string>());
  return out;
}

// The question `nearest` describes: the same one with its degrees, chips, batch, slices and experts' TP.
Json nearest_question(const Json& q, const Json& nearest) {
  Json again = q;
  for (auto it = nearest["parallelism"].begin(); it != nearest["parallelism"].end(); ++it)
    again["parallelism"][it.key()] = it.value();
  if (nearest["chips"].is_null())
    again.erase("chips");
  else
    again["chips"] = nearest["chips"];
  if (nearest.contains("batch_tokens")) again["batch_tokens"] = nearest["batch_tokens"];
  if (nearest.contains("slices")) again["slices"] = nearest["slices"];
  if (nearest.contains("expert_tensor")) {
    if (nearest["expert_tensor"].is_null())
      again["parallelism"].erase("expert_tensor");
    else
      again["parallelism"]["expert_tensor"] = nearest["expert_tensor"];
  }
  return again;
}

}  // namespace

TEST_CASE("plan_mesh keeps its promise on random questions: runs means accepted, nearest runs", "[plan_mesh][fuzz]") {
  Draw g{std::mt19937_64(20261205)};
  int asked = 0, runnable = 0, nearest_checked = 0;
  for (int i = 0; i < 700; ++i) {
    const Json base{{"hardware", {{"preset", kChips[g.below(kChips.size())]}}},
                    {"model", {{"preset", kModels[g.below(kModels.size())]}}}};
    const bool serving = g.chance(35);
    Json s = base;
    s["query"] = question(g, serving);
    const Json answer = run_json(s);
    INFO(s.dump());
    INFO(answer.dump().substr(0, 2000));
    REQUIRE(answer["ok"] == true);
    ++asked;
    const Json& r = answer["result"];
    if (r["runs"] == true) {
      ++runnable;
      const Json step = run_json(described(base, s["query"], r));
      INFO(described(base, s["query"], r).dump());
      CHECK(errors(step) == std::vector<std::string>{});
    } else if (r.contains("nearest")) {
      ++nearest_checked;
      Json again = base;
      again["query"] = nearest_question(s["query"], r["nearest"]);
      const Json second = run_json(again);
      INFO(again.dump());
      REQUIRE(second["ok"] == true);
      CHECK(second["result"]["runs"] == true);
      CHECK(second["result"]["problems"] == Json::array());
    }
  }
  // The draw reaches both sides of the promise often enough to mean something.
  CHECK(runnable > 100);
  CHECK(nearest_checked > 100);
  CHECK(asked == 700);
}
