#include "json_file.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "io/json_text.h"

namespace scalescope::cli {

bool read_json_file(const std::string& path, nlohmann::json& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream text;
  text << in.rdbuf();
  Diagnostics d;
  out = parse_document(text.str(), d);
  for (const Diagnostic& x : d) std::cerr << path << (x.path.empty() ? "" : ": " + x.path) << ": " << x.code << ": " << x.message << "\n";
  return d.empty();
}

}  // namespace scalescope::cli
