// The plan_mesh query (docs/api.md, issue 20): the mesh for degrees, the degrees a model splits into, a fixed chip
// count and the nearest runnable degrees. The rules are the planners' own, so the decisive checks compare the
// query's answers with what training_step and serving say of the same degrees.
#include <algorithm>
#include <cmath>

#include "test_helpers.h"

using scalescope::Json;
using scalescope::test::run_json;

namespace {

Json plan_mesh(const char* hw, const char* model, Json query) {
  query["kind"] = "plan_mesh";
  const Json answer = run_json({{"hardware", {{"preset", hw}}}, {"model", {{"preset", model}}}, {"query", query}});
  INFO(answer.dump());
  REQUIRE(answer["ok"] == true);
  return answer["result"];
}

// The step of a plan laid out as plan_mesh says, at the query kind's own paths.
Json run_as(const char* kind, const char* hw, const char* model, const Json& layout, Json query) {
  query["kind"] = kind;
  query["parallelism"].update(layout["parallelism"]);
  return run_json(
      {{"hardware", {{"preset", hw}}}, {"model", {{"preset", model}}}, {"mesh", layout["mesh"]}, {"query", query}});
}

bool error_at(const Json& answer, const std::string& path) {
  for (const Json& d : answer["diagnostics"])
    if (d["severity"] == "error" && d["path"] == path) return true;
  return false;
}

std::vector<int> ints(const Json& list) { return list.get<std::vector<int>>(); }

const Json kTrainingArgs = {{"batch_tokens", 4194304}, {"seq_len", 4096}};

}  // namespace

TEST_CASE(
    "plan_mesh lays degrees on whole torus axes of the most cube-like slice (scaling-book/sharding, "
    "collective costs)",
    "[plan_mesh]") {
  // The explorer's default plan: LLaMA-3 70B on v5p, FSDP 256 x TP 8 (scaling-book/applied-training) on 16x16x8, FSDP
  // over two axes.
  const Json r = plan_mesh("tpu-v5p", "llama-3-70b", {{"parallelism", {{"fsdp", 256}, {"tensor", 8}}}});
  CHECK(r["runs"] == true);
  CHECK(r["mesh"]["shape"] == Json({16, 16, 8}));
  CHECK(r["parallelism"] == Json({{"fsdp", {"X", "Y"}}, {"tensor", {"Z"}}}));
  CHECK(r["chips"] == 2048);
  CHECK(r["engine_layout"] == false);
  // 16 x 4 on v5p: FSDP takes two axes (4x4x4 is shorter than 16x4), TP the third.
  const Json small = plan_mesh("tpu-v5p", "llama-3-70b", {{"parallelism", {{"fsdp", 16}, {"tensor", 4}}}});
  CHECK(small["mesh"]["shape"] == Json({4, 4, 4}));
  // Slices: a DCN axis joins four such slices and carries data parallelism (scaling-book/training, multi-pod over DCN).
  const Json sliced =
      plan_mesh("tpu-v5p", "llama-3-70b",
                {{"parallelism", {{"fsdp", 16}, {"tensor", 4}}}, {"slices", 4}, {"dcn_strategy", "data"}});
  CHECK(sliced["parallelism"]["data"] == Json({"DCN"}));
  CHECK(sliced["chips"] == 256);
  CHECK(sliced["mesh"]["slices"] == 4);
}

