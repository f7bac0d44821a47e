// The explorer's first-load module leaves out the launch configs (core/frameworks/): the page asks for one only when
// a reader clicks "launch config", and then loads scalescope_launch, the engine with them (docs/architecture.md
// "What the page ships"). Here their query kinds are none.
#include "frameworks/framework_query.h"

namespace scalescope {

std::span<const QueryKind> framework_query_kinds() { return {}; }

}  // namespace scalescope
