// A JSON file read for the CLI's commands (calibrate, validate, kernels).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace scalescope::cli {

// The file's document within the engine's limits (io/json_text.h: size, NUL, depth); false when it cannot be read
// or breaks them, each problem printed to stderr with the file's path.
bool read_json_file(const std::string& path, nlohmann::json& out);

}  // namespace scalescope::cli