TEST_CASE("plan_mesh: balanced slices inside the pod, each axis used once, a single chip on one axis", "[plan_mesh]") {
  CHECK(plan_mesh("tpu-v5p", "llama-3-70b", {{"parallelism", {{"fsdp", 16}, {"tensor", 8}}}})["mesh"]["shape"] ==
        Json({4, 4, 8}));
  const Json t4 = plan_mesh("tpu-v5p", "llama-3-70b", {{"parallelism", {{"tensor", 4}}}});
  CHECK(t4["mesh"]["shape"] == Json({2, 2}));
  CHECK(t4["parallelism"] == Json({{"tensor", {"X", "Y"}}}));
  const Json one = plan_mesh("tpu-v5p", "llama-3-70b", Json::object());
  CHECK(one["mesh"]["shape"] == Json({1}));
  CHECK(one["parallelism"] == Json({{"data", {"X"}}}));
  // FSDP over the DCN axis too when it is the DCN strategy.
  const Json f =
      plan_mesh("tpu-v5p", "llama-3-70b", {{"parallelism", {{"fsdp", 16}}}, {"slices", 2}, {"dcn_strategy", "fsdp"}});
  CHECK(f["parallelism"]["fsdp"] == Json({"X", "Y", "DCN"}));
  struct Case {
    const char* hw;
    Json degrees;
  };
  for (const Case& c :
       {Case{"tpu-v5p", {{"fsdp", 256}, {"tensor", 16}}}, Case{"tpu-v5e", {{"fsdp", 16}, {"tensor", 16}}},
        Case{"tpu-v5p", {{"data", 2}, {"fsdp", 8}, {"tensor", 4}}}}) {
    const Json r = plan_mesh(c.hw, "llama-3-70b", {{"parallelism", c.degrees}});
    REQUIRE(r.contains("mesh"));
    std::vector<std::string> used;
    for (const auto& [k, axes] : r["parallelism"].items())
      for (const Json& a : axes) used.push_back(a.get<std::string>());
    std::sort(used.begin(), used.end());
    CHECK(std::adjacent_find(used.begin(), used.end()) == used.end());  // each axis once
    CHECK(used.size() == r["mesh"]["shape"].size());                    // every axis carries a strategy
    const Json slice =
        run_json({{"hardware", {{"preset", c.hw}}}, {"mesh", r["mesh"]}, {"query", {{"kind", "topology"}}}});
    CHECK(slice["ok"] == true);  // the slice fits the pod
  }
}

TEST_CASE("plan_mesh: degrees whole axes cannot hold are laid out by the engine, or say why not", "[plan_mesh]") {
  // PP 35 x TP 32 x FSDP 4 (4480 chips) fits no whole-axis split of v5p's 3 axes; every degree takes a factor of
  // each axis of 20x16x14, and training_step lays them out itself.
  const Json r =
      plan_mesh("tpu-v5p", "llama-3-70b", {{"parallelism", {{"fsdp", 4}, {"tensor", 32}, {"pipeline", 35}}}});
  CHECK(r["runs"] == true);
  CHECK(r["engine_layout"] == true);
  CHECK(r["parallelism"] == Json({{"fsdp", 4}, {"tensor", 32}, {"pipeline", 35}}));
  const Json step =
      run_as("training_step", "tpu-v5p", "llama-3-70b", r, {{"batch_tokens", 4587520}, {"seq_len", 4096}});
  CHECK(step["ok"] == true);
  // A serving replica takes whole axes only: TP 32 x EP 4 needs three axes of v5e's two.
  const Json serving =
      plan_mesh("tpu-v5e", "mixtral-8x7b", {{"mode", "serving"}, {"parallelism", {{"tensor", 32}, {"expert", 4}}}});
  CHECK(serving["runs"] == false);
  CHECK(serving["problems"][0]["code"] == "does_not_fit");
  CHECK_FALSE(serving.contains("mesh"));
  // Three strategies on v5e's 2D torus: whole axes cannot hold them, parts of the axes can (training).
  const Json three = plan_mesh("tpu-v5e", "llama-3-70b", {{"parallelism", {{"data", 2}, {"fsdp", 4}, {"tensor", 8}}}});
  CHECK(three["engine_layout"] == true);
  CHECK(three["mesh"]["shape"] == Json({8, 8}));
  CHECK(run_as("training_step", "tpu-v5e", "llama-3-70b", three, kTrainingArgs)["ok"] == true);
  // More chips than the pod holds: no shape is searched, the answer names the largest slice.
  const Json big = plan_mesh("tpu-v5e", "llama-3-70b", {{"parallelism", {{"fsdp", 256}, {"tensor", 8}}}});
  CHECK(big["problems"][0]["code"] == "slice_too_large");
  CHECK(big["problems"][0]["message"].get<std::string>().find("largest 16x16") != std::string::npos);
}

