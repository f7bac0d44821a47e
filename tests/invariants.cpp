#include "invariants.h"

#include <cmath>

#include <nlohmann/json.hpp>

namespace scalescope::invariants {

namespace {

using nlohmann::json;

bool is_pointer(const json& path) {
  if (!path.is_string()) return false;
  const std::string& p = path.get_ref<const std::string&>();
  return p.empty() || p[0] == '/';
}

void check_numbers(const json& node, const std::string& where, std::vector<std::string>& out) {
  // Answers are at most a few levels deep (the engine limits nesting), so recursion is safe here.
  if (node.is_number_float()) {
    const double x = node.get<double>();
    if (!std::isfinite(x)) out.push_back(where + ": non-finite number");
    else if (x == 0 && std::signbit(x)) out.push_back(where + ": -0");
  } else if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) check_numbers(it.value(), where + "/" + it.key(), out);
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) check_numbers(node[i], where + "/" + std::to_string(i), out);
  }
}

void check_one(const json& a, const std::string& where, std::vector<std::string>& out) {
  if (!a.is_object()) {
    out.push_back(where + ": the answer is not an object");
    return;
  }
  if (!a.contains("ok") || !a["ok"].is_boolean()) out.push_back(where + ": no boolean 'ok'");
  if (!a.contains("engine_version") || !a["engine_version"].is_string()) out.push_back(where + ": no 'engine_version'");
  if (!a.contains("diagnostics") || !a["diagnostics"].is_array()) {
    out.push_back(where + ": no 'diagnostics' array");
    return;
  }
  bool errors = false;
  for (const json& d : a["diagnostics"]) {
    const std::string text = d.dump();
    if (!d.is_object()) {
      out.push_back(where + ": a diagnostic is not an object: " + text);
      continue;
    }
    if (!is_pointer(d.value("path", json()))) out.push_back(where + ": diagnostic without a JSON pointer path: " + text);
    if (!d.contains("code") || !d["code"].is_string() || d["code"].get<std::string>().empty())
      out.push_back(where + ": diagnostic without a code: " + text);
    if (!d.contains("message") || !d["message"].is_string() || d["message"].get<std::string>().empty())
      out.push_back(where + ": diagnostic without a message: " + text);
    const std::string severity = d.value("severity", "");
    if (severity != "error" && severity != "warning") out.push_back(where + ": diagnostic without a severity: " + text);
    errors = errors || severity == "error";
    const std::string code = d.value("code", "");
    if (code == "non_finite" || code == "internal_error") out.push_back(where + ": engine failure: " + text);
  }
  if (a.contains("ok") && a["ok"].is_boolean() && a["ok"].get<bool>() == errors)
    out.push_back(where + ": 'ok' disagrees with the diagnostics' severities");
  check_numbers(a, where, out);
}

}  // namespace

std::vector<std::string> answer_problems(std::string_view answer) {
  std::vector<std::string> out;
  const json a = json::parse(answer, nullptr, false);
  if (a.is_discarded()) {
    out.push_back("the answer is not valid JSON: " + std::string(answer.substr(0, 200)));
    return out;
  }
  if (a.is_array())
    for (std::size_t i = 0; i < a.size(); ++i) check_one(a[i], "[" + std::to_string(i) + "]", out);
  else
    check_one(a, "", out);
  return out;
}

}  // namespace scalescope::invariants
