#include "queries/nearest_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "physics/transformer.h"
#include "queries/mesh_lay_out.h"
#include "specs/presets.h"

namespace scalescope {

namespace {

using Evaluate = std::function<Json(const Json&)>;

// A few chips hold a model's weights long before they hold 4M tokens of its activations (4M down to 16k tokens);
// a serving replica's KV caches sit beside its weights (32 sequences down to 1).
constexpr int kTrainingBatchHalvings = 8;
constexpr int kServingBatchHalvings = 6;
constexpr const char* kLayOutPath = "/mesh/lay_out";

// A candidate scenario, and why its values differ from the question's (by JSON pointer; the longest prefix names a
// change's reason).
struct Candidate {
  Json scenario;
  Json reasons = Json::object();  // why, by JSON pointer (a Json object: no map type of its own in the wasm)
  double chips = 0;               // what its laid-out degrees ask for (0: its mesh is given, not laid out)
  Json on_mesh;  // the scenario on the mesh its degrees laid out on, asked instead of laying it out again
};

const Json& asked(const Candidate& c) { return c.on_mesh.is_null() ? c.scenario : c.on_mesh; }

// A query argument set in the candidate and in what is asked of it.
void set_query_value(Candidate& c, const std::string& key, const Json& value) {
  c.scenario["query"][key] = value;
  if (!c.on_mesh.is_null()) c.on_mesh["query"][key] = value;
}

// Whether the engine runs a candidate cleanly, and how large a model it is (the larger wins among clean ones).
struct Verdict {
  bool ran = false;
  bool fits = false;   // ran and fits in HBM
  bool clean = false;  // fits, and warns of nothing
  double size = 0;     // training FLOPs per token, or the weights' bytes a serving replica holds
  double step_s = std::numeric_limits<double>::infinity();
  Json diagnostics = Json::array();
  std::string fidelity;  // the question's, or its kind's default
};

bool is_training(const Json& scenario) { return scenario["query"].value("kind", "") == "training_step"; }
bool laid_out(const Json& scenario) { return scenario.contains("mesh") && scenario["mesh"].contains("lay_out"); }

// A degree written where the question had one or where it splits anything (data 1 stays unwritten).
void set_degree(Json& parallelism, const std::string& strategy, const Json& degree) {
  if (parallelism.contains(strategy) || degree != 1) parallelism[strategy] = degree;
}

Verdict judge(const Json& scenario, const Evaluate& evaluate) {
  const Json answer = evaluate(scenario);
  Verdict v;
  v.diagnostics = answer.value("diagnostics", Json::array());
  v.ran = answer.value("ok", false) && answer.contains("result");
  if (!v.ran) return v;
  const Json& r = answer["result"];
  v.fidelity = r.value("fidelity", "");
  const bool warned = std::any_of(v.diagnostics.begin(), v.diagnostics.end(),
                                  [](const Json& x) { return x.value("severity", "") == "warning"; });
  const Json memory = r.value("memory", Json::object());
  v.fits = memory.value("fits", false);
  v.clean = v.fits && !warned;
  if (is_training(scenario)) {
    v.size = r.value("model_flops", 0.0) / scenario["query"].value("batch_tokens", 1.0);
    v.step_s = r.value("time", Json::object()).value("step_s", v.step_s);
  } else {
    v.size = memory.value("param_bytes", 0.0);
  }
  return v;
}

// plan_mesh's question for a candidate's lay_out, with a training batch to keep in whole sequences.
Json mesh_question(const Json& scenario) {
  Json query = scenario["mesh"]["lay_out"];
  query["kind"] = "plan_mesh";
  if (is_training(scenario))
    for (const char* key : {"seq_len", "batch_tokens"})
      if (scenario["query"].contains(key)) query[key] = scenario["query"][key];
  Json out = {{"query", std::move(query)}};
  for (const char* key : {"hardware", "model"})
    if (scenario.contains(key)) out[key] = scenario[key];
  return out;
}

// plan_mesh's `nearest` written into the candidate: its paths name the lay_out's arguments, but the batch's the
// query's own.
void apply_nearest(Candidate& c, const Json& nearest) {
  Json& args = c.scenario["mesh"]["lay_out"];
  for (const auto& [strategy, degree] : nearest["parallelism"].items())
    set_degree(args["parallelism"], strategy, degree);
  const auto set_or_erase = [](Json& node, const char* key, const Json& value) {
    if (value.is_null())
      node.erase(key);
    else
      node[key] = value;
  };
  if (nearest.contains("chips")) set_or_erase(args, "chips", nearest["chips"]);
  if (nearest.contains("slices") && nearest["slices"] != args.value("slices", Json(1)))
    args["slices"] = nearest["slices"];
  if (nearest.contains("expert_tensor")) set_or_erase(args["parallelism"], "expert_tensor", nearest["expert_tensor"]);
  if (nearest.contains("batch_tokens") && is_training(c.scenario))
    c.scenario["query"]["batch_tokens"] = nearest["batch_tokens"];
  for (const Json& change : nearest.value("changes", Json::array())) {
    const std::string path = change.value("path", "");
    const bool batch = path == "/query/batch_tokens";
    c.reasons[batch ? path : kLayOutPath + path.substr(std::string("/query").size())] = change.value("reason", "");
  }
}

// The candidate on plan_mesh's nearest degrees, chips, slices and batch, with the degree a fixed chip count sets
// written out; false when its degrees lay out on no mesh even so (the candidate's own answer then says why).
bool settle(Candidate& c, const Evaluate& evaluate) {
  if (!laid_out(c.scenario)) return true;
  Json answer = evaluate(mesh_question(c.scenario));
  if (answer.value("ok", false) && answer["result"].contains("nearest")) {
    apply_nearest(c, answer["result"]["nearest"]);
    answer = evaluate(mesh_question(c.scenario));
  }
  if (!answer.value("ok", false) || !answer["result"].contains("mesh")) return false;
  const Json& plan = answer["result"];
  Json& parallelism = c.scenario["mesh"]["lay_out"]["parallelism"];
  if (const std::string balancing = plan.value("balancing", ""); plan["degrees"].contains(balancing)) {
    const std::string path = std::string(kLayOutPath) + "/parallelism/" + balancing;
    if (!c.reasons.contains(path)) c.reasons[path] = "what the chip count leaves for it";
    set_degree(parallelism, balancing, plan["degrees"][balancing]);
  }
  c.chips = plan.value("chips", 0.0);
  c.on_mesh = on_planned_mesh(c.scenario, plan);
  return true;
}

struct Moves {
  bool degrees = true, remat = true, batch = true;
  std::vector<Json> models;  // besides the question's own, as {"preset": id}
};

class Search {
 public:
  Search(const Evaluate& evaluate, Moves moves) : evaluate_(evaluate), moves_(std::move(moves)) {}

