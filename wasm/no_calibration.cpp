// The page's module leaves out the calibration subsystem (core/calibration/: fitting, validation): the explorer
// loads a profile and never fits one, so its wasm need not carry the fitter (docs/architecture.md "What the page
// ships"). Here its query kinds are none; the CLI, Python and the test programs link the real ones.
#include "calibration/query_kinds.h"

namespace scalescope {

std::span<const QueryKind> calibration_query_kinds() { return {}; }

}  // namespace scalescope
