// Numbers in diagnostic messages and reasons: whole numbers above 100, three significant digits below.
#pragma once
#include <string>

namespace scalescope {

std::string format_count(double v);

}  // namespace scalescope
