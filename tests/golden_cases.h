// Golden cases as data (tests/golden/*.json): a scenario, the numbers the book gives (the correct ones where the
// book slipped, with a note), a tolerance and a citation. Shared by the Catch2 suite and golden_dump.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace scalescope::golden {

struct Case {
  std::string file;  // e.g. "ch01_rooflines.json"
  std::string name;
  std::string citation;  // the book's chapter and example
  nlohmann::json scenario;
  nlohmann::json expect;              // [{path, value, rel_tol} | {path, equals}]
  nlohmann::json expect_diagnostics;  // [{path, code}] for bad-input cases
};

// Every case of every *.json file in `dir`, sorted by file then position. Problems reading a file become a case
// whose `name` starts with "LOAD ERROR", so that the suite fails loudly.
std::vector<Case> load_cases(const std::string& dir);

// Checks one evaluation against its case; returns one line per failed expectation (empty = pass).
std::vector<std::string> check(const Case& c, const nlohmann::json& evaluation);

std::string golden_dir();

}  // namespace scalescope::golden
