// Issue 18 item 5, a team's own calibration: a handful of runs with no split gives a profile whose band is
// measured on those runs (each left out of the fit in turn) and widened for so few, so that fewer runs give a wider
// band; the profile names itself apart from the shipped ones; and a profile passed back on the wrong chip says so
// (another chip: the transfer band with the reason; the other chip kind: an error).
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "test_helpers.h"

using nlohmann::json;

namespace {

bool has(const json& out, const std::string& path, const std::string& code) {
  for (const auto& d : out["diagnostics"])
    if (d["path"] == path && d["code"] == code) return true;
  return false;
}

// examples/calibration/my-cluster-runs.json: five public H100 training runs (NeMo 24.07 FP8, MLPerf Training
// v4.0), as a team would write its own, without a split.
const json& my_runs() {
  static const json runs = [] {
    std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/examples/calibration/my-cluster-runs.json");
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str())["runs"];
  }();
  return runs;
}

json calibrate(const json& runs, const json& extra = json::object()) {
  json query = {{"kind", "calibrate"}, {"runs", runs}};
  query.update(extra);
  return scalescope::test::run_json({{"query", query}});
}

json profile_for(const json& out, const std::string& id) {
  for (const auto& p : out["result"]["profiles"])
    if (p["id"] == id) return p;
  return nullptr;
}

}  // namespace

TEST_CASE("a few runs of one's own: the band is theirs, each left out in turn, and wider for fewer",
          "[fidelity][issue18]") {
  REQUIRE(my_runs().size() == 5);
  const json five = calibrate(my_runs());
  INFO(five["diagnostics"].dump());
  REQUIRE(five["ok"] == true);
  const json chip = profile_for(five, "h100-sxm");
  REQUIRE(chip.is_object());
  const json& band = chip["error_bands"]["training"];
  CHECK(band["method"] == "left_out_in_turn");
  CHECK(band["runs"] == 5);
  // Only the kind with runs comes back: no TPU profile fitted on nothing.
  CHECK(profile_for(five, "tpu").is_null());
  CHECK(!profile_for(five, "gpu").is_null());

  json three_runs = json::array({my_runs()[0], my_runs()[1], my_runs()[2]});
  const json three = calibrate(three_runs);
  REQUIRE(three["ok"] == true);
  const json narrow = profile_for(three, "h100-sxm")["error_bands"]["training"];
  CHECK(narrow["runs"] == 3);
  // Three runs: widened by sqrt(2 / chi2_0.10(2)) = 3.08; five: sqrt(4 / chi2_0.10(4)) = 1.94.
  CHECK(narrow["median_frac"].get<double>() > band["median_frac"].get<double>());
  CHECK(narrow["p90_frac"].get<double>() > band["p90_frac"].get<double>());

  // Passed back, the result says where its band comes from.
  json scenario = my_runs()[1]["scenario"];
  scenario["query"]["calibration"] = chip;
  const json out = scalescope::test::run_json(scenario);
  REQUIRE(out["ok"] == true);
  const std::string text = out["result"]["calibration"]["error_band"]["text"];
  CHECK(
      text.find("over 5 GPU training runs of the h100-sxm profile, each left out of its fit in turn, widened 1.94x") !=
      std::string::npos);
  CHECK(out["result"]["calibration"]["error_band"]["scope"] == "fitted");
}

TEST_CASE("a team's profiles are named apart from the shipped ones", "[fidelity][issue18]") {
  const json out = calibrate(my_runs(), {{"profile_prefix", "my-cluster"}});
  REQUIRE(out["ok"] == true);
  const json chip = profile_for(out, "my-cluster-h100-sxm");
  REQUIRE(chip.is_object());
  CHECK(chip["name"].get<std::string>().rfind("my-cluster: ", 0) == 0);
  // Still the chip's (it is found by its hardware): the H100's, and the H800's, the same die with its NVLink cut.
  CHECK(chip["hardware"] == json::array({"h100-sxm", "h800"}));
  CHECK(has(calibrate(my_runs(), {{"profile_prefix", "My Cluster!"}}), "/query/profile_prefix", "wrong_type"));
}

TEST_CASE("a profile on the wrong chip: another chip is a transfer, the other kind an error", "[fidelity][issue18]") {
  const json chip = profile_for(calibrate(my_runs()), "h100-sxm");
  REQUIRE(chip.is_object());
  json h200 = my_runs()[1]["scenario"];
  h200["hardware"] = {{"preset", "h200"}};
  h200["query"]["calibration"] = chip;
  const json moved = scalescope::test::run_json(h200);
  INFO(moved["diagnostics"].dump());
  REQUIRE(moved["ok"] == true);
  const json& band = moved["result"]["calibration"]["error_band"];
  CHECK(band["scope"] == "transfer");
  CHECK(band["outside"][0].get<std::string>().find("(fitted: h100-sxm, h800)") != std::string::npos);
  CHECK(band["text"].get<std::string>().find("GPU family's transfer band") != std::string::npos);

  json tpu = {{"hardware", {{"preset", "tpu-v5p"}}},
              {"model", {{"preset", "llama-3-8b"}}},
              {"mesh", {{"shape", {4, 4, 4}}}},
              {"query",
               {{"kind", "training_step"},
                {"batch_tokens", 1048576},
                {"seq_len", 4096},
                {"parallelism", {{"fsdp", {"X", "Y", "Z"}}}},
                {"calibration", chip}}}};
  const json wrong = scalescope::test::run_json(tpu);
  CHECK(wrong["ok"] == false);
  CHECK(has(wrong, "/query/calibration/kind", "profile_kind_mismatch"));
}

TEST_CASE("issue 39: a calibrate result given whole, the engine chooses the chip's profile from it", "[fidelity]") {
  const json fit = calibrate(my_runs());
  REQUIRE(fit["ok"] == true);
  const json profiles = fit["result"]["profiles"];
  const auto profile = [&](const char* chip, const json& calibration) {
    return scalescope::test::run_json(
        {{"hardware", {{"preset", chip}}}, {"query", {{"kind", "profile"}, {"calibration", calibration}}}});
  };
  // Written ({"profiles": ...}) and answered ({"ok": ..., "result": {...}}) alike: the chip's own, else its family's.
  for (const json& given : {json{{"profiles", profiles}}, fit}) {
    const json own = profile("h100-sxm", given);
    REQUIRE(own["ok"] == true);
    CHECK(own["result"]["profile"] == profile_for(fit, "h100-sxm"));
    CHECK(own["result"]["family_fallback"] == false);
    CHECK(own["result"]["among"] == profiles.size());
  }
  const json other = profile("b200", fit);
  REQUIRE(other["ok"] == true);
  CHECK(other["result"]["family_fallback"] == true);
  CHECK(other["result"]["profile"]["hardware"].empty());
  const json tpu = profile("tpu-v5p", fit);
  CHECK(tpu["ok"] == false);
  CHECK(has(tpu, "/query/calibration", "no_profile"));

  // A calibrated query takes the result as the profile query chose from it.
  json step = my_runs()[1]["scenario"];
  step["query"]["calibration"] = fit;
  json chosen = step;
  chosen["query"]["calibration"] = profile_for(fit, "h100-sxm");
  CHECK(scalescope::test::run_json(step)["result"] == scalescope::test::run_json(chosen)["result"]);

  // No calibration: the shipped profile for the chip.
  const json shipped =
      scalescope::test::run_json({{"hardware", {{"preset", "h100-sxm"}}}, {"query", {{"kind", "profile"}}}});
  CHECK(shipped["result"]["shipped"] == true);
  CHECK(shipped["result"]["id"] == "h100-sxm");
}
