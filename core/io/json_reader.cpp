#include "io/json_reader.h"

#include <algorithm>
#include <cmath>

namespace scalescope {

std::string join_choices(const std::vector<std::string>& choices) {
  std::string out;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (i) out += ", ";
    out += choices[i];
  }
  return out;
}

std::string json_pointer_child(const std::string& parent, const std::string& key) {
  std::string out = parent + "/";
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string json_pointer_child(const std::string& parent, std::size_t index) {
  return parent + "/" + std::to_string(index);
}

std::string json_type_name(const Json& value) {
  if (value.is_object()) return "object";
  if (value.is_array()) return "array";
  if (value.is_string()) return "string";
  if (value.is_boolean()) return "boolean";
  if (value.is_number()) return "number";
  if (value.is_null()) return "null";
  return "value";
}

namespace {
std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}
}  // namespace

JsonReader::JsonReader(const Json& node, std::string path, Diagnostics& diagnostics)
    : path_(std::move(path)), diagnostics_(diagnostics) {
  if (node.is_object()) object_ = &node;
  else
    add_diagnostic(diagnostics_, path_.empty() ? "/" : path_, "wrong_type",
                   "expected an object, got " + json_type_name(node));
}

bool JsonReader::has(const std::string& key) const { return object_ && object_->contains(key); }

const Json* JsonReader::find(const std::string& key) {
  known_.push_back(key);
  if (!object_) return nullptr;
  auto it = object_->find(key);
  return it == object_->end() ? nullptr : &*it;
}

void JsonReader::missing(const std::string& key) {
  if (object_) add_diagnostic(diagnostics_, path_of(key), "missing_key", "required key '" + key + "' is missing");
}

std::optional<double> JsonReader::number(const std::string& key, bool required, double min, bool min_inclusive,
                                         double max) {
  const Json* v = find(key);
  if (!v) {
    if (required) missing(key);
    return std::nullopt;
  }
  if (!v->is_number()) {
    add_diagnostic(diagnostics_, path_of(key), "wrong_type", "'" + key + "' must be a number, got " + json_type_name(*v));
    return std::nullopt;
  }
  const double x = v->get<double>();
  const bool below = min_inclusive ? x < min : x <= min;
  if (!std::isfinite(x) || below) {
    add_diagnostic(diagnostics_, path_of(key), min_inclusive ? "negative" : "not_positive",
                   "'" + key + "' must be " + (min_inclusive ? ">= " : "> ") + format_number(min) + ", got " +
                       format_number(x));
    return std::nullopt;
  }
  if (x > max) {
    add_diagnostic(diagnostics_, path_of(key), "too_large",
                   "'" + key + "' must be at most " + format_number(max) + ", got " + format_number(x));
    return std::nullopt;
  }
  return x;
}

std::optional<double> JsonReader::positive(const std::string& key, bool required, double max) {
  return number(key, required, 0.0, false, max);
}

std::optional<double> JsonReader::non_negative(const std::string& key, bool required, double max) {
  return number(key, required, 0.0, true, max);
}

std::optional<double> JsonReader::fraction(const std::string& key, bool required) {
  return number(key, required, 0.0, false, 1.0);
}

std::optional<std::int64_t> read_integer_value(const Json& v, const std::string& path, std::int64_t min,
                                               std::int64_t max, Diagnostics& diagnostics) {
  if (!v.is_number()) {
    add_diagnostic(diagnostics, path, "wrong_type", "expected a whole number, got " + json_type_name(v));
    return std::nullopt;
  }
  const double x = v.get<double>();
  if (!std::isfinite(x) || std::floor(x) != x) {
    add_diagnostic(diagnostics, path, "not_integer", "expected a whole number, got " + format_number(x));
    return std::nullopt;
  }
  if (x < static_cast<double>(min) || x > static_cast<double>(max)) {
    add_diagnostic(diagnostics, path, x < static_cast<double>(min) ? (min > 0 ? "not_positive" : "negative") : "too_large",
                   "expected a whole number from " + std::to_string(min) + " to " + std::to_string(max) + ", got " +
                       format_number(x));
    return std::nullopt;
  }
  return static_cast<std::int64_t>(x);
}

