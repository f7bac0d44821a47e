// The plan_mesh query (docs/api.md): for parallelism degrees given as numbers, the mesh they lay out on and the
// axes each strategy takes (ready for a training_step or serving query), why they cannot run, the degrees each
// strategy can take for this model and chip, and the nearest degrees (and batch) that run. The explorer asks it
// instead of keeping the engine's rules in the page (issue 20).
#include "io/format.h"
#include "planners/plan_degrees.h"
#include "queries/query.h"

namespace scalescope {

namespace {

constexpr std::int64_t kMaxListed = 1 << 16;  // degrees listed per strategy: a slider's stops, not a table

bool in_mode(bool serving, int s) { return !serving || s == kTensorIndex || s == kExpertIndex; }

// A key a serving replica has no use for, given anyway: said, not ignored (one set of keys for both modes).
void training_only(JsonReader& r, const char* key, bool serving, Diagnostics& d) {
  if (serving && r.has(key))
    add_diagnostic(d, r.path_of(key), "not_applicable",
                   std::string("a serving replica splits by tensor and expert parallelism in one slice; '") + key +
                       "' is for mode 'training'");
}

void read_parallelism(JsonReader& args, DegreeQuestion& q, Diagnostics& d) {
  const Json* node = args.object("parallelism", false);
  if (!node) return;
  JsonReader r(*node, args.path_of("parallelism"), d);
  for (int s = 0; s < kLayoutStrategies; ++s) {
    if (!in_mode(q.serving, s)) training_only(r, kStrategyKeys[s], q.serving, d);
    q.degrees[s] = r.integer(kStrategyKeys[s], false, 1, kMaxPlanDegree).value_or(1);
  }
  q.expert_tensor = r.number("expert_tensor", false).value_or(0);
  for (const char* key : {"pipeline_schedule", "virtual_stages"}) training_only(r, key, q.serving, d);
  const std::string schedule = r.choice("pipeline_schedule", false, pipeline_schedule_choices()).value_or("1f1b");
  for (PipelineSchedule s : kPipelineSchedules)
    if (schedule == pipeline_schedule_name(s)) q.schedule = s;
  q.virtual_stages = r.number("virtual_stages", false).value_or(1);
  r.finish();
}

// `list_degrees`: per strategy {"up_to": n, "powers_of_two": bool}.
std::array<DegreeOptions, kLayoutStrategies> read_list_degrees(JsonReader& args, bool serving, Diagnostics& d) {
  std::array<DegreeOptions, kLayoutStrategies> out{};
  const Json* node = args.object("list_degrees", false);
  if (!node) return out;
  JsonReader r(*node, args.path_of("list_degrees"), d);
  for (int s = 0; s < kLayoutStrategies; ++s) {
    if (!in_mode(serving, s)) training_only(r, kStrategyKeys[s], serving, d);
    const Json* entry = r.object(kStrategyKeys[s], false);
    if (!entry) continue;
    JsonReader e(*entry, r.path_of(kStrategyKeys[s]), d);
    out[s].up_to = e.integer("up_to", true, 1, kMaxListed).value_or(0);
    out[s].powers_of_two = e.boolean("powers_of_two", false).value_or(false);
    e.finish();
  }
  r.finish();
  return out;
}

Json degrees_json(const DegreeQuestion& q) {
  Json out = Json::object();
  for (int s = 0; s < kLayoutStrategies; ++s)
    if (in_mode(q.serving, s)) out[kStrategyKeys[s]] = q.degrees[s];
  return out;
}

// The mesh and each strategy's axes, as a training_step or serving query takes them.
void mesh_json(const DegreeMesh& mesh, const DegreeQuestion& q, Json& out) {
  Json& m = out["mesh"];
  m["shape"] = mesh.shape;
  Json& names = m["axis_names"] = Json::array();
  for (std::size_t i = 0; i < mesh.shape.size(); ++i)
    names.push_back(degree_mesh_axis_name(static_cast<int>(i), false));
  m["slices"] = degree_mesh_input(q).slices;
  Json& par = out["parallelism"] = Json::object();
  for (int s = 0; s < kLayoutStrategies; ++s) {
    if (mesh.engine_layout && q.degrees[s] > 1) {
      par[kStrategyKeys[s]] = q.degrees[s];
      continue;
    }
    if (mesh.axes[s].empty()) continue;
    // A one-chip mesh's axis is the data axis; a serving replica has none, so it is a TP of 1 there (issue 41:
    // `serving` refused the `data` key this wrote).
    Json& axes = par[kStrategyKeys[in_mode(q.serving, s) ? s : kTensorIndex]];
    if (!axes.is_array()) axes = Json::array();
    for (int a : mesh.axes[s]) axes.push_back(degree_mesh_axis_name(a, a == static_cast<int>(mesh.shape.size())));
  }
  out["engine_layout"] = mesh.engine_layout;
  out["chips_per_slice"] = mesh.chips_per_slice;
}

// The chips the degrees ask for, laid out or not (the slices included).
double chips_asked(const DegreeQuestion& q) {
  const DegreeMeshInput in = degree_mesh_input(q);
  double chips = static_cast<double>(in.slices);
  for (std::int64_t v : in.degrees) chips *= static_cast<double>(v);
  return chips;
}

// `asked`: the question as given (the experts' TP is written only when it asked for one).
Json nearest_json(const DegreeQuestion& asked, const DegreeQuestion& q, const std::vector<DegreeChange>& changes) {
  Json out;
  out["parallelism"] = degrees_json(q);
  out["chips"] = q.chips > 0 ? Json(q.chips) : Json(nullptr);
  if (q.batch_tokens > 0) out["batch_tokens"] = q.batch_tokens;
  if (asked.expert_tensor > 0) out["expert_tensor"] = q.expert_tensor > 0 ? Json(q.expert_tensor) : Json(nullptr);
  if (!q.serving) out["slices"] = q.slices;
  Json& list = out["changes"] = Json::array();
  for (const DegreeChange& c : changes) {
    Json& change = list.emplace_back();
    change["path"] = c.path;
    change["from"] = c.from;
    change["to"] = c.dropped ? Json(nullptr) : Json(c.to);
    change["reason"] = c.reason;
  }
  return out;
}

}  // namespace

Json run_plan_mesh(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  DegreeQuestion q;
  q.hw = ctx.hw;
  q.model = ctx.model;
  q.serving = args.choice("mode", false, {"training", "serving"}).value_or("training") == "serving";
  read_parallelism(args, q, d);
  for (const char* key : {"slices", "dcn_strategy", "seq_len", "batch_tokens"}) training_only(args, key, q.serving, d);
  q.slices = args.integer("slices", false, 1, 1 << 20).value_or(1);
  q.dcn_strategy = args.choice("dcn_strategy", false, {"data", "fsdp"}).value_or("data") == "fsdp" ? 1 : 0;
  q.seq_len = args.number("seq_len", false).value_or(0);
  q.batch_tokens = args.number("batch_tokens", false).value_or(0);
  q.chips = static_cast<std::int64_t>(args.number("chips", false).value_or(0));
  const std::array<DegreeOptions, kLayoutStrategies> listed = read_list_degrees(args, q.serving, d);
  args.finish();
  if (has_errors(d)) return Json();

  DegreeQuestion nearest = q;
  Diagnostics problems;
  if (const std::string problem = chips_problem(q); !problem.empty()) {
    add_diagnostic(problems, "/query/chips", "not_divisible", problem);
    q.chips = 0;  // the degrees as given set the count
  }
  const DegreeMesh mesh = mesh_for_degrees(degree_mesh_input(q));
  if (!mesh.ok) add_diagnostic(problems, "/query/parallelism", mesh.code, mesh.problem);
  describe_split_problems(q, "/query", problems);

  Json out;
  out["runs"] = problems.empty();
  out["degrees"] = degrees_json(q);
  out["balancing"] = kStrategyKeys[balancing_strategy(q)];
  out["chips"] = chips_asked(q);
  out["chips_multiple_of"] = chips_unit(q);
  Json& list = out["problems"] = Json::array();
  for (const Diagnostic& p : problems) list.push_back(diagnostic_json(p));
  if (mesh.ok) mesh_json(mesh, q, out);
  Json& valid = out["valid_degrees"] = Json::object();
  for (int s = 0; s < kLayoutStrategies; ++s)
    if (listed[s].up_to > 0 && !(q.chips > 0 && s == balancing_strategy(q)))
      valid[kStrategyKeys[s]] = valid_degrees(q, s, listed[s]);
  const std::vector<DegreeChange> changes = nearest_runnable(nearest);
  if (!changes.empty()) out["nearest"] = nearest_json(q, nearest, changes);
  return out;
}

}  // namespace scalescope
