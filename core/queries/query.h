// The questions a scenario can ask ("query.kind"), each a small handler that reads its arguments strictly and
// returns a result object whose every number has its unit in its key. docs/api.md documents each one.
#pragma once
#include <optional>
#include <span>

#include "io/json_reader.h"
#include "physics/mesh.h"
#include "specs/hardware.h"
#include "specs/model.h"

namespace scalescope {

// docs/design.md "Fidelity and calibration": `book` is the book's closed forms (the teacher, the ideal lower bound);
// `calibrated` is the per-layer model with a calibration profile (the estimate an engineer plans with).
enum class Fidelity { book, calibrated };
constexpr const char* fidelity_name(Fidelity f) { return f == Fidelity::calibrated ? "calibrated" : "book"; }

struct QueryContext {
  const Hardware* hw = nullptr;  // set when the query needs hardware
  const ModelConfig* model = nullptr;
  const Json* model_node = nullptr;  // the scenario's `model` object that `model` was resolved from
  const Mesh* mesh = nullptr;
  Fidelity fidelity = Fidelity::book;  // `query.fidelity`, or the kind's default
  // Layouts a training plan given in degrees may still cost, shared by the scenarios of one query that reads many
  // (calibrate, validation: issue 41, 512 runs at 100,000 layouts each took 23 s before any counted fit); nullptr:
  // only each plan's own limit (kMaxLayoutsPerPlan).
  long long* layout_budget = nullptr;
};

enum Needs : unsigned { kNeedsHardware = 1, kNeedsModel = 2, kNeedsMesh = 4, kWantsModel = 8, kWantsMesh = 16 };

struct QueryKind {
  const char* name;
  unsigned needs;  // Needs flags; "Wants" = used when given
  Json (*run)(const QueryContext& ctx, JsonReader& args, Diagnostics& diagnostics);
  bool offers_calibrated = false;  // accepts `fidelity: "calibrated"`
  Fidelity default_fidelity = Fidelity::book;
};

// Every kind the entry point answers: the core's, the launch configs' (frameworks/framework_query.h), then the
// calibration subsystem's (calibration/query_kinds.h).
std::span<const QueryKind> query_kinds();

// Handlers, one group per module (queries_*.cpp).
Json run_chip(const QueryContext&, JsonReader&, Diagnostics&);
Json run_roofline(const QueryContext&, JsonReader&, Diagnostics&);
Json run_matmul(const QueryContext&, JsonReader&, Diagnostics&);
Json run_topology(const QueryContext&, JsonReader&, Diagnostics&);
Json run_transfer(const QueryContext&, JsonReader&, Diagnostics&);
Json run_collective(const QueryContext&, JsonReader&, Diagnostics&);
Json run_array(const QueryContext&, JsonReader&, Diagnostics&);
Json run_sharded_matmul(const QueryContext&, JsonReader&, Diagnostics&);
Json run_transformer(const QueryContext&, JsonReader&, Diagnostics&);
Json run_model(const QueryContext&, JsonReader&, Diagnostics&);
Json run_utilization(const QueryContext&, JsonReader&, Diagnostics&);
Json run_bounds(const QueryContext&, JsonReader&, Diagnostics&);
Json run_summary(const QueryContext&, JsonReader&, Diagnostics&);
Json run_training_step(const QueryContext&, JsonReader&, Diagnostics&);
Json run_serving(const QueryContext&, JsonReader&, Diagnostics&);
Json run_mlp_roofline(const QueryContext&, JsonReader&, Diagnostics&);
Json run_plan_search(const QueryContext&, JsonReader&, Diagnostics&);
Json run_serving_search(const QueryContext&, JsonReader&, Diagnostics&);
Json run_plan_mesh(const QueryContext&, JsonReader&, Diagnostics&);
Json run_profile(const QueryContext&, JsonReader&, Diagnostics&);

// Shared argument readers.
// "memory": "hbm" | "on_chip" | "host" -> bandwidth of that memory on `hw` (diagnostic if the preset lacks it).
double memory_bandwidth(const Hardware& hw, const std::string& memory, const std::string& path, Diagnostics& d);
const char* memory_choices();
// Peak FLOP/s of `dtype` (diagnostic naming the dtypes the chip has when it has none for this one).
double peak_for(const Hardware& hw, Dtype dtype, const std::string& path, Diagnostics& d);

}  // namespace scalescope
