// The frameworks' query kinds (issue 40 item 5), which the entry point's table appends to the core's:
// launch_config writes a training_step or serving plan as a framework's launch configuration; import_config reads one
// back into a scenario and says what it could not map. Built apart from the page's first-load module (the explorer
// loads them in a module of their own when a config is asked for: docs/architecture.md "What the page ships").
#pragma once
#include <span>

#include "queries/query.h"

namespace scalescope {

std::span<const QueryKind> framework_query_kinds();

Json run_launch_config(const QueryContext&, JsonReader&, Diagnostics&);
Json run_import_config(const QueryContext&, JsonReader&, Diagnostics&);

}  // namespace scalescope
