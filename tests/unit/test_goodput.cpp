// Issue 38: goodput — failures, checkpoints and restarts in the time and the bill (planners/goodput.h).
#include <catch2/catch.hpp>
#include <cmath>

#include "planners/goodput.h"
#include "test_helpers.h"

using namespace scalescope;

namespace {

// Llama 3 405B pre-training as "The Llama 3 Herd of Models" (Meta, 2024) describes it: 16,384 H100s (§3.3.1) as
// TP 8 x PP 16 x DP 128 at 16M tokens of 8,192 (§3.3.2, Table 4), 15.6T tokens (§3.1.1).
Json llama3_405b(const Json& goodput = nullptr) {
  Json s = {
      {"version", 1},
      {"hardware", {{"preset", "h100-sxm"}}},
      {"model", {{"preset", "llama-3-405b"}}},
      {"mesh", {{"shape", {128, 16, 8}}, {"axis_names", {"DP", "PP", "TP"}}}},
      {"query",
       {{"kind", "training_step"},
        {"fidelity", "calibrated"},
        {"batch_tokens", 16777216},
        {"seq_len", 8192},
        {"train_tokens", 15.6e12},
        {"parallelism",
         {{"fsdp", {"DP"}},
          {"zero_stage", 1},
          {"pipeline", {"PP"}},
          {"tensor", {"TP"}},
          {"pipeline_schedule", "interleaved"},
          {"virtual_stages", 2},
          {"microbatches", 16}}},
        {"remat", "none"},
        {"precision",
         {{"params", "bf16"}, {"master_weights", "fp32"}, {"optimizer_states", "fp32"}, {"gradients", "fp32"}}}}}};
  if (!goodput.is_null()) s["query"]["goodput"] = goodput;
  return s;
}

// A plan with no checkpoint cost at all (instant snapshots, one-step interval): only restarts and failures.
GoodputPlan restart_only_plan(double chips) {
  GoodputPlan p;
  p.chips = chips;
  p.step_s = 1e-3;
  p.useful_time_s = 0;
  p.state_bytes_per_chip = 0;
  p.unique_state_bytes = 0;
  p.host_link_bytes_per_s = 1e12;
  p.network_bytes_per_s = 1e12;
  return p;
}

}  // namespace

TEST_CASE("Llama 3's 54-day snapshot: the interruption count and >90% effective training time (Llama 3 §3.3.4)") {
  // The engine's defaults for an H100 are the paper's rates: 419 unexpected and 47 planned interruptions in 54 days
  // on 16,384 GPUs. Over 54 days of wall time the expected count must fall within the Poisson 95% interval of the
  // 466 the paper counted; the effective training time it reports is "higher than 90%".
  const Json answer = test::run_json(llama3_405b());
  REQUIRE(answer["ok"] == true);
  const Json& g = answer["result"]["goodput"];
  const double days = 54, observed = 466;
  const double per_day = g["interruptions"]["expected"].get<double>() / (g["wall_time_s"].get<double>() / 86400);
  const double expected = per_day * days;
  CHECK(std::abs(expected - observed) <= 1.96 * std::sqrt(observed));
  CHECK(g["goodput_frac"].get<double>() > 0.90);
  CHECK(g["goodput_frac"].get<double>() < 1.0);
  // The wall time is the failure-free time over the goodput, and costs as much more.
  const Json& cost = answer["result"]["cost"];
  CHECK(g["wall_time_s"].get<double>() == Approx(cost["train_time_s"].get<double>() / g["goodput_frac"].get<double>()));
  CHECK(g["wall_usd"].get<double>() == Approx(cost["train_usd"].get<double>() / g["goodput_frac"].get<double>()));
  // Every default cites its source.
  for (const char* key : {"failures_per_chip_hour", "planned_interruptions_per_day", "storage_bytes_per_s_per_chip",
                          "host_replace_s", "job_startup_s", "checkpoint"})
    CHECK(g["sources"].contains(key));
}

