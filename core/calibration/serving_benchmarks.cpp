#include "calibration/serving_benchmarks.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "calibration/robust_fit.h"
#include "calibration/run_outcomes.h"
#include "planners/serving_load.h"
#include "queries/scenario.h"
#include "queries/serving_args.h"
#include "queries/serving_load_args.h"
#include "specs/presets.h"

namespace scalescope {

namespace {

std::vector<std::string> split(std::string_view line, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= line.size(); ++i)
    if (i == line.size() || line[i] == sep) {
      out.emplace_back(line.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

const std::string& cell(const BenchmarkRow& row, const std::string& key) {
  static const std::string empty;
  const auto it = row.find(key);
  return it == row.end() ? empty : it->second;
}

// A whole-number cell; empty or unreadable is `fallback` (the tables leave the parallelism of unused pools empty).
double whole(const BenchmarkRow& row, const std::string& key, double fallback) {
  const std::string& s = cell(row, key);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  return s.empty() || end != s.c_str() + s.size() || !std::isfinite(v) ? fallback : v;
}

// The preset each system and checkpoint is: DeepSeek-R1 and V3.1 are DeepSeek-V3's architecture, Llama 3.1's
// shapes are Llama 3's, and a quantised checkpoint is its base model (the dtype comes from the row's quant modes).
const char* hardware_preset(const std::string& system) {
  if (system == "h100_sxm") return "h100-sxm";
  if (system == "h200_sxm") return "h200";
  if (system == "b200_sxm") return "b200";
  if (system == "gb200") return "gb200-nvl72";
  return nullptr;
}

const char* model_preset(const std::string& path) {
  const std::string name = path.substr(path.find('/') + 1);
  if (name.rfind("DeepSeek-R1", 0) == 0 || name.rfind("DeepSeek-V3", 0) == 0) return "deepseek-v3";
  if (name == "gpt-oss-120b") return "gpt-oss-120b";
  if (name.rfind("Llama-3.1-70B", 0) == 0) return "llama-3-70b";
  if (name.rfind("Llama-3.1-8B", 0) == 0) return "llama-3-8b";
  if (name.rfind("Qwen3-235B-A22B", 0) == 0) return "qwen3-235b-a22b";
  if (name.rfind("Qwen3-32B", 0) == 0) return "qwen3-32b";
  return nullptr;
}

// The requests in flight per worker: the measured concurrency the row's source names (0: it names none).
double concurrency_of(const BenchmarkRow& row) {
  const std::string& source = cell(row, "silicon_data_source");
  const std::string key = "silicon_concurrency=";
  const std::size_t at = source.find(key);
  return at == std::string::npos ? 0.0 : std::strtod(source.c_str() + at + key.size(), nullptr);
}

BenchmarkScenario skip(const std::string& code, const std::string& reason) {
  BenchmarkScenario s;
  s.skip_code = code;
  s.skip_reason = reason;
  return s;
}

std::string count(double x) { return std::to_string(static_cast<long long>(x)); }

}  // namespace

std::vector<BenchmarkRow> parse_benchmark_csv(std::string_view text, std::string& error) {
  std::vector<BenchmarkRow> rows;
  std::vector<std::string> header;
  std::size_t line_no = 0, start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    std::vector<std::string> cells = split(line, ',');
    if (header.empty()) {
      header = std::move(cells);
      continue;
    }
    if (cells.size() != header.size()) {
      error = "line " + std::to_string(line_no) + " has " + std::to_string(cells.size()) + " cells; the header has " +
              std::to_string(header.size());
      return {};
    }
    BenchmarkRow row;
    for (std::size_t i = 0; i < header.size(); ++i) row[header[i]] = std::move(cells[i]);
    rows.push_back(std::move(row));
  }
  if (header.empty()) error = "no header line";
  return rows;
}

namespace {

// One pool's worker as the table gives it (columns `<prefix>tp_size`, ...): its GPUs and its split, or why not.
struct Pool {
  double gpus = 0, table_ranks = 1;  // table_ranks: the attention ranks the table's batch_size is per
  Json mesh, parallelism;
  std::string skip_code, skip_reason;
};

Pool read_pool(const BenchmarkRow& row, const std::string& prefix, bool moe) {
  Pool pool;
  double tp = whole(row, prefix + "tp_size", 1);
  const double pp = whole(row, prefix + "pp_size", 1);
  double ranks = std::max(1.0, whole(row, prefix + "attention_dp_size", 1));
  pool.table_ranks = ranks;
  double moe_tp = std::max(1.0, whole(row, prefix + "moe_tp_size", tp));
  const double moe_ep = std::max(1.0, whole(row, prefix + "moe_ep_size", 1));
  // Rows with moe tp = moe ep = k and k x k GPUs multiplied the GPU count (ids such as 'tp8_ep8' with tp_size 64;
  // their twins on k GPUs with the experts in TP measure a slower TPOT, as EP is): read as k GPUs, the attention
  // split as given over them and the experts over k ranks.
  if (const double k = moe_tp; k > 1 && moe_ep == k && tp * ranks == k * k) {
    (tp > 1 ? tp : ranks) /= k;
    moe_tp = 1;
  }
  if (pp > 1) {
    pool.skip_code = "pipeline_parallel";
    pool.skip_reason = "pipeline-parallel serving (pp " + count(pp) + "): not modelled";
    return pool;
  }
  pool.gpus = tp * ranks;
  // The attention side (TP x attention DP) and the expert side (expert TP x EP) are the same GPUs.
  if (moe && pool.gpus != moe_tp * moe_ep) {
    pool.skip_code = "inconsistent_parallelism";
    pool.skip_reason = "tp " + count(tp) + " x attention dp " + count(ranks) + " GPUs against moe tp " + count(moe_tp) +
                       " x moe ep " + count(moe_ep);
    return pool;
  }
  pool.mesh = {{"shape", Json::array({pool.gpus})}, {"axis_names", Json::array({"gpus"})}};
  pool.parallelism = Json::object();
  if (ranks > 1) {
    pool.parallelism["expert"] = Json::array({"gpus"});
    pool.parallelism["expert_tensor"] = moe_tp;
  } else {
    pool.parallelism["tensor"] = Json::array({"gpus"});
    if (moe) pool.parallelism["expert_tensor"] = moe_tp;
  }
  return pool;
}

}  // namespace

BenchmarkScenario benchmark_scenario(const BenchmarkRow& row, const std::string& fidelity) {
  const char* hw = hardware_preset(cell(row, "system"));
  if (!hw) return skip("unknown_system", "no preset for the system '" + cell(row, "system") + "'");
  const char* model = model_preset(cell(row, "model_path"));
  if (!model) return skip("unknown_model", "no preset for the model '" + cell(row, "model_path") + "'");
  Diagnostics unused;  // an embedded preset: it reads without a diagnostic
  const bool moe = resolve_model(Json{{"preset", model}}, "", unused).is_moe();
  const bool disaggregated = cell(row, "mode") == "disagg";
  // Disaggregated rows need both pools' worker counts: the concurrency spreads over the decode workers, and the
  // prompts over the prefill workers.
  const double prefill_workers = whole(row, "prefill_num_workers", 0),
               decode_workers = whole(row, "decode_num_workers", 0);
  if (disaggregated && (prefill_workers < 1 || decode_workers < 1))
    return skip("unstated_workers", "a disaggregated row without its pools' worker counts");
  const Pool decode = read_pool(row, disaggregated ? "decode_" : "", moe);
  if (!decode.skip_code.empty()) return skip(decode.skip_code, decode.skip_reason);
  const double concurrency = concurrency_of(row) / (disaggregated ? decode_workers : 1.0);
  // The measured concurrency is one worker's batch per attention rank times its ranks. Where it is not (a few rows
  // of another dataset, some naming no concurrency), it counts workers the row does not state, so any per-worker
  // load would be a guess fitted to the answer.
  if (concurrency < 1 ||
      concurrency != whole(row, disaggregated ? "decode_batch_size" : "batch_size", 0) * decode.table_ranks)
    return skip("concurrency_not_per_worker", "the measured concurrency is not batch_size x attention ranks");
  Json load = {{"concurrency", concurrency}};
  // Attention-DP rows are read with the balancer on (tests/serving/README.md): the rows do not say, and the published
  // TensorRT-LLM attention-DP launch scripts set attention_dp_config.enable_balance (InferenceMAX's DeepSeek-R1 ones).
  if (decode.table_ranks > 1) load["attention_dp_balance"] = true;
  if (disaggregated) {
    const Pool prefill = read_pool(row, "prefill_", moe);
    if (!prefill.skip_code.empty()) return skip(prefill.skip_code, prefill.skip_reason);
    load["prefill_pool"] = {{"workers_per_decode_replica", prefill_workers / decode_workers},
                            {"mesh", prefill.mesh},
                            {"parallelism", prefill.parallelism}};
  }
  Json query = {{"kind", "serving"},
                {"fidelity", fidelity},
                {"batch", concurrency},
                {"prompt_len", whole(row, "isl", 1)},
                {"generated_len", whole(row, "osl", 1)},
                {"parallelism", decode.parallelism},
                {"load", load}};
  // The GEMMs' quantisation names the weights' dtype; a quantised deployment keeps an fp8 KV cache (the engines'
  // default with quantised checkpoints); an unquantised one serves the checkpoint's own dtype with a bf16 cache.
  const std::string& quant = cell(row, "gemm_quant_mode");
  if (!quant.empty()) {
    const char* weights = quant == "nvfp4" ? "fp4" : quant == "fp8" || quant == "fp8_block" ? "fp8" : nullptr;
    if (!weights) return skip("unknown_quantisation", "no dtype for the GEMM quantisation '" + quant + "'");
    // The GEMMs run in the weights' dtype (W8A8, NVFP4 W4A4) where the chip has tensor cores for it; Hopper has
    // none for FP4, so its "nvfp4" rows (gpt-oss's MXFP4) run weight-only with bf16 activations.
    const bool blackwell = cell(row, "system") == "b200_sxm" || cell(row, "system") == "gb200";
    const char* activations = quant == "nvfp4" && !blackwell ? "bf16" : weights;
    query["dtypes"] = {{"weights", weights}, {"kv", "fp8"}, {"activations", activations}};
  }
  // The rows do not say how much HBM the engine gave the KV caches. They ran, so the weights fit: the caches get 0.9
  // of what the weights leave, TensorRT-LLM's default (kv_cache_config.free_gpu_memory_fraction). A share of the
  // whole, as vLLM and SGLang state it, would refuse deployments that ran (DeepSeek-R1 in FP8 on 4 B200 under
  // SGLang's TP-4 default of 0.85).
  query["free_memory_frac"] = 0.9;
  BenchmarkScenario s;
  s.scenario = {
      {"hardware", {{"preset", hw}}}, {"model", {{"preset", model}}}, {"mesh", decode.mesh}, {"query", query}};
  return s;
}

namespace {

std::string concurrency_band(double c) { return c <= 8 ? "1-8" : c <= 64 ? "9-64" : c <= 256 ? "65-256" : "257+"; }

// A row's scenario priced once: its load's parts, and what the serving query answered before it took a load.
bool price(const BenchmarkScenario& s, BenchmarkCase& c, std::string& refused) {
  Diagnostics d;
  ScenarioSpecs specs;
  const Json& scenario = s.scenario;
  resolve_scenario_specs(&scenario["hardware"], &scenario["model"], &scenario["mesh"], specs, d);
  ServingArgs a;
  LoadArgs load;
  Json query = scenario["query"];
  for (const char* key : {"kind", "fidelity"}) query.erase(key);
  specs.ctx.fidelity = Fidelity::calibrated;
  if (!has_errors(d)) {
    JsonReader args(query, "/query", d);
    read_serving_args(specs.ctx, args, d, a);
    read_load(specs.ctx, args, a, load, d);
    args.finish();
  }
  for (const Diagnostic& x : d)
    if (!x.warning) {
      refused = x.code;
      return false;
    }
  const CalibrationProfile* profile = calibration_profile_for(specs.hw);
  const ServingModel model{&a.in, profile}, prefill{load.prefill_in.get(), profile};
  ServingLoadInput in = load.in;
  if (load.prefill_in) in.prefill = &prefill;
  c.parts = load_parts(model, in);
  if (!c.parts.fits) {
    refused = "out_of_hbm";
    return false;
  }
  c.one_step_tpot_s = model.decode(c.concurrency, a.kv_context_len).step_s;
  c.one_step_ttft_s = model.prefill(1, a.prompt_len).time_s;
  return true;
}

// The deployments' rows predicted by one runtime: log errors, TPOT then TTFT.
void log_errors(const std::vector<const BenchmarkCase*>& cases, const ServingBackend& b, std::vector<double>& out) {
  out.resize(2 * cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const ServingLoad l = solve_load(cases[i]->parts, b);
    out[2 * i] = std::log(l.time_per_output_token_s / cases[i]->tpot_s);
    out[2 * i + 1] = std::log(l.time_to_first_token_s / cases[i]->ttft_s);
  }
}

}  // namespace

std::vector<BenchmarkCase> benchmark_cases(const std::vector<BenchmarkRow>& rows, Json& skipped) {
  std::vector<BenchmarkCase> cases;
  skipped = Json::object();
  std::map<std::string, std::size_t> seen_per_backend;
  for (const BenchmarkRow& row : rows) {
    const BenchmarkScenario s = benchmark_scenario(row);
    std::string code = s.skip_code;
    BenchmarkCase c;
    if (code.empty()) {
      c.id = cell(row, "id");
      c.backend = cell(row, "backend");
      c.system = cell(row, "system");
      c.model = cell(row, "model_path").substr(cell(row, "model_path").find('/') + 1);
      c.mode = cell(row, "mode");
      c.concurrency = s.scenario["query"]["load"]["concurrency"].get<double>();
      c.ttft_s = whole(row, "silicon_ttft_ms", 0) / 1e3;
      c.tpot_s = whole(row, "silicon_tpot_ms", 0) / 1e3;
      std::string refused;
      if (!(c.ttft_s > 0 && c.tpot_s > 0))
        code = "no_measurement";
      else if (!price(s, c, refused))
        code = "refused: " + refused;
    }
    if (!code.empty()) {
      skipped[code] = skipped.value(code, 0) + 1;
      continue;
    }
    // Every other row of a backend, in file order, is fitted; the rest are held out (siblings of fitted rows).
    c.fit = seen_per_backend[c.backend]++ % 2 == 0;
    cases.push_back(std::move(c));
  }
  return cases;
}

ServingBackend fit_serving_backend(const std::vector<const BenchmarkCase*>& cases, const std::string& id,
                                   FitResult* result) {
  ServingBackend start;
  start.id = id;
  FitProblem problem;
  for (const ServingBackendParameter& p : serving_backend_parameters())
    problem.parameters.push_back({p.prior, p.lo, p.hi, p.prior, p.prior_log_sigma});
  problem.residual_count = 2 * cases.size();
  problem.residuals = [&](const std::vector<double>& values, std::vector<double>& residuals,
                          const std::vector<std::size_t>*) {
    ServingBackend b = start;
    for (std::size_t j = 0; j < values.size(); ++j) b.*serving_backend_parameters()[j].field = values[j];
    log_errors(cases, b, residuals);
  };
  const FitResult fit = robust_fit(problem);
  ServingBackend b = start;
  for (std::size_t j = 0; j < fit.values.size(); ++j) b.*serving_backend_parameters()[j].field = fit.values[j];
  std::set<std::string> systems, models;
  for (const BenchmarkCase* c : cases) {
    systems.insert(c->system);
    models.insert(c->model);
  }
  b.fitted_on_systems.assign(systems.begin(), systems.end());
  b.fitted_on_models.assign(models.begin(), models.end());
  if (result) *result = fit;
  return b;
}

namespace {

struct Errors {
  std::vector<double> tpot, ttft;
  void add(double tpot_error, double ttft_error) {
    tpot.push_back(tpot_error);
    ttft.push_back(ttft_error);
  }
  Json json() const {
    return {{"tpot", error_stats_json(error_stats(tpot))}, {"ttft", error_stats_json(error_stats(ttft))}};
  }
};

// Leave one value of `key` (a model or a system) out: the backend refitted on its other fit rows, then every row
// of that value predicted. The transfer to a model or a chip the backend's fit has not seen.
Json leave_one_out(const std::vector<BenchmarkCase>& cases, const std::string& backend,
                   std::string BenchmarkCase::*key) {
  std::set<std::string> values;
  for (const BenchmarkCase& c : cases)
    if (c.backend == backend) values.insert(c.*key);
  Json out = Json::array();
  for (const std::string& value : values) {
    std::vector<const BenchmarkCase*> fit, held;
    for (const BenchmarkCase& c : cases)
      if (c.backend == backend) (c.*key == value ? held : fit).push_back(&c);
    std::vector<const BenchmarkCase*> fit_rows;
    for (const BenchmarkCase* c : fit)
      if (c->fit) fit_rows.push_back(c);
    if (fit_rows.empty()) continue;  // the backend ran only this model or system: nothing to transfer from
    const ServingBackend b = fit_serving_backend(fit_rows, backend, nullptr);
    std::vector<double> e;
    log_errors(held, b, e);
    Errors errors;
    for (std::size_t i = 0; i < held.size(); ++i) errors.add(std::expm1(e[2 * i]), std::expm1(e[2 * i + 1]));
    Json row = errors.json();
    row["held_out"] = value;
    out.push_back(row);
  }
  return out;
}

}  // namespace

Json serving_benchmark_report(const std::vector<BenchmarkRow>& rows, std::span<const ServingBackend> backends,
                              bool transfer_too) {
  Json skipped;
  const std::vector<BenchmarkCase> cases = benchmark_cases(rows, skipped);
  const auto backend_of = [&](const std::string& id) -> ServingBackend {
    for (const ServingBackend& b : backends)
      if (b.id == id) return b;
    return ServingBackend{};
  };
  Json out_rows = Json::array();
  std::map<std::pair<std::string, std::string>, Errors> held, fit, kernels_held, one_step_held;
  for (const BenchmarkCase& c : cases) {
    const ServingLoad l = solve_load(c.parts, backend_of(c.backend));
    const ServingLoad k = solve_load(c.parts, ServingBackend{});
    const double e_tpot = l.time_per_output_token_s / c.tpot_s - 1.0, e_ttft = l.time_to_first_token_s / c.ttft_s - 1.0;
    out_rows.push_back({{"id", c.id},
                        {"split", c.fit ? "fit" : "held"},
                        {"concurrency", c.concurrency},
                        {"measured_ttft_s", c.ttft_s},
                        {"measured_tpot_s", c.tpot_s},
                        {"predicted_ttft_s", l.time_to_first_token_s},
                        {"predicted_tpot_s", l.time_per_output_token_s},
                        {"ttft_error_frac", e_ttft},
                        {"tpot_error_frac", e_tpot}});
    for (const auto& [by, value] :
         std::initializer_list<std::pair<std::string, std::string>>{{"all", "all"},
                                                                    {"mode", c.mode},
                                                                    {"backend", c.backend},
                                                                    {"system", c.system},
                                                                    {"model", c.model},
                                                                    {"concurrency", concurrency_band(c.concurrency)}}) {
      (c.fit ? fit : held)[{by, value}].add(e_tpot, e_ttft);
      if (c.fit) continue;
      kernels_held[{by, value}].add(k.time_per_output_token_s / c.tpot_s - 1.0,
                                    k.time_to_first_token_s / c.ttft_s - 1.0);
      one_step_held[{by, value}].add(c.one_step_tpot_s / c.tpot_s - 1.0, c.one_step_ttft_s / c.ttft_s - 1.0);
    }
  }
  Json groups = Json::array();
  for (const char* by : {"all", "mode", "backend", "system", "model", "concurrency"})
    for (const auto& [key, errors] : held)
      if (key.first == by) {
        Json g = {{"by", key.first},
                  {"value", key.second},
                  {"held", errors.json()},
                  {"kernels_step", kernels_held[key].json()},
                  {"one_step", one_step_held[key].json()}};
        if (const auto f = fit.find(key); f != fit.end()) g["fit"] = f->second.json();
        groups.push_back(g);
      }
  // Each backend refitted on its fit rows (what --write ships), and its transfer by model and by system.
  Json fits = Json::array(), transfer = Json::array();
  std::set<std::string> ids;
  for (const BenchmarkCase& c : cases) ids.insert(c.backend);
  for (const std::string& id : ids) {
    std::vector<const BenchmarkCase*> fit_rows;
    for (const BenchmarkCase& c : cases)
      if (c.backend == id && c.fit) fit_rows.push_back(&c);
    FitResult result;
    ServingBackend b = fit_serving_backend(fit_rows, id, &result);
    b.name = backend_of(id).name;
    fits.push_back({{"backend", serving_backend_json(b)},
                    {"stop", fit_stop_name(result.stop)},
                    {"iterations", result.iterations},
                    {"rows", fit_rows.size()}});
    if (transfer_too)
      transfer.push_back({{"backend", id},
                          {"model_held_out", leave_one_out(cases, id, &BenchmarkCase::model)},
                          {"system_held_out", leave_one_out(cases, id, &BenchmarkCase::system)}});
  }
  return {{"rows", out_rows}, {"skipped", skipped}, {"groups", groups}, {"fits", fits}, {"transfer", transfer}};
}

}  // namespace scalescope
