#!/usr/bin/env bash
# Sets up and runs every test: the native suite under AddressSanitizer/UBSan, the native release suite and CLI
# checks, the same Catch2 suite compiled with Emscripten and run under Node, a byte-for-byte comparison of
# every golden result and every structured mutation's answer between native and wasm, the Python module's pytest
# suite (python/tests), the libFuzzer target for a bounded time (clang; FUZZ_SECONDS, default 60) with the
# committed crash corpus replayed first, and the web explorer's type check, unit tests, build and browser test.
# Warnings are errors (SCALESCOPE_WERROR).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/node.sh && scalescope_use_node  # the Node that set-up chose
export NODE_PATH=/usr/share/nodejs  # Emscripten's optimiser needs Debian's acorn (docs/toolchain.md quirk 1)
# Formatting first, so that a style slip fails in seconds: clang-format for C++, Prettier for the web.
scripts/format-check.sh
jobs=$(nproc)

for preset in debug release wasm fuzz; do
  cmake --preset "$preset" >/dev/null
done
# Two cores: one build at a time, each on every core. The sanitized suite (debug) and the fuzz target are built by
# clang with precompiled headers (docs/toolchain.md, "Compile times"); the fuzz preset builds only its target.
for preset in debug release wasm fuzz; do
  cmake --build --preset "$preset" -j"$jobs"
done

mkdir -p build
: > build/ctest.log
for preset in debug release wasm; do
  ctest --preset "$preset" 2>&1 | tee -a build/ctest.log
done

# Native and wasm must give identical numbers for every golden case (docs/design.md: -ffp-contract=off).
build/release/golden_dump > build/golden_native.txt
node --no-experimental-fetch build/wasm/golden_dump.js > build/golden_wasm.txt
if ! cmp -s build/golden_native.txt build/golden_wasm.txt; then
  echo "native and wasm results differ:" >&2
  diff build/golden_native.txt build/golden_wasm.txt | head -20 >&2
  exit 1
fi
echo "native and wasm agree byte for byte on $(wc -l < build/golden_native.txt) golden results"
# The same for every scenario of the structured mutator (tests/mutations.h): a hash of each whole answer.
build/release/golden_dump --mutations > build/mutations_native.txt
node --no-experimental-fetch build/wasm/golden_dump.js --mutations > build/mutations_wasm.txt
if ! cmp -s build/mutations_native.txt build/mutations_wasm.txt; then
  echo "native and wasm answers differ on mutated scenarios:" >&2
  diff build/mutations_native.txt build/mutations_wasm.txt | head -20 >&2
  exit 1
fi
echo "native and wasm agree byte for byte on $(wc -l < build/mutations_native.txt) mutated scenarios"

# The Python module (python/, docs/python.md) under Debian's python3: its pytest suite (the module against the native
# golden answers byte for byte, the helpers, frames and figures, the example script and its notebook) and the
# docstrings' examples as doctests.
PYTHONPATH=build/release/python:python/tests PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m pytest -p no:cacheprovider \
  -q --doctest-modules python/tests build/release/python/scalescope 2>&1 | tee build/pytest.log
python_passed=$(sed -n 's/^\([0-9]*\) passed[, a-z0-9]* in .*/\1/p' build/pytest.log)
[ -n "$python_passed" ] || { echo "python: the pytest suite failed" >&2; exit 1; }