TEST_CASE("plan_mesh on GPUs: one axis per strategy, tensor innermost (scaling-book/gpus, collectives)",
          "[plan_mesh]") {
  const Json r =
      plan_mesh("h100-sxm", "llama-3-70b", {{"parallelism", {{"fsdp", 32}, {"tensor", 8}, {"pipeline", 4}}}});
  CHECK(r["mesh"]["shape"] == Json({4, 32, 8}));
  CHECK(r["parallelism"] == Json({{"pipeline", {"X"}}, {"fsdp", {"Y"}}, {"tensor", {"Z"}}}));
  const Json slices = plan_mesh("h100-sxm", "llama-3-70b", {{"parallelism", {{"fsdp", 8}}}, {"slices", 2}});
  CHECK(slices["runs"] == false);
  CHECK(slices["problems"][0]["code"] == "not_applicable");
  // Every answer that runs is a plan training_step runs on the mesh it gives.
  for (const Json& p : {Json{{"fsdp", 64}}, Json{{"data", 2}, {"fsdp", 4}, {"tensor", 8}}, Json::object()}) {
    const Json layout = plan_mesh("h100-sxm", "llama-3-70b", {{"parallelism", p}});
    CHECK(run_as("training_step", "h100-sxm", "llama-3-70b", layout, kTrainingArgs)["ok"] == true);
  }
}

TEST_CASE("plan_mesh lists exactly the degrees the planners accept", "[plan_mesh]") {
  // Chapter 7's LLaMA-2 13B (40 heads, d_ff 13,824) splits 1, 2, 4 and 8 ways, not 5, 10 or 16.
  const Json r = plan_mesh("h100-sxm", "llama-2-13b", {{"list_degrees", {{"tensor", {{"up_to", 48}}}}}});
  CHECK(ints(r["valid_degrees"]["tensor"]) == std::vector<int>{1, 2, 4, 8});
  // For every degree up to 48 of every strategy the model decides, listed <=> training_step has no error at that
  // strategy's key (and, for TP and EP, serving likewise): one set of rules.
  struct Case {
    const char* model;
    const char* strategy;
  };
  for (const Case c :
       {Case{"llama-3-70b", "tensor"}, Case{"mixtral-8x7b", "tensor"}, Case{"mixtral-8x7b", "expert"},
        Case{"llama-3-8b", "pipeline"}, Case{"llama-3-8b", "context"}, Case{"qwen3-30b-a3b", "expert"}}) {
    for (const char* mode : {"training", "serving"}) {
      const bool serving = std::string(mode) == "serving";
      if (serving && (std::string(c.strategy) == "pipeline" || std::string(c.strategy) == "context")) continue;
      Json q{{"mode", mode}, {"list_degrees", {{c.strategy, {{"up_to", 48}}}}}};
      if (!serving) q.update({{"seq_len", 4080}});  // CP divides the sequence: 4080 = 2^4 x 3 x 5 x 17
      const std::vector<int> listed = ints(plan_mesh("h100-sxm", c.model, q)["valid_degrees"][c.strategy]);
      int runs = 0;
      for (int v = 1; v <= 48; ++v) {
        INFO(c.model << " " << c.strategy << " " << v << " " << mode);
        const Json layout{{"mesh", {{"shape", {v}}}}, {"parallelism", {{c.strategy, {"X"}}}}};
        const Json step = serving ? run_as("serving", "h100-sxm", c.model, layout,
                                           {{"batch", 1}, {"prompt_len", 1024}, {"generated_len", 16}})
                                  : run_as("training_step", "h100-sxm", c.model, layout,
                                           {{"batch_tokens", 4080 * 48 * 17}, {"seq_len", 4080}});
        const bool accepted = !error_at(step, std::string("/query/parallelism/") + c.strategy);
        const bool in_list = std::find(listed.begin(), listed.end(), v) != listed.end();
        CHECK(accepted == in_list);
        runs += in_list;
      }
      CHECK(runs >= 2);  // the comparison sees both answers
    }
  }
}

