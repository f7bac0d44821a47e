#!/usr/bin/env bash
# Installs what Scalescope needs on a fresh Debian 12 machine, idempotently: only what is missing.
# Debian packages, then the web's npm packages from web/package-lock.json (npm ci).
# Nothing else is downloaded: no emsdk, no browser builds (the browser tests drive Debian's chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

# emscripten brings node-acorn (its optimiser needs it) and a nodejs if the machine has none.
# chromium: the browser tests (web/e2e/*.spec.mjs, @playwright/test) drive /usr/bin/chromium.
# clang and libclang-rt-14-dev (libFuzzer): the sanitized debug build and the fuzz target in tests/fuzz (preset fuzz).
# pybind11-dev, python3-dev and the python3-* packages: the Python module (python/, docs/python.md) and its tests,
# for Debian's /usr/bin/python3 (python3-venv: its install test's fresh environment; python3-nbclient and
# python3-ipykernel: its notebook, run headless; python3-distributed: a sweep over a Dask cluster).
# zlib1g-dev: `scalescope trace` reads gzipped profiler traces. libcli11-dev: the command line's arguments (CLI11).
# clang-format: the format check (scripts/format-check.sh).
packages=(cmake ninja-build g++ emscripten libeigen3-dev nlohmann-json3-dev catch2 chromium clang libclang-rt-14-dev
          zlib1g-dev libcli11-dev clang-format
          pybind11-dev python3-dev python3-venv python3-pytest python3-pandas python3-matplotlib
          python3-nbclient python3-ipykernel python3-distributed)
command -v npm >/dev/null 2>&1 || packages+=(npm)
source scripts/apt.sh
scalescope_apt_install "${packages[@]}"

# The web build needs Node >= 20.19 (Vite 8); Debian 12's own nodejs is 18 (scripts/node.sh).
source scripts/node.sh
scalescope_use_node

# npm ci when node_modules is missing or was installed from another package-lock.json.
lock_sum=$(sha256sum web/package-lock.json | cut -d' ' -f1)
stamp=web/node_modules/.scalescope-lock.sha256
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_sum" ]; then
  echo "setup: npm ci in web/"
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
  echo "$lock_sum" > "$stamp"
else
  echo "setup: web/node_modules up to date"
fi
