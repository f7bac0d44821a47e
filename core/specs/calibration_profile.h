// A calibration profile: the few measured constants with which the calibrated fidelity turns the book's peaks into
// what a chip family achieves (docs/design.md "Fidelity and calibration": data with provenance, never constants hidden
// in code). Profiles are JSON files in calibration_profiles/, embedded at build time like the presets; each names
// the runs it was fitted on, its residuals and the error band the validation suite measured out of sample.
#pragma once
#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/diagnostics.h"
#include "io/json_reader.h"
#include "specs/hardware.h"
#include "specs/kernel_models.h"
#include "specs/matmul_tiling.h"

namespace scalescope {

// How a band's runs were kept out of the fit: runs marked held (a chip's siblings of its fit runs); every chip of
// the kind held out whole in turn (a family's transfer band); or, for a chip with no held run, each of its fit
// runs left out in turn (a team's own few runs).
enum class BandMethod { held, chip_held_out, left_out_in_turn };

// Out-of-sample error of the calibrated model for one chip kind and task (|predicted / measured - 1|).
struct ErrorBand {
  std::string task;  // "training" or "serving"
  double runs = 0;   // held-out runs it was measured on
  double median_frac = 0, p90_frac = 0, max_frac = 0;
  double signed_median_frac = 0;  // below 0: optimistic
  BandMethod method = BandMethod::held;
};
const char* band_method_name(BandMethod method);
// A band measured by leaving each of a team's few runs out in turn is widened by this factor: the 90% upper
// confidence limit of a spread estimated from `runs` errors, sqrt((n - 1) / chi2_0.10(n - 1)) (1.94 for 5 runs,
// 1.32 for 16), so that fewer runs give a wider band. 1 for other methods and for 0 or 1 runs.
double small_sample_widening(const ErrorBand& band);

// Where one run or plan sits, in the terms a profile's fitted scope is kept in.
struct ScopePoint {
  double chips = 0;    // 0: not known
  double seq_len = 0;  // training: the sequence; serving: the KV context
  bool moe = false;
  double expert_degree = 1;  // the expert-parallel group (1: none)
  std::string matmul;        // training: the matmul precision ("bf16", "fp8", ...); serving: empty
  // GPU: a tensor- or expert-parallel group that spans more than one NVLink domain (its collectives or dispatch
  // cross the scale-out network: costed, but calibrated only where a fit run did the same).
  bool tensor_across_domains = false, expert_across_domains = false;
};

// The span of the runs a profile was fitted on for one task (issue 18: a band says where it holds). A plan inside
// it is an interpolation between fitted runs; outside it (more or fewer chips, another sequence length, another
// architecture or precision, a wider expert group) it is a transfer, and gets the transfer band.
struct FittedScope {
  std::string task;
  double min_chips = 0, max_chips = 0, min_seq_len = 0, max_seq_len = 0;
  bool dense = false, moe = false;
  double max_expert_degree = 1;
  bool tensor_across_domains = false, expert_across_domains = false;  // some fit run's group left its domain
  std::vector<std::string> matmul;                                    // training only

  void widen(const ScopePoint& p);  // the scope with `p` in it
  // What puts `p` outside, one phrase each ("2048 chips (fitted: 64 to 1536)"); empty: inside.
  std::vector<std::string> outside(const ScopePoint& p) const;
};

// "What if" factors on a profile's fitted efficiencies (issue 20: the page's efficiency sliders at the calibrated
// fidelity): every fitted FLOP rate, HBM bandwidth and link bandwidth times its factor, in (0, 1]; 1 is as fitted.
struct WhatIf {
  double flops_frac = 1, hbm_frac = 1, network_frac = 1;
  bool any() const { return flops_frac != 1 || hbm_frac != 1 || network_frac != 1; }
};

// Two levels (docs/design.md "Fidelity and calibration"): the chip's kernel models (every op's time from its shape,
// fitted to measured kernel tables, or for a chip without public tables to its runs), and the few end-to-end
// constants no kernel shows (host gaps, how much communication a framework hides, overheads per step).
struct CalibrationProfile {
  std::string id, name, kind;         // kind: "tpu" | "gpu"
  std::vector<std::string> hardware;  // preset ids this profile is for; empty: the family fallback for `kind`
  std::string source;                 // how it was made (the command, the run set)
  std::vector<std::string> fitted_on;
  MatmulTiling tiling;
  KernelModels kernels;
  // End-to-end parameters (profile_parameters() lists each with its meaning and range; calibration/priors their
  // priors), fitted on runs.
  double elementwise_traffic = 1, op_overhead_s = 0, sustained_clock_frac = 1;
  double slow_link_frac = 1, dcn_latency_s = 0, dcn_exposed_frac = 1;
  double overlap_frac = 1, tp_overlap_frac = 0, step_overhead_s = 0;
  double routing_traffic = 1, expert_overlap_frac = 0;
  double decode_op_overhead_s = 0, decode_step_overhead_s = 0;
  std::vector<ErrorBand> bands;
  std::vector<FittedScope> scopes;  // per task; empty in a profile written before scopes were kept
  WhatIf what_if;                   // the factors applied to the fitted constants above (not part of the file)

