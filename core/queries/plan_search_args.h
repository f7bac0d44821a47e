// A plan_search query's arguments (docs/api.md): the training input, the ranking, the space and its constraints,
// the chunk and the cursor, read and checked before any work.
#pragma once
#include <string>

#include "planners/plan_search.h"
#include "queries/query.h"
#include "specs/calibration_profile.h"

namespace scalescope {

// Everything a plan search asks. `profile` points at `given` or a preset: filled in place, never copied.
struct PlanSearchQuery {
  TrainingInput in;
  SearchSettings settings;
  CalibrationProfile given;
  const CalibrationProfile* profile = nullptr;
  std::string objective;
  SpaceOptions options;
  double limit = 0;  // the most plans the space may hold
  bool count_only = false;
  double chunk = 0;  // plans this call evaluates (0: as many as the work limit allows)
  const Json* resume = nullptr;
};

// Reads the query in its keys' order and finishes it (unknown keys before any work, issue 22); false on errors.
bool read_plan_search_query(const QueryContext& ctx, JsonReader& args, Diagnostics& diagnostics, PlanSearchQuery& q);

}  // namespace scalescope
