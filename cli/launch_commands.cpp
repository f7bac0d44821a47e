#include "launch_commands.h"

#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "api.h"
#include "io/json_text.h"
#include "io/limits.h"
#include "json_file.h"

namespace scalescope::cli {

const char* const kLaunchUsage =
    "usage: scalescope launch --for FRAMEWORK SCENARIO.json [--json]\n"
    "Writes the scenario's training_step or serving plan as FRAMEWORK's launch configuration (maxtext, megatron,\n"
    "megatron-bridge, deepspeed; vllm, sglang, trtllm) on stdout, with comments for what the framework cannot\n"
    "express and what the engine does not decide (on stderr for a JSON config). --json prints the engine's answer.\n";

const char* const kImportUsage =
    "usage: scalescope import --for FRAMEWORK CONFIG [--scenario BASE.json] [--chips N] [--seq-len N]\n"
    "                         [--prompt-len N --generated-len N] [--json]\n"
    "Reads FRAMEWORK's launch configuration (a command line, a YAML or a JSON file; '-' for stdin) into a scenario,\n"
    "printed on stdout ready for `scalescope -`: BASE's hardware, model and mesh with the plan the config gives.\n"
    "What it could not map and what it assumed go to stderr. --json prints the engine's answer.\n";

namespace {

using nlohmann::json;

// Each diagnostic of a refused answer on stderr, as path: code: message.
int refused(const json& answer, const std::string& what) {
  for (const json& d : answer.value("diagnostics", json::array()))
    std::cerr << what << ": " << d.value("path", "") << ": " << d.value("code", "") << ": " << d.value("message", "")
              << "\n";
  return 1;
}

// The engine's result for `ask`, or nothing when the command is done: refused (its diagnostics on stderr, status 1)
// or --json (the whole answer printed, status 0).
std::optional<json> result_of(const json& ask, const std::string& what, bool raw, int& status) {
  const json answer = json::parse(evaluate_json(to_text(ask)));
  if (!answer.value("ok", false)) {
    status = refused(answer, what);
    return std::nullopt;
  }
  if (raw) {
    std::cout << to_text(answer, 2) << "\n";
    status = 0;
    return std::nullopt;
  }
  return answer["result"];
}

bool read_text_file(const std::string& path, std::string& out) {
  if (path == "-") return read_input_text(std::cin, out);
  std::ifstream in(path, std::ios::binary);
  return in && read_input_text(in, out);
}

}  // namespace

int run_launch_command(const LaunchOptions& options) {
  const std::string& file = options.file;
  json scenario;
  if (file == "-") {
    std::string text;
    Diagnostics d;
    read_input_text(std::cin, text);
    scenario = parse_document(text, d);
    if (!d.empty()) return std::cerr << "stdin: " << d.front().code << ": " << d.front().message << "\n", 2;
  } else if (!read_json_file(file, scenario)) {
    return 2;
  }
  if (!scenario.is_object() || !scenario.contains("query"))
    return std::cerr << file << ": a scenario with a training_step or serving query\n", 2;
  json ask = scenario;
  ask["query"] = {{"kind", "launch_config"}, {"framework", options.framework}, {"plan", scenario["query"]}};
  int status = 0;
  const std::optional<json> answered = result_of(ask, file, options.json, status);
  if (!answered) return status;
  const json& result = *answered;
  std::cout << result.value("text", "");
  if (result.value("format", "") == "json") {  // JSON has no comments: the notes go beside it
    for (const json& n : result["unexpressed"]) std::cerr << "not expressible: " << n.value("text", "") << "\n";
    for (const json& n : result["undecided"]) std::cerr << "not decided: " << n.get<std::string>() << "\n";
  }
  return 0;
}

int run_import_command(const ImportOptions& options) {
  const std::string &file = options.file, &base_file = options.base_file;
  json extra = json::object();
  const std::pair<const char*, double> hints[] = {{"chips", options.chips},
                                                  {"seq_len", options.seq_len},
                                                  {"prompt_len", options.prompt_len},
                                                  {"generated_len", options.generated_len}};
  for (const auto& [key, value] : hints)
    if (value > 0) extra[key] = value;
  std::string text;
  if (!read_text_file(file, text)) return std::cerr << "scalescope import: cannot read '" << file << "'\n", 2;
  json base = json::object();
  if (!base_file.empty() && !read_json_file(base_file, base)) return 2;
  if (!base.is_object()) return std::cerr << base_file << ": a scenario object\n", 2;
  json ask = json::object();
  for (const char* key : {"hardware", "model", "mesh"})
    if (base.contains(key)) ask[key] = base[key];
  ask["query"] = {{"kind", "import_config"}, {"framework", options.framework}, {"text", text}};
  ask["query"].update(extra);
  int status = 0;
  const std::optional<json> answered = result_of(ask, file, options.json, status);
  if (!answered) return status;
  const json& result = *answered;
  for (const json& u : result["unmapped"])
    std::cerr << "not mapped: " << u.value("key", "") << "=" << u.value("value", "") << " (line " << u.value("line", 0)
              << ": " << u.value("reason", "") << ")\n";
  for (const json& a : result["assumed"]) std::cerr << "assumed: " << a.get<std::string>() << "\n";
  json scenario = ask;
  scenario.erase("query");
  for (const auto& [key, value] : result["scenario"].items()) scenario[key] = value;
  scenario["version"] = 1;
  std::cout << to_text(scenario, 2) << "\n";
  return 0;
}

}  // namespace scalescope::cli
