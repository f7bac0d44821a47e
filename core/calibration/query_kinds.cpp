#include "calibration/query_kinds.h"

namespace scalescope {

std::span<const QueryKind> calibration_query_kinds() {
  static const QueryKind kinds[] = {
      {"validation", 0, run_validation},
      {"calibrate", 0, run_calibrate},
      {"kernel_fit", kNeedsHardware, run_kernel_fit},
      {"kernel_family", 0, run_kernel_family},
  };
  return kinds;
}

}  // namespace scalescope
