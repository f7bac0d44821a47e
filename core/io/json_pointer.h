// JSON pointers (RFC 6901) read and followed without exceptions: nlohmann's json_pointer throws on a malformed
// pointer or an out-of-range index, and under wasm nothing may throw (core/api.h).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/json_reader.h"

namespace scalescope {

// The pointer's reference tokens, unescaped (~1 is /, ~0 is ~); nullopt when it is not a pointer: not empty and not
// starting with '/', or a '~' not followed by 0 or 1.
std::optional<std::vector<std::string>> parse_json_pointer(std::string_view pointer);

// The value the tokens lead to, or nullptr: a key an object lacks, an array index that is not a whole number in
// decimal without leading zeros, or one past the end.
const Json* find_at(const Json& root, const std::vector<std::string>& tokens);

}  // namespace scalescope
