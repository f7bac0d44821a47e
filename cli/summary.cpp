#include "summary.h"

#include <cstdio>
#include <string_view>
#include <vector>

#include "api.h"
#include "specs/presets.h"
#include "table.h"

namespace scalescope::cli {

namespace {

using nlohmann::json;

// A number of the result at a JSON pointer, or nullptr.
const json* at(const json& node, std::string_view pointer) {
  const json::json_pointer p{std::string(pointer)};
  return node.contains(p) && node.at(p).is_number() ? &node.at(p) : nullptr;
}

// The value at `pointer` formatted by the unit its key names (as --table does); "?" when absent.
std::string show(const json& node, std::string_view pointer) {
  const json* v = at(node, pointer);
  if (!v) return "?";
  const std::string key(pointer.substr(pointer.rfind('/') + 1));
  return format_with_unit(key, v->get<double>());
}

std::string text(const json& node, std::string_view pointer, const char* fallback = "") {
  const json::json_pointer p{std::string(pointer)};
  return node.contains(p) && node.at(p).is_string() ? node.at(p).get<std::string>() : fallback;
}

std::string count(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

std::string sig3(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string words(std::string s) {
  for (char& c : s) c = c == '_' ? ' ' : c;
  return s;
}

// "LLaMA-3 70B on 64 × TPU v5p (4×4×4)" from the scenario: names from the engine's own presets or model resolution.
std::string setup(const json& scenario, double chips) {
  std::string model = "the model";
  if (scenario.contains("model")) {
    const json m = json::parse(model_json(scenario["model"].dump()), nullptr, false);
    if (m.value("ok", false)) model = m["model"].value("name", model);
  }
  std::string chip = "custom chip";
  if (const auto* h = scenario.contains("hardware") ? &scenario["hardware"] : nullptr;
      h && h->contains("preset") && (*h)["preset"].is_string()) {
    const PresetText* p = find_preset(hardware_preset_texts(), (*h)["preset"].get<std::string>());
    if (p) chip = preset_json(*p).value("name", chip);
  }
  std::string shape;
  if (scenario.contains("/mesh/shape"_json_pointer) && scenario["mesh"]["shape"].is_array()) {
    for (const auto& s : scenario["mesh"]["shape"])
      shape += (shape.empty() ? "" : "×") + (s.is_number() ? count(s.get<double>()) : "?");
    if (const json* slices = at(scenario, "/mesh/slices"); slices && slices->get<double>() > 1)
      shape += ", " + count(slices->get<double>()) + " slices";
  }
  return model + " on " + (chips > 0 ? count(chips) + " × " : "") + chip + (shape.empty() ? "" : " (" + shape + ")");
}

// "FSDP 16 × TP 4"
std::string degrees(const json& t) {
  static const std::pair<const char*, const char*> names[] = {{"data", "DP"},   {"fsdp", "FSDP"}, {"pipeline", "PP"},
                                                              {"tensor", "TP"}, {"expert", "EP"}, {"context", "CP"}};
  std::string out;
  for (const auto& [key, label] : names)
    if (const json* d = at(t, std::string("/degrees/") + key); d && d->get<double>() > 1)
      out += (out.empty() ? "" : " × ") + std::string(label) + " " + count(d->get<double>());
  return out.empty() ? "one chip" : out;
}

// "step 112.7 s (book ideal 82.15 s)" when the result is calibrated and carries the book's number; else the number.
std::string estimate(const json& r, const char* label, std::string_view pointer, std::string_view ideal_pointer) {
  std::string out = std::string(label) + " " + show(r, pointer);
  if (text(r, "/fidelity") == "calibrated" && at(r, ideal_pointer))
    out += " (book ideal " + show(r, ideal_pointer) + ")";
  return out;
}

// One line on which model made the numbers: the calibration profile and its measured error, or the book's bound.
std::string fidelity_line(const json& r) {
  if (text(r, "/fidelity") != "calibrated") return "";
  const std::string band = text(r, "/calibration/error_band/text");
  const std::string profile = text(r, "/calibration/profile/name", text(r, "/calibration/profile/id").c_str());
  return "  calibrated estimate" + (profile.empty() ? "" : " (" + profile + ")") + (band.empty() ? "" : ": " + band) +
         "\n";
}

// The training headline; returns the line on what to try next.
std::string training(const json& scenario, const json& t, const json& chip, std::string& out) {
  const json* mem = at(t, "/memory/total_bytes");
  const json* hbm =
      at(t, "/memory/hbm_capacity_bytes") ? at(t, "/memory/hbm_capacity_bytes") : at(chip, "/hbm_capacity_bytes");
  const bool fits = t.contains("/memory/fits"_json_pointer) && t["memory"]["fits"] == true;
  const json& q = scenario.contains("query") ? scenario["query"] : json::object();
  const json& args = t.contains("query") ? t["query"] : q;  // the summary query echoes the step it ran
  out += "Training   " + degrees(t) + "; batch " + show(args, "/batch_tokens") + " of sequence " +
         show(args, "/seq_len") + "\n";
  out += "  " + estimate(t, "step", "/time/step_s", "/ideal/step_s") + " · " +
         estimate(t, "MFU", "/mfu_frac", "/ideal/mfu_frac") + "\n";
  out += fidelity_line(t);
  // Without a token count there is no run to price: say how to ask, not "to train 0 s on 0 tokens".
  const bool from_result = at(t, "/cost/train_tokens") != nullptr;
  const json* tokens = from_result ? at(t, "/cost/train_tokens") : at(args, "/train_tokens");
  if (tokens && tokens->get<double>() > 0)
    out += "  " + estimate(t, "to train", "/cost/train_time_s", "/ideal/train_time_s") + " on " +
           (from_result ? show(t, "/cost/train_tokens") : show(args, "/train_tokens")) + " · " +
           estimate(t, "cost", "/cost/train_usd", "/ideal/train_usd") + "\n";
  else
    out += "  time and cost to train: give query.train_tokens\n";
  // With failures, checkpoints and restarts (the calibrated fidelity, or goodput asked): the date to promise.
  const std::string goodput = text(t, "/goodput/text");
  if (!goodput.empty()) {
    const json* wall_usd = at(t, "/goodput/wall_usd");
    out += "  with failures: " + goodput +
           (wall_usd && wall_usd->is_number() ? ", " + format_with_unit("train_usd", wall_usd->get<double>()) : "") +
           "\n";
  }
  out += "  memory " + (mem ? format_with_unit("total_bytes", mem->get<double>()) : "?") + " per chip of " +
         (hbm ? format_with_unit("hbm_bytes", hbm->get<double>()) : "?") + ": " + (fits ? "fits" : "DOES NOT FIT") +
         "\n";
  const std::string binding = text(t, "/binding");
  std::string room;
  for (const auto& x : t.value("thresholds", json::array()))
    if (x.value("name", "") == binding && x.contains("margin") && x["margin"].is_number())
      room = " (" + sig3(x["margin"].get<double>()) + "× room)";
  out += "  " + text(t, "/time/bound", "?") + "-bound (critical path: " + text(t, "/time/critical", "?") + ")" +
         (binding.empty() ? "" : "; the threshold with least room: " + words(binding) + room) + "\n";
  // One line on what to try next, from the result's own fields.
  std::string next;
  if (!fits) {
    next = "the plan needs " + show(t, "/memory/shortfall_bytes") + " more per chip";
    if (const json* c = at(t, "/memory/min_chips_for_memory"))
      next += "; it fits on at least " + count(c->get<double>()) + " chips";
    next += ", or with more remat, ZeRO-3 or more microbatches.";
  } else if (t.contains("thresholds") && t["thresholds"].is_array()) {
    for (const auto& x : t["thresholds"])
      if (x.value("ok", true) == false && next.empty())
        next = words(x.value("name", "a threshold")) + " not met: " + x.value("reason", "") + ".";
  }
  if (next.empty())
    next = text(t, "/time/bound") == "compute" ? "compute-bound with every threshold met: more chips shorten the run "
                                                 "while the batch per chip stays above the thresholds."
                                               : "communication sets the step: a larger batch per chip or less tensor "
                                                 "parallelism moves it toward compute.";
  if (text(t, "/fidelity") != "calibrated") next += " (The book's model: an ideal bound.)";
  return next;
}

void serving(const json& s, std::string& out) {
  const bool fits = s.contains("/memory/fits"_json_pointer) && s["memory"]["fits"] == true;
  const json& q = s.contains("query") ? s["query"] : json::object();
  out += "Serving    batch " + show(q, "/batch") + ", prompt " + show(q, "/prompt_len") + " tokens, " +
         show(q, "/generated_len") + " generated\n";
  out += "  " + estimate(s, "first token", "/time_to_first_token_s", "/ideal/time_to_first_token_s") + " · " +
         estimate(s, "per token", "/decode/step_s", "/ideal/latency_per_token_s") + " · " +
         show(s, "/tokens_per_s_per_chip") + " · " + show(s, "/usd_per_million_output_tokens") + "\n";
  out += fidelity_line(s);
  out += "  decode is " + text(s, "/decode/bound", "?") + "-bound; the KV caches " +
         (fits ? "fit (up to " + show(s, "/memory/max_batch") + " sequences)" : "DO NOT FIT") + "\n";
}

}  // namespace

std::string render_summary(const json& scenario, const json& evaluation) {
  std::string out;
  const std::string kind = evaluation.value("query", "");
  const json& r = evaluation.contains("result") ? evaluation["result"] : json::object();
  for (const auto& d : evaluation.value("diagnostics", json::array()))
    out += (d.value("severity", "error") == "warning" ? "Warning:   " : "Problem:   ") + d.value("message", "") + " (" +
           d.value("path", "") + ")\n";
  if (!evaluation.value("ok", false)) return "Scalescope: the scenario cannot run.\n" + out;
  if (kind == "summary") {
    out = setup(scenario, at(r, "/topology/chips") ? r["topology"]["chips"].get<double>() : 0) + "\n" + out;
    const std::string next =
        r.contains("training_step") ? training(scenario, r["training_step"], r.value("chip", json::object()), out) : "";
    if (r.contains("serving")) serving(r["serving"], out);
    if (!next.empty()) out += "Try next:  " + next + "\n";
  } else if (kind == "training_step") {
    out = setup(scenario, at(r, "/degrees/chips") ? r["degrees"]["chips"].get<double>() : 0) + "\n" + out;
    out += "Try next:  " + training(scenario, r, json::object(), out) + "\n";
  } else if (kind == "serving") {
    json s = r;
    s["query"] = scenario.value("query", json::object());
    out = setup(scenario, 0) + "\n" + out;
    serving(s, out);
  } else if (kind == "plan_search") {
    out = setup(scenario, 0) + "\n" + out;
    out += "Plan search: " + show(r, "/evaluated") + " plans, " + show(r, "/valid") + " valid, " + show(r, "/fitting") +
           " fit in HBM\n";
    std::size_t i = 0;
    for (const auto& p : r.value("plans", json::array())) {
      if (++i > 3) break;
      out += "  #" + std::to_string(i) + " " + degrees(p) + ", remat " + p.value("remat", "?") + ": step " +
             show(p, "/step_s") + ", MFU " + show(p, "/mfu_frac") + ", " + show(p, "/memory_bytes") + " per chip" +
             (p.value("fits", false) ? "" : " (does not fit)") + "\n";
    }
  } else {
    return render_table(evaluation);
  }
  out += "(--table lists every number with its unit.)\n";
  return out;
}

}  // namespace scalescope::cli
