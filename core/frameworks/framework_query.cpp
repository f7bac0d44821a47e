#include "frameworks/framework_query.h"

#include "frameworks/framework.h"
#include "queries/serving_args.h"
#include "queries/training_args.h"
#include "specs/presets.h"

namespace scalescope {

namespace {

// The keys of a training_step or serving query that a launch config has nothing to say about: read by their own
// queries, accepted here so that only a misspelt key is reported.
void accept_unpriced_keys(JsonReader& plan) {
  for (const char* key :
       {"kind", "fidelity", "explain", "goodput", "calibration", "load", "sweep", "deployment", "latency_target_s",
        "kv_context_len", "include_comms", "params_override", "prefill_flops_frac", "efficiency"})
    plan.accept(key);
}

const Framework* read_framework(JsonReader& args) {
  const auto name = args.choice("framework", true, framework_names());
  return name ? find_framework(*name) : nullptr;
}

Json launch_result(const Framework& f, std::string text, Json plan, const LaunchNotes& notes) {
  Json out{{"framework", f.name},
           {"title", f.title},
           {"format", f.format},
           {"text", std::move(text)},
           {"plan", std::move(plan)}};
  out.update(notes_json(notes));
  return out;
}

Json launch_training(const Framework& f, const QueryContext& ctx, JsonReader& plan, Diagnostics& d) {
  TrainingInput in;
  const bool valid = read_training_step_args(ctx, plan, d, in);
  accept_unpriced_keys(plan);
  plan.finish();
  if (!valid || has_errors(d)) return {};
  const TrainingLaunch launch = training_launch(in);
  LaunchNotes notes;
  std::string text = f.write_training(launch, *ctx.model, notes);
  return launch_result(f, std::move(text), training_launch_query(launch, ctx.mesh), notes);
}

Json launch_serving(const Framework& f, const QueryContext& ctx, JsonReader& plan, Diagnostics& d) {
  ServingArgs args;
  const bool valid = read_serving_args(ctx, plan, d, args);
  double lookahead = 0;
  if (const Json* node = plan.object("speculative", false)) {
    JsonReader r(*node, plan.path_of("speculative"), d);
    lookahead = r.number("lookahead", false).value_or(4);
    r.accept("draft_model");
    r.accept("acceptance_rate");
    r.finish();
  }
  // Prefilled on servers of its own (the serving query's deployment, or its load's prefill pool). Not read as the
  // serving query reads them: a value of the wrong type only leaves the note out.
  const Json* deployment = plan.value("deployment", false);
  const Json* load = plan.value("load", false);
  const bool disaggregated = (deployment && deployment->is_object() && deployment->contains("prefill") &&
                              (*deployment)["prefill"] == "disaggregated") ||
                             (load && load->is_object() && load->contains("prefill"));
  accept_unpriced_keys(plan);
  plan.finish();
  if (!valid || has_errors(d)) return {};
  ServingLaunch launch = serving_launch(args.in, args.batch, args.prompt_len, args.generated_len);
  launch.speculative = lookahead > 0;
  launch.lookahead = lookahead;
  launch.disaggregated = disaggregated;
  LaunchNotes notes;
  std::string text = f.write_serving(launch, *ctx.model, notes);
  // The memory budget in the form this engine writes it, so that the canonical query is what importing the config
  // gives back.
  ServingLaunch written = launch;
  (states_free_memory_frac(f) ? written.memory_frac : written.free_memory_frac) = 0;
  Json canonical = serving_launch_query(written);
  if (launch.speculative) canonical["speculative"] = {{"lookahead", config_json(lookahead)}};  // as import writes it
  return launch_result(f, std::move(text), canonical, notes);
}

// The model an import resolves against: the scenario's, else the one the config names or spells out.
ModelConfig imported_model(const QueryContext& ctx, const ImportResult& out, bool& known) {
  known = true;
  if (ctx.model) return *ctx.model;
  Diagnostics ignored;
  if (out.model.is_object()) {
    ModelConfig m = resolve_model(out.model, "/model", ignored);
    if (ignored.empty()) return m;
  }
  known = false;
  return ModelConfig{};
}

}  // namespace

std::span<const QueryKind> framework_query_kinds() {
  static const QueryKind kinds[] = {
      {"launch_config", kNeedsHardware | kNeedsModel | kNeedsMesh, run_launch_config},
      {"import_config", kWantsModel | kWantsMesh, run_import_config},
  };
  return kinds;
}

Json run_launch_config(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const Framework* f = read_framework(args);
  const Json* plan = args.object("plan", true);
  if (!f || !plan) return {};
  JsonReader r(*plan, args.path_of("plan"), d);
  const auto kind = r.choice("kind", true, {"training_step", "serving"});
  if (!kind) return {};
  const bool training = *kind == "training_step", gpu = ctx.hw->kind == ChipKind::gpu;
  if (training != f->training || (f->gpu_only && !gpu)) {
    std::vector<std::string> fitting;
    for (const Framework& other : frameworks())
      if (other.training == training && (gpu || !other.gpu_only)) fitting.emplace_back(other.name);
    add_diagnostic(
        d, args.path_of("framework"), "not_applicable",
        std::string(f->name) +
            (training != f->training ? (f->training ? " launches training" : " serves models") : " runs on GPUs") +
            "; a " + *kind + " plan on " + ctx.hw->name + " is launched with " + join_choices(fitting));
    return {};
  }
  return f->training ? launch_training(*f, ctx, r, d) : launch_serving(*f, ctx, r, d);
}

Json run_import_config(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const Framework* f = read_framework(args);
  const Json* text = args.value("text", true);
  ImportContext ictx;
  ictx.mesh = ctx.mesh;
  ictx.model = ctx.model;
  ictx.chips = args.number("chips", false, "chips").value_or(ctx.mesh ? ctx.mesh->chips : 0);
  ictx.seq_len = args.number("seq_len", false).value_or(0);
  ictx.prompt_len = args.number("prompt_len", false).value_or(0);
  ictx.generated_len = args.number("generated_len", false).value_or(0);
  if (text && !text->is_string())
    add_diagnostic(d, args.path_of("text"), "wrong_type", "text is the config's text (a string)");
  else if (text && text->get_ref<const std::string&>().size() > kMaxConfigTextBytes)
    add_diagnostic(d, args.path_of("text"), "too_large",
                   "a launch config of at most " + std::to_string(kMaxConfigTextBytes >> 10) + " KiB is read");
  if (!f || !text || has_errors(d)) return {};
  const ConfigText read = f->read_text(text->get_ref<const std::string&>());
  if (!read.error.empty()) {
    add_diagnostic(d, args.path_of("text"), "malformed_config", std::string(f->title) + ": " + read.error);
    return {};
  }
  ConfigSettings settings(read, f->normalize);
  ImportResult out;
  f->read(settings, ictx, out);
  for (const std::string& problem : out.problems) add_diagnostic(d, args.path_of("text"), "incomplete_config", problem);
  if (has_errors(d)) return {};
  Json scenario = Json::object();
  if (!out.model.is_null() && !ctx.model) scenario["model"] = out.model;  // the scenario's own model stands
  if (f->training) {
    bool known = false;
    const ModelConfig model = imported_model(ctx, out, known);
    out.training.moe_model = known && model.is_moe();
    // A TPU slice keeps the caller's torus; GPUs come back as their count, which the engine lays out in the GPU
    // order (tensor innermost) as the frameworks order their ranks.
    const bool torus = ctx.mesh && ctx.hw && ctx.hw->kind == ChipKind::tpu;
    if (!torus) {
      scenario["mesh"] = {{"shape", {config_json(out.training.chips / out.training.slices)}}};
      if (out.training.slices > 1) scenario["mesh"]["slices"] = config_json(out.training.slices);
    }
    scenario["query"] = training_launch_query(out.training, torus ? ctx.mesh : nullptr);
  } else {
    scenario["mesh"] = serving_launch_mesh(out.serving);  // the replica's own axes, which its query names
    scenario["query"] = serving_launch_query(out.serving);
    if (out.serving.speculative) scenario["query"]["speculative"] = {{"lookahead", config_json(out.serving.lookahead)}};
  }
  return {{"framework", f->name},
          {"scenario", scenario},
          {"mapped", settings.mapped_json()},
          {"unmapped", settings.unmapped_json()},
          {"assumed", out.assumed}};
}

}  // namespace scalescope
