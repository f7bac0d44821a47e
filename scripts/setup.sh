#!/usr/bin/env bash
# Installs what Scalescope needs on a fresh Debian 12 machine, idempotently: only what is missing.
# Everything comes from Debian's packages (see ../shared/TOOLCHAIN.md); nothing is downloaded from elsewhere.
set -euo pipefail

# emscripten brings node-acorn (its optimiser needs it) and a nodejs if the machine has none.
packages=(cmake ninja-build g++ emscripten libeigen3-dev nlohmann-json3-dev catch2)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "setup: all packages present"
fi
