#include "json_file.h"

#include <fstream>
#include <iostream>

#include "io/json_text.h"
#include "io/limits.h"

namespace scalescope::cli {

bool read_input_text(std::istream& in, std::string& out) {
  // One byte past the limit is enough for parse_document to name it too large; reading on would let /dev/zero or an
  // endless pipe grow the process without bound (issue 41).
  out.assign(kMaxInputBytes + 1, '\0');
  in.read(out.data(), static_cast<std::streamsize>(out.size()));
  out.resize(static_cast<std::size_t>(in.gcount()));
  return !in.bad();
}

bool read_json_file(const std::string& path, nlohmann::json& out) {
  std::ifstream in(path, std::ios::binary);
  std::string text;
  if (!in || !read_input_text(in, text)) return false;
  Diagnostics d;
  out = parse_document(text, d);
  for (const Diagnostic& x : d)
    std::cerr << path << (x.path.empty() ? "" : ": " + x.path) << ": " << x.code << ": " << x.message << "\n";
  return d.empty();
}

}  // namespace scalescope::cli
