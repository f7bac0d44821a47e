// nearest_fit (docs/api.md): the scenario nearest to a question that runs, fits in HBM and warns of nothing, found by
// the engine rather than by a page's loop (issue 39). Each answer is held to the engine's own answers: the scenario it
// gives runs cleanly when asked directly, and what it gave up was needed (the next batch up does not fit).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "api.h"

using nlohmann::json;

namespace {

const char* const kRemats[] = {"none", "big_matmuls", "mlp_matmuls", "block", "selective"};

json ask(const json& scenario) { return scalescope::evaluate(scenario); }

json fit_of(const json& scenario) {
  const json out = ask(scenario);
  INFO(out["diagnostics"].dump());
  REQUIRE(out["ok"] == true);
  REQUIRE(out["query"] == "nearest_fit");
  return out["result"];
}

// Runs, fits in HBM, and no warning.
bool clean(const json& scenario) {
  const json out = ask(scenario);
  if (out["ok"] != true) return false;
  for (const json& d : out["diagnostics"])
    if (d["severity"] == "warning") return false;
  return out["result"]["memory"]["fits"] == true;
}

json question(const char* hardware, const char* model, json lay_out, json query) {
  return {{"hardware", {{"preset", hardware}}},
          {"model", {{"preset", model}}},
          {"mesh", {{"lay_out", std::move(lay_out)}}},
          {"query", std::move(query)}};
}

json training(double batch_tokens) {
  return {{"kind", "training_step"}, {"batch_tokens", batch_tokens}, {"seq_len", 4096}};
}

json nearest_fit(json scenario, json extra = json::object()) {
  json query = {{"kind", "nearest_fit"}, {"query", scenario["query"]}};
  query.update(extra);
  scenario["query"] = query;
  return scenario;
}

const json* change_at(const json& result, const std::string& path) {
  for (const json& c : result["changes"])
    if (c["path"] == path) return &c;
  return nullptr;
}

}  // namespace

TEST_CASE("A question that already runs cleanly is its own nearest fit, with nothing changed", "[nearest_fit]") {
  // scaling-book/training's worked LLaMA-3 70B: FSDP over a v5p 4x4x4 with TP 4 at 1M tokens fits in 96 GB.
  const json q =
      question("tpu-v5p", "llama-3-70b", {{"parallelism", {{"fsdp", 16}, {"tensor", 4}}}}, training(1048576));
  REQUIRE(clean(q));
  const json r = fit_of(nearest_fit(q));
  CHECK(r["fits"] == true);
  CHECK(r["changes"].empty());
  CHECK(r["scenario"] == q);
  SECTION("at the fidelity given, where the question gives none") {
    const json book = fit_of(nearest_fit(q, {{"fidelity", "book"}}));
    CHECK(book["fidelity"] == "book");
    CHECK(book["scenario"]["query"]["fidelity"] == "book");
    CHECK(fit_of(nearest_fit(q))["fidelity"] == "calibrated");  // training_step's default
  }
  SECTION("even beside larger models it could be replaced by") {
    const json kept = fit_of(nearest_fit(q, {{"models", {"llama-3-405b", "llama-3-8b"}}}));
    CHECK(kept["changes"].empty());
    CHECK(kept["scenario"] == q);
  }
}

TEST_CASE("LLaMA-3 70B on 64 v5p at 4M tokens: the batch halves only as far as it must", "[nearest_fit]") {
  // The chapter 2 link of issue 39 (?v=1&chips=64) needed 151 GB per chip of 96 GB.
  const json q = question("tpu-v5p", "llama-3-70b", {{"parallelism", {{"fsdp", 8}, {"tensor", 8}}}, {"chips", 64}},
                          training(4194304));
  REQUIRE_FALSE(clean(q));
  const json r = fit_of(nearest_fit(q));
  REQUIRE(r["fits"] == true);
  const json& s = r["scenario"];
  CHECK(clean(s));
  CHECK(s["model"] == q["model"]);
  const double batch = s["query"]["batch_tokens"].get<double>();
  CHECK(batch < 4194304);
  CHECK(std::fmod(batch, 4096) == 0);  // whole sequences
  REQUIRE(change_at(r, "/query/batch_tokens"));
  // Needed: at twice the batch no settable recomputation runs it cleanly.
  for (const char* remat : kRemats) {
    INFO(remat);
    json bigger = s;
    bigger["query"]["batch_tokens"] = batch * 2;
    bigger["query"]["remat"] = remat;
    CHECK_FALSE(clean(bigger));
  }
}

