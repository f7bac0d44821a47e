// docs/validation.md's generated tables: the validation query's result as Markdown.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace scalescope::cli {

// `validation`: the query's result; `profiles`: the profiles it used (their parameters are tabled too).
std::string validation_markdown(const nlohmann::json& validation, const nlohmann::json& profiles);

}  // namespace scalescope::cli