  // The clean candidate at the largest batch (and, at that batch, the largest model), else none.
  std::optional<Candidate> fit(const Candidate& base, const char* batch_key, int halvings) {
    const double asked = base.scenario["query"].value(batch_key, 1.0);
    const bool serving = std::string(batch_key) == "batch";
    double previous = std::numeric_limits<double>::infinity();
    for (int k = 0; k <= (moves_.batch ? halvings : 0); ++k) {
      Candidate level = base;
      const double batch = serving ? std::max(1.0, std::floor(asked / std::pow(2.0, k))) : asked / std::pow(2.0, k);
      if (k > 0) {
        const bool whole = batch == std::floor(batch) && batch < 1e15;
        set_query_value(level, batch_key, whole ? Json(static_cast<long long>(batch)) : Json(batch));
        level.reasons["/query/" + std::string(batch_key)] = "halved until the plan fits in HBM and warns of nothing";
      }
      // The question as it is, when it runs cleanly, before any other model is weighed against it.
      if (k == 0 && !moves_.models.empty())
        if (auto found = largest(level, previous, false)) return found;
      if (auto found = largest(level, previous, true)) return found;
      if (batch >= previous || (serving && batch <= 1)) break;  // no smaller batch runs
      previous = batch;
    }
    return std::nullopt;
  }

