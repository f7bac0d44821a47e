#include "calibration_commands.h"

#include <fstream>
#include <iostream>
#include <string>

#include "api.h"
#include "json_file.h"
#include "validation_report.h"

namespace scalescope::cli {

const char* const kCalibrationUsage =
    "usage: scalescope calibrate RUNS.json [--priors literature|embedded] [--source TEXT] [--prefix ID] [--write DIR]\n"
    "       scalescope validate RUNS.json [--markdown]\n"
    "calibrate fits calibration profiles to the runs (docs/api.md 'calibrate') and prints them; --write puts each\n"
    "profile in DIR/<id>.json (keeping an existing file's notes). validate predicts every run at both fidelities\n"
    "with the embedded profiles and prints the errors; --markdown prints docs/validation.md's tables.\n";

namespace {

using nlohmann::json;

json evaluate_query(json query) {
  return json::parse(evaluate_json(json{{"query", std::move(query)}}.dump()), nullptr, false);
}

bool report_diagnostics(const json& out) {
  if (out.value("ok", false)) return true;
  for (const auto& d : out.value("diagnostics", json::array()))
    std::cerr << d.value("path", "") << ": " << d.value("code", "") << ": " << d.value("message", "") << "\n";
  return false;
}

// Writes each profile to dir/<id>.json, carrying over the notes (sources of the tiling) of the file it replaces.
bool write_profiles(const json& profiles, const std::string& dir) {
  for (json p : profiles) {
    const std::string path = dir + "/" + p.value("id", "profile") + ".json";
    json old;
    if (read_json_file(path, old) && old.contains("notes")) p["notes"] = old["notes"];
    std::ofstream out(path);
    if (!(out << p.dump(1) << "\n")) {
      std::cerr << "scalescope: cannot write '" << path << "'\n";
      return false;
    }
    std::cout << "wrote " << path << "\n";
  }
  return true;
}

}  // namespace

int run_calibration_command(const CalibrationOptions& options) {
  const std::string& command = options.command;
  const std::string& file = options.file;
  json runs_file;
  if (file.empty() || !read_json_file(file, runs_file) || !runs_file.is_object() || !runs_file.contains("runs")) {
    std::cerr << "scalescope " << command << ": give a runs file with a 'runs' array\n" << kCalibrationUsage;
    return 2;
  }
  if (command == "calibrate") {
    json query{{"kind", "calibrate"}, {"runs", runs_file["runs"]}, {"priors", options.priors}};
    if (!options.source.empty()) query["source"] = options.source;
    if (!options.prefix.empty()) query["profile_prefix"] = options.prefix;
    const json out = evaluate_query(query);
    if (!report_diagnostics(out)) return 1;
    if (!options.write_dir.empty()) return write_profiles(out["result"]["profiles"], options.write_dir) ? 0 : 2;
    std::cout << out.dump(1) << "\n";
    return 0;
  }
  json query{{"kind", "validation"}, {"runs", runs_file["runs"]}, {"family_holdout", options.markdown}};
  if (runs_file.contains("memory_checks")) query["memory_checks"] = runs_file["memory_checks"];
  const json out = evaluate_query(query);
  if (!report_diagnostics(out)) return 1;
  if (!options.markdown) {
    std::cout << out.dump(1) << "\n";
    return 0;
  }
  const json presets = json::parse(presets_json(), nullptr, false);
  std::cout << validation_markdown(out["result"], presets.value("calibration_profiles", json::array()));
  return 0;
}

}  // namespace scalescope::cli
