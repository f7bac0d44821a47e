#include "validation_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

namespace scalescope::cli {

namespace {

using nlohmann::json;

std::string pct(double frac, bool sign = false) {
  char buf[32];
  std::snprintf(buf, sizeof buf, sign ? "%+.1f%%" : "%.1f%%", 100.0 * frac);
  return buf;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

double median_abs(std::vector<double> v) {
  if (v.empty()) return 0;
  for (double& x : v) x = std::fabs(x);
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

const char* part_name(const std::string& split) {
  if (split == "fit") return "fit (in sample)";
  if (split == "held") return "held out, all";
  if (split == "held_in_scope") return "**held out, in scope**";
  return "all runs";
}

void summary(const json& groups, std::string& out, bool by_architecture) {
  out += std::string("| ") + (by_architecture ? "architecture" : "chip kind") +
         " | task | part | runs | book median | book p90 | calibrated median | calibrated p90 | "
         "calibrated max | signed median | optimistic |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& g : groups) {
    if ((g.value("architecture", "all") != "all") != by_architecture) continue;
    const json& b = g["book"];
    const json& c = g["calibrated"];
    out += "| " + (by_architecture ? g.value("architecture", "") : g.value("kind", "")) + " | " + g.value("task", "") +
           " | " + part_name(g.value("split", "")) + " | " + num(b.value("runs", 0.0)) + " | " +
           pct(b.value("median_abs_frac", 0.0)) + " | " + pct(b.value("p90_abs_frac", 0.0)) + " | " +
           pct(c.value("median_abs_frac", 0.0)) + " | " + pct(c.value("p90_abs_frac", 0.0)) + " | " +
           pct(c.value("max_abs_frac", 0.0)) + " | " + pct(c.value("signed_median_frac", 0.0), true) + " | " +
           pct(c.value("optimistic_frac", 0.0)) + " |\n";
  }
}

void by_family(const json& runs, std::string& out) {
  struct Family {
    std::string kind, task;
    std::vector<double> book, fit, held;
  };
  std::vector<std::string> order;
  std::map<std::string, Family> families;
  for (const auto& r : runs) {
    const std::string name = r.value("family", "");
    if (!families.count(name)) order.push_back(name);
    Family& f = families[name];
    f.kind = r.value("kind", "");
    f.task = r.value("task", "");
    f.book.push_back(r.value("book_error_frac", 0.0));
    (r.value("split", "") == "fit" ? f.fit : f.held).push_back(r.value("calibrated_error_frac", 0.0));
  }
  out +=
      "| family | chip kind | task | runs (fit / held) | book median | calibrated median, fit part | "
      "calibrated median, held part |\n|---|---|---|---|---|---|---|\n";
  for (const auto& name : order) {
    const Family& f = families[name];
    out += "| " + name + " | " + f.kind + " | " + f.task + " | " + std::to_string(f.fit.size() + f.held.size()) + " (" +
           std::to_string(f.fit.size()) + " / " + std::to_string(f.held.size()) + ") | " + pct(median_abs(f.book)) +
           " | " + (f.fit.empty() ? "—" : pct(median_abs(f.fit))) + " | " +
           (f.held.empty() ? "—" : pct(median_abs(f.held))) + " |\n";
  }
}

void holdout(const json& rows, std::string& out) {
  out +=
      "| family held out whole | architecture | runs in scope | book median | calibrated median | calibrated p90 | "
      "signed median | with excluded: runs | median | refit |\n|---|---|---|---|---|---|---|---|---|---|\n";
  auto cell = [](const json& stats, const char* key, bool sign = false) {
    return stats.is_object() ? pct(stats.value(key, 0.0), sign) : std::string("—");
  };
  for (const auto& r : rows) {
    const json& c = r["calibrated"];
    const json& all = r["calibrated_with_excluded"];
    out += "| " + r.value("family", "") + " | " + r.value("architecture", "") + " | " +
           (c.is_object() ? num(c.value("runs", 0.0)) : "0") + " | " + cell(r["book"], "median_abs_frac") + " | " +
           cell(c, "median_abs_frac") + " | " + cell(c, "p90_abs_frac") + " | " + cell(c, "signed_median_frac", true) +
           " | " + num(all.value("runs", 0.0)) + " | " + cell(all, "median_abs_frac") + " | " +
           (r.value("converged", false) ? "converged" : "not converged") + " |\n";
  }
}

double p90_abs(std::vector<double> v) {
  if (v.empty()) return 0;
  for (double& x : v) x = std::fabs(x);
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(std::ceil(0.9 * static_cast<double>(v.size()))) - 1];
}

// The three numbers side by side per chip kind and task, in scope and with the excluded runs too (issue 18: the
// table always reports both): how well the fit reproduces its own runs (never an excluded one), how well it
// interpolates to a fitted family's held siblings, and how well it transfers to a family it never saw (every
// family's runs pooled; the test suite gates the in-scope training median at 15%).
void transfer(const json& summary_groups, const json& holdout_rows, std::string& out) {
  std::map<std::string, std::vector<double>> pooled, pooled_all;
  for (const auto& f : holdout_rows)
    for (const auto& r : f["runs"]) {
      const std::string key = r.value("kind", "") + " | " + f.value("task", "");
      pooled_all[key].push_back(r.value("calibrated_error_frac", 0.0));
      if (!r.value("excluded", false)) pooled[key].push_back(r.value("calibrated_error_frac", 0.0));
    }
  out +=
      "| chip kind | task | runs | in sample: median | sibling held: runs | median | p90 | one family out: runs | "
      "median | p90 |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (const char* kind : {"tpu", "gpu"})
    for (const char* task : {"training", "serving"})
      for (const bool in_scope : {true, false}) {
        const json *fit = nullptr, *held = nullptr;
        for (const auto& g : summary_groups) {
          if (g.value("kind", "") != kind || g.value("task", "") != task || g.value("architecture", "all") != "all")
            continue;
          if (g.value("split", "") == "fit") fit = &g;
          if (g.value("split", "") == (in_scope ? "held_in_scope" : "held")) held = &g;
        }
        const std::vector<double>& family = (in_scope ? pooled : pooled_all)[std::string(kind) + " | " + task];
        auto median_of = [](const json* g) { return g ? pct(g->at("calibrated").value("median_abs_frac", 0.0)) : "—"; };
        auto p90_of = [](const json* g) { return g ? pct(g->at("calibrated").value("p90_abs_frac", 0.0)) : "—"; };
        out += std::string("| ") + kind + " | " + task + " | " + (in_scope ? "**in scope**" : "with excluded") + " | " +
               median_of(fit) + " | " + (held ? num(held->at("calibrated").value("runs", 0.0)) : "0") + " | " +
               median_of(held) + " | " + p90_of(held) + " | " + std::to_string(family.size()) + " | " +
               (family.empty() ? "—" : pct(median_abs(family))) + " | " +
               (family.empty() ? "—" : pct(p90_abs(family))) + " |\n";
      }
}

// The gated transfer figure (issue 34): per task, the median of the families' own medians when each is held out
// whole, the worst family, the runs off by more than 2x, and the runs pooled beside it.
void transfer_figure(const json& rows, std::string& out) {
  out +=
      "| chip kind | task | families | runs | **median of family medians** | worst family | its median | "
      "runs off by more than 2x | runs pooled: median |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& r : rows)
    out += "| " + r.value("kind", "") + " | " + r.value("task", "") + " | " + num(r.value("families", 0.0)) + " | " +
           num(r.value("runs", 0.0)) + " | **" + pct(r.value("median_of_family_medians_frac", 0.0)) + "** | " +
           r.value("worst_family", "") + " | " + pct(r.value("worst_family_median_frac", 0.0)) + " | " +
           num(r.value("runs_off_by_2x", 0.0)) + " | " + pct(r.value("pooled_median_frac", 0.0)) + " |\n";
}

void every_run(const json& runs, std::string& out) {
  out +=
      "| run | family | task | part | measured | book | calibrated | profile | not fitted because |\n"
      "|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& r : runs) {
    const std::string metric = r.value("metric", "") == "step_s" ? " s/step" : " tok/s";
    out += "| " + r.value("id", "") + " | " + r.value("family", "") + " | " + r.value("task", "") + " | " +
           r.value("split", "") + " | " + num(r.value("measured", 0.0)) + metric + " | " +
           pct(r.value("book_error_frac", 0.0), true) + " | " + pct(r.value("calibrated_error_frac", 0.0), true) +
           " | " + r.value("profile", "") + " | " + r.value("excluded", "") + " |\n";
  }
}

std::string gb(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
  return buf;
}

// Memory per chip (issue 34): every training run and memory check, predicted against its chip's HBM and against
// the measured peak where the source gives one.
void memory(const json& validation, std::string& out) {
  const json& s = validation["memory_summary"];
  const json& measured = s["measured"];
  out += "Training runs that state their plan in full (no `remat_auto`): **" + num(s.value("stated_fit", 0.0)) +
         " of " + num(s.value("stated_runs", 0.0)) + " fit**";
  if (s.value("stated_unexpressed", 0.0) > 0)
    out += " (" + num(s.value("stated_unexpressed", 0.0)) + " more say which setting the engine cannot express)";
  out += "; with `remat_auto`, " + num(s.value("auto_fit", 0.0)) + " of " + num(s.value("auto_runs", 0.0)) +
         " fit with the policy it picks. Measured peaks: ";
  if (measured.is_null())
    out += "none.\n\n";
  else
    out += num(measured.value("runs", 0.0)) + " figures, error median " + pct(measured.value("median_abs_frac", 0.0)) +
           ", max " + pct(measured.value("max_abs_frac", 0.0)) + " (" + num(s.value("measured_within_10pct", 0.0)) +
           " within 10%).\n\n";
  out +=
      "| run | family | remat | predicted | HBM | fits | measured | error | not expressible |\n"
      "|---|---|---|---|---|---|---|---|---|\n";
  auto row = [&](const std::string& id, const std::string& family, const json& m) {
    const bool has_measured = m.contains("measured_bytes");
    out += "| " + id + " | " + family + " | " + m.value("remat", "") + (m.value("remat_auto", false) ? " (auto)" : "") +
           " | " + gb(m.value("total_bytes", 0.0)) + " | " + gb(m.value("hbm_capacity_bytes", 0.0)) + " | " +
           (m.value("fits", false) ? "yes" : "**no**") + " | " +
           (has_measured ? gb(m.value("measured_bytes", 0.0)) : "") + " | " +
           (has_measured ? pct(m.value("error_frac", 0.0), true) : "") + " | " + m.value("unexpressed", "") + " |\n";
  };
  for (const auto& r : validation["runs"])
    if (r.contains("memory")) row(r.value("id", ""), r.value("family", ""), r["memory"]);
  for (const auto& c : validation["memory_checks"])
    row(c.value("id", ""), "memory check: " + c.value("source", ""), c["memory"]);
}

void priors(const json& priors, std::string& out) {
  out += "| parameter | TPU prior | width | source | GPU prior | width | source |\n|---|---|---|---|---|---|---|\n";
  for (const auto& [key, kinds] : priors["parameters"].items()) {
    out += "| `" + key + "` |";
    for (const char* kind : {"tpu", "gpu"}) {
      const json& p = kinds[kind];
      out += " " + num(p.value("value", 0.0)) + " | " + num(p.value("log_sigma", 0.0)) + " | " + p.value("source", "") +
             " |";
    }
    out += "\n";
  }
  out += "\n| source | kind | what it says |\n|---|---|---|\n";
  for (const auto& [id, s] : priors["sources"].items()) {
    const std::string cite = s.value("cite", "");
    out += "| " + (s.contains("url") ? "[" + id + "](" + s.value("url", "") + ")" : id) + " | " + s.value("kind", "") +
           " | " + cite + " |\n";
  }
}

void parameters(const json& profiles, std::string& out) {
  if (!profiles.is_array() || profiles.empty()) return;
  out += "| parameter |";
  std::string rule = "|---|";
  for (const auto& p : profiles) {
    out += " " + p.value("id", "") + " |";
    rule += "---|";
  }
  out += "\n" + rule + "\n";
  for (const auto& [key, unused] : profiles[0]["parameters"].items()) {
    out += "| `" + key + "` |";
    for (const auto& p : profiles) out += " " + num(p["parameters"].value(key, 0.0)) + " |";
    out += "\n";
  }
}

}  // namespace

