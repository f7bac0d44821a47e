// Numbers in diagnostic messages and reasons: whole numbers above 100, three significant digits below.
#pragma once
#include <string>

namespace scalescope {

std::string format_count(double v);

// `v` to `digits` significant digits, as a decimal printed and read back (exactly rounded on every platform): what a
// fitted constant is kept to, so that a profile file holds no more digits than the fit can claim.
double round_significant(double v, int digits);

// Bytes in messages with a decimal prefix and three significant digits: "99 TB", "41.3 GB" (SI, as the book's GB).
std::string format_bytes(double bytes);

// A duration in the largest unit it reaches, three significant digits: "381 days", "3.09 hours", "42 min", "12 s";
// years from ten of them ("4.2e+03 years").
std::string format_duration(double seconds);

}  // namespace scalescope
