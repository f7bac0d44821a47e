#include "table.h"

#include <cmath>
#include <cstdio>
#include <initializer_list>
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
  } kPrefixes[] = {{1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"},
                   {1, ""},     {1e-3, "m"}, {1e-6, "µ"}, {1e-9, "n"}};
  const double a = std::fabs(v);
  if (a == 0) return "0 " + std::string(unit);
  if (a >= 1e21) return scientific(v) + " " + unit;
  for (const auto& p : kPrefixes)
    if (a >= p.factor) return number(v / p.factor) + " " + p.prefix + unit;
  return number(v) + " " + unit;
}

std::vector<std::string> split_key(const std::string& key) {
  std::vector<std::string> out(1);
  for (char c : key)
    if (c == '_') out.emplace_back();
    else out.back() += c;
  return out;
}

// The words after a key's unit, for people: "per s" -> "/s", "per byte" -> "/B", "per usd" -> "/$", "per chip
// hour" -> " per chip hour", other words as they are ("from geometry").
std::string unit_tail(const std::vector<std::string>& t, std::size_t from) {
  std::string out;
  for (std::size_t i = from; i < t.size(); ++i) {
    const bool per = t[i] == "per" && i + 1 < t.size();
    if (per && (t[i + 1] == "s" || t[i + 1] == "byte" || t[i + 1] == "usd")) {
      out += t[i + 1] == "s" ? "/s" : t[i + 1] == "byte" ? "/B" : "/$";
      ++i;
    } else {
      out += " " + t[i];
    }
  }
  return out;
}

bool is_one_of(const std::string& word, std::initializer_list<const char*> words) {
  for (const char* w : words)
    if (word == w) return true;
  return false;
}

// Counts of these nouns keep the noun: "8960 chips", "73.44 k tokens per slice".
constexpr std::initializer_list<const char*> kNouns = {"tokens", "queries", "sequences", "chips", "gpus", "params",
                                                       "slices", "hops", "servers", "devices", "ports"};

std::string count(double v) { return std::fabs(v) >= 1e4 ? scaled(v, "") : number(v, 6); }

// `unit_key` is the nearest key that names a unit: {"peak_flops_per_s": {"bf16": 1e14}} formats bf16 as FLOP/s.
void render(const nlohmann::json& node, const std::string& unit_key, const std::string& prefix, std::string& out) {
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string& k = it.key();
      const bool names_unit = k.find('_') != std::string::npos || is_one_of(k, kNouns);
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

// The unit a key names (issue 10 defect 10: by its words, not by its last suffix): a fraction anywhere; else the
// first of bytes, FLOPs, dollars, hertz, with what follows it ("bytes_per_s_per_axis" -> B/s per axis); else a
// duration when it ends in "_s" (not "_per_s", a rate; "flops_s" is the time spent on FLOPs); else a count of the
// first noun it names; else a number.
std::string format_with_unit(const std::string& key, double v) {
  const std::vector<std::string> t = split_key(key);
  for (const auto& w : t)
    if (w == "frac" || w == "fraction") return number(100.0 * v, 3) + " %";
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::string tail = unit_tail(t, i + 1);
    const bool rate = tail.rfind("/s", 0) == 0;
    if (t[i] == "bytes") return scaled(v, "B") + tail;
    if (t[i] == "flops") {
      if (i + 2 == t.size() && t.back() == "s") break;  // "flops_s": the seconds spent on FLOPs, a duration
      if (tail.rfind("/B", 0) == 0)  // an intensity
        return (std::fabs(v) >= 1e4 ? scaled(v, "") : number(v)) + " FLOPs" + tail;
      return rate ? scaled(v, "FLOP") + tail : scaled(v, "FLOPs") + tail;
    }
    if (t[i] == "usd") return "$" + (std::fabs(v) >= 1e4 ? scaled(v, "") : number(v)) + tail;
    if (t[i] == "hz") return scaled(v, "Hz") + tail;
  }
  if (t.back() == "s" && !(t.size() >= 2 && t[t.size() - 2] == "per")) {
    if (v >= 2 * 365.25 * 86400.0) return number(v / (365.25 * 86400.0)) + " years";
    if (v >= 2 * 86400.0) return number(v / 86400.0) + " days";
    if (v >= 3600.0) return number(v / 3600.0) + " h";
    return scaled(v, "s");
  }
  for (std::size_t i = 0; i < t.size(); ++i)
    if (is_one_of(t[i], kNouns)) return count(v) + " " + (t[i] == "gpus" ? "GPUs" : t[i]) + unit_tail(t, i + 1);
  return count(v);
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