std::string validation_markdown(const json& validation, const json& profiles) {
  std::string out;
  if (validation.contains("transfer")) {
    out +=
        "### Transfer: every family held out whole (the gated figure)\n\nEach family's own median |error| when the "
        "profiles are refitted without it, then the median of those medians per task (every family counts once, "
        "however many runs it has), the worst family, and the runs off by more than 2x; the runs pooled beside it "
        "(the figure the suite used to gate). In scope. `tests/unit/test_validation.cpp` gates both chip kinds "
        "together, training and serving apart.\n\n";
    transfer_figure(validation["transfer"], out);
    out += "\n";
  }
  out +=
      "### Summary\n\nError = predicted / measured − 1 for a step time, measured / predicted − 1 for a throughput "
      "(negative: optimistic). *In scope*: runs not marked excluded.\n\n";
  summary(validation["summary"], out, false);
  if (validation.contains("family_holdout")) {
    out +=
        "\n### Interpolation and transfer\n\nCalibrated, in scope and with the excluded runs: the fit on its own runs "
        "(never an excluded one, so both rows agree); the held siblings of "
        "fitted families (interpolation: most differ from a fitted run only in slices, batch or parallelism); and "
        "every family held out whole in turn, its runs pooled (the transfer to a framework or chip the fit has not "
        "seen; the gated figure is the median of the families' medians, above).\n\n";
    transfer(validation["summary"], validation["family_holdout"], out);
  }
  out +=
      "\n### Dense and MoE models\n\nThe same errors for dense models and mixture-of-experts models apart (every chip "
      "kind).\n\n";
  summary(validation["summary"], out, true);
  out += "\n### By family\n\n";
  by_family(validation["runs"], out);
  if (validation.contains("family_holdout")) {
    out +=
        "\n### Each family held out whole\n\nThe profiles refitted on every other family's fit runs (literature "
        "priors), then this family predicted: how the model transfers to a framework or chip it has not seen.\n\n";
    holdout(validation["family_holdout"], out);
  }
  out += "\n### Every run\n\n";
  every_run(validation["runs"], out);
  if (validation.contains("memory_summary")) {
    out +=
        "\n### Memory per chip\n\nThe calibrated step's memory per chip (weights, gradients, optimizer states, the "
        "activations in flight on the busiest stage, the transient buffers) against the chip's HBM, with the remat "
        "policy predicted (`auto`: the lightest of none, big_matmuls and block that fits), and against the peak the "
        "source measured where it printed one (error = predicted / measured − 1; `measured_memory_how` in the runs "
        "file says what each figure includes). GB = 1e9 bytes.\n\n";
    memory(validation, out);
  }
  if (validation.contains("priors")) {
    out +=
        "\n### Priors\n\nWhat the literature fit is pulled towards (`calibration_profiles/priors/literature.json`): "
        "each parameter's prior per chip kind, its width in log (0.3 is about 35%) and its source.\n\n";
    priors(validation["priors"], out);
  }
  out +=
      "\n### Profile parameters\n\nEach parameter's meaning and range are in "
      "`core/specs/calibration_profile.cpp` (`profile_parameters()`), its priors above; the fit's provenance is in "
      "each profile file (`calibration_profiles/`).\n\n";
  parameters(profiles, out);
  return out;
}

}  // namespace scalescope::cli