std::optional<std::int64_t> JsonReader::integer(const std::string& key, bool required, std::int64_t min,
                                                std::int64_t max) {
  const Json* v = find(key);
  if (!v) {
    if (required) missing(key);
    return std::nullopt;
  }
  return read_integer_value(*v, path_of(key), min, max, diagnostics_);
}

std::optional<std::string> JsonReader::string(const std::string& key, bool required) {
  const Json* v = find(key);
  if (!v) {
    if (required) missing(key);
    return std::nullopt;
  }
  if (!v->is_string()) {
    add_diagnostic(diagnostics_, path_of(key), "wrong_type", "'" + key + "' must be a string, got " + json_type_name(*v));
    return std::nullopt;
  }
  return v->get<std::string>();
}

std::optional<std::string> JsonReader::choice(const std::string& key, bool required,
                                              const std::vector<std::string>& choices) {
  auto s = string(key, required);
  if (!s) return std::nullopt;
  if (std::find(choices.begin(), choices.end(), *s) == choices.end()) {
    add_diagnostic(diagnostics_, path_of(key), "unknown_choice",
                   "unknown " + key + " '" + *s + "'; valid: " + join_choices(choices));
    return std::nullopt;
  }
  return s;
}

std::optional<Dtype> JsonReader::dtype(const std::string& key, bool required) {
  auto s = string(key, required);
  if (!s) return std::nullopt;
  auto d = parse_dtype(*s);
  if (!d)
    add_diagnostic(diagnostics_, path_of(key), "unknown_dtype",
                   "unknown dtype '" + *s + "'; valid: " + dtype_choices());
  return d;
}

std::optional<bool> JsonReader::boolean(const std::string& key, bool required) {
  const Json* v = find(key);
  if (!v) {
    if (required) missing(key);
    return std::nullopt;
  }
  if (!v->is_boolean()) {
    add_diagnostic(diagnostics_, path_of(key), "wrong_type", "'" + key + "' must be true or false, got " + json_type_name(*v));
    return std::nullopt;
  }
  return v->get<bool>();
}

const Json* JsonReader::value(const std::string& key, bool required) {
  const Json* v = find(key);
  if (!v && required) missing(key);
  return v;
}

const Json* JsonReader::object(const std::string& key, bool required) {
  const Json* v = value(key, required);
  if (v && !v->is_object()) {
    add_diagnostic(diagnostics_, path_of(key), "wrong_type", "'" + key + "' must be an object, got " + json_type_name(*v));
    return nullptr;
  }
  return v;
}

const Json* JsonReader::array(const std::string& key, bool required) {
  const Json* v = value(key, required);
  if (v && !v->is_array()) {
    add_diagnostic(diagnostics_, path_of(key), "wrong_type", "'" + key + "' must be an array, got " + json_type_name(*v));
    return nullptr;
  }
  return v;
}

void JsonReader::finish() {
  if (!object_) return;
  std::vector<std::string> valid = known_;
  std::sort(valid.begin(), valid.end());
  valid.erase(std::unique(valid.begin(), valid.end()), valid.end());
  for (auto it = object_->begin(); it != object_->end(); ++it) {
    if (!std::binary_search(valid.begin(), valid.end(), it.key()))
      add_diagnostic(diagnostics_, path_of(it.key()), "unknown_key",
                     "unknown key '" + it.key() + "'; valid: " + join_choices(valid));
  }
}

namespace {
void collect_numeric_pointers(const Json& node, const std::string& path, std::vector<std::string>& out) {
  if (node.is_number()) out.push_back(path);
  else if (node.is_object())
    for (auto it = node.begin(); it != node.end(); ++it)
      collect_numeric_pointers(it.value(), json_pointer_child(path, it.key()), out);
  else if (node.is_array() && !node.empty() && node.front().is_number())
    out.push_back(path);
}
}  // namespace

void check_sources(const Json& node, const std::string& path, const Json* sources, Diagnostics& d) {
  std::vector<std::string> pointers;
  collect_numeric_pointers(node, "", pointers);
  for (const std::string& pointer : pointers) {
    if (pointer.rfind("/sources", 0) == 0) continue;
    if (!sources || !sources->contains(pointer))
      add_diagnostic(d, path + pointer, "missing_source", "no entry in 'sources' for the number at " + pointer);
  }
}

}  // namespace scalescope
