// The preset files, embedded at build time (cmake/embed_presets.cmake), looked up by id.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/diagnostics.h"
#include "specs/hardware.h"
#include "specs/model.h"

namespace scalescope {

struct PresetText {
  const char* id;
  const char* json;
};

std::span<const PresetText> hardware_preset_texts();  // generated
std::span<const PresetText> model_preset_texts();     // generated

std::vector<std::string> preset_ids(std::span<const PresetText> presets);
const PresetText* find_preset(std::span<const PresetText> presets, std::string_view id);
// The preset parsed once and kept (immutable after the first call): a scenario per slider move must not re-parse
// the preset text.
const Json& preset_json(const PresetText& preset);

// Resolves a scenario's {"preset": id, "overrides": {...}} or a full inline object into a validated value.
// Overrides are merged into the preset (RFC 7386 merge patch) and the result validated strictly.
Hardware resolve_hardware(const Json& node, const std::string& path, Diagnostics& diagnostics);
ModelConfig resolve_model(const Json& node, const std::string& path, Diagnostics& diagnostics);

// Validates every embedded preset (schema, sources, id = file name); returns all diagnostics.
Diagnostics validate_presets();

}  // namespace scalescope
