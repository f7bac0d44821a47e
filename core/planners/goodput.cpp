#include "planners/goodput.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "physics/portable_math.h"

namespace scalescope {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMinGoodputFrac = 0.01;  // below it a job does not finish (Goodput::finishes)

// Llama 3 pre-training (Meta, "The Llama 3 Herd of Models", 2024): 16,384 H100s on 2,048 eight-GPU servers
// (§3.3.1), a 54-day snapshot with 419 unexpected and 47 planned interruptions (§3.3.4, Table 5), checkpoints on
// Tectonic at 2 TB/s sustained and 7 TB/s peak, bursts that saturate it (§3.3.1).
constexpr double kLlama3Gpus = 16384, kLlama3Days = 54;
constexpr double kLlama3Unexpected = 419, kLlama3Planned = 47;
constexpr double kLlama3StoragePeakBytesPerS = 7e12;
constexpr const char* kLlama3Rate =
    "Llama 3 paper §3.3.4: 419 unexpected interruptions in 54 days on 16,384 H100s, 1.97e-5 per GPU-hour";

// A chip family's failure rate where a fleet study gives one.
struct FamilyRate {
  const char* hardware_id;
  double failures_per_chip_hour;
  const char* source;
};
constexpr FamilyRate kFamilyRates[] = {
    // Kokolis et al., "Revisiting Reliability in Large-Scale Machine Learning Research Clusters" (HPCA 2025):
    // 150 million A100 hours over 11 months; the fitted model puts the mean time to failure of a 16,384-GPU job
    // at 1.8 hours.
    {"a100-80gb", 1.0 / (1.8 * 16384),
     "Kokolis et al. (HPCA 2025): a 16,384-A100 job fails every 1.8 hours, 3.4e-5 per GPU-hour"},
};

const FamilyRate* family_rate(const Hardware& hw) {
  for (const FamilyRate& f : kFamilyRates)
    if (hw.id == f.hardware_id) return &f;
  return nullptr;
}

double chips_per_host_of(const Hardware& hw) {
  if (hw.kind == ChipKind::gpu) return 8;
  double chips = 1;
  for (int n : hw.ici.host_shape)
    if (n > 0) chips *= n;
  return chips;
}

// The expected wall time per unit of useful time (Daly 2006, eq. 13, exponential failures of mean `mtbf_s`):
// M e^(R/M) (e^((t + d)/M) - 1) / t for an interval t, a blocking save d and a restart R.
double wall_per_useful(double mtbf_s, double interval_s, double blocking_s, double restart_s) {
  if (!std::isfinite(mtbf_s)) return 1 + blocking_s / interval_s;
  return mtbf_s * portable_exp(restart_s / mtbf_s) * portable_expm1((interval_s + blocking_s) / mtbf_s) / interval_s;
}

// Moving `bytes` at `bytes_per_s`: nothing to move takes no time, a link that is not there forever.
double transfer_s(double bytes, double bytes_per_s) {
  if (bytes <= 0) return 0;
  return bytes_per_s > 0 ? bytes / bytes_per_s : kInf;
}

}  // namespace

const char* checkpoint_mode_name(CheckpointMode mode) {
  switch (mode) {
    case CheckpointMode::blocking:
      return "blocking";
    case CheckpointMode::async:
      return "async";
    case CheckpointMode::in_memory:
      return "in_memory";
  }
  return "async";
}

GoodputSettings goodput_defaults(const Hardware& hw) {
  GoodputSettings s;
  const FamilyRate* family = family_rate(hw);
  s.failures_per_chip_hour =
      family ? family->failures_per_chip_hour : kLlama3Unexpected / (kLlama3Days * 24 * kLlama3Gpus);
  s.chips_per_host = chips_per_host_of(hw);
  s.planned_interruptions_per_day = kLlama3Planned / kLlama3Days;
  s.storage_bytes_per_s_per_chip = kLlama3StoragePeakBytesPerS / kLlama3Gpus;
  s.replace_s = 300;
  s.startup_s = 30;
  return s;
}

