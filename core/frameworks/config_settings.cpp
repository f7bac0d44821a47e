#include "frameworks/config_settings.h"

#include <cmath>

#include "frameworks/launch_plan.h"

namespace scalescope {

ConfigSettings::ConfigSettings(ConfigText text, std::string (*normalize)(const std::string&))
    : text_(std::move(text)), normalize_(normalize) {
  for (const ConfigEntry& e : text_.entries) names_.push_back(normalize_(e.key));
  outcome_.assign(text_.entries.size(), "");
  mapped_.assign(text_.entries.size(), false);
}

ConfigEntry* ConfigSettings::find(const std::string& name) {
  for (std::size_t i = names_.size(); i-- > 0;)
    if (names_[i] == name) return &text_.entries[i];
  return nullptr;
}

bool ConfigSettings::has(const std::string& name) const {
  for (const std::string& n : names_)
    if (n == name) return true;
  return false;
}

const ConfigEntry* ConfigSettings::take(const std::string& name, const std::string& setting) {
  const ConfigEntry* found = nullptr;
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) {
      found = &text_.entries[i];
      outcome_[i] = setting;  // earlier ones are overridden by the last: all mapped to the same setting
      mapped_[i] = true;
    }
  return found;
}

bool ConfigSettings::number_in(const std::string& name, const std::string& setting, double& out,
                               const NumberRange& range) {
  const ConfigEntry* e = take(name, setting);
  if (!e) return false;
  double v = 0;
  if (!config_number(e->value, v)) {
    refuse(name, "not a number");
    return false;
  }
  if (v < range.min || v > range.max || (range.whole && v != std::floor(v))) {
    refuse(name, std::string(range.whole ? "not a whole number" : "not a number") + " from " + config_value(range.min) +
                     " to " + config_value(range.max));
    return false;
  }
  out = v;
  return true;
}

bool ConfigSettings::positive_integer(const std::string& name, const std::string& setting, double& out) {
  static constexpr NumberRange kPositive{"positive", 1, 1e9, true, ""};
  return number_in(name, setting, out, kPositive);
}

bool ConfigSettings::boolean(const std::string& name, const std::string& setting, bool& out) {
  const ConfigEntry* e = take(name, setting);
  if (!e) return false;
  if (config_boolean(e->value, out)) return true;
  refuse(name, "not true or false");
  return false;
}

void ConfigSettings::refuse(const std::string& name, const std::string& reason) {
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) {
      outcome_[i] = reason;
      mapped_[i] = false;
    }
}

void ConfigSettings::note(const std::string& name, const std::string& reason) {
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name && outcome_[i].empty()) outcome_[i] = reason;
}

Json ConfigSettings::mapped_json() const {
  Json out = Json::array();
  for (std::size_t i = 0; i < text_.entries.size(); ++i)
    if (mapped_[i])
      out.push_back({{"key", text_.entries[i].key},
                     {"value", text_.entries[i].value},
                     {"line", text_.entries[i].line},
                     {"setting", outcome_[i]}});
  return out;
}

Json ConfigSettings::unmapped_json() const {
  Json out = Json::array();
  for (std::size_t i = 0; i < text_.entries.size(); ++i)
    if (!mapped_[i])
      out.push_back({{"key", text_.entries[i].key},
                     {"value", text_.entries[i].value},
                     {"line", text_.entries[i].line},
                     {"reason", outcome_[i].empty() ? "not a setting the engine prices" : outcome_[i]}});
  return out;
}

}  // namespace scalescope