  int tried() const { return tried_; }

 private:
  // The largest model that runs cleanly at this level's batch: each asked once, then weighed largest first (the
  // question's own first on a tie). The question's own model may also take another recomputation; a model it is
  // replaced by keeps the question's (27 presets at 8 batches, each at 6 recomputations, would be 1,300 questions).
  // The others only when `other_models`; a batch that settles back up to `previous` or more is another level's.
  std::optional<Candidate> largest(const Candidate& level, double previous, bool other_models) {
    std::vector<Json> models{level.scenario["model"]};
    for (const Json& m : other_models ? moves_.models : std::vector<Json>{})
      if (m != level.scenario["model"]) models.push_back(m);
    std::vector<Candidate> ran;
    std::vector<Verdict> verdicts;
    for (const Json& model : models) {
      Candidate c = level;
      if (model != level.scenario["model"]) {
        c.scenario["model"] = model;
        c.reasons["/model"] = "the largest of the models given that runs here, fits in HBM and warns of nothing";
      }
      if (moves_.degrees && !settle(c, evaluate_)) continue;
      if (is_training(c.scenario) && c.scenario["query"].value("batch_tokens", 0.0) >= previous) continue;
      ++tried_;
      Verdict v = judge(asked(c), evaluate_);
      if (!v.ran) continue;
      ran.push_back(std::move(c));
      verdicts.push_back(std::move(v));
    }
    // Largest first, the earlier on a tie (a selection, not a sort: at most the presets, and no sort's code).
    std::vector<bool> weighed(ran.size(), false);
    for (std::size_t round = 0; round < ran.size(); ++round) {
      std::size_t next = ran.size();
      for (std::size_t i = 0; i < ran.size(); ++i)
        if (!weighed[i] && (next == ran.size() || verdicts[i].size > verdicts[next].size)) next = i;
      weighed[next] = true;
      const bool own = ran[next].scenario["model"] == level.scenario["model"];
      if (verdicts[next].clean || (own && !verdicts[next].fits && at_best_remat(ran[next]))) return ran[next];
    }
    return std::nullopt;
  }

  // A training candidate that does not fit, moved to the settable recomputation that runs it cleanly in the
  // shortest step; false when none does.
  bool at_best_remat(Candidate& c) {
    if (!moves_.remat || !is_training(c.scenario)) return false;
    const std::string current = c.scenario["query"].value("remat", "");
    std::optional<std::pair<std::string, double>> best;
    for (const std::string& remat : settable_remat_names()) {
      if (remat == current) continue;
      Candidate other = c;
      set_query_value(other, "remat", remat);
      ++tried_;
      const Verdict w = judge(asked(other), evaluate_);
      if (w.clean && (!best || w.step_s < best->second)) best = {remat, w.step_s};
    }
    if (!best) return false;
    set_query_value(c, "remat", best->first);
    c.reasons["/query/remat"] = "the fastest recomputation at which the plan fits in HBM and warns of nothing";
    return true;
  }