TEST_CASE("Young's optimal interval is the closed form sqrt(2 x save x MTBF), and it minimises the wall time") {
  GoodputPlan plan = restart_only_plan(1000);
  plan.useful_time_s = 1e7;
  plan.unique_state_bytes = 1e12;  // 1 TB over 1,000 chips at 1 GB/s each: 1 s, which a blocking save stalls
  GoodputSettings s;
  s.failures_per_chip_hour = 1e-4;  // the job fails every 36,000 s / 1,000 = 36 s x 1,000 = 10 hours
  s.checkpoint = CheckpointMode::blocking;
  s.storage_bytes_per_s_per_chip = 1e9;
  s.replace_s = 300;
  const Goodput g = evaluate_goodput(plan, s);
  CHECK(g.job_mtbf_s == Approx(36000));
  CHECK(g.blocking_s == Approx(1.0));
  CHECK(g.young_interval_s == Approx(std::sqrt(2 * 1.0 * 36000)));
  CHECK(g.interval_s == Approx(g.young_interval_s).epsilon(1e-4));  // in whole 1 ms steps
  // Daly's wall time is flat near its minimum, and Young's interval sits on it: halving or doubling costs more.
  for (double factor : {0.5, 2.0}) {
    GoodputSettings other = s;
    other.interval_s = g.interval_s * factor;
    CHECK(evaluate_goodput(plan, other).wall_time_s > g.wall_time_s);
  }
}

TEST_CASE("goodput falls as chips grow at a fixed rate per chip; past 1/(restart x rate) adding chips stops paying") {
  // With free checkpoints the waste is the restarts: a perfectly scaling job of N chips takes T/N e^(R lambda N)
  // (Daly's wall time), shortest at N = 1 / (R lambda).
  GoodputSettings s;
  s.failures_per_chip_hour = 2e-5;
  s.replace_s = 300;
  s.startup_s = 60;
  double last = 1;
  for (double chips : {1024.0, 4096.0, 16384.0, 65536.0}) {
    const Goodput g = evaluate_goodput(restart_only_plan(chips), s);
    CHECK(g.goodput_frac < last);
    last = g.goodput_frac;
  }
  const double restart_s = 360, rate_per_s = 2e-5 / 3600;
  const double closed_form = 1 / (restart_s * rate_per_s);  // 500,000 chips
  CHECK(chips_at_shortest_wall_time(restart_only_plan(4096), s) == Approx(closed_form).epsilon(0.03));
}

TEST_CASE("a ZeRO-3 plan's checkpoint: every chip saves 1/64 of LLaMA-3 8B's 14 bytes a parameter") {
  // Hand count of LLaMA-3 8B (L 32, D 4096, F 14336, 32 heads, 8 KV heads of 128, V 128256, untied): attention
  // 32 x 2 x 4096 x 40 x 128, MLP 32 x 3 x 4096 x 14336, embeddings 2 x 128256 x 4096, norms 2 x 4096 x 32 + 4096.
  const double params =
      32.0 * 2 * 4096 * 40 * 128 + 32.0 * 3 * 4096 * 14336 + 2.0 * 128256 * 4096 + 2.0 * 4096 * 32 + 4096;
  REQUIRE(params == 8030261248.0);
  const Json scenario = {
      {"version", 1},
      {"hardware", {{"preset", "h100-sxm"}}},
      {"model", {{"preset", "llama-3-8b"}}},
      {"mesh", {{"shape", {64}}, {"axis_names", {"DP"}}}},
      {"query",
       {{"kind", "training_step"},
        {"fidelity", "book"},
        {"batch_tokens", 1048576},
        {"seq_len", 4096},
        {"train_tokens", 1e12},
        {"parallelism", {{"fsdp", {"DP"}}, {"zero_stage", 3}}},
        {"precision", {{"params", "bf16"}, {"master_weights", "fp32"}, {"optimizer_states", "fp32"}}},
        {"goodput", {{"storage_bytes_per_s_per_chip", 1e9}, {"host_replace_s", 120}, {"job_startup_s", 60}}}}}};
  const Json answer = test::run_json(scenario);
  REQUIRE(answer["ok"] == true);
  const Json& c = answer["result"]["goodput"]["checkpoint"];
  CHECK(c["bytes_per_chip"].get<double>() == Approx(params * (2 + 4 + 8) / 64));
  CHECK(c["unique_bytes"].get<double>() == Approx(params * (2 + 4 + 8)));
  // A restart reads each chip's shard back at its share of the storage bandwidth, after the replacement and start.
  const Json& r = answer["result"]["goodput"]["restart"];
  CHECK(r["load_s"].get<double>() == Approx(params * 14 / 64 / 1e9));
  CHECK(r["restart_s"].get<double>() == Approx(120 + 60 + params * 14 / 64 / 1e9));
  // An asynchronous save stalls the step only for the copy over PCIe (64 GB/s each way on an H100 SXM).
  CHECK(c["blocking_s"].get<double>() == Approx(params * 14 / 64 / 64e9));
}