TEST_CASE("The recomputation moves before the batch, to the fastest that fits", "[nearest_fit]") {
  json tr = training(1048576);
  tr["remat"] = "none";
  const json q = question("tpu-v5p", "llama-3-70b", {{"parallelism", {{"fsdp", 16}, {"tensor", 4}}}}, tr);
  REQUIRE_FALSE(clean(q));
  const json r = fit_of(nearest_fit(q));
  REQUIRE(r["fits"] == true);
  const json& s = r["scenario"];
  CHECK(s["query"]["batch_tokens"] == 1048576);
  const std::string chosen = s["query"]["remat"];
  CHECK(chosen != "none");
  const double chosen_s = ask(s)["result"]["time"]["step_s"].get<double>();
  for (const char* remat : kRemats) {
    json other = s;
    other["query"]["remat"] = remat;
    if (remat != chosen && clean(other)) CHECK(ask(other)["result"]["time"]["step_s"].get<double>() >= chosen_s);
  }
  SECTION("unless it is kept: then the batch moves") {
    const json kept = fit_of(nearest_fit(q, {{"keep", {"remat"}}}));
    REQUIRE(kept["fits"] == true);
    CHECK(kept["scenario"]["query"]["remat"] == "none");
    CHECK(kept["scenario"]["query"]["batch_tokens"].get<double>() < 1048576);
  }
}

TEST_CASE("Degrees the model does not split move to plan_mesh's nearest, with its reason", "[nearest_fit]") {
  const json q =
      question("tpu-v5p", "llama-3-70b", {{"parallelism", {{"fsdp", 16}, {"tensor", 7}}}}, training(1048576));
  const json r = fit_of(nearest_fit(q));
  REQUIRE(r["fits"] == true);
  CHECK(clean(r["scenario"]));
  const json* tp = change_at(r, "/mesh/lay_out/parallelism/tensor");
  REQUIRE(tp);
  CHECK((*tp)["from"] == 7);
  CHECK((*tp)["to"] == 8);  // LLaMA-3 70B's 64 heads: 8 is the nearest divisor (docs/api.md plan_mesh)
  CHECK((*tp)["reason"].get<std::string>().find("heads") != std::string::npos);
  for (const json& c : r["changes"]) CHECK_FALSE(c["reason"].get<std::string>().empty());
}

TEST_CASE("With models to choose from, the largest that trains cleanly at the largest batch wins", "[nearest_fit]") {
  // 8 TPU v5e chips (16 GB each) cannot train LLaMA-3 70B at any batch: 70e9 params x ~16 bytes of weights,
  // gradients and Adam states is 1.1 TB.
  const json q = question("tpu-v5e", "llama-3-70b", {{"parallelism", {{"fsdp", 8}, {"tensor", 8}}}, {"chips", 8}},
                          training(4194304));
  const json r = fit_of(nearest_fit(q, {{"models", {"llama-3-8b", "llama-3-70b", "llama-3-405b"}}}));
  REQUIRE(r["fits"] == true);
  const json& s = r["scenario"];
  CHECK(clean(s));
  CHECK(s["model"]["preset"] == "llama-3-8b");
  REQUIRE(change_at(r, "/model/preset"));
  json larger = s;
  larger["model"] = {{"preset", "llama-3-70b"}};
  CHECK_FALSE(clean(larger));
}

