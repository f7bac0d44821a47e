#include "invariants.h"

#include <algorithm>
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
    if (!std::isfinite(x))
      out.push_back(where + ": non-finite number");
    else if (x == 0 && std::signbit(x))
      out.push_back(where + ": -0");
  } else if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) check_numbers(it.value(), where + "/" + it.key(), out);
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) check_numbers(node[i], where + "/" + std::to_string(i), out);
  }
}

double number_at(const json& o, const char* key) {
  const auto it = o.find(key);
  return it != o.end() && it->is_number() ? it->get<double>() : 0.0;
}

// Calls `visit(object, pointer)` on every object in `node`, `node` included.
template <class Visit>
void each_object(const json& node, const std::string& where, const Visit& visit) {
  if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) each_object(node[i], where + "/" + std::to_string(i), visit);
    return;
  }
  if (!node.is_object()) return;
  visit(node, where);
  for (auto it = node.begin(); it != node.end(); ++it) each_object(it.value(), where + "/" + it.key(), visit);
}

// A training or serving step's time adds up at either fidelity (issue 20 "one meaning per key"): compute + bubble +
// the exposed parts of HBM, comms and offload + overhead = the step, so bars drawn from them add up to it.
void check_time_adds_up(const json& node, const std::string& where, std::vector<std::string>& out) {
  if (node.contains("comms_exposed_s") && node.contains("step_s") && node.contains("compute_s")) {
    const double step = number_at(node, "step_s");
    const double sum = number_at(node, "compute_s") + number_at(node, "bubble_s") + number_at(node, "hbm_exposed_s") +
                       number_at(node, "comms_exposed_s") + number_at(node, "offload_exposed_s") +
                       number_at(node, "overhead_s");
    if (!(std::abs(sum - step) <= 1e-9 * std::max(step, sum)))
      out.push_back(where + ": the step's parts add up to " + std::to_string(sum) + " s, not its " +
                    std::to_string(step) + " s");
  }
  // A serving decode step or prefill: what each term adds sums to it, and no term adds more than its whole time.
  if (node.contains("exposed") && node["exposed"].is_object() && (node.contains("step_s") || node.contains("time_s"))) {
    const json& e = node["exposed"];
    const double step = node.contains("step_s") ? number_at(node, "step_s") : number_at(node, "time_s");
    double sum = 0;
    for (const char* key : {"flops_s", "param_load_s", "kv_load_s", "comms_s", "overhead_s"}) {
      sum += number_at(e, key);
      if (number_at(e, key) > number_at(node, key) * (1 + 1e-12))
        out.push_back(where + "/exposed/" + key + ": more than the term's whole time");
    }
    if (!(std::abs(sum - step) <= 1e-9 * std::max(step, sum)))
      out.push_back(where + ": the serving step's exposed parts add up to " + std::to_string(sum) + " s, not its " +
                    std::to_string(step) + " s");
  }
}

// The book's ideal is a lower bound on the calibrated estimate (issue 20): every time the result puts beside its
// ideal (a training step, a serving replica, a searched plan) is at least the ideal's, or the training step names
// the exception (check_named_exception).
// The one named exception, a training step's `ideal.lower_bound: false`, must say which strategy's collectives the
// book prices above the calibrated step, and that part's excess must cover the whole gap.
void check_named_exception(const json& node, const json& ideal, const std::string& where,
                           std::vector<std::string>& out) {
  const json& above = ideal.value("above_estimate", json::object());
  const std::string part = above.value("part", "");
  const json& parts = node.value("breakdown", json::object()).value("comms", json::object());
  if (!parts.contains(part)) {
    out.push_back(where + ": the ideal is not a lower bound and names no communication part: " + above.dump());
    return;
  }
  const double book = number_at(above, "book_s"), calibrated = number_at(above, "calibrated_s");
  const double gap = number_at(ideal, "step_s") - number_at(node.value("time", json::object()), "step_s");
  if (calibrated != number_at(parts[part], "full_s"))
    out.push_back(where + ": the exception's calibrated " + part + " time is not the breakdown's");
  if (book > number_at(ideal, "comms_total_s") * (1 + 1e-9) || book - calibrated < gap * (1 - 1e-9))
    out.push_back(where + ": the book's " + part + " excess (" + std::to_string(book - calibrated) +
                  " s) does not explain the ideal's " + std::to_string(gap) + " s above the estimate");
}

