#include "calibration/serving_benchmarks.h"

#include <algorithm>
#include <cmath>

#include "calibration/run_outcomes.h"
#include "planners/serving_load.h"
#include "queries/scenario.h"
#include "queries/serving_args.h"

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

// The requests in flight per worker: the measured concurrency the row's source names, else its batch size per
// attention rank times the ranks.
double concurrency_of(const BenchmarkRow& row, double attention_ranks) {
  const std::string& source = cell(row, "silicon_data_source");
  const std::string key = "silicon_concurrency=";
  const std::size_t at = source.find(key);
  if (at != std::string::npos) return std::strtod(source.c_str() + at + key.size(), nullptr);
  return whole(row, "batch_size", 1) * attention_ranks;
}

// The TP and EP degrees an id names ('..._tp8_ep8_...'), or zeros.
std::pair<double, double> id_degrees(const std::string& id) {
  const std::size_t t = id.find("_tp"), e = id.find("_ep", t == std::string::npos ? 0 : t);
  if (t == std::string::npos || e == std::string::npos) return {0, 0};
  return {std::strtod(id.c_str() + t + 3, nullptr), std::strtod(id.c_str() + e + 3, nullptr)};
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

BenchmarkScenario benchmark_scenario(const BenchmarkRow& row, const std::string& fidelity) {
  if (cell(row, "mode") != "agg")
    return skip("disaggregated", "a disaggregated deployment (prefill and decode pools): not modelled yet");
  const char* hw = hardware_preset(cell(row, "system"));
  if (!hw) return skip("unknown_system", "no preset for the system '" + cell(row, "system") + "'");
  const char* model = model_preset(cell(row, "model_path"));
  if (!model) return skip("unknown_model", "no preset for the model '" + cell(row, "model_path") + "'");
  double tp = whole(row, "tp_size", 1);
  const double pp = whole(row, "pp_size", 1);
  const double ranks = std::max(1.0, whole(row, "attention_dp_size", 1));
  double moe_tp = std::max(1.0, whole(row, "moe_tp_size", tp)), moe_ep = std::max(1.0, whole(row, "moe_ep_size", 1));
  // Rows whose id names 'tp<a>_ep<b>' but whose tp_size is a x b multiplied the GPU count (their twins on a GPUs
  // measure the same TPOT): read as the id says, a GPUs with attention TP a and the experts over b of them.
  if (const auto ids = id_degrees(cell(row, "id")); ids.first > 1 && ids.second > 1 && tp == ids.first * ids.second &&
                                                    std::fmod(ids.first, ids.second) == 0) {
    tp = ids.first;
    moe_ep = ids.second;
    moe_tp = tp / moe_ep;
  }
  if (pp > 1) return skip("pipeline_parallel", "pipeline-parallel serving (pp " + count(pp) + "): not modelled");
  const bool moe = std::string(model) == "deepseek-v3" || std::string(model) == "gpt-oss-120b" ||
                   std::string(model) == "qwen3-235b-a22b";
  const double gpus = tp * ranks;
  // The attention side (TP x attention DP) and the expert side (expert TP x EP) are the same GPUs; rows where they
  // differ name a GPU count the deployment does not have (the table multiplies them: tp_size 64 for 'tp8_ep8').
  if (moe && gpus != moe_tp * moe_ep)
    return skip("inconsistent_parallelism", "tp " + count(tp) + " x attention dp " + count(ranks) + " GPUs against moe tp " +
                                                count(moe_tp) + " x moe ep " + count(moe_ep));
  const double concurrency = concurrency_of(row, ranks);
  Json query = {{"kind", "serving"},
                {"fidelity", fidelity},
                {"batch", std::max(1.0, concurrency)},
                {"prompt_len", whole(row, "isl", 1)},
                {"generated_len", whole(row, "osl", 1)},
                {"load", {{"concurrency", std::max(1.0, concurrency)}}}};
  // The GEMMs' quantisation names the weights' dtype; a quantised deployment keeps an fp8 KV cache (the engines'
  // default with quantised checkpoints); an unquantised one serves the checkpoint's own dtype with a bf16 cache.
  const std::string& quant = cell(row, "gemm_quant_mode");
  if (!quant.empty()) {
    const char* weights = quant == "nvfp4" ? "fp4" : quant == "fp8" || quant == "fp8_block" ? "fp8" : nullptr;
    if (!weights) return skip("unknown_quantisation", "no dtype for the GEMM quantisation '" + quant + "'");
    query["dtypes"] = {{"weights", weights}, {"kv", "fp8"}};
  }
  Json parallelism = Json::object();
  if (ranks > 1) {
    parallelism["expert"] = Json::array({"gpus"});
    parallelism["expert_tensor"] = moe_tp;
  } else {
    parallelism["tensor"] = Json::array({"gpus"});
    if (moe) parallelism["expert_tensor"] = moe_tp;
  }
  query["parallelism"] = parallelism;
  BenchmarkScenario s;
  s.scenario = {{"hardware", {{"preset", hw}}},
                {"model", {{"preset", model}}},
                {"mesh", {{"shape", Json::array({gpus})}, {"axis_names", Json::array({"gpus"})}}},
                {"query", query}};
  return s;
}

namespace {

struct Predicted {
  bool ok = false;
  std::string refused;  // the engine's first diagnostic when it refuses the scenario
  double ttft_s = 0, tpot_s = 0;
  // What the serving query answered before it took a load: a decode step at batch = concurrency and one prompt
  // prefilled alone (the "before" beside the load model).
  double one_step_ttft_s = 0, one_step_tpot_s = 0;
};

Predicted predict(const Json& scenario) {
  Predicted p;
  Diagnostics d;
  ScenarioSpecs specs;
  resolve_scenario_specs(&scenario["hardware"], &scenario["model"], &scenario["mesh"], specs, d);
  ServingArgs a;
  Json query = scenario["query"];
  const Json load = query["load"];
  query.erase("load");
  query.erase("kind");
  query.erase("fidelity");
  if (!has_errors(d)) {
    JsonReader args(query, "/query", d);
    read_serving_args(specs.ctx, args, d, a);
    args.finish();
  }
  for (const Diagnostic& x : d)
    if (!x.warning) {
      p.refused = x.code + " at " + x.path + ": " + x.message;
      return p;
    }
  const CalibrationProfile* profile =
      scenario["query"]["fidelity"] == "calibrated" ? calibration_profile_for(specs.hw) : nullptr;
  const ServingModel model{&a.in, profile};
  ServingLoadInput in;
  in.concurrency = load["concurrency"].get<double>();
  in.prompt_len = a.prompt_len;
  in.generated_len = a.generated_len;
  const ServingLoad l = serve_under_load(model, in);
  if (!l.fits) {
    p.refused = "out_of_hbm: not one sequence's KV cache fits beside the weights";
    return p;
  }
  p.ok = true;
  p.ttft_s = l.time_to_first_token_s;
  p.tpot_s = l.time_per_output_token_s;
  p.one_step_tpot_s = model.decode(in.concurrency, a.kv_context_len).step_s;
  p.one_step_ttft_s = model.prefill(1, a.prompt_len).time_s;
  return p;
}

std::string concurrency_band(double c) {
  return c <= 8 ? "1-8" : c <= 64 ? "9-64" : c <= 256 ? "65-256" : "257+";
}

}  // namespace

Json serving_benchmark_report(const std::vector<BenchmarkRow>& rows) {
  Json out_rows = Json::array();
  Json skipped = Json::object();
  // (by, value) -> errors
  struct Errors {
    std::vector<double> tpot, ttft, one_step_tpot, one_step_ttft;
  };
  std::map<std::pair<std::string, std::string>, Errors> groups;
  for (const BenchmarkRow& row : rows) {
    const BenchmarkScenario s = benchmark_scenario(row);
    std::string code = s.skip_code;
    Predicted p;
    if (code.empty()) {
      p = predict(s.scenario);
      if (!p.ok) code = "refused: " + p.refused.substr(0, p.refused.find(' '));
    }
    if (!code.empty()) {
      skipped[code] = skipped.value(code, 0) + 1;
      continue;
    }
    const double ttft_s = whole(row, "silicon_ttft_ms", 0) / 1e3, tpot_s = whole(row, "silicon_tpot_ms", 0) / 1e3;
    if (!(ttft_s > 0 && tpot_s > 0)) {
      skipped["no_measurement"] = skipped.value("no_measurement", 0) + 1;
      continue;
    }
    const double e_tpot = p.tpot_s / tpot_s - 1.0, e_ttft = p.ttft_s / ttft_s - 1.0;
    const double conc = s.scenario["query"]["load"]["concurrency"].get<double>();
    out_rows.push_back({{"id", cell(row, "id")}, {"concurrency", conc},
                        {"measured_ttft_s", ttft_s}, {"measured_tpot_s", tpot_s},
                        {"predicted_ttft_s", p.ttft_s}, {"predicted_tpot_s", p.tpot_s},
                        {"ttft_error_frac", e_ttft}, {"tpot_error_frac", e_tpot}});
    const std::string model = cell(row, "model_path").substr(cell(row, "model_path").find('/') + 1);
    for (const auto& [by, value] : std::initializer_list<std::pair<std::string, std::string>>{
             {"all", "all"}, {"backend", cell(row, "backend")}, {"system", cell(row, "system")},
             {"model", model}, {"concurrency", concurrency_band(conc)}}) {
      Errors& g = groups[{by, value}];
      g.tpot.push_back(e_tpot);
      g.ttft.push_back(e_ttft);
      g.one_step_tpot.push_back(p.one_step_tpot_s / tpot_s - 1.0);
      g.one_step_ttft.push_back(p.one_step_ttft_s / ttft_s - 1.0);
    }
  }
  Json out_groups = Json::array();
  for (const char* by : {"all", "backend", "system", "model", "concurrency"})
    for (const auto& [key, errors] : groups)
      if (key.first == by)
        out_groups.push_back({{"by", key.first}, {"value", key.second},
                              {"tpot", error_stats_json(error_stats(errors.tpot))},
                              {"ttft", error_stats_json(error_stats(errors.ttft))},
                              {"one_step_tpot", error_stats_json(error_stats(errors.one_step_tpot))},
                              {"one_step_ttft", error_stats_json(error_stats(errors.one_step_ttft))}});
  return {{"rows", out_rows}, {"skipped", skipped}, {"groups", out_groups}};
}

}  // namespace scalescope
