#!/usr/bin/env bash
# The main job: set up, build the engine (native CLI and wasm) and the web explorer, print a ten-second summary of
# the default scenario (`scalescope --summary`: LLaMA-3 70B on a TPU v5p 4x4x4; pass another scenario file to
# summarise that instead; `--table` lists every number), then serve the explorer on 127.0.0.1 and print its address. PORT=... picks the port (default 8080).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/node.sh && scalescope_use_node  # the Node that set-up chose
export NODE_PATH=/usr/share/nodejs  # Emscripten's optimiser needs Debian's acorn (docs/toolchain.md quirk 1)
jobs=$(nproc)
cmake --preset release >/dev/null
cmake --build build/release --target scalescope -j"$jobs" >/dev/null
build/release/scalescope --summary "${1:-examples/default.json}"
echo
echo "run: building the wasm engine and the web explorer..."
cmake --preset wasm >/dev/null
cmake --build build/wasm --target scalescope_engine scalescope_trace scalescope_launch -j"$jobs" >/dev/null
(cd web && npx vite build --logLevel warn)
# vite preview serves build/site (vite.config.ts build.outDir), as `npm run preview` does, on 127.0.0.1 only.
cd web && exec npx vite preview --host 127.0.0.1 --port "${PORT:-8080}" --strictPort
