// The calibration subsystem's query kinds (validation, calibrate, kernel_fit, kernel_family), which the entry point's
// table appends to the core's. The page's wasm module links a build without them (wasm/no_calibration.cpp): the
// explorer loads a profile, it does not fit one (docs/architecture.md "What the page ships").
#pragma once
#include <span>

#include "queries/query.h"

namespace scalescope {

std::span<const QueryKind> calibration_query_kinds();

Json run_validation(const QueryContext&, JsonReader&, Diagnostics&);
Json run_calibrate(const QueryContext&, JsonReader&, Diagnostics&);
Json run_kernel_fit(const QueryContext&, JsonReader&, Diagnostics&);
Json run_kernel_family(const QueryContext&, JsonReader&, Diagnostics&);

}  // namespace scalescope