TEST_CASE("Chips too few to train any model given serve the largest one on a replica over all of them",
          "[nearest_fit]") {
  // LLaMA-2 13B needs ~16 bytes a parameter to train (208 GB) but 26 GB to serve in bf16: 8 v5e chips hold 128 GB.
  const json q = question("tpu-v5e", "llama-3-70b", {{"parallelism", {{"fsdp", 8}, {"tensor", 8}}}, {"chips", 8}},
                          training(4194304));
  const json serving = {{"kind", "serving"}, {"batch", 32}, {"prompt_len", 2048}, {"generated_len", 512}};
  const json r = fit_of(nearest_fit(q, {{"models", {"llama-2-13b"}}, {"serve_instead", serving}}));
  REQUIRE(r["fits"] == true);
  const json& s = r["scenario"];
  CHECK(clean(s));
  CHECK(s["query"]["kind"] == "serving");
  CHECK(s["model"]["preset"] == "llama-2-13b");
  CHECK(s["mesh"]["lay_out"]["parallelism"]["tensor"] == 8);
  const json* kind = change_at(r, "/query/kind");
  REQUIRE(kind);
  CHECK((*kind)["to"] == "serving");
  CHECK_FALSE(change_at(r, "/query/prompt_len"));  // one change for the new question, not one per argument
  for (const json& c : r["changes"]) CHECK_FALSE(c["reason"].get<std::string>().empty());

  SECTION("without serve_instead nothing fits, and the answer is the question on its nearest degrees") {
    const json none = fit_of(nearest_fit(q, {{"models", {"llama-2-13b"}}}));
    CHECK(none["fits"] == false);
    CHECK(none["scenario"]["query"]["kind"] == "training_step");
    CHECK(ask(none["scenario"])["ok"] == true);
  }
}

TEST_CASE("A model listed 4,096 times is tried once: the work stays bounded by the presets", "[nearest_fit]") {
  const json q = question("tpu-v5e", "llama-3-70b", {{"parallelism", {{"fsdp", 8}, {"tensor", 8}}}, {"chips", 8}},
                          training(4194304));
  const json r = fit_of(nearest_fit(q, {{"models", json(std::vector<std::string>(4096, "llama-3-8b"))}}));
  CHECK(r["fits"] == true);
  // 9 batches x 2 models, the question twice at the first, and 5 other recomputations of it at each batch.
  CHECK(r["scenarios_tried"].get<int>() <= 9 * 2 + 1 + 9 * 5);
}

TEST_CASE("nearest_fit names the field and the valid choices of a wrong argument", "[nearest_fit]") {
  const json q =
      question("tpu-v5p", "llama-3-70b", {{"parallelism", {{"fsdp", 16}, {"tensor", 4}}}}, training(1048576));
  const auto error_at = [](const json& scenario, const std::string& path) {
    const json out = ask(scenario);
    INFO(out.dump());
    CHECK(out["ok"] == false);
    CHECK(out["query"] == "nearest_fit");
    for (const json& d : out["diagnostics"])
      if (d["path"] == path && d["severity"] == "error") return d["message"].get<std::string>();
    FAIL("no error at " << path);
    return std::string();
  };
  json plan = nearest_fit(q);
  plan["query"]["query"] = {{"kind", "plan_mesh"}};
  CHECK(error_at(plan, "/query/query/kind").find("training_step") != std::string::npos);
  CHECK(error_at(nearest_fit(q, {{"models", {"llama-9"}}}), "/query/models/0").find("llama-3-8b") != std::string::npos);
  CHECK(error_at(nearest_fit(q, {{"keep", {"model"}}}), "/query/keep/0").find("degrees") != std::string::npos);
  json negative = nearest_fit(q);
  negative["query"]["query"]["batch_tokens"] = -1;
  error_at(negative, "/query/query/batch_tokens");
  json given_mesh = nearest_fit(q, {{"serve_instead", {{"kind", "serving"}}}});
  given_mesh["mesh"] = {{"shape", {4, 4, 4}}};
  error_at(given_mesh, "/query/serve_instead");
  json no_question = nearest_fit(q);
  no_question["query"].erase("query");
  error_at(no_question, "/query/query");
}
