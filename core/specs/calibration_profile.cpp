#include "specs/calibration_profile.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "io/format.h"

namespace scalescope {

namespace {

using P = CalibrationProfile;
constexpr ParameterLevel kChip = ParameterLevel::chip, kFamily = ParameterLevel::family;
constexpr ParameterTask kTrain = ParameterTask::training, kServe = ParameterTask::serving;

constexpr std::array<const char*, 10> kNone{};

// The end-to-end constants: what no kernel shows. What each means, its physical range (the reader's and the fit's
// bounds), which runs fit it and at which level. Their priors, with sources, are data:
// calibration_profiles/priors/literature.json.
constexpr ProfileParameter kParameters[] = {
    // HBM traffic of the norms, activations, residuals and loss relative to one unfused pass each (the framework's
    // fusion).
    {"elementwise_traffic", &P::elementwise_traffic, kNone, 0.05, 5.0, kFamily, kTrain},
    // The matrix units' rate under a training step's sustained load relative to the kernel tables' (short runs at
    // boost clocks): between the chip's base and boost clocks.
    {"sustained_clock_frac", &P::sustained_clock_frac, kNone, 0.75, 1.0, kChip, kTrain, true},
    // Seconds of host launch and synchronisation gap per kernel of a training step, beyond the kernel's own floor.
    {"op_overhead_s", &P::op_overhead_s, kNone, 1e-8, 1e-4, kFamily, kTrain},
    // Fraction of the DCN / InfiniBand bandwidth that collectives achieve (no public table measures scale-out).
    {"slow_link_frac", &P::slow_link_frac, kNone, 0.2, 1.0, kFamily, kTrain},
    // Seconds of latency per step of a layer's gradient ring all-reduce across slices (2 (S - 1) steps for S).
    {"dcn_latency_s", &P::dcn_latency_s, kNone, 1e-6, 1e-2, kFamily, kTrain},
    // Fraction of the cross-slice gradient reduction left after the backward pass (scheduled once it ends).
    {"dcn_exposed_frac", &P::dcn_exposed_frac, kNone, 0.01, 1.0, kFamily, kTrain},
    // Fraction of the computation that can hide FSDP gathers, gradient reductions and DCN all-reduces.
    {"overlap_frac", &P::overlap_frac, kNone, 0.01, 1.0, kFamily, kTrain},
    // Fraction of a layer's matmuls that can hide its tensor-parallel, expert all-to-all and pipeline transfers.
    {"tp_overlap_frac", &P::tp_overlap_frac, kNone, 0.01, 1.0, kFamily, kTrain},
    // Seconds per step outside the layers (data loading, launch, logging, the optimizer's kernel launches).
    {"step_overhead_s", &P::step_overhead_s, kNone, 1e-3, 30.0, kFamily, kTrain},
    // HBM traffic of the MoE permutations (gathers and scatters of the token copies) relative to one pass each.
    {"routing_traffic", &P::routing_traffic, kNone, 0.1, 10.0, kFamily, kTrain},
    // Fraction of an MoE layer's compute that hides its dispatch and combine when the framework overlaps them.
    {"expert_overlap_frac", &P::expert_overlap_frac, kNone, 0.01, 1.0, kFamily, kTrain},
    // Seconds of host gap per op of a layer in a serving step, beyond the kernel's own floor (0 under CUDA graphs).
    {"decode_op_overhead_s", &P::decode_op_overhead_s, kNone, 1e-9, 1e-5, kFamily, kServe},
    // Seconds per decode step outside the layers (host dispatch, sampling, the scheduler).
    {"decode_step_overhead_s", &P::decode_step_overhead_s, kNone, 1e-6, 0.02, kFamily, kServe},
    // Kernel constants that runs fit where no table measured the chip (TPUs): each sets every kernel constant of
    // its kind (the bf16 GEMMs' ceiling, every memory-bound kernel's HBM rate, every collective's link share).
    // Kernels: fraction of the bf16 peak that large, well-tiled matmuls reach (clocks, power, kernel quality).
    {"gemm/bf16/ceiling_frac", nullptr, {"gemm/bf16/ceiling_frac"}, 0.2, 1.0, kChip, kTrain},
    // Kernels: fraction of the fp8 / int8 / fp4 peak that low-precision matmuls reach.
    {"gemm/fp8/ceiling_frac",
     nullptr,
     {"gemm/fp8/ceiling_frac", "gemm/fp8_block/ceiling_frac", "gemm/fp4/ceiling_frac"},
     0.2,
     1.0,
     kFamily,
     kTrain},
    // Kernels: FLOPs at which one matmul reaches half its ceiling.
    {"gemm/bf16/half_rate_flops",
     nullptr,
     {"gemm/bf16/half_rate_flops", "gemm/fp8/half_rate_flops", "gemm/fp8_block/half_rate_flops",
      "gemm/fp4/half_rate_flops", "moe/bf16/half_rate_flops", "moe/fp8/half_rate_flops",
      "moe/fp8_block/half_rate_flops", "moe/fp4/half_rate_flops"},
     1e6,
     1e12,
     kFamily,
     kTrain},
    // Kernels: fraction of the peak that the routed experts' grouped matmuls reach.
    {"moe/bf16/ceiling_frac",
     nullptr,
     {"moe/bf16/ceiling_frac", "moe/fp8/ceiling_frac", "moe/fp8_block/ceiling_frac", "moe/fp4/ceiling_frac"},
     0.2,
     1.0,
     kFamily,
     kTrain},
    // Kernels: fraction of the peak that the flash attention kernel's matmuls reach.
    {"prefill_attention/ceiling_frac",
     nullptr,
     {"prefill_attention/ceiling_frac", "prefill_attention/fp8_ceiling_frac"},
     0.1,
     1.0,
     kFamily,
     kTrain},
    // Kernels: fraction of the HBM bandwidth that memory-bound ops achieve.
    {"memory/stream_hbm_frac",
     nullptr,
     {"memory/stream_hbm_frac", "gemm/bf16/hbm_frac", "gemm/fp8/hbm_frac", "gemm/fp8_block/hbm_frac",
      "gemm/fp4/hbm_frac", "moe/bf16/hbm_frac", "moe/fp8/hbm_frac", "moe/fp8_block/hbm_frac", "moe/fp4/hbm_frac"},
     0.3,
     1.0,
     kChip,
     kTrain},
    // Kernels: fraction of the ICI / NVLink bandwidth that collectives achieve.
    {"collective/all_gather/link_frac",
     nullptr,
     {"collective/all_gather/link_frac", "collective/reduce_scatter/link_frac", "collective/all_reduce/link_frac",
      "collective/all_to_all/link_frac", "collective/custom_all_reduce/link_frac"},
     0.2,
     1.0,
     kFamily,
     kTrain},
    // Kernels: seconds of software latency per collective (ICI DMA descriptors) beyond its hops.
    {"collective/all_gather/latency_s",
     nullptr,
     {"collective/all_gather/latency_s", "collective/reduce_scatter/latency_s", "collective/all_reduce/latency_s",
      "collective/all_to_all/latency_s", "collective/custom_all_reduce/latency_s"},
     1e-7,
     1e-3,
     kFamily,
     kTrain},
    // Kernels: fraction of the HBM bandwidth decode attention reads KV caches at.
    {"decode_attention/hbm_frac",
     nullptr,
     {"decode_attention/hbm_frac", "decode_attention/fp8_kv_hbm_frac"},
     0.2,
     1.0,
     kChip,
     kServe},
};

void read_tiling(JsonReader& r, MatmulTiling& t, Diagnostics& d) {
  const Json* node = r.object("tiling", true);
  if (!node) return;
  JsonReader s(*node, r.path_of("tiling"), d);
  t.tile_m = s.number("tile_m", true).value_or(1);
  t.tile_n = s.number("tile_n", true).value_or(1);
  t.tile_k = s.number("tile_k", true).value_or(1);
  t.parallel_tiles = s.number("parallel_tiles", true).value_or(1);
  s.finish();
}

// `key`'s object of one object per task ("training", "serving"), each read by `read_task(reader, task)`.
template <class ReadTask>
void read_per_task(JsonReader& r, const char* key, bool required, Diagnostics& d, ReadTask read_task) {
  const Json* node = r.object(key, required);
  if (!node) return;
  JsonReader all(*node, r.path_of(key), d);
  for (const char* task : {"training", "serving"}) {
    if (const Json* b = all.object(task, false)) {
      JsonReader s(*b, all.path_of(task), d);
      read_task(s, task);
      s.finish();
    }
  }
  all.finish();
}

void read_bands(JsonReader& r, bool family, std::vector<ErrorBand>& bands, Diagnostics& d) {
  read_per_task(r, "error_bands", true, d, [&](JsonReader& s, const char* task) {
    ErrorBand band;
    band.task = task;
    // Optional: a profile written before it was kept measured a chip's band on held runs, a family's on chips.
    const auto method = s.choice("method", false, {"held", "chip_held_out", "left_out_in_turn"});
    band.method = method == "left_out_in_turn"                       ? BandMethod::left_out_in_turn
                  : method == "chip_held_out" || (!method && family) ? BandMethod::chip_held_out
                                                                     : BandMethod::held;
    band.runs = s.number("runs", true).value_or(1);
    band.median_frac = s.number("median_frac", true).value_or(0);
    band.p90_frac = s.number("p90_frac", true).value_or(0);
    band.max_frac = s.number("max_frac", true).value_or(0);
    band.signed_median_frac = s.number("signed_median_frac", true).value_or(0);
    bands.push_back(band);
  });
}

std::vector<std::string> read_strings(JsonReader& r, const char* key, bool required, Diagnostics& d);

// `fitted_scope` (optional: profiles written before it was kept have none, and get no scope check).
void read_scopes(JsonReader& r, std::vector<FittedScope>& scopes, Diagnostics& d) {
  read_per_task(r, "fitted_scope", false, d, [&](JsonReader& s, const char* task) {
    FittedScope f;
    f.task = task;
    auto range = [&](const char* key, double& lo, double& hi) {
      if (const Json* a = s.array(key, true)) {
        if (a->size() == 2 && (*a)[0].is_number() && (*a)[1].is_number() && (*a)[0].get<double>() > 0 &&
            (*a)[0].get<double>() <= (*a)[1].get<double>()) {
          lo = (*a)[0].get<double>();
          hi = (*a)[1].get<double>();
        } else {
          add_diagnostic(d, s.path_of(key), "wrong_type", "expected [min, max], two positive numbers, min <= max");
        }
      }
    };
    range("chips", f.min_chips, f.max_chips);
    range("seq_len", f.min_seq_len, f.max_seq_len);
    for (const std::string& a : read_strings(s, "architectures", true, d)) {
      if (a == "dense")
        f.dense = true;
      else if (a == "moe")
        f.moe = true;
      else
        add_diagnostic(d, s.path_of("architectures"), "unknown_choice", "'" + a + "' is not one of: dense, moe");
    }
    f.max_expert_degree = s.number("max_expert_degree", true).value_or(1);
    // Optional (a scope written before they were kept): then no plan is said to lie outside by them.
    f.tensor_across_domains = s.boolean("tensor_across_domains", false).value_or(true);
    f.expert_across_domains = s.boolean("expert_across_domains", false).value_or(true);
    f.matmul = read_strings(s, "matmul", false, d);
    scopes.push_back(std::move(f));
  });
}

Json scopes_json(const std::vector<FittedScope>& scopes) {
  Json out = Json::object();
  for (const auto& f : scopes) {
    Json architectures = Json::array();
    if (f.dense) architectures.push_back("dense");
    if (f.moe) architectures.push_back("moe");
    out[f.task] = {{"chips", {f.min_chips, f.max_chips}},
                   {"seq_len", {f.min_seq_len, f.max_seq_len}},
                   {"architectures", architectures},
                   {"max_expert_degree", f.max_expert_degree},
                   {"tensor_across_domains", f.tensor_across_domains},
                   {"expert_across_domains", f.expert_across_domains}};
    if (!f.matmul.empty()) out[f.task]["matmul"] = f.matmul;
  }
  return out;
}

std::vector<std::string> read_strings(JsonReader& r, const char* key, bool required, Diagnostics& d) {
  std::vector<std::string> out;
  if (const Json* a = r.array(key, required))
    for (std::size_t i = 0; i < a->size(); ++i) {
      if ((*a)[i].is_string())
        out.push_back((*a)[i].get<std::string>());
      else
        add_diagnostic(d, json_pointer_child(r.path_of(key), i), "wrong_type", "expected a string");
    }
  return out;
}

}  // namespace

std::span<const ProfileParameter> profile_parameters() { return kParameters; }

double small_sample_widening(const ErrorBand& band) {
  // The 0.10 quantile of the chi-squared distribution with k = 1..15 degrees of freedom (standard tables);
  // leave-one-out bands have at most 16 runs (calibrate's kMaxLeaveOneOutRuns).
  static constexpr double kChi2Low[] = {0.01579, 0.2107, 0.5844, 1.064, 1.610, 2.204, 2.833, 3.490,
                                        4.168,   4.865,  5.578,  6.304, 7.042, 7.790, 8.547};
  const auto k = static_cast<std::size_t>(band.runs) - 1;
  if (band.method != BandMethod::left_out_in_turn || band.runs < 2 || k > std::size(kChi2Low)) return 1;
  return std::sqrt(static_cast<double>(k) / kChi2Low[k - 1]);
}

const char* band_method_name(BandMethod method) {
  switch (method) {
    case BandMethod::chip_held_out:
      return "chip_held_out";
    case BandMethod::left_out_in_turn:
      return "left_out_in_turn";
    case BandMethod::held:
      break;
  }
  return "held";
}

const ErrorBand* CalibrationProfile::band(std::string_view task) const {
  for (const auto& b : bands)
    if (b.task == task) return &b;
  return nullptr;
}

const FittedScope* CalibrationProfile::scope(std::string_view task) const {
  for (const auto& f : scopes)
    if (f.task == task) return &f;
  return nullptr;
}

void FittedScope::widen(const ScopePoint& p) {
  const bool first = min_chips <= 0;
  min_chips = first ? p.chips : std::min(min_chips, p.chips);
  max_chips = std::max(max_chips, p.chips);
  min_seq_len = first ? p.seq_len : std::min(min_seq_len, p.seq_len);
  max_seq_len = std::max(max_seq_len, p.seq_len);
  (p.moe ? moe : dense) = true;
  if (p.moe) max_expert_degree = std::max(max_expert_degree, p.expert_degree);
  if (!p.matmul.empty() && std::find(matmul.begin(), matmul.end(), p.matmul) == matmul.end())
    matmul.push_back(p.matmul);
  tensor_across_domains = tensor_across_domains || p.tensor_across_domains;
  expert_across_domains = expert_across_domains || p.expert_across_domains;
}

std::vector<std::string> FittedScope::outside(const ScopePoint& p) const {
  std::vector<std::string> why;
  auto span = [&](double v, double lo, double hi, const char* unit) {
    if (v < lo || v > hi)
      why.push_back(format_count(v) + " " + unit + " (fitted: " + format_count(lo) + " to " + format_count(hi) + ")");
  };
  if (p.chips > 0) span(p.chips, min_chips, max_chips, "chips");  // 0: not known (a search that found nothing)
  span(p.seq_len, min_seq_len, max_seq_len, task == "serving" ? "tokens of context" : "tokens a sequence");
  if (p.moe ? !moe : !dense)
    why.push_back(
        std::string(p.moe ? "an MoE model (fitted: dense runs only)" : "a dense model (fitted: MoE runs only)"));
  if (p.moe && moe && p.expert_degree > max_expert_degree)
    why.push_back(format_count(p.expert_degree) + "-way expert parallelism (fitted: up to " +
                  format_count(max_expert_degree) + "-way)");
  // Issue 22 item 25: TP (or EP) over the scale-out network is costed, but where no fit run did it, uncalibrated.
  if (p.tensor_across_domains && !tensor_across_domains)
    why.push_back("tensor parallelism across NVLink domains (fitted: within one)");
  if (p.expert_across_domains && !expert_across_domains)
    why.push_back("expert parallelism across NVLink domains (fitted: within one)");
  if (!p.matmul.empty() && !matmul.empty() && std::find(matmul.begin(), matmul.end(), p.matmul) == matmul.end()) {
    std::string fitted;
    for (const auto& m : matmul) fitted += (fitted.empty() ? "" : ", ") + m;
    why.push_back(p.matmul + " matmuls (fitted: " + fitted + ")");
  }
  return why;
}

CalibrationProfile parse_calibration_profile(const Json& node, const std::string& path, Diagnostics& d) {
  CalibrationProfile p;
  JsonReader r(node, path, d);
  if (!r.ok_object()) return p;
  // Format 1 kept the kernels' rates as end-to-end constants (matmul_frac, decode_expert_frac, ...): its numbers
  // have no place in format 2's two levels, so it is refused with what to do rather than half read.
  if (node.contains("schema") && node["schema"] == "scalescope.calibration/1") {
    add_diagnostic(d, path + "/schema", "unsupported_version",
                   "a profile of format 'scalescope.calibration/1' (before the kernel models of issue 34); refit it "
                   "with this version's `scalescope calibrate` (format 'scalescope.calibration/2')");
    return p;
  }
  r.accept("schema");
  r.accept("residuals");
  r.accept("notes");
  p.id = r.string("id", true).value_or("");
  p.name = r.string("name", true).value_or("");
  p.kind = r.choice("kind", true, {"tpu", "gpu"}).value_or("tpu");
  p.hardware = read_strings(r, "hardware", true, d);
  p.source = r.string("source", true).value_or("");
  p.fitted_on = read_strings(r, "fitted_on", true, d);
  read_tiling(r, p.tiling, d);
  if (const Json* kernels = r.object("kernels", true))
    p.kernels = read_kernel_models(*kernels, r.path_of("kernels"), d);
  if (const Json* node_params = r.object("parameters", true)) {
    JsonReader s(*node_params, r.path_of("parameters"), d);
    for (const auto& q : kParameters) {
      // Each parameter's range is its row of kParameters (the fit's bounds too), read like every other number.
      if (q.kernel()) continue;
      if (const auto v = s.number(q.key, true, NumberRange{q.key, q.lo, q.hi, false, ""})) p.*q.field = *v;
    }
    s.finish();
  }
  read_bands(r, p.is_family(), p.bands, d);
  read_scopes(r, p.scopes, d);
  r.finish();
  return p;
}

Json calibration_profile_json(const CalibrationProfile& p) {
  Json params = Json::object();
  for (const auto& q : kParameters)
    if (!q.kernel()) params[q.key] = p.*q.field;
  // A band is a handful of runs' errors: four significant digits say it (the profiles ship in the page's engine).
  auto frac = [](double x) { return round_significant(x, 4); };
  Json bands = Json::object();
  for (const auto& b : p.bands)
    bands[b.task] = {{"runs", b.runs},
                     {"median_frac", frac(b.median_frac)},
                     {"p90_frac", frac(b.p90_frac)},
                     {"max_frac", frac(b.max_frac)},
                     {"signed_median_frac", frac(b.signed_median_frac)},
                     {"method", band_method_name(b.method)}};
  return {{"schema", "scalescope.calibration/2"},
          {"id", p.id},
          {"name", p.name},
          {"kind", p.kind},
          {"hardware", p.hardware},
          {"source", p.source},
          {"fitted_on", p.fitted_on},
          {"tiling",
           {{"tile_m", p.tiling.tile_m},
            {"tile_n", p.tiling.tile_n},
            {"tile_k", p.tiling.tile_k},
            {"parallel_tiles", p.tiling.parallel_tiles}}},
          {"kernels", kernel_models_json(p.kernels)},
          {"parameters", params},
          {"error_bands", bands},
          {"fitted_scope", scopes_json(p.scopes)}};
}

std::span<const CalibrationProfile> embedded_calibration_profiles() {
  // Parsed once (the texts are compile-time data; thread-safe static initialisation); a text that does not
  // validate is left out here and reported by validate_calibration_profiles().
  static const std::vector<CalibrationProfile> profiles = [] {
    std::vector<CalibrationProfile> all;
    for (const auto& t : calibration_profile_texts()) {
      Diagnostics d;
      CalibrationProfile p = parse_calibration_profile(Json::parse(t.json, nullptr, false), "", d);
      if (d.empty()) all.push_back(std::move(p));
    }
    return all;
  }();
  return profiles;
}

CalibrationProfile with_what_if(const CalibrationProfile& profile, const WhatIf& w) {
  CalibrationProfile p = profile;
  // The rates the fits measured, not the shapes, floors, overheads or overlaps: a slower chip or link runs the same
  // ops. FLOP rates: every kernel's ceiling; HBM: every memory-bound side; network: every link share.
  for (const KernelParameter& k : kernel_parameters()) {
    const std::string name = k.name;
    const bool flops = name.ends_with("ceiling_frac");
    const bool hbm = name.ends_with("hbm_frac");
    const bool link = name == "link_frac";
    const double f = flops ? w.flops_frac : hbm ? w.hbm_frac : link ? w.network_frac : 1.0;
    if (f != 1.0) k.at(p.kernels) *= f;
  }
  p.slow_link_frac *= w.network_frac;
  p.what_if = {p.what_if.flops_frac * w.flops_frac, p.what_if.hbm_frac * w.hbm_frac,
               p.what_if.network_frac * w.network_frac};
  return p;
}

double ProfileParameter::value(const CalibrationProfile& p) const {
  if (field) return p.*field;
  return find_kernel_parameter(kernel_paths[0])->value(p.kernels);
}

void ProfileParameter::set(CalibrationProfile& p, double v) const {
  if (field) {
    p.*field = v;
    return;
  }
  for (const char* path : kernel_paths)
    if (path) find_kernel_parameter(path)->at(p.kernels) = v;
}

bool CalibrationProfile::lists(std::string_view hardware_id) const {
  return std::find(hardware.begin(), hardware.end(), hardware_id) != hardware.end();
}

const CalibrationProfile* profile_for(std::span<const CalibrationProfile> profiles, std::string_view kind,
                                      std::string_view hardware_id) {
  const CalibrationProfile* family = nullptr;
  for (const auto& p : profiles) {
    if (p.kind != kind) continue;
    if (p.lists(hardware_id)) return &p;
    if (p.is_family() && !family) family = &p;
  }
  return family;
}

const CalibrationProfile* calibration_profile_for(const Hardware& hw) {
  return profile_for(embedded_calibration_profiles(), chip_kind_name(hw.kind), hw.id);
}

const CalibrationProfile* family_profile_for(std::string_view kind) {
  for (const auto& p : embedded_calibration_profiles())
    if (p.kind == kind && p.is_family()) return &p;
  return nullptr;
}

Diagnostics validate_calibration_profiles() {
  Diagnostics d;
  bool family_tpu = false, family_gpu = false;
  for (const auto& t : calibration_profile_texts()) {
    const std::string path = std::string("calibration_profiles/") + t.id + ".json";
    const Json j = Json::parse(t.json, nullptr, false);
    const CalibrationProfile p = parse_calibration_profile(j, path, d);
    if (p.id != t.id) add_diagnostic(d, path + "/id", "id_mismatch", "'id' must equal the file name");
    if (p.is_family()) (p.kind == "tpu" ? family_tpu : family_gpu) = true;
  }
  if (!family_tpu) add_diagnostic(d, "calibration_profiles", "missing_family", "no family profile for TPUs");
  if (!family_gpu) add_diagnostic(d, "calibration_profiles", "missing_family", "no family profile for GPUs");
  return d;
}

}  // namespace scalescope