TEST_CASE("plan_mesh: a fixed chip count sets the balancing degree, or says why it cannot", "[plan_mesh]") {
  Json q{{"parallelism", {{"tensor", 8}, {"fsdp", 1}}},
         {"chips", 2048},
         {"list_degrees", {{"tensor", {{"up_to", 64}}}, {"fsdp", {{"up_to", 8192}, {"powers_of_two", true}}}}}};
  const Json r = plan_mesh("tpu-v5p", "llama-3-70b", q);
  CHECK(r["balancing"] == "fsdp");
  CHECK(r["degrees"]["fsdp"] == 256);
  CHECK(r["chips_multiple_of"] == 8);
  CHECK_FALSE(r["valid_degrees"].contains("fsdp"));  // derived from the count
  CHECK(ints(r["valid_degrees"]["tensor"]) == std::vector<int>{1, 2, 4, 8, 16, 32, 64});
  // 3 chips under TP 8: refused at the chips key; the degrees as given set the count.
  q["chips"] = 3;
  const Json three = plan_mesh("tpu-v5p", "llama-3-70b", q);
  CHECK(three["runs"] == false);
  CHECK(three["problems"][0]["path"] == "/query/chips");
  CHECK(three["nearest"]["chips"].is_null());
  // A serving replica's chips are its TP.
  const Json serving = plan_mesh("h100-sxm", "llama-3-70b", {{"mode", "serving"}, {"chips", 4}});
  CHECK(serving["balancing"] == "tensor");
  CHECK(serving["degrees"]["tensor"] == 4);
  // Issue 41 #11: 4,096 chips kept from training set a serving TP of 4,096, which 64 heads do not split into: the
  // count is refused at its key (the page then frees it), not applied.
  const Json typed =
      plan_mesh("h100-sxm", "llama-3-70b", {{"mode", "serving"}, {"chips", 4096}, {"parallelism", {{"tensor", 8}}}});
  CHECK(typed["runs"] == false);
  CHECK(typed["problems"][0]["path"] == "/query/chips");
  CHECK(typed["problems"][0]["message"] == "4096 chips set TP 4096, which the model does not split into");
  CHECK(typed["degrees"]["tensor"] == 8);
}

TEST_CASE("plan_mesh: the nearest runnable degrees and batch, each change with its reason", "[plan_mesh]") {
  // ?hw=tpu-v5e with the default degrees (issue 20): FSDP shrinks to 32, the 16x16 pod.
  const Json v5e = plan_mesh("tpu-v5e", "llama-3-70b", {{"parallelism", {{"fsdp", 256}, {"tensor", 8}}}});
  REQUIRE(v5e.contains("nearest"));
  CHECK(v5e["nearest"]["parallelism"]["fsdp"] == 32);
  CHECK(v5e["nearest"]["changes"][0]["path"] == "/query/parallelism/fsdp");
  // The hostile link of issue 20: 2^30 chips of degrees come back as the nearest the model and the pod hold.
  const Json hostile =
      plan_mesh("tpu-v5p", "llama-3-70b", {{"parallelism", {{"tensor", 512}, {"fsdp", 8192}, {"pipeline", 256}}}});
  const Json& n = hostile["nearest"]["parallelism"];
  CHECK(n["tensor"] == 64);    // the 64 heads
  CHECK(n["pipeline"] == 80);  // the 80 layers
  const Json after = plan_mesh("tpu-v5p", "llama-3-70b", {{"parallelism", n}});
  CHECK(after["runs"] == true);
  CHECK_FALSE(after.contains("nearest"));
  // A dense model has no experts to split; DualPipe needs an even stage count; 16M tokens is not whole sequences.
  const Json dense = plan_mesh("h100-sxm", "llama-3-8b",
                               {{"parallelism", {{"expert", 4}, {"pipeline", 3}, {"pipeline_schedule", "dualpipe"}}},
                                {"seq_len", 4096},
                                {"batch_tokens", 16000000}});
  CHECK(dense["nearest"]["parallelism"]["expert"] == 1);
  CHECK(dense["nearest"]["parallelism"]["pipeline"] == 4);  // 4/3 beats 3/2
  CHECK(dense["nearest"]["batch_tokens"] == 3906 * 4096);
  for (const Json& c : dense["nearest"]["changes"]) CHECK_FALSE(c["reason"].get<std::string>().empty());
}

