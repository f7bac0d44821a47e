#include "specs/presets.h"

#include <map>

#include "io/json_text.h"
#include "io/text.h"
#include "specs/hf_config.h"

namespace scalescope {

std::vector<std::string> preset_ids(std::span<const PresetText> presets) {
  std::vector<std::string> ids;
  for (const auto& p : presets) ids.emplace_back(p.id);
  return ids;
}

const PresetText* find_preset(std::span<const PresetText> presets, std::string_view id) {
  for (const auto& p : presets)
    if (id == p.id) return &p;
  return nullptr;
}

const Json& preset_json(const PresetText& preset) {
  // One slot per embedded preset, filled on first use; the texts are compile-time data, so the map never changes
  // after it is built (thread-safe static initialisation).
  static const std::map<const char*, Json> parsed = [] {
    std::map<const char*, Json> all;
    for (const auto& p : hardware_preset_texts()) all.emplace(p.json, Json::parse(p.json, nullptr, false));
    for (const auto& p : model_preset_texts()) all.emplace(p.json, Json::parse(p.json, nullptr, false));
    return all;
  }();
  return parsed.at(preset.json);
}

namespace {

// Shared by hardware and models: {"preset": id, "overrides": {...}} -> merged JSON and the path its errors belong to.
template <typename T, typename Parse>
T resolve(const Json& node, const std::string& path, std::span<const PresetText> presets, const char* what, Parse parse,
          Diagnostics& d) {
  if (!node.is_object()) {
    add_diagnostic(d, path, "wrong_type", std::string("'") + what + "' must be an object like {\"preset\": \"...\"}");
    return T{};
  }
  if (!node.contains("preset")) return parse(node, path, false, d);  // a full inline definition
  JsonReader r(node, path, d);
  const auto id = r.string("preset", true);
  const Json* overrides = r.object("overrides", false);
  r.finish();
  if (!id) return T{};
  const PresetText* preset = find_preset(presets, *id);
  if (!preset) {
    add_diagnostic(
        d, r.path_of("preset"), "unknown_preset",
        std::string("unknown ") + what + " preset " + quote(*id) + "; valid: " + join_choices(preset_ids(presets)));
    return T{};
  }
  Json merged = preset_json(*preset);
  if (!overrides) return parse(merged, path, false, d);
  // nlohmann's merge_patch recurses as deep as the patch goes (issue 12: a stack overflow at 50,000 levels).
  if (!check_depth(*overrides, r.path_of("overrides"), d)) return T{};
  merged.merge_patch(*overrides);
  return parse(merged, r.path_of("overrides"), false, d);
}

}  // namespace

Hardware resolve_hardware(const Json& node, const std::string& path, Diagnostics& d) {
  return resolve<Hardware>(node, path, hardware_preset_texts(), "hardware", parse_hardware, d);
}

ModelConfig resolve_model(const Json& node, const std::string& path, Diagnostics& d) {
  if (node.is_object() && node.contains("hf_config")) return resolve_hf_model(node, path, d);  // a pasted config.json
  if (node.is_object() && node.contains("model_type") && !node.contains("preset")) {
    // A config.json given as the model itself: one hint, not a missing key for every field of the engine's own.
    const Json& type = node["model_type"];
    add_diagnostic(d, path, "wrong_type",
                   "this looks like a Hugging Face config.json (it has model_type " +
                       quote(type.is_string() ? type.get<std::string>() : type.dump(), 40) +
                       "): give it as {\"hf_config\": {...}}, or describe the model with the engine's own keys "
                       "(docs/api.md \"model\")");
    return ModelConfig{};
  }
  return resolve<ModelConfig>(node, path, model_preset_texts(), "model", parse_model, d);
}

Diagnostics validate_presets() {
  Diagnostics d;
  auto check = [&](std::span<const PresetText> presets, const char* dir, auto parse) {
    for (const auto& p : presets) {
      const std::string path = std::string(dir) + "/" + p.id + ".json";
      Json j = Json::parse(p.json, nullptr, false);
      if (j.is_discarded()) {
        add_diagnostic(d, path, "malformed_json", "not valid JSON");
        continue;
      }
      parse(j, path, true, d);
      if (j.is_object() && j.value("id", "") != p.id)
        add_diagnostic(d, path + "/id", "id_mismatch", "'id' must equal the file name");
    }
  };
  check(hardware_preset_texts(), "hardware_presets", parse_hardware);
  check(model_preset_texts(), "model_presets", parse_model);
  return d;
}

}  // namespace scalescope
