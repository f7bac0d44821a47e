// exp and log that give the same bits on every platform (issue 22, item 13). The C library's exp and log may differ
// in the last bit between glibc (native) and Emscripten's musl (wasm), and a fit that calls them thousands of times
// turns one bit into different fitted profiles. These use only +, -, *, / and exact scaling by powers of two, which
// IEEE 754 rounds the same everywhere (with -ffp-contract=off, DESIGN.md), and are accurate to about 1 ulp.
#pragma once

namespace scalescope {

double portable_exp(double x);
double portable_log(double x);  // x > 0; log(0) is -inf, a negative x or NaN gives NaN

}  // namespace scalescope
