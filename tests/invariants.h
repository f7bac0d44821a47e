// What every answer of the engine must satisfy, whatever the input (issue 12; docs/design.md "Engine rules": bad input
// is a value, never a crash, never NaN). Shared by the Catch2 suite, the structured mutator and the libFuzzer target.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace scalescope::invariants {

// The answer of evaluate_json / validate_json (an object), or of evaluate_many_json (an array of such objects, or
// one object when the whole call was rejected). Returns one line per broken rule, empty when the answer is sound:
// it parses as JSON; each object has a boolean `ok`, a `diagnostics` array and `engine_version`; every diagnostic
// has a JSON pointer `path`, a non-empty `code` and `message`, and a `severity`; `ok` is true exactly when no
// diagnostic is an error; no diagnostic reports an engine failure (`non_finite`, `internal_error`); no number is
// -0 (a result is normalised); a training step's time parts, and a serving step's exposed terms, add up to its step.
std::vector<std::string> answer_problems(std::string_view answer);

// Issue 20: the book's ideal is a lower bound on the calibrated estimate. Every time a result puts beside its ideal
// (`step_s`, `latency_per_token_s`, `time_to_first_token_s`: a training step, a serving replica, a searched plan) is
// at least the ideal's. Needs the scenario for its one named exception (`query.params_override`).
std::vector<std::string> ideal_problems(const nlohmann::json& scenario, std::string_view answer);

}  // namespace scalescope::invariants
