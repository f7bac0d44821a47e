// Strict reading of one JSON object: every key read is marked known, and finish() reports the rest as unknown,
// with the list of valid keys. Wrong types, missing keys and out-of-range numbers become diagnostics with the
// JSON pointer of the offending value (docs/design.md "Engine rules": all diagnostics at once, each with a path).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/diagnostics.h"
#include "io/dtype.h"
#include "io/limits.h"
#include "io/ranges.h"

namespace scalescope {

using Json = nlohmann::json;

// "/a/b" + "c" -> "/a/b/c", escaping '~' and '/' as RFC 6901 requires.
std::string json_pointer_child(const std::string& parent, const std::string& key);
std::string json_pointer_child(const std::string& parent, std::size_t index);
std::string json_type_name(const Json& value);
// {path, code, message, severity}: a diagnostic as every answer lists it.
Json diagnostic_json(const Diagnostic& diagnostic);

class JsonReader {
 public:
  // `node` may be any JSON value; a non-object records one "wrong_type" diagnostic and reads nothing.
  JsonReader(const Json& node, std::string path, Diagnostics& diagnostics);

  bool ok_object() const { return object_ != nullptr; }
  const std::string& path() const { return path_; }
  std::string path_of(const std::string& key) const { return json_pointer_child(path_, key); }
  bool has(const std::string& key) const;

  // A number in the range io/ranges.cpp gives for `range` (default: the key itself); whole numbers only where the
  // field is a count. -0 reads as 0.
  std::optional<double> number(const std::string& key, bool required, std::string_view range = {});
  // The same in a range of the caller's own (a parameter table that keeps its ranges beside other data).
  std::optional<double> number(const std::string& key, bool required, const NumberRange& range);
  // An array of such numbers (at most kMaxArrayLength); the entries that fail their range are left out.
  std::vector<double> numbers(const std::string& key, bool required, std::string_view range = {});
  // Integers in [min, max], for bounds that depend on other values (a coordinate inside the mesh, ...).
  std::optional<std::int64_t> integer(const std::string& key, bool required, std::int64_t min, std::int64_t max);
  // At most kMaxStringBytes long.
  std::optional<std::string> string(const std::string& key, bool required);
  // A string that must be one of `choices`.
  std::optional<std::string> choice(const std::string& key, bool required, const std::vector<std::string>& choices);
  std::optional<Dtype> dtype(const std::string& key, bool required);
  std::optional<bool> boolean(const std::string& key, bool required);
  // Returns the value (any type) and marks the key known; nullptr when absent (with a diagnostic if required).
  const Json* value(const std::string& key, bool required);
  const Json* object(const std::string& key, bool required);
  // At most `max_length` entries (kMaxArrayLength unless the field says less).
  const Json* array(const std::string& key, bool required, std::size_t max_length = kMaxArrayLength);
  // Marks keys as known without reading them (e.g. documentation fields).
  void accept(const std::string& key) { known_.push_back(key); }

  // Reports every key that no getter asked for: the first lists the valid keys, at most kMaxUnknownKeysListed are
  // named, the rest counted. Once: a query that finishes early, before costly work, is not reported twice.
  void finish();

 private:
  void missing(const std::string& key);
  const Json* find(const std::string& key);

  const Json* object_ = nullptr;
  std::string path_;
  Diagnostics& diagnostics_;
  std::vector<std::string> known_;
  bool finished_ = false;
};

// Reads a number in the range io/ranges.cpp gives for `range` from a bare JSON value (array entries).
std::optional<double> read_number_value(const Json& value, const std::string& path, std::string_view range,
                                        Diagnostics& diagnostics);

// Reads a whole number in [min, max] from a bare JSON value (array elements).
std::optional<std::int64_t> read_integer_value(const Json& value, const std::string& path, std::int64_t min,
                                               std::int64_t max, Diagnostics& diagnostics);

// Presets cite a source for every number: reports each number of `node` whose JSON pointer has no entry in
// `sources` (arrays of numbers are cited once, by the array's pointer; the sources object itself is skipped).
// The document is at most kMaxJsonDepth deep; deeper parts are reported (too_deep) and not searched.
void check_sources(const Json& node, const std::string& path, const Json* sources, Diagnostics& diagnostics);

}  // namespace scalescope
