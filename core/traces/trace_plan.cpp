#include "traces/trace_plan.h"

#include <initializer_list>
#include <string>

#include "io/text.h"

namespace scalescope {

namespace {

double number_at(const Json& object, std::initializer_list<const char*> keys) {
  const Json* at = &object;
  for (const char* key : keys) {
    if (!at->is_object() || !at->contains(key)) return 0;
    at = &(*at)[key];
  }
  return at->is_number() ? at->get<double>() : 0;
}

// What each device measured per step, averaged over the devices of the trace.
struct Measured {
  double window = 0, idle = 0, compute = 0, communication = 0, exposed = 0;
  double by_class(const Json& report, std::initializer_list<const char*> classes) const {
    double total = 0;
    for (const auto& row : report["classes"])
      for (const char* c : classes)
        if (row["class"] == c) total += row["time_s"].get<double>();
    return total * scale;
  }
  double scale = 1;  // 1 / (devices x steps)
};

Json row(const char* part, double measured, double predicted, bool measured_known = true) {
  Json r{{"part", part}, {"predicted_s", predicted}};
  r["measured_s"] = measured_known ? Json(measured) : Json(nullptr);
  r["measured_over_predicted"] = measured_known && predicted > 0 ? Json(measured / predicted) : Json(nullptr);
  return r;
}

}  // namespace

Json compare_with_step(const Json& report, const Json& step, double steps, const std::string& steps_from,
                       const std::string& path, Diagnostics& d) {
  if (!step.is_object() || step.value("query", "") != "training_step" || !step.value("ok", false) ||
      !step.contains("result") || !step["result"].is_object()) {
    // A refused scenario says why in its own diagnostics: the first one is quoted.
    const Json* first = step.is_object() && step.contains("diagnostics") && step["diagnostics"].is_array() &&
                                !step["diagnostics"].empty()
                            ? &step["diagnostics"][0]
                            : nullptr;
    const std::string why = first && first->is_object() && first->contains("message") && (*first)["message"].is_string()
                                ? " (its scenario: " + quote((*first)["message"].get<std::string>(), 200) + ")"
                                : "";
    add_diagnostic(d, path, "not_a_training_step",
                   "the plan to compare with is the answer of a training_step scenario that ran ({ok: true, query: "
                   "\"training_step\", result}): run the scenario the trace executed and give its answer" +
                       why);
    return nullptr;
  }
  const Json& result = step["result"];
  const Json& devices = report["devices"];
  Measured m;
  const double n = static_cast<double>(devices.size()), per_step = steps > 0 ? steps : 1;
  m.scale = 1 / (n * per_step);
  for (const auto& device : devices) {
    m.window += device["window_s"].get<double>() * m.scale;
    m.idle += device["idle_s"].get<double>() * m.scale;
    m.compute += device["compute_s"].get<double>() * m.scale;
    m.communication += device["communication_s"].get<double>() * m.scale;
    m.exposed += device["exposed_communication_s"].get<double>() * m.scale;
  }
  const std::string fidelity = result.value("fidelity", "book");
  Json rows = Json::array();
  if (result.contains("breakdown")) {  // the calibrated step, op class by op class
    const Json& b = result["breakdown"];
    double comms_full = 0, comms_exposed = 0;
    if (b.contains("comms") && b["comms"].is_object())
      for (const auto& [axis, c] : b["comms"].items()) {
        comms_full += number_at(c, {"full_s"});
        comms_exposed += number_at(c, {"exposed_s"});
      }
    const double matmuls = number_at(b, {"matmul_s"}) + number_at(b, {"head_s"});
    const double overheads =
        number_at(b, {"bubble_s"}) + number_at(b, {"op_overhead_s"}) + number_at(b, {"step_overhead_s"});
    rows.push_back(row("matmuls", m.by_class(report, {"matmul"}), matmuls));
    rows.push_back(row("moe_experts", m.by_class(report, {"moe"}), number_at(b, {"expert_matmul_s"})));
    rows.push_back(row("attention", m.by_class(report, {"attention"}), number_at(b, {"attention_s"})));
    rows.push_back(row("elementwise",
                       m.by_class(report, {"elementwise", "normalization", "embedding", "memcpy", "memset"}),
                       number_at(b, {"elementwise_s"}) + number_at(b, {"low_precision_cast_s"})));
    rows.push_back(row("optimizer", m.by_class(report, {"optimizer"}), number_at(b, {"optimizer_s"})));
    rows.push_back(row("recompute", 0, number_at(b, {"recompute_s"}), false));  // inside the classes above
    rows.push_back(row("communication", m.communication, comms_full));
    rows.push_back(row("exposed_communication", m.exposed, comms_exposed));
    rows.push_back(row("idle_and_overheads", m.idle, overheads));
  } else {  // the book's step: compute, communication, and what of it is exposed
    rows.push_back(row("compute", m.compute, number_at(result, {"time", "compute_s"})));
    rows.push_back(row("communication", m.communication, number_at(result, {"time", "comms_total_s"})));
    rows.push_back(row("exposed_communication", m.exposed, number_at(result, {"time", "comms_exposed_s"})));
  }
  rows.push_back(row("step", m.window, number_at(result, {"time", "step_s"})));
  // The part the plan most underestimates: where to look first.
  const Json* largest = nullptr;
  for (const auto& r : rows)
    if (r["measured_s"].is_number() && r["part"] != "step" &&
        (!largest || r["measured_s"].get<double>() - r["predicted_s"].get<double>() >
                         (*largest)["measured_s"].get<double>() - (*largest)["predicted_s"].get<double>()))
      largest = &r;
  return Json{{"fidelity", fidelity},
              {"steps", per_step},
              {"steps_from", steps_from},
              {"rows", rows},
              {"largest_gap", largest ? (*largest)["part"] : Json(nullptr)}};
}

}  // namespace scalescope
