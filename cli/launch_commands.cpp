#include "launch_commands.h"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "api.h"
#include "io/json_text.h"
#include "io/limits.h"
#include "json_file.h"

namespace scalescope::cli {

namespace {

using nlohmann::json;

constexpr const char* kLaunchUsage =
    "usage: scalescope launch --for FRAMEWORK SCENARIO.json [--json]\n"
    "Writes the scenario's training_step or serving plan as FRAMEWORK's launch configuration (maxtext, megatron,\n"
    "megatron-bridge, deepspeed; vllm, sglang, trtllm) on stdout, with comments for what the framework cannot\n"
    "express and what the engine does not decide (on stderr for a JSON config). --json prints the engine's answer.\n";

constexpr const char* kImportUsage =
    "usage: scalescope import --for FRAMEWORK CONFIG [--scenario BASE.json] [--chips N] [--seq-len N]\n"
    "                         [--prompt-len N --generated-len N] [--json]\n"
    "Reads FRAMEWORK's launch configuration (a command line, a YAML or a JSON file; '-' for stdin) into a scenario,\n"
    "printed on stdout ready for `scalescope -`: BASE's hardware, model and mesh with the plan the config gives.\n"
    "What it could not map and what it assumed go to stderr. --json prints the engine's answer.\n";

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

bool positive_number(const char* text, double& out) {
  char* end = nullptr;
  out = std::strtod(text, &end);
  return end && *end == '\0' && out > 0;
}

}  // namespace

int run_launch_command(int argc, char** argv) {
  std::string framework, file;
  bool raw = false;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--for" && i + 1 < argc)
      framework = argv[++i];
    else if (arg == "--json")
      raw = true;
    else if (arg == "--help" || arg == "-h")
      return std::cout << kLaunchUsage, 0;
    else if (file.empty() && (arg == "-" || arg[0] != '-'))
      file = arg;
    else
      return std::cerr << "scalescope launch: unexpected '" << arg << "'\n" << kLaunchUsage, 2;
  }
  if (framework.empty() || file.empty()) return std::cerr << kLaunchUsage, 2;
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
  ask["query"] = {{"kind", "launch_config"}, {"framework", framework}, {"plan", scenario["query"]}};
  int status = 0;
  const std::optional<json> answered = result_of(ask, file, raw, status);
  if (!answered) return status;
  const json& result = *answered;
  std::cout << result.value("text", "");
  if (result.value("format", "") == "json") {  // JSON has no comments: the notes go beside it
    for (const json& n : result["unexpressed"]) std::cerr << "not expressible: " << n.value("text", "") << "\n";
    for (const json& n : result["undecided"]) std::cerr << "not decided: " << n.get<std::string>() << "\n";
  }
  return 0;
}

int run_import_command(int argc, char** argv) {
  std::string framework, file, base_file;
  bool raw = false;
  json extra = json::object();
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    double v = 0;
    if (arg == "--for" && has_value)
      framework = argv[++i];
    else if (arg == "--scenario" && has_value)
      base_file = argv[++i];
    else if ((arg == "--chips" || arg == "--seq-len" || arg == "--prompt-len" || arg == "--generated-len") &&
             has_value) {
      if (!positive_number(argv[++i], v))
        return std::cerr << "scalescope import: " << arg << " takes a positive number\n", 2;
      std::string key = arg.substr(2);
      for (char& c : key) c = c == '-' ? '_' : c;
      extra[key] = v;
    } else if (arg == "--json")
      raw = true;
    else if (arg == "--help" || arg == "-h")
      return std::cout << kImportUsage, 0;
    else if (file.empty() && (arg == "-" || arg[0] != '-'))
      file = arg;
    else
      return std::cerr << "scalescope import: unexpected '" << arg << "'\n" << kImportUsage, 2;
  }
  if (framework.empty() || file.empty()) return std::cerr << kImportUsage, 2;
  std::string text;
  if (!read_text_file(file, text)) return std::cerr << "scalescope import: cannot read '" << file << "'\n", 2;
  json base = json::object();
  if (!base_file.empty() && !read_json_file(base_file, base)) return 2;
  if (!base.is_object()) return std::cerr << base_file << ": a scenario object\n", 2;
  json ask = json::object();
  for (const char* key : {"hardware", "model", "mesh"})
    if (base.contains(key)) ask[key] = base[key];
  ask["query"] = {{"kind", "import_config"}, {"framework", framework}, {"text", text}};
  ask["query"].update(extra);
  int status = 0;
  const std::optional<json> answered = result_of(ask, file, raw, status);
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
