// A long plan search's progress on stderr, never in the JSON on stdout (issue 40: a 75M-plan search resumed to its
// end in 20 s of silence): the share of the space searched, the plans and the seconds so far.
#pragma once
#include <chrono>
#include <ostream>

#include "api.h"

namespace scalescope::cli {

// evaluate_whole_json's progress reporter: one line rewritten in place on a terminal, or a line per report when the
// output is not one (--progress); ended when the search is done.
class SearchProgressLine {
 public:
  SearchProgressLine(std::ostream& out, bool in_place);
  SearchProgressLine(const SearchProgressLine&) = delete;
  SearchProgressLine& operator=(const SearchProgressLine&) = delete;
  ~SearchProgressLine();
  void operator()(const Json& partial_result);

 private:
  std::ostream& out_;
  bool in_place_;
  bool written_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace scalescope::cli