TEST_CASE("plan_mesh: bad arguments are diagnostics at their paths", "[plan_mesh][api]") {
  const Json base{{"hardware", {{"preset", "tpu-v5p"}}}, {"model", {{"preset", "llama-3-70b"}}}};
  auto ask = [&](Json query) {
    query["kind"] = "plan_mesh";
    Json s = base;
    s["query"] = query;
    return run_json(s);
  };
  CHECK(error_at(ask({{"mode", "inference"}}), "/query/mode"));
  CHECK(error_at(ask({{"parallelism", {{"tensor", 0}}}}), "/query/parallelism/tensor"));
  CHECK(error_at(ask({{"parallelism", {{"tensor", 1e30}}}}), "/query/parallelism/tensor"));
  CHECK(error_at(ask({{"parallelism", {{"fsdp", 2.5}}}}), "/query/parallelism/fsdp"));
  CHECK(error_at(ask({{"mode", "serving"}, {"parallelism", {{"pipeline", 2}}}}), "/query/parallelism/pipeline"));
  CHECK(error_at(ask({{"list_degrees", {{"tensor", {{"up_to", 1 << 20}}}}}}), "/query/list_degrees/tensor/up_to"));
  CHECK(error_at(ask({{"chips", -4}}), "/query/chips"));
  CHECK(error_at(ask({{"dcn_strategy", "tensor"}}), "/query/dcn_strategy"));
}

TEST_CASE("issue 39: a mesh the engine lays out is plan_mesh's, and the step on it the step on that mesh",
          "[plan_mesh]") {
  const Json lay_out = {{"parallelism", {{"fsdp", 1}, {"tensor", 4}}}, {"chips", 64}, {"seq_len", 4096}};
  const Json base = {{"hardware", {{"preset", "tpu-v5p"}}}, {"model", {{"preset", "llama-3-70b"}}}};
  Json plan = base;
  plan["query"] = lay_out;
  plan["query"]["kind"] = "plan_mesh";
  const Json laid = run_json(plan);
  REQUIRE(laid["ok"] == true);
  Json step = base;
  step["query"] = {
      {"kind", "training_step"}, {"batch_tokens", 1048576}, {"seq_len", 4096}, {"parallelism", {{"zero_stage", 1}}}};
  Json explicit_mesh = step;
  explicit_mesh["mesh"] = laid["result"]["mesh"];
  for (const auto& [strategy, axes] : laid["result"]["parallelism"].items())
    explicit_mesh["query"]["parallelism"][strategy] = axes;
  step["mesh"] = {{"lay_out", lay_out}};
  const Json one = run_json(step);
  const Json two = run_json(explicit_mesh);
  REQUIRE(one["ok"] == true);
  CHECK(one["result"] == two["result"]);
  CHECK(one["result"]["degrees"]["fsdp"] == 16);  // the fixed count's balancing degree

  // No mesh: plan_mesh's problems, said at the lay_out; its arguments' errors at their own paths under it.
  step["mesh"] = {{"lay_out", {{"parallelism", {{"fsdp", 5000}, {"tensor", 4000}}}}}};
  const Json none = run_json(step);
  CHECK(none["ok"] == false);
  CHECK(none["query"] == "training_step");
  CHECK(none["diagnostics"][0]["path"] == "/mesh/lay_out");
  CHECK(none["diagnostics"][0]["message"].get<std::string>().find("do not fit one TPU v5p slice") != std::string::npos);
  step["mesh"] = {{"lay_out", {{"parallelism", {{"tensor", "four"}}}}}};
  CHECK(run_json(step)["diagnostics"][0]["path"] == "/mesh/lay_out/parallelism/tensor");
  step["mesh"] = {{"lay_out", 4}};
  CHECK(run_json(step)["diagnostics"][0]["path"] == "/mesh/lay_out");
  step["mesh"] = {{"lay_out", {{"parallelism", {{"fsdp", 5000}, {"tensor", 4000}}}}}};
  step["query"]["kind"] = "steps";  // a wrong kind is said too, beside the mesh
  const Json wrong = run_json(step);
  CHECK(!wrong.contains("query"));
  CHECK(wrong["diagnostics"].back()["path"] == "/query/kind");
}