std::vector<std::pair<const char*, const char*>> goodput_default_sources(const Hardware& hw) {
  const FamilyRate* family = family_rate(hw);
  const char* rate = family ? family->source
                     : hw.kind == ChipKind::gpu
                         ? kLlama3Rate
                         : "no public TPU rate: the H100's (Llama 3 paper §3.3.4), 1.97e-5 per chip-hour";
  return {
      {"failures_per_chip_hour", rate},
      {"failures_per_host_hour", "0: the chip rate counts every cause"},
      {"chips_per_host", hw.kind == ChipKind::gpu ? "8, an HGX baseboard (a GB200 tray holds 4)" : "the preset's host"},
      {"planned_interruptions_per_day", "Llama 3 paper §3.3.4: 47 planned in 54 days"},
      {"checkpoint", "async: PyTorch DCP async_save, Orbax, Megatron-Core stall only for the copy to host"},
      {"storage_bytes_per_s_per_chip", "Llama 3 paper §3.3.1: Tectonic's 7 TB/s peak over 16,384 GPUs"},
      {"checkpoint_interval_s", "Young (1974): sqrt(2 x blocking save x MTBF)"},
      {"host_replace_s", "Crusoe AutoClusters (2025): a failed node replaced in under 5 minutes"},
      {"job_startup_s", "MegaScale (NSDI 2024): initialisation on 10,000+ GPUs under 30 s"},
      {"spare_chips", "0: failed hosts replaced from the cluster's pool"},
  };
}

double model_state_bytes(const TrainingInput& in) {
  const ModelConfig& m = *in.model;
  const ParamCounts params = count_params(m);
  const double mtp = m.mtp_layers > 0 ? std::min(in.mtp_layers, m.mtp_layers) / m.mtp_layers : 0.0;
  return (params.total + mtp * params.mtp) * checkpoint_bytes_per_param(in.precision);
}

GoodputPlan goodput_plan(const TrainingInput& in, const TrainingStep& step, double unique_state_bytes) {
  const Hardware& hw = *in.hw;
  GoodputPlan p;
  p.chips = step.chips;
  p.step_s = step.step_s;
  p.useful_time_s = step.train_time_s;
  p.usd_per_hour = step.usd_per_hour;
  p.state_bytes_per_chip = step.params_bytes + step.master_bytes + step.optimizer_bytes;
  p.unique_state_bytes = unique_state_bytes;
  p.host_link_bytes_per_s = hw.host_pcie_unidir_bytes_per_s;
  p.network_bytes_per_s =
      hw.kind == ChipKind::gpu ? hw.scale_out.nic_unidir_bytes_per_s_per_gpu : hw.dcn_unidir_bytes_per_s_per_chip;
  return p;
}

