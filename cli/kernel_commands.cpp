#include "kernel_commands.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "api.h"
#include "json_file.h"

namespace scalescope::cli {

const char* const kKernelUsage =
    "usage: scalescope kernels TABLES.json... [--markdown] [--write DIR]\n"
    "Fits each chip's kernel models to its measured kernel tables (docs/api.md 'kernel_fit'; tests/kernels/), then "
    "the\n"
    "GPU family's models from the chips' ('kernel_family'), and prints them with each op's error on held-out shapes.\n"
    "--markdown prints docs/validation.md's kernel tables; --write puts each chip's kernels and tiling in\n"
    "DIR/<chip>.json and the family's kernels in DIR/gpu.json (the calibration profiles; the rest of each file "
    "kept).\n";

namespace {

using nlohmann::json;

bool answered(const json& out, const std::string& what) {
  if (out.value("ok", false)) return true;
  for (const auto& d : out.value("diagnostics", json::array()))
    std::cerr << what << ": " << d.value("path", "") << ": " << d.value("code", "") << ": " << d.value("message", "")
              << "\n";
  return false;
}

std::string percent(double frac) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * frac);
  return buf;
}

std::string rows_and(std::size_t rows, double median, double p90) {
  if (rows == 0) return "— | — | —";
  return std::to_string(rows) + " | " + percent(median) + " | " + percent(p90);
}

// One table per chip: every op's fit and held-out errors.
std::string markdown(const std::vector<json>& fits) {
  std::string out =
      "Relative error |predicted / measured − 1| of each kernel model on its chip's table rows: the rows it was fitted "
      "on, every fifth row (held: interpolation between measured shapes) and one whole shape family no fitted row "
      "shares (held family: a model whose shapes were never measured). Latent attention (MLA) runs kernels of its own "
      "and has models of its own (variant `mla`). *fit*: how the fit stopped; `stalled` is a fit that no step improves "
      "whose gradient is still above the tolerance, at a kink of a piecewise model (a roofline's max, whole waves, the "
      "faster of two protocols) summed over hundreds of rows.\n\n";
  for (const json& f : fits) {
    const json& k = f["kernels"];
    out += "#### " + f.value("hardware", "") + "\n\n";
    const json& t = f["tiling"];
    out += "Tiling chosen by the bf16 GEMM fit: " + std::to_string(static_cast<int>(t.value("tile_m", 0.0))) + " x " +
           std::to_string(static_cast<int>(t.value("tile_n", 0.0))) +
           (t.value("parallel_tiles", 1.0) > 1 ? ", whole waves over the SMs" : ", no wave quantisation (stream-K)") +
           ".\n\n";
    out +=
        "| op | variant | fit rows | fit median | held rows | held median | held p90 | held family | family rows | "
        "family median | family p90 | signed median (held) | fit "
        "|\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const json& s : f["scores"]) {
      out += "| " + s.value("op", "") + " | " + s.value("variant", "") + " | " +
             std::to_string(s.value("fit_rows", 0)) + " | " +
             (s.value("fit_rows", 0) ? percent(s.value("fit_median_frac", 0.0)) : "—") + " | " +
             rows_and(s.value("held_rows", 0), s.value("held_median_frac", 0.0), s.value("held_p90_frac", 0.0)) +
             " | " + s.value("held_family", "") + " | " +
             rows_and(s.value("family_rows", 0), s.value("family_median_frac", 0.0), s.value("family_p90_frac", 0.0)) +
             " | " + percent(s.value("signed_median_frac", 0.0)) + " | " + s.value("stop", "") + " |\n";
    }
    out += "\nTables: ";
    bool first = true;
    for (const json& table : k["source"].value("tables", json::array())) {
      out += (first ? "" : "; ") + table.get<std::string>();
      first = false;
    }
    out += " (" + k["source"].value("repository", "") + " @ " + k["source"].value("commit", "").substr(0, 12) + ", " +
           k["source"].value("licence", "") + ").";
    if (!k["source"].value("unfitted", json::array()).empty()) {
      out += " No table for:";
      for (const json& u : k["source"]["unfitted"]) out += " " + u.get<std::string>();
      out += " (the GPU family's constants).";
    }
    out += "\n\n";
  }
  return out;
}

// Replaces `kernels` (and `tiling`, when given) in the profile file dir/id.json.
bool update_profile(const std::string& dir, const std::string& id, const json& kernels, const json* tiling) {
  const std::string path = dir + "/" + id + ".json";
  json profile;
  if (!read_json_file(path, profile) || !profile.is_object()) {
    std::cerr << "scalescope kernels: cannot read the profile '" << path << "'\n";
    return false;
  }
  profile["kernels"] = kernels;
  if (tiling) profile["tiling"] = *tiling;
  std::ofstream out(path);
  if (!(out << profile.dump(1) << "\n")) {
    std::cerr << "scalescope kernels: cannot write '" << path << "'\n";
    return false;
  }
  std::cout << "wrote " << path << "\n";
  return true;
}

}  // namespace

int run_kernel_command(const KernelOptions& options) {
  std::vector<json> fits;
  json chips = json::array();
  for (const std::string& file : options.files) {
    json tables;
    if (!read_json_file(file, tables) || !tables.is_object() || !tables.contains("hardware")) {
      std::cerr << "scalescope kernels: '" << file << "' is not a kernel-table file\n" << kKernelUsage;
      return 2;
    }
    const json scenario{{"hardware", {{"preset", tables["hardware"]}}},
                        {"query", {{"kind", "kernel_fit"}, {"tables", tables}}}};
    const json out = json::parse(evaluate_json(scenario.dump()), nullptr, false);
    if (!answered(out, file)) return 1;
    fits.push_back(out["result"]);
    chips.push_back({{"hardware", out["result"]["hardware"]}, {"kernels", out["result"]["kernels"]}});
  }
  const json family =
      json::parse(evaluate_json(json{{"query", {{"kind", "kernel_family"}, {"chips", chips}}}}.dump()), nullptr, false);
  if (!answered(family, "kernel_family")) return 1;
  // Each chip's models with the ones it had no table for filled in from the family.
  for (std::size_t i = 0; i < fits.size(); ++i) fits[i]["kernels"] = family["result"]["chips"][i]["kernels"];
  if (!options.write_dir.empty()) {
    for (const json& f : fits)
      if (!update_profile(options.write_dir, f.value("hardware", ""), f["kernels"], &f["tiling"])) return 2;
    return update_profile(options.write_dir, "gpu", family["result"]["family"], nullptr) ? 0 : 2;
  }
  if (options.markdown) {
    std::cout << markdown(fits);
    return 0;
  }
  std::cout << json{{"chips", fits}, {"family", family["result"]["family"]}}.dump(1) << "\n";
  return 0;
}

}  // namespace scalescope::cli
