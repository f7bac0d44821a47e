// A training query's `goodput` settings and its result block (planners/goodput.h; issue 38).
#include <cmath>

#include "io/format.h"
#include "planners/goodput.h"
#include "queries/training_args.h"

namespace scalescope {

GoodputAsk read_goodput_settings(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  GoodputAsk ask;
  ask.settings = goodput_defaults(*ctx.hw);
  const Json* node = args.object("goodput", false);
  if (!node) return ask;
  ask.given = true;
  JsonReader r(*node, args.path_of("goodput"), d);
  GoodputSettings& s = ask.settings;
  auto number = [&](const char* key, double& into) { into = r.number(key, false).value_or(into); };
  number("failures_per_chip_hour", s.failures_per_chip_hour);
  number("failures_per_host_hour", s.failures_per_host_hour);
  number("chips_per_host", s.chips_per_host);
  number("planned_interruptions_per_day", s.planned_interruptions_per_day);
  number("storage_bytes_per_s_per_chip", s.storage_bytes_per_s_per_chip);
  number("checkpoint_interval_s", s.interval_s);
  number("host_replace_s", s.replace_s);
  number("job_startup_s", s.startup_s);
  number("spare_chips", s.spare_chips);
  const auto mode = r.choice("checkpoint", false, {"blocking", "async", "in_memory"}).value_or("async");
  s.checkpoint = mode == "blocking" ? CheckpointMode::blocking
                 : mode == "in_memory" ? CheckpointMode::in_memory
                                       : CheckpointMode::async;
  r.finish();
  return ask;
}

namespace {

// The run at 1/16 to 64 times its chips with a perfect step, for a chart of wall time against chips: where the
// failures eat what more chips save.
Json scaling_json(const GoodputPlan& plan, const GoodputSettings& s) {
  Json points = Json::array();
  for (double scale = 1.0 / 16; scale <= 64; scale *= 2) {
    const Goodput g = goodput_at_scale(plan, s, scale);
    points.push_back({{"chips", plan.chips * scale},
                      {"useful_time_s", plan.useful_time_s / scale},
                      {"wall_time_s", std::isfinite(g.wall_time_s) ? Json(g.wall_time_s) : Json(nullptr)},
                      {"goodput_frac", g.goodput_frac}});
  }
  return points;
}

}  // namespace

Json goodput_json(const TrainingInput& in, const TrainingStep& step, const GoodputAsk& ask) {
  const GoodputSettings& s = ask.settings;
  const GoodputPlan plan = goodput_plan(in, step, model_state_bytes(in));
  const Goodput g = evaluate_goodput(plan, s);
  // Infinity is not JSON: a run that never finishes says so and leaves the times out.
  auto finite = [](double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); };
  Json sources = Json::object();
  for (const auto& [key, source] : goodput_default_sources(*in.hw)) sources[key] = source;
  Json out{
      {"goodput_frac", g.goodput_frac},
      {"finishes", g.finishes},
      {"wall_time_s", finite(g.wall_time_s)},
      {"useful_time_s", plan.useful_time_s},
      {"wall_usd", finite(g.wall_usd)},
      {"spares_usd", finite(g.spares_usd)},
      {"job_failures_per_hour", g.job_failures_per_hour},
      {"job_mtbf_s", finite(g.job_mtbf_s)},
      {"interruptions", {{"expected", g.interruptions}, {"failures", g.failures}, {"planned", g.planned_interruptions},
                         {"low_95", g.interruptions_low_95}, {"high_95", g.interruptions_high_95}}},
      {"checkpoint", {{"mode", checkpoint_mode_name(s.checkpoint)}, {"bytes_per_chip", plan.state_bytes_per_chip},
                      {"unique_bytes", plan.unique_state_bytes}, {"write_s", finite(g.write_s)},
                      {"snapshot_s", finite(g.snapshot_s)}, {"blocking_s", finite(g.blocking_s)},
                      {"young_interval_s", finite(g.young_interval_s)}, {"min_interval_s", finite(g.min_interval_s)},
                      {"interval_s", finite(g.interval_s)}, {"interval_steps", finite(g.interval_steps)}}},
      {"restart", {{"replace_s", s.replace_s}, {"startup_s", s.startup_s}, {"load_s", finite(g.load_s)},
                   {"restart_s", finite(g.restart_s)}, {"planned_restart_s", finite(g.planned_restart_s)},
                   {"lost_work_per_failure_s", finite(g.lost_work_per_failure_s)}}},
      {"lost_time_s", {{"checkpoints", g.checkpoint_stall_s}, {"restarts", g.restart_time_s},
                       {"lost_work", g.lost_work_s}}},
      {"chips_at_shortest_wall_time", finite(chips_at_shortest_wall_time(plan, s))},
      {"scaling", scaling_json(plan, s)},
      {"settings", {{"failures_per_chip_hour", s.failures_per_chip_hour},
                    {"failures_per_host_hour", s.failures_per_host_hour},
                    {"chips_per_host", s.chips_per_host},
                    {"planned_interruptions_per_day", s.planned_interruptions_per_day},
                    {"storage_bytes_per_s_per_chip", s.storage_bytes_per_s_per_chip},
                    {"spare_chips", s.spare_chips}}},
      {"sources", sources}};
  if (!g.finishes)
    out["text"] = "the job never finishes: it fails every " + format_duration(g.job_mtbf_s) +
                  ", faster than it can save and restart (" + format_duration(g.restart_s) +
                  " a restart); shrink the job, checkpoint in memory or restart faster";
  else
    out["text"] = "expected " + format_duration(g.wall_time_s) + " with " + format_count(std::round(g.interruptions)) +
                  " interruptions, goodput " + format_count(std::round(g.goodput_frac * 100)) + "%";
  return out;
}

}  // namespace scalescope
