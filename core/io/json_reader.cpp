#include "io/json_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "io/ranges.h"
#include "io/text.h"

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
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string json_pointer_child(const std::string& parent, std::size_t index) {
  return parent + "/" + std::to_string(index);
}

std::string json_type_name(const Json& value) {
  if (value.is_object()) return "object";
  if (value.is_array()) return "array";
  if (value.is_string()) {
    // parse_document reads Python's non-finite literals as these strings.
    const std::string& text = value.get_ref<const std::string&>();
    if (text == "NaN" || text == "Infinity" || text == "-Infinity") return text + " (not a finite number)";
    return "string";
  }
  if (value.is_boolean()) return "boolean";
  if (value.is_number()) return "number";
  if (value.is_null()) return "null";
  return "value";
}

Json diagnostic_json(const Diagnostic& d) {
  return {{"path", d.path}, {"code", d.code}, {"message", d.message}, {"severity", d.warning ? "warning" : "error"}};
}

namespace {

// A range's bound in a message, compactly: whole numbers below 1e7 in full, the rest in 6 significant digits ("1e+06").
std::string format_bound(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, std::fabs(v) < 1e7 && std::floor(v) == v ? "%.0f" : "%.6g", v);
  return buf;
}

// The value the reader gave, as given: whole numbers below 2^53 exactly (whoever typed 16777216 must not read
// "got 1.67772e+07", issue 41), others in the fewest digits that read back as the same double.
std::string format_given(double v) {
  char buf[32];
  if (std::fabs(v) < 9007199254740992.0 && std::floor(v) == v) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// "from 1e+06 to 1e+17 bytes/s", "a whole number from 1 to 64"
std::string describe(const NumberRange& r) {
  std::string out = r.whole ? "a whole number from " : "from ";
  if (r.zero_ok) out = "0 or " + out;
  out += format_bound(r.min) + " to " + format_bound(r.max);
  if (!r.unit.empty()) out += " " + std::string(r.unit);
  return out;
}

// `key` names the value in the message ("'batch' must be ..."; empty: "expected ..."). -0 comes back as 0. The
// message is built only when there is one: numbers are read on every slider move.
std::optional<double> check_number(const Json& v, const std::string& path, std::string_view key, const NumberRange& r,
                                   Diagnostics& d) {
  const auto what = [&] { return key.empty() ? std::string("expected") : "'" + std::string(key) + "' must be"; };
  if (!v.is_number()) {
    add_diagnostic(d, path, "wrong_type", what() + " a number, got " + json_type_name(v));
    return std::nullopt;
  }
  const double x = v.get<double>() + 0.0;
  const char* code = nullptr;
  if (x == 0 && r.zero_ok)
    code = nullptr;
  else if (r.whole && std::floor(x) != x)
    code = "not_integer";
  else if (x > r.max)
    code = "too_large";
  else if (x < r.min)
    code = x > 0 ? "too_small" : r.min > 0 && !r.zero_ok ? "not_positive" : "negative";
  if (!code) return x;
  add_diagnostic(d, path, code, what() + " " + describe(r) + ", got " + format_given(x));
  return std::nullopt;
}

// The range io/ranges.cpp gives `range`; a field without a row is an engine bug (tests/unit/test_reliability.cpp
// checks every field read by key has one).
const NumberRange* range_or_report(std::string_view range, const std::string& path, Diagnostics& d) {
  const NumberRange* r = find_range(range);
  if (!r)
    add_diagnostic(d, path, "internal_error",
                   "the engine has no range for '" + std::string(range) + "'; please report it");
  return r;
}

}  // namespace

