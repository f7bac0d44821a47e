// The engine's JSON text boundary: a document is read within the limits of io/limits.h (its size, no NUL byte, its
// nesting depth) with one diagnostic naming where it broke, and written without ever throwing (issue 12).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "io/diagnostics.h"

namespace scalescope {

using Json = nlohmann::json;

// The document in `text`, or a discarded value and one diagnostic at path "" (malformed_json, too_large) or at the
// JSON pointer of the first value nested deeper than kMaxJsonDepth (too_deep). nlohmann's parser would stop at a
// NUL byte and call the text before it complete; a NUL is malformed here, wherever it is.
Json parse_document(std::string_view text, Diagnostics& diagnostics);

// Reports the first value of `node` nested deeper than kMaxJsonDepth below `path` (`depth` levels down already)
// and returns false; the check itself recurses at most kMaxJsonDepth levels. For documents that arrive as JSON
// values instead of text, before anything recursive (copies, merge patches, dump) touches them.
bool check_depth(const Json& node, const std::string& path, Diagnostics& diagnostics, int depth = 0);

// dump() that replaces invalid UTF-8 with U+FFFD instead of throwing.
std::string to_text(const Json& value, int indent = -1);

}  // namespace scalescope
