#include "io/format.h"

#include <cstdio>

namespace scalescope {

std::string format_count(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f" : "%.3g", v);
  return buf;
}

}  // namespace scalescope
