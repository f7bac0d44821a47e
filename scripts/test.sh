#!/usr/bin/env bash
# Sets up and runs every test: the native suite under AddressSanitizer/UBSan, the native release suite and CLI
# checks, the same Catch2 suite compiled with Emscripten and run under Node, a byte-for-byte comparison of
# every golden result between native and wasm, and the web explorer's type check, unit tests, build and browser
# test. Warnings are errors (the CMake presets set SCALESCOPE_WERROR).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export NODE_PATH=/usr/share/nodejs  # Emscripten's optimiser needs Debian's acorn (TOOLCHAIN.md quirk 1)
jobs=$(nproc)

for preset in debug release wasm; do
  cmake --preset "$preset" >/dev/null
done
# Two cores: build the native suites first, then wasm (each uses every core).
cmake --build build/debug -j"$jobs"
cmake --build build/release -j"$jobs"
cmake --build build/wasm -j"$jobs"

mkdir -p build
: > build/ctest.log
for preset in debug release wasm; do
  ctest --preset "$preset" 2>&1 | tee -a build/ctest.log
done

# Native and wasm must give identical numbers for every golden case (DESIGN.md: -ffp-contract=off).
build/release/golden_dump > build/golden_native.txt
node --no-experimental-fetch build/wasm/golden_dump.js > build/golden_wasm.txt
if ! cmp -s build/golden_native.txt build/golden_wasm.txt; then
  echo "native and wasm results differ:" >&2
  diff build/golden_native.txt build/golden_wasm.txt | head -20 >&2
  exit 1
fi
echo "native and wasm agree byte for byte on $(wc -l < build/golden_native.txt) golden results"

# The web: TypeScript types, Vitest unit tests (URL codec, parameter table, mesh mapping, worker client, the hand-
# written engine types against the real wasm module, and the shipped wasm module against native golden_dump on
# every golden case), the static site build, and the browser test in Debian's Chromium (its figures are printed).
cd web
npx tsc --noEmit
echo "web: TypeScript types check"
npx vitest run --reporter=default --reporter=json --outputFile.json=../build/vitest.json
vitest_passed=$(node -e 'const r=require("../build/vitest.json"); if (r.numFailedTests) process.exit(1); console.log(r.numPassedTests)')
npx vite build --logLevel warn
echo "web: site built in build/site"
node e2e/browser.mjs 2>&1 | tee ../build/browser.log
browser_passed=$(sed -n 's/^browser: \([0-9]*\) passed, 0 failed$/\1/p' ../build/browser.log)
[ -n "$browser_passed" ] || { echo "browser test failed" >&2; exit 1; }
node e2e/chapters.mjs 2>&1 | tee ../build/chapters.log
chapters_passed=$(sed -n 's/^chapters: \([0-9]*\) passed, 0 failed$/\1/p' ../build/chapters.log)
[ -n "$chapters_passed" ] || { echo "chapter pages and widgets test failed" >&2; exit 1; }
cd ..

# One closing line for every suite above (set -e has already stopped on any failure): CTest's tests, the
# native/wasm comparison (the awk's + 1), the type check (+ 1 below), Vitest's tests, the browser test's checks and the
# chapter pages and widgets test's checks.
passed=$(grep -o 'tests failed out of [0-9]*' build/ctest.log | awk '{s += $5} END {print s + 1}')
echo "$((passed + 1 + vitest_passed + browser_passed + chapters_passed)) passed, 0 failed"