TEST_CASE("the book's time to train leaves failures out and says so; asked, it gets the block") {
  Json scenario = llama3_405b();
  scenario["query"]["fidelity"] = "book";
  Json answer = test::run_json(scenario);
  REQUIRE(answer["ok"] == true);
  CHECK_FALSE(answer["result"].contains("goodput"));
  CHECK(answer["result"]["cost"]["note"].get<std::string>().find("assumes no failures") != std::string::npos);
  scenario["query"]["goodput"] = Json::object();
  answer = test::run_json(scenario);
  CHECK(answer["result"]["goodput"]["goodput_frac"].get<double>() > 0);
}

TEST_CASE("goodput settings: bad values name the field and the choices; a job that cannot keep up says so") {
  Json answer = test::run_json(llama3_405b({{"checkpoint", "sometimes"}, {"failures_per_chip_hour", -1}}));
  REQUIRE(answer["ok"] == false);
  bool choice = false, range = false;
  for (const Json& d : answer["diagnostics"]) {
    const std::string path = d["path"], message = d["message"];
    if (path == "/query/goodput/checkpoint" && message.find("in_memory") != std::string::npos) choice = true;
    if (path == "/query/goodput/failures_per_chip_hour") range = true;
  }
  CHECK(choice);
  CHECK(range);
  // One failure a chip-hour on 16,384 chips: the job fails every 0.22 s and never finishes.
  answer = test::run_json(llama3_405b({{"failures_per_chip_hour", 1}}));
  REQUIRE(answer["ok"] == true);
  const Json& g = answer["result"]["goodput"];
  CHECK(g["finishes"] == false);
  CHECK(g["wall_time_s"].is_null());
  CHECK(g["text"].get<std::string>().find("never finishes") != std::string::npos);
}

TEST_CASE("hot spares are paid for; in-memory checkpoints restart from a peer's memory") {
  GoodputPlan plan = restart_only_plan(1024);
  plan.useful_time_s = 86400;
  plan.usd_per_hour = 1024 * 2.0;
  plan.state_bytes_per_chip = 1e10;
  plan.unique_state_bytes = 1e12;
  plan.network_bytes_per_s = 5e10;
  GoodputSettings s;
  s.failures_per_chip_hour = 2e-5;
  s.storage_bytes_per_s_per_chip = 1e8;
  s.spare_chips = 16;
  s.checkpoint = CheckpointMode::in_memory;
  const Goodput g = evaluate_goodput(plan, s);
  CHECK(g.spares_usd == Approx(g.wall_time_s / 3600 * 2.0 * 16));
  CHECK(g.wall_usd == Approx(g.wall_time_s / 3600 * 2.0 * (1024 + 16)));
  CHECK(g.load_s == Approx(1e10 / 5e10));  // from a peer over the network, not 100 s from storage
  s.checkpoint = CheckpointMode::async;
  CHECK(evaluate_goodput(plan, s).load_s == Approx(100));
}

