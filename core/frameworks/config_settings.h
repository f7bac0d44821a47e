// A launch config's settings as an importer takes them: each looked up by its framework's name, marked as mapped to
// the engine setting it became, or refused with the reason; whatever is left was not mapped, and the answer says so.
#pragma once
#include <string>
#include <vector>

#include "frameworks/config_text.h"
#include "io/json_reader.h"
#include "io/ranges.h"

namespace scalescope {

// The ranges a config's numbers are read in (its keys are a framework's, not a scenario's: the engine's range table
// does not name them).
inline constexpr NumberRange kConfigFraction{"fraction", 0, 1, false, ""};          // dropout rates
inline constexpr NumberRange kConfigFactor{"factor", -1, 1000, false, ""};          // capacity factors (-1: none)
inline constexpr NumberRange kConfigCount{"count", 0, 1e9, true, ""};               // layers, stages, ZeRO stages
inline constexpr NumberRange kConfigDegree{"degree", -1, 1 << 24, true, ""};        // MaxText's (-1: the rest)
inline constexpr NumberRange kConfigBatch{"batch", 1e-6, 1e9, false, "sequences"};  // MaxText's batch per chip

class ConfigSettings {
 public:
  // `normalize` turns a written key into the framework's setting name (Megatron: "--micro-batch-size" and
  // "train.micro_batch_size" are both "micro_batch_size").
  ConfigSettings(ConfigText text, std::string (*normalize)(const std::string&));

  bool has(const std::string& name) const;
  // The setting's value, marked as mapped to the engine's `setting` (a JSON pointer into the scenario); null when
  // the config does not set it. The last one written wins, as on a command line.
  const ConfigEntry* take(const std::string& name, const std::string& setting);
  // The same read as a number in `range` (a value that is not one, or outside it, is refused with its reason and
  // gives false); a whole number from 1 to 1e9 (degrees, sizes, batches).
  bool number_in(const std::string& name, const std::string& setting, double& out, const NumberRange& range);
  bool positive_integer(const std::string& name, const std::string& setting, double& out);
  bool boolean(const std::string& name, const std::string& setting, bool& out);
  // Refuses a setting the config gave: the engine cannot take this value (the reason says why).
  void refuse(const std::string& name, const std::string& reason);
  // Notes a setting that was read but changes nothing the engine prices (a framework default written out).
  void note(const std::string& name, const std::string& reason);

  const std::vector<std::string>& words() const { return text_.words; }
  // {key, value, line, setting} per mapped setting, and {key, value, line, reason} per setting not mapped (every one
  // the importer did not take: "not a setting the engine prices").
  Json mapped_json() const;
  Json unmapped_json() const;

 private:
  ConfigEntry* find(const std::string& name);
  ConfigText text_;
  std::vector<std::string> names_;
  std::vector<std::string> outcome_;  // per entry: "" not taken, else the setting or the reason
  std::vector<bool> mapped_;
  std::string (*normalize_)(const std::string&);
};

}  // namespace scalescope