  const Evaluate& evaluate_;
  Moves moves_;
  int tried_ = 0;
};

// One serving replica over all the chips the training question laid out, TP across them, as the book's serving
// examples run a model too large to train there.
Candidate serving_replica(const Candidate& trained, const Json& serving_query) {
  Candidate c;
  c.scenario = trained.scenario;
  c.scenario["query"] = serving_query;
  const Json chips = static_cast<long long>(trained.chips);
  c.scenario["mesh"] = {{"lay_out", {{"mode", "serving"}, {"parallelism", {{"tensor", chips}}}}}};
  c.reasons["/query"] =
      "no model given trains cleanly on these chips at any batch tried: one serving replica over all "
      "of them serves instead";
  c.reasons[kLayOutPath] = c.reasons["/query"];
  return c;
}

// The values that differ between the question and the candidate, each {path, from, to, reason}; a question that
// became another kind is one change at /query/kind, not one per argument.
Json changes_between(const Json& asked, const Candidate& c) {
  const Json from = asked.flatten(), to = c.scenario.flatten();
  std::map<std::string, std::pair<Json, Json>> differ;
  for (const auto& [path, v] : from.items())
    if (!to.contains(path) || to[path] != v) differ[path] = {v, to.value(path, Json())};
  for (const auto& [path, v] : to.items())
    if (!from.contains(path)) differ[path] = {Json(), v};
  const bool kind_changed = asked["query"].value("kind", "") != c.scenario["query"].value("kind", "");
  if (kind_changed) {
    std::erase_if(differ, [](const auto& entry) { return entry.first.rfind("/query/", 0) == 0; });
    differ["/query/kind"] = {asked["query"]["kind"], c.scenario["query"]["kind"]};
  }
  Json out = Json::array();
  for (const auto& [path, values] : differ) {
    std::string reason;
    std::size_t matched = 0;
    for (const auto& [prefix, why] : c.reasons.items())
      if ((path == prefix || path.rfind(prefix + "/", 0) == 0) && prefix.size() >= matched) {
        reason = why.get<std::string>();
        matched = prefix.size();
      }
    out.push_back({{"path", path}, {"from", values.first}, {"to", values.second}, {"reason", reason}});
  }
  return out;
}

// A candidate's errors as the nearest_fit's: its query's paths under `query_path` (the others as they are, unless
// `query_only`).
void relay(const Json& diagnostics, const std::string& query_path, bool query_only, Diagnostics& d) {
  for (const Json& x : diagnostics) {
    std::string path = x.value("path", "");
    const bool query = path.rfind("/query", 0) == 0;
    if (x.value("severity", std::string()) == "warning" || (query_only && !query)) continue;
    if (query) path = query_path + path.substr(std::string("/query").size());
    add_diagnostic(d, path, x.value("code", std::string()), x.value("message", std::string()));
  }
}

// serve_instead's argument errors, found before the search may need it: its question asked once on one chip.
void check_serving_arguments(const Json& question, const Json& serving, const Evaluate& evaluate, Diagnostics& d) {
  Json probe = question;
  probe["mesh"] = {{"lay_out", {{"mode", "serving"}, {"parallelism", {{"tensor", 1}}}}}};
  probe["query"] = serving;
  relay(evaluate(probe).value("diagnostics", Json::array()), "/query/serve_instead", true, d);
}

struct Args {
  Json question;  // the scenario with the question as its query
  const Json* serve_instead = nullptr;
  Json serving;  // serve_instead's query, with the fidelity given
  Moves moves;
};

std::optional<Args> read_args(const Json& scenario, Diagnostics& d) {
  JsonReader r(scenario["query"], "/query", d);
  r.accept("kind");
  const Json* question = r.object("query", true);
  const Json* models = r.array("models", false);
  const Json* keep = r.array("keep", false);
  const auto fidelity = r.choice("fidelity", false, {"book", "calibrated"});
  Args a;
  a.serve_instead = r.object("serve_instead", false);
  r.finish();
  if (!question) return std::nullopt;
  const auto kind = JsonReader(*question, "/query/query", d).choice("kind", true, {"training_step", "serving"});
  if (a.serve_instead) {
    JsonReader(*a.serve_instead, "/query/serve_instead", d).choice("kind", true, {"serving"});
    if (kind == "serving")
      add_diagnostic(d, "/query/serve_instead", "not_applicable", "a serving question is served already");
    else if (!laid_out(scenario))
      add_diagnostic(d, "/query/serve_instead", "not_applicable",
                     "the replica is laid out over the chips the training degrees lay out: give the mesh as a lay_out");
  }
  const std::vector<std::string> presets = preset_ids(model_preset_texts());
  for (std::size_t i = 0; models && i < models->size(); ++i) {
    const Json& id = (*models)[i];
    const Json model = {{"preset", id}};
    if (id.is_string() && std::find(presets.begin(), presets.end(), id.get<std::string>()) != presets.end()) {
      if (std::find(a.moves.models.begin(), a.moves.models.end(), model) == a.moves.models.end())
        a.moves.models.push_back(model);  // each preset once, however often it is listed
    } else
      add_diagnostic(d, "/query/models/" + std::to_string(i), "unknown_preset",
                     "unknown model preset " + id.dump() + "; valid: " + join_choices(presets));
  }
  const std::vector<std::string> keepable{"degrees", "remat", "batch"};
  for (std::size_t i = 0; keep && i < keep->size(); ++i) {
    const Json& what = (*keep)[i];
    const auto at =
        what.is_string() ? std::find(keepable.begin(), keepable.end(), what.get<std::string>()) : keepable.end();
    if (at == keepable.end())
      add_diagnostic(d, "/query/keep/" + std::to_string(i), "unknown_choice", "valid: " + join_choices(keepable));
    else
      (*at == "degrees" ? a.moves.degrees : *at == "remat" ? a.moves.remat : a.moves.batch) = false;
  }
  if (laid_out(scenario)) {  // the lay_out's own arguments are plan_mesh's to read
    JsonReader mesh(scenario["mesh"], "/mesh", d);
    mesh.object("lay_out", true);
    mesh.finish();
  }
  if (has_errors(d) || !kind) return std::nullopt;
  a.question = scenario;
  a.question["query"] = *question;
  if (a.serve_instead) a.serving = *a.serve_instead;
  // The fidelity given here is the question's and the replica's where they give none.
  for (Json* query : {&a.question["query"], &a.serving})
    if (fidelity && query->is_object() && !query->contains("fidelity")) (*query)["fidelity"] = *fidelity;
  return a;
}

}  // namespace

bool asks_nearest_fit(const Json& scenario) {
  if (!scenario.is_object() || !scenario.contains("query") || !scenario["query"].is_object()) return false;
  const auto kind = scenario["query"].find("kind");
  return kind != scenario["query"].end() && *kind == "nearest_fit";
}

Json run_nearest_fit(const Json& scenario, const Evaluate& evaluate, Diagnostics& d) {
  const std::optional<Args> args = read_args(scenario, d);
  if (!args) return nullptr;
  Candidate base{args->question, Json::object(), 0, nullptr};
  const bool settled = !args->moves.degrees || settle(base, evaluate);
  const Verdict as_asked = judge(asked(base), evaluate);
  if (!as_asked.ran) {  // the question itself is wrong, or its degrees lay out on no mesh
    relay(as_asked.diagnostics, "/query/query", false, d);
    if (!has_errors(d)) add_diagnostic(d, "/query/query", "no_mesh", "the question runs on no mesh");
    return nullptr;
  }
  if (args->serve_instead) check_serving_arguments(args->question, args->serving, evaluate, d);
  if (has_errors(d)) return nullptr;
  Search search(evaluate, args->moves);
  const bool training = is_training(base.scenario);
  std::optional<Candidate> found =
      search.fit(base, training ? "batch_tokens" : "batch", training ? kTrainingBatchHalvings : kServingBatchHalvings);
  if (!found && args->serve_instead && settled && base.chips > 0)
    found = search.fit(serving_replica(base, args->serving), "batch", kServingBatchHalvings);
  const Candidate& answer = found ? *found : base;
  return {{"fits", found.has_value()},
          {"scenario", answer.scenario},
          {"changes", changes_between(args->question, answer)},
          {"scenarios_tried", search.tried()},
          {"fidelity", as_asked.fidelity}};
}

}  // namespace scalescope
