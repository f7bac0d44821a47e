// The explorer's first-load module (and the trace module) leave out the config.json reader (core/specs/hf_*.cpp): a
// reader pastes a config rarely, and the page then asks the launch module's `model` query once for the model's
// fields, which its scenarios carry from then on (docs/architecture.md "What the page ships"). A scenario with an
// hf_config that reaches this module anyway gets a diagnostic that says so.
#include "specs/hf_config.h"

namespace scalescope {

namespace {

void not_in_this_module(const std::string& path, Diagnostics& d) {
  add_diagnostic(d, path, "not_in_module",
                 "this build of the engine (the explorer's first-load module) reads no config.json: the explorer "
                 "reads one with its launch module; the CLI and Python read it directly");
}

}  // namespace

Json hf_config_to_model(const Json&, const std::string& path, Diagnostics& d) {
  not_in_this_module(path, d);
  return Json::object();
}

ModelConfig resolve_hf_model(const Json&, const std::string& path, Diagnostics& d) {
  not_in_this_module(path + "/hf_config", d);
  return {};
}

}  // namespace scalescope
