#include "calibration/query_kinds.h"

namespace scalescope {

std::span<const QueryKind> calibration_query_kinds() {
  static const QueryKind kinds[] = {
      {"validation", 0, run_validation},
      {"calibrate", 0, run_calibrate},
  };
  return kinds;
}

}  // namespace scalescope
