// A model's `resize` object: the model re-shaped after every other field, as the explorer's model sliders do it
// (docs/api.md "Re-shaping a model"). One rule for the page, the CLI and Python alike.
#pragma once
#include <string>

#include "io/json_reader.h"

namespace scalescope {

// `model` without its "resize" key, re-shaped by it (a copy of `model` when it has none). `path` is where the model
// object sits; a resize's errors are reported under path/resize. The shape fields are read loosely (a wrong type is
// left for the model reader to report).
Json resize_model(const Json& model, const std::string& path, Diagnostics& d);

}  // namespace scalescope
