// Diagnostics: bad input is a value, not a crash (docs/design.md "Engine rules").
#pragma once
#include <string>
#include <vector>

namespace scalescope {

struct Diagnostic {
  std::string path;      // JSON pointer into the scenario, e.g. "/hardware/overrides/hbm_bandwidth_bytes_per_s"
  std::string code;      // stable machine-readable code, e.g. "unknown_key", "not_positive"
  std::string message;   // plain words for a person, naming the valid choices where there are some
  bool warning = false;  // a warning keeps the result (a plan out of HBM is still worth its numbers)
};

using Diagnostics = std::vector<Diagnostic>;

inline void add_diagnostic(Diagnostics& out, std::string path, std::string code, std::string message) {
  out.push_back(Diagnostic{std::move(path), std::move(code), std::move(message), false});
}

inline void add_warning(Diagnostics& out, std::string path, std::string code, std::string message) {
  out.push_back(Diagnostic{std::move(path), std::move(code), std::move(message), true});
}

inline bool has_errors(const Diagnostics& d) {
  for (const auto& x : d)
    if (!x.warning) return true;
  return false;
}

// "a, b, c" — for messages that list the valid choices.
std::string join_choices(const std::vector<std::string>& choices);

}  // namespace scalescope
