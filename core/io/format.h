// Numbers in diagnostic messages and reasons: whole numbers above 100, three significant digits below.
#pragma once
#include <string>

namespace scalescope {

std::string format_count(double v);

// Bytes in messages with a decimal prefix and three significant digits: "99 TB", "41.3 GB" (SI, as the book's GB).
std::string format_bytes(double bytes);

}  // namespace scalescope
