#include "io/text.h"

#include <cstdio>

namespace scalescope {

std::size_t utf8_char_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80) return 1;
  // RFC 3629: the lead byte fixes the length and the range of the second byte (no overlong forms, no surrogates).
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF)
    length = 2;
  else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  if (byte(at + 1) < low || byte(at + 1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if (byte(at + i) < 0x80 || byte(at + i) > 0xBF) return 0;
  return length;
}

std::string quote(std::string_view text, std::size_t max_chars) {
  std::string out = "'";
  std::size_t at = 0, chars = 0;
  char hex[8];
  while (at < text.size() && chars < max_chars) {
    const char c = text[at];
    const std::size_t length = utf8_char_length(text, at);
    if (length == 0) {
      std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned char>(c));
      out += hex;
      at += 1;
    } else if (length > 1) {
      out.append(text.substr(at, length));
      at += length;
    } else {
      if (c == '\'' || c == '\\')
        out += {'\\', c};
      else if (c == '\n')
        out += "\\n";
      else if (c == '\r')
        out += "\\r";
      else if (c == '\t')
        out += "\\t";
      else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
        std::snprintf(hex, sizeof hex, "\\u%04X", static_cast<unsigned char>(c));
        out += hex;
      } else
        out += c;
      at += 1;
    }
    ++chars;
  }
  out += "'";
  if (at < text.size()) out += "... (cut, " + std::to_string(text.size()) + " bytes)";
  return out;
}

}  // namespace scalescope