  bool is_family() const { return hardware.empty(); }
  bool lists(std::string_view hardware_id) const;  // a chip profile for this preset id
  const ErrorBand* band(std::string_view task) const;
  const FittedScope* scope(std::string_view task) const;
};

// `profile` with its efficiencies scaled by `what_if` (and the factors recorded, so the result can say so).
CalibrationProfile with_what_if(const CalibrationProfile& profile, const WhatIf& what_if);

// Which runs constrain a parameter, and whether each chip gets its own value or the family shares one.
enum class ParameterLevel { chip, family };
enum class ParameterTask { training, serving };

// A parameter the end-to-end fit can move. Most are end-to-end constants (`field`); the rest are kernel constants
// (`kernel_paths`, each of which it sets; the first is its value) that only a profile without kernel tables fits
// on runs: a TPU's, whose kernels no public table measures.
struct ProfileParameter {
  const char* key;                    // a key of the profile's "parameters", or the kernel path it is read from
  double CalibrationProfile::*field;  // nullptr: a kernel constant
  std::array<const char*, 10> kernel_paths;
  double lo, hi;  // physical range (validated, and the fit's bounds)
  ParameterLevel level;
  ParameterTask task;
  // An end-to-end constant that corrects the kernel tables' conditions (their clocks), so fitted only where tables
  // set the kernels: elsewhere the runs fit the kernel constants themselves, which absorb it.
  bool needs_kernel_tables = false;

  bool kernel() const { return field == nullptr; }
  double value(const CalibrationProfile& p) const;
  void set(CalibrationProfile& p, double v) const;
  // Whether the end-to-end fit may move it in `p`: an end-to-end constant (one that needs kernel tables, only where
  // they set the kernels); a kernel constant only where no table measured the chip's kernels.
  bool fitted_on_runs(const CalibrationProfile& p) const {
    const bool tables = p.kernels.source.from_tables();
    return kernel() ? !tables : !needs_kernel_tables || tables;
  }
  // Whether a refit with the literature priors sets it in `p` (to its prior, then fitted where the runs may fit it):
  // every end-to-end constant, and the kernel constants the runs fit. The others are the kernel tables' fits.
  bool set_by_refit(const CalibrationProfile& p) const { return !kernel() || fitted_on_runs(p); }
};

std::span<const ProfileParameter> profile_parameters();

// Reads and validates a profile (a file in calibration_profiles/, or a scenario's `calibration` override / a
// `calibrate` result passed back in). Every parameter is required and must lie in its range.
CalibrationProfile parse_calibration_profile(const Json& node, const std::string& path, Diagnostics& diagnostics);
Json calibration_profile_json(const CalibrationProfile& profile);

// The embedded profiles (generated from calibration_profiles/ by cmake/embed_presets.cmake), each parsed once.
struct ProfileText {
  const char* id;
  const char* json;
};
std::span<const ProfileText> calibration_profile_texts();
std::span<const CalibrationProfile> embedded_calibration_profiles();

// The profile for a chip: its own if one lists its preset id, else the family fallback for its kind (nullptr only
// if the build carries no profile for the kind).
const CalibrationProfile* calibration_profile_for(const Hardware& hw);
// The same rule over any set of profiles (a fit's, a query's): the one of `kind` that lists the chip, else the
// family profile of `kind`; nullptr when there is neither.
const CalibrationProfile* profile_for(std::span<const CalibrationProfile> profiles, std::string_view kind,
                                      std::string_view hardware_id);
// The embedded family fallback for a chip kind ("tpu" | "gpu"): its band is the transfer band, each chip held
// out whole in turn.
const CalibrationProfile* family_profile_for(std::string_view kind);

// Validates every embedded profile (schema, ranges, a family fallback for each chip kind).
Diagnostics validate_calibration_profiles();

}  // namespace scalescope
