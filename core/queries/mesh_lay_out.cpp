#include "queries/mesh_lay_out.h"

#include <string>

namespace scalescope {

namespace {

constexpr const char* kLayOutPath = "/mesh/lay_out";

// plan_mesh's diagnostics as the lay_out's: its query's paths under /mesh/lay_out, the hardware's and model's kept.
void relay(const Json& answer, Diagnostics& d) {
  for (const Json& x : answer.value("diagnostics", Json::array())) {
    std::string path = x.value("path", "");
    if (path.rfind("/query", 0) == 0) path = kLayOutPath + path.substr(6);
    const bool warning = x.value("severity", std::string()) == "warning";
    d.push_back(Diagnostic{path, x.value("code", std::string()), x.value("message", std::string()), warning});
  }
}

}  // namespace

bool asks_lay_out(const Json& scenario) {
  if (!scenario.is_object()) return false;
  const auto mesh = scenario.find("mesh");
  return mesh != scenario.end() && mesh->is_object() && mesh->contains("lay_out");
}

Json lay_out_mesh(const Json& scenario, const std::function<Json(const Json&)>& evaluate, Diagnostics& d) {
  JsonReader r(scenario["mesh"], "/mesh", d);
  const Json* args = r.object("lay_out", true);
  r.finish();
  if (!args) return scenario;
  Json question = {{"query", *args}};
  question["query"]["kind"] = "plan_mesh";
  for (const char* key : {"hardware", "model"})
    if (scenario.contains(key)) question[key] = scenario[key];
  const Json answer = evaluate(question);
  relay(answer, d);
  if (!answer.value("ok", false)) return scenario;
  const Json& plan = answer["result"];
  if (!plan.contains("mesh") || !plan.contains("parallelism")) {
    std::string why;
    for (const Json& p : plan.value("problems", Json::array()))
      why += (why.empty() ? ": " : " ") + p.value("message", "");
    add_diagnostic(d, kLayOutPath, "no_mesh", "the degrees lay out on no mesh" + why);
    return scenario;
  }
  return on_planned_mesh(scenario, plan);
}

Json on_planned_mesh(const Json& scenario, const Json& plan) {
  Json out = scenario;
  out["mesh"] = plan["mesh"];
  Json& query = out["query"];
  if (!query.is_object()) return out;  // the query's own reader says what is wrong with it
  if (!query.contains("parallelism") || !query["parallelism"].is_object()) query["parallelism"] = Json::object();
  for (const auto& [strategy, on] : plan["parallelism"].items()) query["parallelism"][strategy] = on;
  return out;
}

}  // namespace scalescope
