// `scalescope --summary`: the answer a person reads in ten seconds — what runs on what, the headline numbers, what
// binds, whether it fits, and one line on what to try next — for summary, training_step, serving and plan_search
// queries (other kinds print the table). Every number is a field of the engine's result, formatted as --table does;
// where the result carries the calibrated estimate and the book's ideal (`fidelity`, `ideal`), both are shown, with
// the calibration profile's measured error in one line.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace scalescope::cli {

std::string render_summary(const nlohmann::json& scenario, const nlohmann::json& evaluation);

}  // namespace scalescope::cli
