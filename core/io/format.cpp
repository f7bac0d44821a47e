#include "io/format.h"

#include <cstdio>
#include <cstdlib>

namespace scalescope {

std::string format_count(double v) {
  char buf[32];
  // Whole numbers up to 1e15 in full; past that (a 31-digit count would be cut off) three significant digits.
  std::snprintf(buf, sizeof buf, v >= 100 && v < 1e15 ? "%.0f" : "%.3g", v);
  return buf;
}

double round_significant(double v, int digits) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return std::strtod(buf, nullptr);
}

std::string format_bytes(double bytes) {
  static const char* kPrefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  int i = 0;
  while (i < 6 && (bytes >= 1000.0 || bytes <= -1000.0)) {
    bytes /= 1000.0;
    ++i;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3g %sB", bytes, kPrefixes[i]);
  return buf;
}

std::string format_duration(double seconds) {
  struct Unit {
    double seconds;
    const char* name;
  };
  // Years only from ten of them: a run of 381 days reads as the page's "381 days".
  static const Unit kUnits[] = {{365.25 * 86400, "years"}, {86400, "days"}, {3600, "hours"}, {60, "min"}, {1, "s"}};
  char buf[48];
  for (const Unit& u : kUnits)
    if (seconds >= (u.seconds > 86400 ? 10 * u.seconds : u.seconds) || u.seconds == 1) {
      std::snprintf(buf, sizeof buf, "%.3g %s", seconds / u.seconds, u.name);
      return buf;
    }
  return buf;
}

}  // namespace scalescope
