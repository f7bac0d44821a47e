#include <catch2/catch.hpp>

#include "planners/plan_search.h"
#include "test_helpers.h"

using namespace scalescope;

TEST_CASE("plan search ranks valid fitting plans by step time", "[search]") {
  const Hardware v5p = test::hardware("tpu-v5p");
  const ModelConfig llama = test::model("llama-3-70b");
  const Mesh mesh = test::mesh_of(v5p, Json{{"shape", {16, 16, 16}}});
  TrainingInput in;
  in.model = &llama;
  in.hw = &v5p;
  in.mesh = &mesh;
  in.batch_tokens = 4194304;
  in.seq_len = 4096;
  const PlanSearch s = search_training_plans(in, 5);
  CHECK(s.evaluated > 500);
  CHECK(s.valid < s.evaluated);  // e.g. 16-way pipelines with too few sequences are skipped, not ranked
  REQUIRE(s.best.size() == 5);
  for (std::size_t i = 1; i < s.best.size(); ++i) CHECK(s.best[i - 1].step.step_s <= s.best[i].step.step_s);
  for (const auto& c : s.best) {
    CHECK(c.step.fits);
    Diagnostics d;
    TrainingInput check = in;
    check.plan = c.plan;
    check_training_plan(check, "", d);
    CHECK_FALSE(has_errors(d));
  }
  // 1,024 tokens per chip clears FSDP's 850 over three axes (spec §2.9.2): the best plan is compute-bound.
  CHECK(std::string(s.best.front().step.bound) == "compute");
}

TEST_CASE("GPU plan search keeps tensor parallelism inside the NVLink domain", "[search]") {
  const Hardware h100 = test::hardware("h100-sxm");
  const ModelConfig llama = test::model("llama-3-70b");
  const Mesh mesh = test::mesh_of(h100, Json{{"shape", {1024}}});
  TrainingInput in;
  in.model = &llama;
  in.hw = &h100;
  in.mesh = &mesh;
  in.batch_tokens = 4194304;
  in.seq_len = 4096;
  const PlanSearch s = search_training_plans(in, 10);
  REQUIRE_FALSE(s.best.empty());
  for (const auto& c : s.best) {
    CHECK(c.step.tensor <= 8);
    CHECK(c.mesh_shape.size() == 3);
    CHECK(c.step.chips == 1024);
  }
}
