#include "table.h"

#include <cmath>
#include <cstdio>
#include <string_view>

namespace scalescope::cli {

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string number(double v, int digits = 4) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

// "_per_token" -> " per token"
std::string words(std::string s) {
  for (char& c : s) c = c == '_' ? ' ' : c;
  return s;
}

// Picks the SI prefix that keeps 1 <= |v| < 1000.
std::string scaled(double v, const char* unit) {
  static const struct {
    double factor;
    const char* prefix;
  } kPrefixes[] = {{1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"},
                   {1, ""},     {1e-3, "m"}, {1e-6, "µ"}, {1e-9, "n"}};
  const double a = std::fabs(v);
  if (a == 0) return "0 " + std::string(unit);
  for (const auto& p : kPrefixes)
    if (a >= p.factor) return number(v / p.factor) + " " + p.prefix + unit;
  return number(v) + " " + unit;
}

// `unit_key` is the nearest key that names a unit: {"peak_flops_per_s": {"bf16": 1e14}} formats bf16 as FLOP/s.
void render(const nlohmann::json& node, const std::string& unit_key, const std::string& prefix, std::string& out) {
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string& k = it.key();
      const bool names_unit = k.find('_') != std::string::npos;
      render(it.value(), names_unit ? k : unit_key, prefix.empty() ? k : prefix + "." + k, out);
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

std::string format_with_unit(const std::string& key, double v) {
  if (ends_with(key, "flops_per_usd")) return scaled(v, "FLOPs/$");
  if (const auto at = key.find("_bytes_per_s"); at != std::string::npos &&
      (at + 12 == key.size() || key[at + 12] == '_'))
    return scaled(v, "B/s") + words(key.substr(at + 12));  // "_per_axis" -> " per axis"
  if (const auto at = key.find("_flops_per_"); at != std::string::npos && !ends_with(key, "_per_byte") &&
      !ends_with(key, "_flops_per_s"))
    return scaled(v, "FLOPs") + words(key.substr(at + 6));
  if (ends_with(key, "_flops_per_s")) return scaled(v, "FLOP/s");
  if (ends_with(key, "_flops_per_byte")) return number(v) + " FLOPs/B";
  if (ends_with(key, "_bytes")) return scaled(v, "B");
  if (ends_with(key, "_s")) {
    if (v >= 2 * 365.25 * 86400.0) return number(v / (365.25 * 86400.0)) + " years";
    if (v >= 2 * 86400.0) return number(v / 86400.0) + " days";
    if (v >= 3600.0) return number(v / 3600.0) + " h";
    return scaled(v, "s");
  }
  if (ends_with(key, "_frac") || ends_with(key, "_fraction")) return number(100.0 * v, 3) + " %";
  if (ends_with(key, "flops")) return scaled(v, "FLOPs");
  if (ends_with(key, "_usd") || ends_with(key, "usd_per_hour") || ends_with(key, "_usd_per_chip_hour"))
    return "$" + (std::fabs(v) >= 1e4 ? scaled(v, "") : number(v));
  if (key.rfind("usd_per_", 0) == 0) return "$" + number(v);
  if (const auto at = key.find("_bytes_per_"); at != std::string::npos) return scaled(v, "B") + words(key.substr(at + 6));
  if (std::fabs(v) >= 1e4) return scaled(v, "");  // counts: 70.55 G parameters
  return number(v, 6);
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