# Fuzzing (issue 12): replay every input that ever crashed (tests/fuzz/regressions/), then fuzz for a bounded time
# from the golden scenarios, the docs/api.md examples and some mutations, with a JSON dictionary. A finding stops
# the run with its input in build/fuzz/: add it to tests/fuzz/regressions/ with the fix.
build/fuzz/scalescope_fuzz tests/fuzz/regressions/* > build/fuzz_replay.log 2>&1 || { cat build/fuzz_replay.log >&2; exit 1; }
echo "fuzz: $(ls tests/fuzz/regressions | wc -l) committed regression inputs replayed under ASan/UBSan"
rm -rf build/fuzz/seeds && mkdir -p build/fuzz/seeds build/fuzz/corpus
build/release/golden_dump --seeds build/fuzz/seeds > /dev/null
if ! build/fuzz/scalescope_fuzz build/fuzz/corpus build/fuzz/seeds -dict=tests/fuzz/scenario.dict \
    -max_total_time="${FUZZ_SECONDS:-60}" -timeout=10 -max_len=65536 -malloc_limit_mb=64 -print_final_stats=1 \
    -artifact_prefix=build/fuzz/ > build/fuzz.log 2>&1; then
  tail -40 build/fuzz.log >&2
  echo "fuzz: a finding (its input is in build/fuzz/); add it to tests/fuzz/regressions/ with the fix" >&2
  exit 1
fi
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' build/fuzz.log)
cov=$(grep -o 'cov: [0-9]*' build/fuzz.log | tail -1)
echo "fuzz: $runs executions in ${FUZZ_SECONDS:-60} s ($cov edges, corpus $(ls build/fuzz/corpus | wc -l) inputs), 0 findings"

# The web: TypeScript types, Vitest unit tests (URL codec, parameter table, mesh mapping, worker client, the engine
# types against the real wasm module, the shipped wasm module against native golden_dump on every golden case, and
# the schema (schema/): its generated files current, every document and result valid, the readers and the mutated
# scenarios' diagnostics agreeing with it both ways), the static site build, and the browser tests on
# @playwright/test in Debian's Chromium (web/playwright.config.ts; the site served by `vite preview`): the project
# `checks` (the explorer against the CLI, the chapter pages and widgets, the profile page, axe-core, CSP, the phone
# layout) and the project `performance` (slider-to-paint, time to interactive, site weight, trace read time: printed
# and written to build/playwright/figures.json, never checked against a time). Traces of failed tests, screenshots on
# failure and results.json are in build/playwright/; the promised screenshots in build/screenshots/.
cd web
npx tsc --noEmit
echo "web: TypeScript types check"
npx vitest run --reporter=default --reporter=json --outputFile.json=../build/vitest.json
vitest_passed=$(node -e 'const r=require("../build/vitest.json"); if (r.numFailedTests) process.exit(1); console.log(r.numPassedTests)')
npx vite build --logLevel warn
echo "web: site built in build/site"
npx playwright test 2>&1 | tee ../build/playwright.log
# Every check is a test.step of its name (e2e/fixtures.mjs `check`), and the JSON report lists test.steps (not each
# expect): count the checks that passed, in tests that passed; fail on any test not passed or any check failed.
playwright_passed=$(node -e '
const r = require("../build/playwright/results.json");
if (r.stats.unexpected || r.stats.flaky || r.errors.length) process.exit(1);
let passed = 0, failed = 0;
const count = (steps) => { for (const s of steps ?? []) { if (s.error) failed++; else passed++; count(s.steps); } };
const walk = (suite) => { for (const s of suite.specs ?? []) for (const t of s.tests) for (const r of t.results) count(r.steps); (suite.suites ?? []).forEach(walk); };
r.suites.forEach(walk);
if (failed || !passed) process.exit(1);
console.log(passed);') || { echo "browser tests failed (build/playwright/results.json)" >&2; exit 1; }
cd ..

# One closing line for every suite above (set -e has already stopped on any failure): the format check (+ 1), CTest's
# tests, the two native/wasm comparisons (the awk's + 2), the Python tests, the fuzz replay and run (+ 2), the
# type check (+ 1 below), Vitest's tests and the browser tests' checks (both Playwright projects).
passed=$(grep -o 'tests failed out of [0-9]*' build/ctest.log | awk '{s += $5} END {print s + 2}')
echo "$((1 + passed + python_passed + 2 + 1 + vitest_passed + playwright_passed)) passed, 0 failed"
