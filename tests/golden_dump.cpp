// Prints every golden case's full result, one JSON line per case: run natively and under Node, the two outputs
// must be byte-identical (DESIGN.md: native and wasm agree bit for bit).
#include <cstdio>

#include "api.h"
#include "golden_cases.h"

int main() {
  for (const auto& c : scalescope::golden::load_cases(scalescope::golden::golden_dir())) {
    const std::string out = scalescope::evaluate_json(c.scenario.dump());
    std::printf("%s :: %s :: %s\n", c.file.c_str(), c.name.c_str(), out.c_str());
  }
  return 0;
}