// A serving replica's named exception: the book's time to first token above the calibrated one, with the book's term
// whose excess over what it adds to the calibrated prefill covers the whole gap (the book's TTFT is its largest term).
void check_serving_exception(const json& node, const json& ideal, const std::string& where,
                             std::vector<std::string>& out) {
  const double book_ttft = number_at(ideal, "time_to_first_token_s"), ttft = number_at(node, "time_to_first_token_s");
  if (ideal.value("lower_bound", true) != (book_ttft <= ttft))
    out.push_back(where + ": ideal.lower_bound disagrees with the times to first token");
  if (book_ttft <= ttft) return;
  const json& above = ideal.value("above_estimate", json::object());
  const double book = number_at(above, "book_s"), calibrated = number_at(above, "calibrated_s");
  if (above.value("metric", "") != "time_to_first_token_s" || book > book_ttft * (1 + 1e-9) ||
      book - calibrated < (book_ttft - ttft) * (1 - 1e-9))
    out.push_back(where + ": the book's time to first token is above the estimate, unexplained: " + above.dump());
}

void check_ideal_is_a_lower_bound(const json& node, const std::string& where, std::vector<std::string>& out) {
  const auto ideal = node.find("ideal");
  if (ideal != node.end() && ideal->is_object()) {
    if (ideal->contains("lower_bound") && ideal->contains("time_to_first_token_s")) {
      check_serving_exception(node, *ideal, where, out);
      const double bound = number_at(*ideal, "latency_per_token_s"), estimate = number_at(node, "latency_per_token_s");
      if (bound > estimate * (1 + 1e-9))
        out.push_back(where + ": the book's ideal latency_per_token_s " + std::to_string(bound) +
                      " s is above the estimate's " + std::to_string(estimate) + " s");
      return;
    }
    if (ideal->contains("lower_bound")) {
      const bool below = number_at(*ideal, "step_s") <= number_at(node.value("time", json::object()), "step_s");
      if (ideal->value("lower_bound", true) != below)
        out.push_back(where + ": ideal.lower_bound disagrees with the steps");
      if (!below) {
        check_named_exception(node, *ideal, where, out);
        return;
      }
    }
    for (const char* key : {"step_s", "latency_per_token_s", "time_to_first_token_s"}) {
      if (!ideal->contains(key)) continue;
      const json& mine = node.contains(key) ? node : node.value("time", json::object());
      if (!mine.contains(key)) continue;
      const double bound = number_at(*ideal, key), estimate = number_at(mine, key);
      if (bound > estimate * (1 + 1e-9))
        out.push_back(where + ": the book's ideal " + key + " " + std::to_string(bound) +
                      " s is above the estimate's " + std::to_string(estimate) + " s");
    }
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
    if (!is_pointer(d.value("path", json())))
      out.push_back(where + ": diagnostic without a JSON pointer path: " + text);
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
  if (a.contains("result"))
    each_object(a["result"], where + "/result",
                [&](const json& o, const std::string& at) { check_time_adds_up(o, at, out); });
}

}  // namespace

std::vector<std::string> ideal_problems(const nlohmann::json& scenario, std::string_view answer) {
  std::vector<std::string> out;
  // The one exception: `params_override` replaces the book's parameter count (its figures round LLaMA-3 70B to
  // 70e9), while the calibrated step runs the model's own ops, so the two count different models.
  const json& query = scenario.value("query", json::object());
  if (query.is_object() && query.contains("params_override")) return out;
  const json a = json::parse(answer, nullptr, false);
  if (a.is_object() && a.contains("result"))
    each_object(a["result"], "/result",
                [&](const json& o, const std::string& at) { check_ideal_is_a_lower_bound(o, at, out); });
  return out;
}

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
