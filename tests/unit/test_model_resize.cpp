// A model's `resize` (docs/api.md "Re-shaping a model"): the explorer's model sliders as an engine rule, so that the
// CLI, Python and the page make the same model of the same words (issue 39).
#include <catch2/catch.hpp>
#include <string>

#include "api.h"

using Catch::Matchers::WithinRel;
using nlohmann::json;

namespace {

json answer_of(const std::string& model) {
  return json::parse(scalescope::evaluate_json(R"({"model": )" + model + R"(, "query": {"kind": "transformer"}})"));
}

json transformer_of(const std::string& model) {
  const json out = answer_of(model);
  INFO(out["diagnostics"].dump());
  REQUIRE(out["ok"] == true);
  return out["result"];
}

}  // namespace

TEST_CASE("resize.params_factor scales the parameters about so, layers and width each by its cube root",
          "[model_resize]") {
  const json base = transformer_of(R"({"preset": "llama-3-70b"})");
  for (const double factor : {0.125, 0.5, 2.0, 8.0}) {
    INFO("factor " << factor);
    const json r = transformer_of(R"({"preset": "llama-3-70b", "overrides": {"resize": {"params_factor": )" +
                                  std::to_string(factor) + "}}}");
    const json& m = r["model"];
    // Params ~ L D^2 plus the embeddings, which grow with D alone: within 15% of the factor at every size here.
    CHECK_THAT(r["params"]["total"].get<double>() / base["params"]["total"].get<double>(), WithinRel(factor, 0.15));
    CHECK(m["d_model"].get<int>() % 128 == 0);
    CHECK(m["d_ff"].get<int>() % 128 == 0);
    CHECK(m["heads"].get<int>() / m["kv_heads"].get<int>() == 8);  // the query heads per KV head stay
    CHECK(m["head_dim"] == 128);
    CHECK_THAT(m["layers"].get<double>() / 80, WithinRel(std::cbrt(factor), 0.05));
    CHECK(!m.contains("resize"));
  }
}

TEST_CASE("resize.d_model carries the MLP widths with it; an override of d_model alone keeps them", "[model_resize]") {
  const json moved = transformer_of(R"({"preset": "qwen3-30b-a3b", "overrides": {"resize": {"d_model": 4096}}})");
  const json base = transformer_of(R"({"preset": "qwen3-30b-a3b"})")["model"];
  const double ratio = 4096.0 / base["d_model"].get<double>();
  for (const char* key : {"d_ff", "expert_d_ff"}) {
    INFO(key);
    CHECK(moved["model"][key].get<int>() % 64 == 0);
    CHECK_THAT(moved["model"][key].get<double>(), WithinRel(base[key].get<double>() * ratio, 32.0 / 1024));
  }
  const json raw = transformer_of(R"({"preset": "qwen3-30b-a3b", "overrides": {"d_model": 4096}})")["model"];
  CHECK(raw["d_ff"] == base["d_ff"]);
  CHECK(raw["expert_d_ff"] == base["expert_d_ff"]);
}

TEST_CASE("resize.ff_ratio sets d_ff from D and moves the experts' width in proportion", "[model_resize]") {
  const json m = transformer_of(
      R"({"preset": "mixtral-8x7b", "overrides": {"resize": {"d_model": 2048, "ff_ratio": 2.5}}})")["model"];
  CHECK(m["d_model"] == 2048);
  CHECK(m["d_ff"] == 5120);
  const json base = transformer_of(R"({"preset": "mixtral-8x7b"})")["model"];
  CHECK_THAT(m["expert_d_ff"].get<double>(),
             WithinRel(base["expert_d_ff"].get<double>() * 5120 / base["d_ff"].get<double>(), 1e-3));
}

TEST_CASE("resize on latent attention scales the heads and keeps the latent ranks (DeepSeek-V3)", "[model_resize]") {
  const json base = transformer_of(R"({"preset": "deepseek-v3"})")["model"];
  const json m =
      transformer_of(R"({"preset": "deepseek-v3", "overrides": {"resize": {"params_factor": 0.125}}})")["model"];
  CHECK(m["mla"] == base["mla"]);
  CHECK(m["heads"].get<int>() % 8 == 0);  // in eights, as latent-attention models have them (TP 8 splits them)
  CHECK_THAT(m["heads"].get<double>() / base["heads"].get<double>(),
             WithinRel(m["d_model"].get<double>() / base["d_model"].get<double>(), 0.02));
}

TEST_CASE("resize on an inline model, and its errors named by path", "[model_resize]") {
  const json preset = transformer_of(R"({"preset": "llama-3-8b"})");
  json inline_model = preset["model"];
  inline_model["resize"] = {{"params_factor", 4}};
  const json resized = transformer_of(inline_model.dump());
  const json from_preset = transformer_of(R"({"preset": "llama-3-8b", "overrides": {"resize": {"params_factor": 4}}})");
  CHECK(resized["params"] == from_preset["params"]);

  const json bad = answer_of(R"({"preset": "llama-3-8b", "overrides": {"resize": {"params_factor": 0, "width": 2}}})");
  REQUIRE(bad["ok"] == false);
  std::string paths;
  for (const json& d : bad["diagnostics"]) paths += d["path"].get<std::string>() + " ";
  CHECK(paths.find("/model/overrides/resize/params_factor") != std::string::npos);
  CHECK(paths.find("/model/overrides/resize/width") != std::string::npos);
  CHECK(answer_of(R"({"preset": "llama-3-8b", "overrides": {"resize": [1]}})")["ok"] == false);
}
