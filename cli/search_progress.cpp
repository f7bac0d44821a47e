#include "search_progress.h"

#include <cmath>
#include <string>

#include "io/format.h"

namespace scalescope::cli {

SearchProgressLine::SearchProgressLine(std::ostream& out, bool in_place) : out_(out), in_place_(in_place) {}

SearchProgressLine::~SearchProgressLine() {
  if (written_ && in_place_) out_ << "\n" << std::flush;
}

void SearchProgressLine::operator()(const Json& partial_result) {
  const double share = partial_result.value("progress_frac", 0.0);
  const double space = partial_result.value("space", 0.0);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::string percent = std::to_string(static_cast<int>(std::floor(100 * share)));
  out_ << (in_place_ ? "\r" : "") << "scalescope: plan search " << percent << "% of " << format_count(space)
       << " plans, " << format_duration(seconds) << (in_place_ ? "" : "\n") << std::flush;
  written_ = true;
}

}  // namespace scalescope::cli
