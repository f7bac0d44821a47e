// Renders a result JSON for people: one "key  value" line per number, with the unit its key names turned into a
// readable scale (1.2e-3 s -> 1.2 ms). The JSON output stays in SI units; only this view rescales.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace scalescope::cli {

std::string render_table(const nlohmann::json& evaluation);
std::string format_with_unit(const std::string& key, double value);

}  // namespace scalescope::cli
