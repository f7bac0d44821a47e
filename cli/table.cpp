#include "table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string_view>
#include <vector>

namespace scalescope::cli {

namespace {

std::string number(double v, int digits = 4) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

// Beyond the largest SI prefix a number keeps its exponent: 6.35e24, not 6.35e+06 E.
std::string scientific(double v) {
  std::string s = number(v);
  const auto e = s.find("e+");
  if (e != std::string::npos) s.erase(e + 1, 1);
  return s;
}

// Picks the SI prefix that keeps 1 <= |v| < 1000.
std::string scaled(double v, const char* unit) {
  static const struct {
    double factor;
    const char* prefix;
  } kPrefixes[] = {{1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"},  {1e6, "M"},
                   {1e3, "k"},  {1, ""},     {1e-3, "m"}, {1e-6, "µ"}, {1e-9, "n"}};
  const double a = std::fabs(v);
  if (a == 0) return "0 " + std::string(unit);
  if (a >= 1e21) return scientific(v) + " " + unit;
  for (const auto& p : kPrefixes)
    if (a >= p.factor) return number(v / p.factor) + " " + p.prefix + unit;
  return number(v) + " " + unit;
}

// Every number's key in a result and its unit, sorted by key: generated from schema/results (x-unit), so the view
// and the schema cannot disagree (web/scripts/schema-generate.mjs; issue 19).
struct KeyUnit {
  std::string_view key, unit;
};
constexpr KeyUnit kUnits[] = {
#include "units_table.inc"
};

// The unit of a result key, or nullptr for a key no result gives.
const std::string_view* unit_of(std::string_view key) {
  const auto it = std::lower_bound(std::begin(kUnits), std::end(kUnits), key,
                                   [](const KeyUnit& u, std::string_view k) { return u.key < k; });
  return it != std::end(kUnits) && it->key == key ? &it->unit : nullptr;
}

bool starts_with(std::string_view s, std::string_view head) { return s.substr(0, head.size()) == head; }

std::string count(double v) { return std::fabs(v) >= 1e4 ? scaled(v, "") : number(v, 6); }

// `unit_key` is the nearest key that names a unit: {"peak_flops_per_s": {"bf16": 1e14}} formats bf16 as FLOP/s.
void render(const nlohmann::json& node, const std::string& unit_key, const std::string& prefix, std::string& out) {
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string& k = it.key();
      render(it.value(), unit_of(k) ? k : unit_key, prefix.empty() ? k : prefix + "." + k, out);
    }
    return;
  }
  const std::string& key = unit_key;
  std::string value;
  if (node.is_array()) {
    if (!node.empty() && node.front().is_object()) {
      for (std::size_t i = 0; i < node.size(); ++i) render(node[i], key, prefix + "[" + std::to_string(i) + "]", out);
      return;
    }
    value = node.dump();
  } else if (node.is_number()) {
    value = format_with_unit(key, node.get<double>());
  } else if (node.is_string()) {
    value = node.get<std::string>();
  } else {
    value = node.dump();
  }
  char line[512];
  std::snprintf(line, sizeof line, "  %-52s %s\n", prefix.c_str(), value.c_str());
  out += line;
}

}  // namespace

// A number in its key's unit (schema/results' x-unit): a fraction as a percentage, a duration in the largest unit
// that keeps it readable, bytes, FLOPs, FLOP/s, hertz and dollars with an SI prefix, any other unit (tokens, chips,
// "tokens/s per chip") after the count; a key no result gives is a plain number.
std::string format_with_unit(const std::string& key, double v) {
  const std::string_view* found = unit_of(key);
  const std::string_view unit = found ? *found : std::string_view();
  const auto after = [&](std::string_view head) { return std::string(unit.substr(head.size())); };
  if (unit.empty()) return count(v);
  if (unit == "fraction") return number(100.0 * v, 3) + " %";
  if (unit == "s") {
    if (v >= 2 * 365.25 * 86400.0) return number(v / (365.25 * 86400.0)) + " years";
    if (v >= 2 * 86400.0) return number(v / 86400.0) + " days";
    if (v >= 3600.0) return number(v / 3600.0) + " h";
    return scaled(v, "s");
  }
  if (starts_with(unit, "bytes")) return scaled(v, "B") + after("bytes");
  if (starts_with(unit, "FLOP/s")) return scaled(v, "FLOP") + after("FLOP");
  if (starts_with(unit, "FLOPs/byte"))
    return (std::fabs(v) >= 1e4 ? scaled(v, "") : number(v)) + " FLOPs/B" + after("FLOPs/byte");
  if (starts_with(unit, "FLOPs/USD")) return scaled(v, "FLOPs") + "/$" + after("FLOPs/USD");
  if (starts_with(unit, "FLOPs")) return scaled(v, "FLOPs") + after("FLOPs");
  if (starts_with(unit, "USD")) return "$" + (std::fabs(v) >= 1e4 ? scaled(v, "") : number(v)) + after("USD");
  if (starts_with(unit, "Hz")) return scaled(v, "Hz") + after("Hz");
  return count(v) + " " + std::string(unit);
}

std::string render_table(const nlohmann::json& evaluation) {
  std::string out;
  const bool ok = evaluation.value("ok", false);
  out += std::string("Scalescope ") + evaluation.value("engine_version", "") + " — " +
         evaluation.value("query", "(no query)") + (ok ? "" : " — INVALID") + "\n";
  if (evaluation.contains("result")) render(evaluation["result"], "", "", out);
  for (const auto& d : evaluation.value("diagnostics", nlohmann::json::array()))
    out += "  " + d.value("severity", "error") + " at " + d.value("path", "") + " (" + d.value("code", "") +
           "): " + d.value("message", "") + "\n";
  return out;
}

}  // namespace scalescope::cli
