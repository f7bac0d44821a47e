#include "calibration/published_runs.h"

#include <algorithm>
#include <cmath>

#include "io/limits.h"
#include "io/text.h"
#include "planners/calibrated_serving.h"
#include "planners/calibrated_training.h"
#include "queries/calibration_result.h"
#include "queries/serving_args.h"
#include "queries/training_args.h"

namespace scalescope {

namespace {

// Diagnostics of a run's scenario carry the scenario's own paths; prefix them with the run's.
void append_under(const Diagnostics& local, const std::string& prefix, Diagnostics& out) {
  for (Diagnostic d : local) {
    d.path = prefix + d.path;
    out.push_back(std::move(d));
  }
}

// `layout_budget`: the layouts the query's degree-form plans may still cost (shared by all its runs).
bool read_scenario(PublishedRun& run, const Json& scenario, long long& layout_budget, Diagnostics& d) {
  JsonReader top(scenario, "", d);
  if (!top.ok_object()) return false;
  top.number("version", false);
  const Json* hardware = top.value("hardware", true);
  const Json* model = top.value("model", true);
  const Json* mesh = top.value("mesh", true);
  const Json* query = top.object("query", true);
  top.finish();
  if (!hardware || !model || !mesh || !query) return false;
  run.specs = std::make_unique<ScenarioSpecs>();
  resolve_scenario_specs(hardware, model, mesh, *run.specs, d);
  if (has_errors(d)) return false;
  // The chip selects the profile; a run that does not say its kind takes it from the chip.
  run.hardware_id = run.specs->hw.id;
  if (run.kind.empty()) run.kind = chip_kind_name(run.specs->hw.kind);
  JsonReader args(*query, "/query", d);
  const std::string kind = args.choice("kind", true, {"training_step", "serving"}).value_or("");
  args.accept("fidelity");
  run.specs->ctx.layout_budget = &layout_budget;
  const QueryContext& ctx = run.specs->ctx;
  bool ok = false;
  if (kind == "training_step") {
    ok = read_training_step_args(ctx, args, d, run.training);
    args.accept("explain");
  } else if (kind == "serving") {
    ServingArgs a;
    // A run is predicted at both fidelities; the runtime it names applies to the calibrated one (predict_serving),
    // and its engine's memory budget (the calibrated default where the run does not state it) to both.
    run.specs->ctx.fidelity = Fidelity::calibrated;
    ok = read_serving_args(ctx, args, d, a);
    auto load = std::make_unique<LoadArgs>();
    if (ok) read_load(ctx, args, a, *load, d);
    if (load->given) run.load = std::move(load);
    run.serving = a.in;
    run.batch = a.batch;
    run.prompt_len = a.prompt_len;
    run.generated_len = a.generated_len;
    run.kv_context_len = a.kv_context_len;
  }
  args.finish();
  run.specs->ctx.layout_budget = nullptr;  // the budget lives as long as the reading
  run.prediction_work = run.specs->model.pattern.evaluation_work() * (run.remat_auto ? 2 : 1);
  if (ok && (kind == "training_step") != (run.task == "training"))
    add_diagnostic(d, "/query/kind", "inconsistent",
                   "the scenario's query does not match the run's task '" + run.task + "'");
  return ok && !has_errors(d);
}

// Training runs whose source does not state the remat policy use the lightest one the model says fits.
TrainingStep training_step_of(const TrainingInput& in, const CalibrationProfile* profile, CalibratedStepMemo* memo) {
  return profile ? evaluate_calibrated_training_step(in, *profile, memo).step : evaluate_training_step(in);
}

// The run's step as predicted: with its stated remat, or the lightest of none, big_matmuls and block that fits.
TrainingStep predicted_training_step(const PublishedRun& run, const CalibrationProfile* profile,
                                     RunPredictionMemo* memo, Remat& remat) {
  remat = run.training.remat;
  if (!run.remat_auto) return training_step_of(run.training, profile, memo ? &memo->steps[0] : nullptr);
  TrainingInput in = run.training;
  TrainingStep step;
  constexpr std::array<Remat, 3> policies{Remat::none, Remat::big_matmuls, Remat::block};
  for (std::size_t i = 0; i < policies.size(); ++i) {
    in.remat = remat = policies[i];
    step = training_step_of(in, profile, memo ? &memo->steps[i] : nullptr);
    if (step.fits) break;
  }
  return step;
}

double predict_training(const PublishedRun& run, const CalibrationProfile* profile, RunPredictionMemo* memo) {
  Remat remat;
  return predicted_training_step(run, profile, memo, remat).step_s;
}

// A run that states its benchmark's load is served under it. Otherwise, offline serving as one batch: B sequences
// prefilled, then G decode steps at the average KV length; throughput is B G over that time, times the replicas
// (the runs file's conventions, docs/validation.md). An offline run's batch is the most sequences whose KV caches
// fit beside the weights at the average KV length (with in-flight batching and paged KV caches, sequences at every
// stage of generation share the HBM, so on average each holds prompt + generated / 2), and never more than the
// requests the benchmark sent, where its source says.
double predict_serving(const PublishedRun& run, const CalibrationProfile* profile) {
  const ServingInput& in = run.serving;
  if (run.load) {
    // The benchmark's clients at its concurrency, served continuously (planners/serving_load.h); the book's
    // closed forms take no runtime.
    const ServingModel model{&in, profile};
    const ServingBackend as_is;
    const ServingLoad l =
        serve_load_args(*run.load, model, profile ? run.load->backend : as_is, run.load->in.concurrency);
    return run.replicas * l.output_tokens_per_s;
  }
  double batch = run.batch;
  if (run.auto_batch) {
    const double kv = kv_bytes_per_sequence(in, run.kv_context_len);
    batch = std::max(1.0, std::floor((in.mesh->chips * in.hw->hbm_capacity_bytes - serving_param_bytes(in)) / kv));
    // No more sequences run at once than the benchmark sent (per replica).
    if (run.requests > 0) batch = std::min(batch, std::max(1.0, std::floor(run.requests / run.replicas)));
  }
  const ServingModel model{&in, profile};
  const double prefill_s = model.prefill(batch, run.prompt_len).time_s;
  const double step_s = model.decode(batch, run.kv_context_len).step_s;
  return run.replicas * batch * run.generated_len / (prefill_s + run.generated_len * step_s);
}

}  // namespace

std::vector<PublishedRun> read_published_runs(const Json& runs, const std::string& path, bool require_split,
                                              long long& layout_budget, Diagnostics& d) {
  std::vector<PublishedRun> out;
  if (!runs.is_array()) {
    add_diagnostic(d, path, "wrong_type", "expected an array of published runs");
    return out;
  }
  // Bounded work (issue 12): a fit refits every held-out group, so its time grows with the runs.
  if (runs.size() > kMaxPublishedRuns) {
    add_diagnostic(d, path, "too_large",
                   std::to_string(runs.size()) + " runs; the limit is " + std::to_string(kMaxPublishedRuns));
    return out;
  }
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string at = json_pointer_child(path, i);
    JsonReader r(runs[i], at, d);
    if (!r.ok_object()) continue;
    PublishedRun run;
    run.id = r.string("id", true).value_or("");
    // Runs are told apart by id (the contradiction check, the bands, the tables): a repeat would hide one (issue 22).
    for (const PublishedRun& earlier : out)
      if (!run.id.empty() && earlier.id == run.id)
        add_diagnostic(d, r.path_of("id"), "duplicate_id",
                       "run id " + quote(run.id) + " is used by an earlier run; ids must be unique");
    run.family = r.string("family", false).value_or("");
    run.source = r.string("source", false).value_or("");
    run.kind = r.choice("kind", false, {"tpu", "gpu"}).value_or("");
    run.task =
        r.choice("task", true, {"training", "inference"}).value_or("training") == "training" ? "training" : "serving";
    run.metric = r.choice("metric", true, {"step_s", "throughput_tok_s"}).value_or("step_s") == "step_s"
                     ? RunMetric::step_s
                     : RunMetric::throughput_tok_s;
    run.measured = r.number("measured", true).value_or(0);
    run.remat_auto = r.boolean("remat_auto", false).value_or(false);
    run.auto_batch = r.boolean("auto_batch", false).value_or(false);
    run.replicas = r.number("replicas", false).value_or(1);
    run.requests = r.number("requests", false, NumberRange{"requests", 1, 1e9, true, "requests"}).value_or(0);
    run.split = r.choice("split", require_split, {"fit", "held"}).value_or("fit");
    run.excluded = r.string("excluded", false).value_or("");
    run.memory_unexpressed = r.string("memory_unexpressed", false).value_or("");
    run.measured_memory_bytes = r.number("measured_memory_bytes", false).value_or(0);
    run.measured_memory_how = r.string("measured_memory_how", false).value_or("");
    for (const char* doc : {"hw", "chips", "model", "plan", "measured_how", "approx", "notes", "added"}) r.accept(doc);
    const Json* scenario = r.object("scenario", true);
    r.finish();
    if (!scenario) continue;
    Diagnostics local;
    const bool ok = read_scenario(run, *scenario, layout_budget, local);
    append_under(local, r.path_of("scenario"), d);
    if (ok && !has_errors(local)) out.push_back(std::move(run));
  }
  return out;
}

