#!/usr/bin/env bash
# The main job: set up, build the engine, and print a readable summary of the default scenario
# (LLaMA-3 70B on a TPU v5p 4x4x4). Pass another scenario file to summarise that instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release >/dev/null
cmake --build build/release --target scalescope -j"$(nproc)" >/dev/null
exec build/release/scalescope --table "${1:-examples/default.json}"
