// A JSON file read for the CLI's commands (calibrate, validate, kernels).
#pragma once
#include <istream>
#include <nlohmann/json.hpp>
#include <string>

namespace scalescope::cli {

// At most the engine's input limit plus one byte of `in` (so a larger input is reported, never read whole); false on
// a read error.
bool read_input_text(std::istream& in, std::string& out);

// The file's document within the engine's limits (io/json_text.h: size, NUL, depth); false when it cannot be read
// or breaks them, each problem printed to stderr with the file's path.
bool read_json_file(const std::string& path, nlohmann::json& out);

}  // namespace scalescope::cli
