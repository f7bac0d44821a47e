// User text quoted into a message: escaped and cut at a character boundary, so a message is always valid UTF-8 and
// always short, whatever bytes came in (issue 12: a raw byte copied into a message crashed dump()).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include "io/limits.h"

namespace scalescope {

// 'text' in single quotes: \' and \\ for the quote and the backslash, \n \r \t or \u00XX for control characters,
// \xHH for each byte that is not part of valid UTF-8; characters past `max_chars` are cut and the message says how
// long the text was: 'abc...' (cut, 5000 bytes).
std::string quote(std::string_view text, std::size_t max_chars = kMaxQuotedChars);

// The length of the valid UTF-8 character starting at text[at], or 0 if the bytes there are not one.
std::size_t utf8_char_length(std::string_view text, std::size_t at);

}  // namespace scalescope
