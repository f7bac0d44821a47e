#include "arguments.h"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "calibration_commands.h"
#include "frameworks/framework.h"
#include "kernel_commands.h"
#include "launch_commands.h"
#include "scenario_command.h"
#include "serving_benchmark_command.h"
#include "trace_command.h"

namespace scalescope::cli {

namespace {

// Every command's options, as the parse fills them.
struct Options {
  ScenarioOptions scenario;
  CalibrationOptions calibrate, validate;
  KernelOptions kernels;
  ServingBenchmarkOptions serving;
  TraceOptions trace;
  LaunchOptions launch;
  ImportOptions import;
};

// A command's help is its usage text (what it prints after a usage error too); an option given twice takes the last.
void describe(CLI::App& app, const char* usage) {
  app.formatter_fn([usage](const CLI::App*, const std::string&, CLI::AppFormatMode) { return std::string(usage); });
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

CLI::App* subcommand(CLI::App& app, const char* name, const char* usage) {
  CLI::App* sub = app.add_subcommand(name);
  describe(*sub, usage);
  return sub;
}

// The options several commands share, each defined once.
void add_markdown(CLI::App& app, bool& into) { app.add_flag("--markdown", into, "docs/validation.md's tables"); }
void add_write(CLI::App& app, std::string& into) {
  app.add_option("--write", into, "write the fitted files to DIR")->type_name("DIR");
}
void add_json(CLI::App& app, bool& into) { app.add_flag("--json", into, "print the engine's answer"); }
void add_framework(CLI::App& app, std::string& into) {
  app.add_option("--for", into, "the framework")
      ->type_name("FRAMEWORK")
      ->required()
      ->check(CLI::IsMember(framework_names()));
}

// A number above zero (strtod's syntax), for import's hints.
const CLI::Validator kPositive(
    [](const std::string& text) {
      char* end = nullptr;
      const double value = std::strtod(text.c_str(), &end);
      return end && *end == '\0' && value > 0 ? std::string() : std::string("takes a positive number");
    },
    "POSITIVE");

void define_scenario(CLI::App& app, ScenarioOptions& o) {
  describe(app, kScenarioUsage);
  app.add_flag("--summary", o.summary, "the headline numbers, what binds, whether it fits, what to try next");
  app.add_flag("--table", o.table, "every number, for people");
  app.add_flag("--validate", o.validate, "the scenario's diagnostics, without the result");
  app.add_flag("--progress", o.progress, "a plan search's progress on stderr, a line per call");
  app.add_flag("--hf-model", o.hf_model, "the model the engine reads from a Hugging Face config.json");
  app.add_flag("--presets", o.presets, "every preset, as JSON");
  app.add_flag("--check-presets", o.check_presets, "check every embedded preset");
  app.add_flag("--version", o.version, "the engine's version");
  app.add_option("SCENARIO", o.file, "the scenario file, or '-' (or nothing) for stdin");
}

void define_calibration(CLI::App& app, Options& o) {
  o.calibrate.command = "calibrate";
  o.validate.command = "validate";
  CLI::App* calibrate = subcommand(app, "calibrate", kCalibrationUsage);
  calibrate->add_option("RUNS", o.calibrate.file, "the runs file");
  calibrate->add_option("--priors", o.calibrate.priors, "the fit's priors")
      ->check(CLI::IsMember({"literature", "embedded"}));
  calibrate->add_option("--source", o.calibrate.source, "the profiles' source")->type_name("TEXT");
  calibrate->add_option("--prefix", o.calibrate.prefix, "the profiles' id prefix")->type_name("ID");
  add_write(*calibrate, o.calibrate.write_dir);
  CLI::App* validate = subcommand(app, "validate", kCalibrationUsage);
  validate->add_option("RUNS", o.validate.file, "the runs file");
  add_markdown(*validate, o.validate.markdown);
}

void define_benchmarks(CLI::App& app, Options& o) {
  CLI::App* kernels = subcommand(app, "kernels", kKernelUsage);
  kernels->add_option("TABLES", o.kernels.files, "measured kernel tables")->required();
  add_markdown(*kernels, o.kernels.markdown);
  add_write(*kernels, o.kernels.write_dir);
  CLI::App* serving = subcommand(app, "validate-serving", kServingBenchmarkUsage);
  serving->add_option("TABLE", o.serving.file, "a measured serving benchmark table (CSV)")->required();
  add_markdown(*serving, o.serving.markdown);
  add_write(*serving, o.serving.write_dir);
}

void define_trace(CLI::App& app, TraceOptions& o) {
  CLI::App* trace = subcommand(app, "trace", kTraceUsage);
  trace->add_option("TRACE", o.files, "profiler traces, whole or gzipped")->required();
  auto keep = [&trace](const char* name, std::optional<std::string>& into, const char* type, const char* what) {
    trace
        ->add_option_function<std::string>(
            name, [&into](const std::string& value) { into = value; }, what)
        ->type_name(type);
  };
  keep("--hardware", o.hardware, "PRESET", "the chip's preset");
  keep("--top", o.top, "N", "how many of the ops that lose the most time");
  keep("--scenario", o.scenario, "PLAN.json", "the training_step scenario the trace ran");
  keep("--steps", o.steps, "N", "the steps the trace holds");
  trace->add_option("--kernel-tables", o.kernel_tables, "write the trace's kernel tables")->type_name("OUT.json");
  add_json(*trace, o.json);
}

void define_launch(CLI::App& app, Options& o) {
  CLI::App* launch = subcommand(app, "launch", kLaunchUsage);
  add_framework(*launch, o.launch.framework);
  launch->add_option("SCENARIO", o.launch.file, "the scenario, or '-' for stdin")->required();
  add_json(*launch, o.launch.json);
  CLI::App* import = subcommand(app, "import", kImportUsage);
  add_framework(*import, o.import.framework);
  import->add_option("CONFIG", o.import.file, "the launch config, or '-' for stdin")->required();
  import->add_option("--scenario", o.import.base_file, "the hardware, model and mesh")->type_name("BASE.json");
  import->add_option("--chips", o.import.chips, "the world size")->check(kPositive);
  import->add_option("--seq-len", o.import.seq_len, "the sequence length")->check(kPositive);
  import->add_option("--prompt-len", o.import.prompt_len, "the prompt's length")->check(kPositive);
  import->add_option("--generated-len", o.import.generated_len, "the generated length")->check(kPositive);
  add_json(*import, o.import.json);
}

// --help prints the usage of the command asked about (exit 0); any other error names the argument, then the usage.
int parse_error(const CLI::App& app, const CLI::ParseError& e) {
  if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
    std::cout << app.help();
    return 0;
  }
  const std::vector<CLI::App*> chosen = app.get_subcommands();
  std::cerr << "scalescope" << (chosen.empty() ? "" : " " + chosen.front()->get_name()) << ": " << e.what() << "\n"
            << app.help();
  return 2;
}

}  // namespace

int run_command_line(int argc, char** argv) {
  Options o;
  CLI::App app;
  define_scenario(app, o.scenario);
  define_calibration(app, o);
  define_benchmarks(app, o);
  define_trace(app, o.trace);
  define_launch(app, o);
  app.require_subcommand(0, 1);  // a subcommand's own arguments are never taken for another subcommand
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return parse_error(app, e);
  }
  const std::vector<std::pair<const char*, std::function<int()>>> commands = {
      {"calibrate", [&] { return run_calibration_command(o.calibrate); }},
      {"validate", [&] { return run_calibration_command(o.validate); }},
      {"kernels", [&] { return run_kernel_command(o.kernels); }},
      {"validate-serving", [&] { return run_serving_benchmark_command(o.serving); }},
      {"trace", [&] { return run_trace_command(o.trace); }},
      {"launch", [&] { return run_launch_command(o.launch); }},
      {"import", [&] { return run_import_command(o.import); }}};
  for (const auto& [name, run] : commands)
    if (app.got_subcommand(name)) return run();
  return run_scenario_command(o.scenario);
}

}  // namespace scalescope::cli