Goodput evaluate_goodput(const GoodputPlan& plan, const GoodputSettings& s) {
  Goodput g;
  const double hosts = std::ceil(plan.chips / std::max(1.0, s.chips_per_host));
  g.job_failures_per_hour = s.failures_per_chip_hour * plan.chips + s.failures_per_host_hour * hosts;
  g.job_mtbf_s = g.job_failures_per_hour > 0 ? 3600.0 / g.job_failures_per_hour : kInf;
  const double storage = s.storage_bytes_per_s_per_chip;
  g.write_s = transfer_s(plan.unique_state_bytes, storage * plan.chips);
  g.snapshot_s = transfer_s(plan.state_bytes_per_chip, plan.host_link_bytes_per_s);
  const double peer_s = transfer_s(plan.state_bytes_per_chip, plan.network_bytes_per_s);
  switch (s.checkpoint) {
    case CheckpointMode::blocking:
      g.blocking_s = g.write_s;
      g.min_interval_s = plan.step_s;
      break;
    case CheckpointMode::async:
      g.blocking_s = g.snapshot_s;
      g.min_interval_s = std::max(plan.step_s, g.write_s);
      break;
    case CheckpointMode::in_memory:
      g.blocking_s = g.snapshot_s;
      g.min_interval_s = std::max(plan.step_s, peer_s);
      break;
  }
  // Without failures there is nothing to save for: no checkpoint is due.
  g.young_interval_s = std::isfinite(g.job_mtbf_s) ? std::sqrt(2 * g.blocking_s * g.job_mtbf_s) : kInf;
  const double interval = s.interval_s > 0 ? s.interval_s : std::max(g.young_interval_s, g.min_interval_s);
  // Checkpoints fall between steps: a whole number of them.
  g.interval_steps = plan.step_s > 0 ? std::max(1.0, std::ceil(interval / plan.step_s - 1e-9)) : 1;
  g.interval_s = plan.step_s > 0 ? g.interval_steps * plan.step_s : interval;
  g.load_s = s.checkpoint == CheckpointMode::in_memory ? peer_s : transfer_s(plan.state_bytes_per_chip, storage);
  g.restart_s = s.replace_s + s.startup_s + g.load_s;
  g.planned_restart_s = s.startup_s + g.load_s;
  g.lost_work_per_failure_s = (g.interval_s + g.blocking_s) / 2;

  // Planned interruptions take their share of the wall time on top of the failures'.
  const double planned_share = s.planned_interruptions_per_day / 86400.0 * g.planned_restart_s;
  const double per_useful = wall_per_useful(g.job_mtbf_s, g.interval_s, g.blocking_s, g.restart_s);
  g.goodput_frac = std::isfinite(per_useful) && planned_share < 1 ? (1 - planned_share) / per_useful : 0;
  // Below 1% the run is not a plan but an exponential in the restart time over the MTBF (Daly's e^(R/M)): call it
  // what it is, and leave its times and counts unbounded.
  g.finishes = g.goodput_frac >= kMinGoodputFrac;
  if (!g.finishes) {
    g.goodput_frac = 0;
    g.wall_time_s = g.wall_usd = g.spares_usd = kInf;
    g.failures = g.planned_interruptions = g.interruptions = g.interruptions_low_95 = g.interruptions_high_95 = kInf;
    g.checkpoint_stall_s = g.restart_time_s = g.lost_work_s = kInf;
    return g;
  }
  if (plan.useful_time_s <= 0) return g;
  g.wall_time_s = plan.useful_time_s / g.goodput_frac;
  g.failures = g.wall_time_s / g.job_mtbf_s;
  g.planned_interruptions = g.wall_time_s * s.planned_interruptions_per_day / 86400.0;
  g.interruptions = g.failures + g.planned_interruptions;
  const double spread = 1.959964 * std::sqrt(g.interruptions);  // normal approximation to the Poisson count
  g.interruptions_low_95 = std::max(0.0, g.interruptions - spread);
  g.interruptions_high_95 = g.interruptions + spread;
  g.checkpoint_stall_s = plan.useful_time_s / g.interval_s * g.blocking_s;
  g.restart_time_s = g.failures * g.restart_s + g.planned_interruptions * g.planned_restart_s;
  g.lost_work_s = std::max(0.0, g.wall_time_s - plan.useful_time_s - g.checkpoint_stall_s - g.restart_time_s);
  const double chip_usd_per_s = plan.chips > 0 ? plan.usd_per_hour / plan.chips / 3600.0 : 0;
  g.spares_usd = g.wall_time_s * chip_usd_per_s * s.spare_chips;
  g.wall_usd = g.wall_time_s * chip_usd_per_s * plan.chips + g.spares_usd;
  return g;
}

Goodput goodput_at_scale(const GoodputPlan& plan, const GoodputSettings& settings, double scale) {
  GoodputPlan p = plan;
  p.chips = plan.chips * scale;
  p.step_s = plan.step_s / scale;
  p.useful_time_s = plan.useful_time_s / scale;
  p.usd_per_hour = plan.usd_per_hour * scale;
  p.state_bytes_per_chip = plan.state_bytes_per_chip / scale;
  return evaluate_goodput(p, settings);
}

double chips_at_shortest_wall_time(const GoodputPlan& plan, const GoodputSettings& settings) {
  // The wall time per unit of this plan's useful time, at `scale` times its chips.
  auto wall = [&](double scale) {
    const Goodput g = goodput_at_scale(plan, settings, scale);
    return g.goodput_frac > 0 ? 1 / (scale * g.goodput_frac) : kInf;
  };
  constexpr double kMaxScale = 1024;
  constexpr int kGrid = 80;  // log-spaced: 2^(10/80), 9% apart
  const double log_max = portable_log(kMaxScale);
  double best_scale = 1, best = wall(1);
  for (int i = 1; i <= kGrid; ++i) {
    const double scale = portable_exp(log_max * i / kGrid);
    const double w = wall(scale);
    if (w < best) best = w, best_scale = scale;
  }
  // Still falling at the search's end, or finishing at no size: no size to name.
  if (best_scale >= kMaxScale * 0.999 || !std::isfinite(best)) return kInf;
  // Golden-section refinement in log scale between the grid's neighbours of the best point.
  const double log_best = portable_log(best_scale);
  double lo = std::max(0.0, log_best - log_max / kGrid), hi = std::min(log_max, log_best + log_max / kGrid);
  for (int i = 0; i < 40; ++i) {
    const double a = hi - (hi - lo) * 0.6180339887, b = lo + (hi - lo) * 0.6180339887;
    if (wall(portable_exp(a)) < wall(portable_exp(b)))
      hi = b;
    else
      lo = a;
  }
  return std::round(plan.chips * portable_exp((lo + hi) / 2));  // a job size: whole chips
}

}  // namespace scalescope
