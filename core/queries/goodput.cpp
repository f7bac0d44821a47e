// A training query's `goodput` settings and its result block (planners/goodput.h; issue 38).
#include "planners/goodput.h"

#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "io/format.h"
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
  std::vector<std::string> modes;
  for (CheckpointMode m : kCheckpointModes) modes.push_back(checkpoint_mode_name(m));
  if (const auto mode = r.choice("checkpoint", false, modes))
    for (CheckpointMode m : kCheckpointModes)
      if (*mode == checkpoint_mode_name(m)) s.checkpoint = m;
  r.finish();
  return ask;
}

namespace {

// A result object of numbers, written by one loop (a nested initializer list per block costs the wasm ~1 KB a key):
// infinity is not JSON, so a time the run never reaches is null.
using Number = std::pair<const char*, double>;
Json numbers(std::initializer_list<Number> fields) {
  Json out = Json::object();
  for (const auto& [key, value] : fields) out[key] = std::isfinite(value) ? Json(value) : Json(nullptr);
  return out;
}

// The run at 1/16 to 64 times its chips with a perfect step, for a chart of wall time against chips: where the
// failures eat what more chips save.
Json scaling_json(const GoodputPlan& plan, const GoodputSettings& s) {
  Json points = Json::array();
  for (double scale = 1.0 / 16; scale <= 64; scale *= 2) {
    const Goodput g = goodput_at_scale(plan, s, scale);
    points.push_back(numbers({{"chips", plan.chips * scale},
                              {"useful_time_s", plan.useful_time_s / scale},
                              {"wall_time_s", g.wall_time_s},
                              {"goodput_frac", g.goodput_frac}}));
  }
  return points;
}

std::string headline(const Goodput& g) {
  if (!g.finishes)
    return "the job never finishes: it fails every " + format_duration(g.job_mtbf_s) + ", checkpoints every " +
           format_duration(g.interval_s) + " and takes " + format_duration(g.restart_s) +
           " to restart, so less than 1% "
           "of its time trains; shrink the job, checkpoint in memory or restart faster";
  char goodput[16];
  std::snprintf(goodput, sizeof goodput, "%.1f%%", g.goodput_frac * 100);
  return "expected " + format_duration(g.wall_time_s) + " with " + format_count(std::round(g.interruptions)) +
         " interruptions, goodput " + goodput;
}

}  // namespace

Json goodput_json(const TrainingInput& in, const TrainingStep& step, const GoodputAsk& ask) {
  const GoodputSettings& s = ask.settings;
  const GoodputPlan plan = goodput_plan(in, step, model_state_bytes(in));
  const Goodput g = evaluate_goodput(plan, s);
  Json out = numbers({{"goodput_frac", g.goodput_frac},
                      {"wall_time_s", g.wall_time_s},
                      {"useful_time_s", plan.useful_time_s},
                      {"wall_usd", g.wall_usd},
                      {"spares_usd", g.spares_usd},
                      {"job_failures_per_hour", g.job_failures_per_hour},
                      {"job_mtbf_s", g.job_mtbf_s},
                      {"chips_at_shortest_wall_time", chips_at_shortest_wall_time(plan, s)}});
  out["finishes"] = g.finishes;
  out["interruptions"] = numbers({{"expected", g.interruptions},
                                  {"failures", g.failures},
                                  {"planned", g.planned_interruptions},
                                  {"low_95", g.interruptions_low_95},
                                  {"high_95", g.interruptions_high_95}});
  out["checkpoint"] = numbers({{"bytes_per_chip", plan.state_bytes_per_chip},
                               {"unique_bytes", plan.unique_state_bytes},
                               {"write_s", g.write_s},
                               {"snapshot_s", g.snapshot_s},
                               {"blocking_s", g.blocking_s},
                               {"young_interval_s", g.young_interval_s},
                               {"min_interval_s", g.min_interval_s},
                               {"interval_s", g.interval_s},
                               {"interval_steps", g.interval_steps}});
  out["checkpoint"]["mode"] = checkpoint_mode_name(s.checkpoint);
  out["restart"] = numbers({{"replace_s", s.replace_s},
                            {"startup_s", s.startup_s},
                            {"load_s", g.load_s},
                            {"restart_s", g.restart_s},
                            {"planned_restart_s", g.planned_restart_s},
                            {"lost_work_per_failure_s", g.lost_work_per_failure_s}});
  out["lost_time_s"] =
      numbers({{"checkpoints", g.checkpoint_stall_s}, {"restarts", g.restart_time_s}, {"lost_work", g.lost_work_s}});
  out["scaling"] = scaling_json(plan, s);
  out["settings"] = numbers({{"failures_per_chip_hour", s.failures_per_chip_hour},
                             {"failures_per_host_hour", s.failures_per_host_hour},
                             {"chips_per_host", s.chips_per_host},
                             {"planned_interruptions_per_day", s.planned_interruptions_per_day},
                             {"storage_bytes_per_s_per_chip", s.storage_bytes_per_s_per_chip},
                             {"spare_chips", s.spare_chips}});
  Json sources = Json::object();
  for (const auto& [key, source] : goodput_default_sources(*in.hw)) sources[key] = source;
  out["sources"] = sources;
  out["text"] = headline(g);
  return out;
}

}  // namespace scalescope