JsonReader::JsonReader(const Json& node, std::string path, Diagnostics& diagnostics)
    : path_(std::move(path)), diagnostics_(diagnostics) {
  if (node.is_object())
    object_ = &node;
  else
    add_diagnostic(diagnostics_, path_, "wrong_type", "expected an object, got " + json_type_name(node));
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

std::optional<double> JsonReader::number(const std::string& key, bool required, std::string_view range) {
  const NumberRange* r = range_or_report(range.empty() ? std::string_view(key) : range, path_of(key), diagnostics_);
  if (!r) return std::nullopt;
  return number(key, required, *r);
}

std::optional<double> JsonReader::number(const std::string& key, bool required, const NumberRange& range) {
  const Json* v = find(key);
  if (!v) {
    if (required) missing(key);
    return std::nullopt;
  }
  return check_number(*v, path_of(key), key, range, diagnostics_);
}

std::vector<double> JsonReader::numbers(const std::string& key, bool required, std::string_view range) {
  std::vector<double> out;
  if (const Json* list = array(key, required))
    for (std::size_t i = 0; i < list->size(); ++i)
      if (auto v = read_number_value((*list)[i], json_pointer_child(path_of(key), i), range.empty() ? key : range,
                                     diagnostics_))
        out.push_back(*v);
  return out;
}

std::optional<double> read_number_value(const Json& v, const std::string& path, std::string_view range,
                                        Diagnostics& diagnostics) {
  const NumberRange* r = range_or_report(range, path, diagnostics);
  if (!r) return std::nullopt;
  return check_number(v, path, "", *r, diagnostics);
}

std::optional<std::int64_t> read_integer_value(const Json& v, const std::string& path, std::int64_t min,
                                               std::int64_t max, Diagnostics& diagnostics) {
  if (!v.is_number()) {
    add_diagnostic(diagnostics, path, "wrong_type", "expected a whole number, got " + json_type_name(v));
    return std::nullopt;
  }
  const double x = v.get<double>();
  if (!std::isfinite(x) || std::floor(x) != x) {
    add_diagnostic(diagnostics, path, "not_integer", "expected a whole number, got " + format_given(x));
    return std::nullopt;
  }
  if (x < static_cast<double>(min) || x > static_cast<double>(max)) {
    add_diagnostic(diagnostics, path,
                   x < static_cast<double>(min) ? (min > 0 ? "not_positive" : "negative") : "too_large",
                   "expected a whole number from " + std::to_string(min) + " to " + std::to_string(max) + ", got " +
                       format_given(x));
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
    add_diagnostic(diagnostics_, path_of(key), "wrong_type",
                   "'" + key + "' must be a string, got " + json_type_name(*v));
    return std::nullopt;
  }
  const std::string& text = v->get_ref<const std::string&>();
  if (text.size() > kMaxStringBytes) {
    add_diagnostic(diagnostics_, path_of(key), "too_large",
                   "'" + key + "' is " + std::to_string(text.size()) + " bytes long; the limit is " +
                       std::to_string(kMaxStringBytes));
    return std::nullopt;
  }
  return text;
}

std::optional<std::string> JsonReader::choice(const std::string& key, bool required,
                                              const std::vector<std::string>& choices) {
  auto s = string(key, required);
  if (!s) return std::nullopt;
  if (std::find(choices.begin(), choices.end(), *s) == choices.end()) {
    add_diagnostic(diagnostics_, path_of(key), "unknown_choice",
                   "unknown " + key + " " + quote(*s) + "; valid: " + join_choices(choices));
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
                   "unknown dtype " + quote(*s) + "; valid: " + dtype_choices());
  return d;
}

std::optional<bool> JsonReader::boolean(const std::string& key, bool required) {
  const Json* v = find(key);
  if (!v) {
    if (required) missing(key);
    return std::nullopt;
  }
  if (!v->is_boolean()) {
    add_diagnostic(diagnostics_, path_of(key), "wrong_type",
                   "'" + key + "' must be true or false, got " + json_type_name(*v));
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
    add_diagnostic(diagnostics_, path_of(key), "wrong_type",
                   "'" + key + "' must be an object, got " + json_type_name(*v));
    return nullptr;
  }
  return v;
}

const Json* JsonReader::array(const std::string& key, bool required, std::size_t max_length) {
  const Json* v = value(key, required);
  if (v && !v->is_array()) {
    add_diagnostic(diagnostics_, path_of(key), "wrong_type",
                   "'" + key + "' must be an array, got " + json_type_name(*v));
    return nullptr;
  }
  if (v && v->size() > max_length) {
    add_diagnostic(
        diagnostics_, path_of(key), "too_large",
        "'" + key + "' has " + std::to_string(v->size()) + " entries; the limit is " + std::to_string(max_length));
    return nullptr;
  }
  return v;
}

void JsonReader::finish() {
  if (!object_ || finished_) return;
  finished_ = true;
  std::vector<std::string> valid = known_;
  std::sort(valid.begin(), valid.end());
  valid.erase(std::unique(valid.begin(), valid.end()), valid.end());
  std::size_t unknown = 0;
  for (auto it = object_->begin(); it != object_->end(); ++it) {
    if (std::binary_search(valid.begin(), valid.end(), it.key())) continue;
    if (++unknown > kMaxUnknownKeysListed) continue;
    // The valid keys once per object: 20,000 unknown keys must not repeat them 20,000 times.
    add_diagnostic(diagnostics_, path_of(it.key()), "unknown_key",
                   "unknown key " + quote(it.key()) +
                       (unknown == 1 ? "; valid: " + join_choices(valid) : std::string(" (valid keys: as above)")));
  }
  if (unknown > kMaxUnknownKeysListed)
    add_diagnostic(diagnostics_, path_, "unknown_key",
                   std::to_string(unknown - kMaxUnknownKeysListed) + " more unknown keys here (the first " +
                       std::to_string(kMaxUnknownKeysListed) + " are listed)");
}

namespace {
// Recursion bounded by kMaxJsonDepth: a preset or an overridden preset holds whatever the scenario put in it.
struct PointerCollector {
  const std::string& base;  // the document's own path, for diagnostics
  std::vector<std::string>& out;
  Diagnostics& d;
};
void collect_numeric_pointers(const Json& node, const std::string& path, int depth, const PointerCollector& c) {
  if (node.is_number())
    c.out.push_back(path);
  else if (node.is_structured() && depth >= kMaxJsonDepth)
    add_diagnostic(c.d, c.base + path, "too_deep",
                   "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels (the limit)");
  else if (node.is_object())
    for (auto it = node.begin(); it != node.end(); ++it)
      collect_numeric_pointers(it.value(), json_pointer_child(path, it.key()), depth + 1, c);
  else if (node.is_array() && !node.empty() && node.front().is_number())
    c.out.push_back(path);
}
}  // namespace

void check_sources(const Json& node, const std::string& path, const Json* sources, Diagnostics& d) {
  std::vector<std::string> pointers;
  collect_numeric_pointers(node, "", 0, PointerCollector{path, pointers, d});
  for (const std::string& pointer : pointers) {
    if (pointer.rfind("/sources", 0) == 0) continue;
    if (!sources || !sources->contains(pointer))
      add_diagnostic(d, path + pointer, "missing_source", "no entry in 'sources' for the number at " + pointer);
  }
}

}  // namespace scalescope