TEST_CASE("plan_search ranks by the expected wall time when asked, and every row carries its goodput") {
  // Slow storage (1 MB/s a chip) and frequent failures make a restart's checkpoint load the cost: plans whose chips
  // hold less state (the optimizer sharded, ZeRO-3) restart faster, and the wall-time ranking prefers them.
  Json scenario = {{"version", 1},
                   {"hardware", {{"preset", "h100-sxm"}}},
                   {"model", {{"preset", "llama-3-8b"}}},
                   {"mesh", {{"shape", {8, 8}}, {"axis_names", {"node", "gpu"}}}},
                   {"query",
                    {{"kind", "plan_search"},
                     {"batch_tokens", 1048576},
                     {"seq_len", 4096},
                     {"train_tokens", 1e12},
                     {"keep", 5},
                     {"goodput", {{"storage_bytes_per_s_per_chip", 1e6}, {"failures_per_chip_hour", 1e-3}}}}}};
  scenario["query"]["objective"] = "step_time";
  const Json by_step = test::run_json(scenario);
  scenario["query"]["objective"] = "wall_time";
  const Json by_wall = test::run_json(scenario);
  REQUIRE(by_step["ok"] == true);
  REQUIRE(by_wall["ok"] == true);
  const Json& wall_plans = by_wall["result"]["plans"];
  REQUIRE(wall_plans.size() == 5);
  for (std::size_t i = 1; i < wall_plans.size(); ++i)
    CHECK(wall_plans[i]["wall_time_s"].get<double>() >= wall_plans[i - 1]["wall_time_s"].get<double>());
  // The step-time ranking keeps plans that lose a third of their time to restarts; the wall-time one does not.
  double worst_by_step = 1, worst_by_wall = 1;
  for (const Json& p : by_step["result"]["plans"])
    worst_by_step = std::min(worst_by_step, p["goodput_frac"].get<double>());
  for (const Json& p : wall_plans) worst_by_wall = std::min(worst_by_wall, p["goodput_frac"].get<double>());
  CHECK(worst_by_step < 0.7);
  CHECK(worst_by_wall > 0.9);
  CHECK(wall_plans[0]["wall_time_s"].get<double>() <= by_step["result"]["plans"][0]["wall_time_s"].get<double>());
}

TEST_CASE("the summary's training headline carries the expected wall time beside the failure-free one") {
  const Json answer = test::run_json({{"version", 1},
                                      {"hardware", {{"preset", "tpu-v5p"}}},
                                      {"model", {{"preset", "llama-3-70b"}}},
                                      {"mesh", {{"shape", {16, 16, 16}}, {"axis_names", {"X", "Y", "Z"}}}},
                                      {"query", {{"kind", "summary"}}}});
  REQUIRE(answer["ok"] == true);
  const Json& t = answer["result"]["training_step"];
  const double frac = t["goodput"]["goodput_frac"].get<double>();
  CHECK(frac > 0.5);
  CHECK(frac < 1);
  CHECK(t["goodput"]["wall_time_s"].get<double>() == Approx(t["cost"]["train_time_s"].get<double>() / frac));
}

TEST_CASE("a second production report: ByteRobust's 97% effective training time on 9,600 GPUs (SOSP 2025)") {
  // "Robust LLM Training Infrastructure at ByteDance" (Wan et al., arXiv 2509.16293): 97% ETTR over a three-month
  // job on 9,600 GPUs. The paper does not give the model; at this scale the goodput is set by the restarts, not the
  // checkpoints, so a 1 GB-a-GPU state and a 10 s step stand in. With the engine's H100 defaults the estimate must
  // land within two points of the report.
  const Hardware hw = test::hardware("h800");
  GoodputPlan plan;
  plan.chips = 9600;
  plan.step_s = 10;
  plan.useful_time_s = 90 * 86400.0;
  plan.state_bytes_per_chip = 1e9;
  plan.unique_state_bytes = 1e9 * 9600 / 8;
  plan.host_link_bytes_per_s = hw.host_pcie_unidir_bytes_per_s;
  plan.network_bytes_per_s = hw.scale_out.nic_unidir_bytes_per_s_per_gpu;
  const Goodput g = evaluate_goodput(plan, goodput_defaults(hw));
  CHECK(g.goodput_frac == Approx(0.97).margin(0.02));
}

TEST_CASE("goodput's scaling points: the useful time halves with every doubling, the goodput only falls") {
  const Json answer = test::run_json(llama3_405b());
  REQUIRE(answer["ok"] == true);
  const Json& points = answer["result"]["goodput"]["scaling"];
  REQUIRE(points.size() == 11);  // 1/16 to 64 times the 16,384 chips
  CHECK(points[4]["chips"].get<double>() == 16384);
  CHECK(points[4]["wall_time_s"].get<double>() == Approx(answer["result"]["goodput"]["wall_time_s"].get<double>()));
  for (std::size_t i = 1; i < points.size(); ++i) {
    CHECK(points[i]["useful_time_s"].get<double>() == Approx(points[i - 1]["useful_time_s"].get<double>() / 2));
    CHECK(points[i]["goodput_frac"].get<double>() < points[i - 1]["goodput_frac"].get<double>());
  }
}
