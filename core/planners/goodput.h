// Goodput: how long a training run takes on the wall clock once chips fail, checkpoints are saved and the job
// restarts (issue 38). The step's time says how long the useful work takes; this says what it costs to get it done
// at scale. The book leaves all of it out: its time to train is the failure-free time.
//
// The model (one job, every chip on its critical path, failures a Poisson process):
// - the job fails at the sum of its chips' and hosts' rates (Llama 3 §3.3.4: one GPU stops the synchronous job);
// - it saves a checkpoint every `interval`, which stalls the step for `blocking` seconds (the whole save when it
//   writes to storage in line; only the device-to-host snapshot when the save is asynchronous or in memory);
// - a failure loses the work since the last checkpoint and pays a restart: replacing the failed host, starting the
//   job and loading the checkpoint;
// - the expected wall time is Daly's (2006, "A higher order estimate of the optimum checkpoint interval for
//   restart dumps", eq. 13) for exponential failures: failures may strike during a restart or a save too;
// - the interval is given, or Young's optimum (1974, "A first order approximation to the optimum checkpoint
//   interval"): sqrt(2 x blocking x MTBF), no shorter than a step nor than the previous save's write;
// - planned interruptions (maintenance) checkpoint first, so they cost a restart without the replacement and lose
//   no work.
#pragma once
#include <utility>
#include <vector>

#include "planners/training.h"
#include "specs/hardware.h"

namespace scalescope {

enum class CheckpointMode {
  blocking,  // the step waits while the state is written to storage
  async,     // the step waits for a copy to host memory; the host writes it to storage in the background
  in_memory  // the copy to host memory is also sent to a peer host; a restart reads it back over the network
};
inline constexpr CheckpointMode kCheckpointModes[] = {CheckpointMode::blocking, CheckpointMode::async,
                                                      CheckpointMode::in_memory};
// The query's names ("blocking", "async", "in_memory"), in that order.
const char* checkpoint_mode_name(CheckpointMode mode);

// Every input the model takes, each overridable by a query; goodput_defaults() cites where each default comes from.
struct GoodputSettings {
  double failures_per_chip_hour = 0;
  double failures_per_host_hour = 0;
  double chips_per_host = 8;
  double planned_interruptions_per_day = 0;
  CheckpointMode checkpoint = CheckpointMode::async;
  double storage_bytes_per_s_per_chip = 0;  // each chip's share of the storage system's write (and read) bandwidth
  double interval_s = 0;                    // 0: Young's optimum
  double replace_s = 0;                     // detect the failure and swap in a healthy host
  double startup_s = 0;                     // relaunch the job: processes, communicators, data loaders
  double spare_chips = 0;                   // hot spares held for the job: paid for, never training
};

// The defaults for a chip, and the public source of each (key, citation), for a result to cite.
GoodputSettings goodput_defaults(const Hardware& hw);
std::vector<std::pair<const char*, const char*>> goodput_default_sources(const Hardware& hw);

// What a plan brings to the model: its size and step, its per-chip state and the links a checkpoint moves over.
struct GoodputPlan {
  double chips = 0;
  double step_s = 0;
  double useful_time_s = 0;          // the failure-free time to train (the step's train_time_s)
  double usd_per_hour = 0;           // the job's chips
  double state_bytes_per_chip = 0;   // what a chip saves: its parameters, master weights and optimizer state
  double unique_state_bytes = 0;     // the model's state once (replicas save one copy)
  double host_link_bytes_per_s = 0;  // device to host (PCIe, NVLink-C2C)
  double network_bytes_per_s = 0;    // a chip's scale-out (NIC / DCN) bandwidth, for an in-memory peer copy
};

struct Goodput {
  double job_failures_per_hour = 0, job_mtbf_s = 0;
  // checkpoints
  double write_s = 0;           // the whole state to storage at every chip's share of its bandwidth
  double snapshot_s = 0;        // a chip's state to host memory
  double blocking_s = 0;        // what one checkpoint stalls the step
  double young_interval_s = 0;  // sqrt(2 x blocking x MTBF)
  double min_interval_s = 0;    // a step, and the previous save's write (async) or peer copy (in memory)
  double interval_s = 0, interval_steps = 0;
  // a restart
  double load_s = 0, restart_s = 0, planned_restart_s = 0;
  double lost_work_per_failure_s = 0;  // half an interval and its checkpoint, on average
  // the run
  double wall_time_s = 0, goodput_frac = 0;
  double failures = 0, planned_interruptions = 0, interruptions = 0;
  double interruptions_low_95 = 0, interruptions_high_95 = 0;          // the Poisson 95% interval of the count
  double checkpoint_stall_s = 0, restart_time_s = 0, lost_work_s = 0;  // where the lost time goes
  double wall_usd = 0, spares_usd = 0;
  // false: failures come so much faster than the job can save and restart that less than 1% of its time trains
  // (the times, costs and counts are then infinite)
  bool finishes = true;
};

// A training step's plan as the goodput model sees it: its chips, step and time to train, the state each chip
// saves (after ZeRO's sharding) and the model's state once, and the chip's host and scale-out links.
// `unique_state_bytes`: model_state_bytes(in), which a search's plans share.
GoodputPlan goodput_plan(const TrainingInput& in, const TrainingStep& step, double unique_state_bytes);
// The model's state once, as a checkpoint saves it: every parameter (and the trained multi-token prediction
// modules') at checkpoint_bytes_per_param.
double model_state_bytes(const TrainingInput& in);

Goodput evaluate_goodput(const GoodputPlan& plan, const GoodputSettings& settings);

// The plan grown or shrunk `scale` times with a perfect step (useful time, step and each chip's state as 1 / scale)
// while failures grow with the chips: what the wall time would be at that size.
Goodput goodput_at_scale(const GoodputPlan& plan, const GoodputSettings& settings, double scale);

// Where adding chips stops paying: the chip count, from this plan's, that gives the shortest wall time if the step
// scaled perfectly (useful time and each chip's state as 1 / chips) while failures grow with the chips. Past it a
// larger job finishes later. Searched over [chips, 1024 x chips]; infinity when the wall time still falls at the end.
double chips_at_shortest_wall_time(const GoodputPlan& plan, const GoodputSettings& settings);

}  // namespace scalescope
