// A framework's launch configuration read as text into its settings, before any meaning is given to them: a command
// line (Megatron-LM's `--flag value`, MaxText's and Hydra's `key=value`, a serve command), a YAML file (MaxText's
// config, a Megatron-Bridge recipe override file) or a JSON file (DeepSpeed's). Never throws.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace scalescope {

struct ConfigEntry {
  std::string key;    // as written, less a leading "--"
  std::string value;  // "true" for a bare flag; a YAML or JSON list or object as its text
  int line = 0;       // 1-based line of the text it came from
};

struct ConfigText {
  std::vector<ConfigEntry> entries;
  std::vector<std::string> words;  // command words that are not settings (the program, a YAML path, the model)
  std::string error;               // why the text could not be read (unbalanced quotes, bad JSON); empty: read
};

// Shell words (single and double quotes, backslash escapes and line continuations, `#` comments), each
// `--flag value`, `--flag=value`, `-f value`, bare `--flag` (followed by another flag or nothing) or `key=value`.
ConfigText read_command_line(std::string_view text);
// A YAML subset: `key: value` mappings nested by indentation, flattened to dotted keys (`model.seq_length`);
// `# comments`; flow lists (`[a, b]`) and block lists (`- a`) kept as text.
ConfigText read_yaml(std::string_view text);
// A JSON object flattened to dotted keys (`zero_optimization.stage`).
ConfigText read_json_config(std::string_view text);
// YAML unless the text's settings are written `key=value` or `--flag` (a command line or Hydra overrides).
ConfigText read_yaml_or_overrides(std::string_view text);

// A setting's value as a number or a boolean ("true", "True", "1", ...); false when it is not one.
bool config_number(const std::string& value, double& out);
bool config_boolean(const std::string& value, bool& out);

}  // namespace scalescope