std::vector<PublishedRun> read_memory_checks(const Json& checks, const std::string& path, long long& layout_budget,
                                             Diagnostics& d) {
  std::vector<PublishedRun> out;
  if (!checks.is_array()) {
    add_diagnostic(d, path, "wrong_type", "expected an array of memory checks");
    return out;
  }
  if (checks.size() > kMaxPublishedRuns) {
    add_diagnostic(d, path, "too_large",
                   std::to_string(checks.size()) + " memory checks; the limit is " + std::to_string(kMaxPublishedRuns));
    return out;
  }
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const std::string at = json_pointer_child(path, i);
    JsonReader r(checks[i], at, d);
    if (!r.ok_object()) continue;
    PublishedRun check;
    check.id = r.string("id", true).value_or("");
    for (const PublishedRun& earlier : out)
      if (!check.id.empty() && earlier.id == check.id)
        add_diagnostic(d, r.path_of("id"), "duplicate_id",
                       "memory check id " + quote(check.id) + " is used by an earlier check");
    check.source = r.string("source", true).value_or("");
    check.task = "training";
    check.measured_memory_bytes = r.number("measured_memory_bytes", true).value_or(0);
    check.measured_memory_how = r.string("measured_memory_how", true).value_or("");
    check.memory_unexpressed = r.string("memory_unexpressed", false).value_or("");
    for (const char* doc : {"plan", "approx", "notes"}) r.accept(doc);
    const Json* scenario = r.object("scenario", true);
    r.finish();
    if (!scenario) continue;
    Diagnostics local;
    const bool ok = read_scenario(check, *scenario, layout_budget, local);
    append_under(local, r.path_of("scenario"), d);
    if (ok && !has_errors(local)) out.push_back(std::move(check));
  }
  return out;
}

RunMemory predict_run_memory(const PublishedRun& run, const CalibrationProfile* profile) {
  RunMemory m;
  if (run.task != "training") return m;
  const TrainingStep step = predicted_training_step(run, profile, nullptr, m.remat);
  m.total_bytes = step.total_bytes;
  m.hbm_capacity_bytes = step.hbm_capacity_bytes;
  m.fits = step.fits;
  return m;
}

const char* run_architecture(const PublishedRun& run) {
  return run.specs && run.specs->model.is_moe() ? "moe" : "dense";
}

ScopePoint run_scope_point(const PublishedRun& run) {
  return run.task == "training" ? scope_point(run.training) : scope_point(run.serving, run.kv_context_len);
}

double predict_run(const PublishedRun& run, const CalibrationProfile* profile, RunPredictionMemo* memo) {
  return run.task == "training" ? predict_training(run, profile, memo) : predict_serving(run, profile);
}

double run_error(const PublishedRun& run, double predicted) {
  return run.metric == RunMetric::step_s ? predicted / run.measured - 1.0 : run.measured / predicted - 1.0;
}

}  // namespace scalescope
