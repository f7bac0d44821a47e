#!/usr/bin/env bash
# Sets up, builds and installs the Python module (docs/python.md) and nothing else of the project: the Debian
# packages the module needs, then `pip install .` into a virtual environment, build/venv, made from Debian's
# /usr/bin/python3 with --system-site-packages (so that Debian's pandas and matplotlib are seen), then the README's
# one-line check. Afterwards: `. build/venv/bin/activate`. For another Python (a venv, conda or uv environment), run
# `python -m pip install .` in the clone with it: the same build, for that interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/apt.sh
scalescope_apt_install cmake ninja-build g++ libeigen3-dev nlohmann-json3-dev zlib1g-dev \
  pybind11-dev python3-dev python3-venv python3-pandas python3-matplotlib
[ -x build/venv/bin/python3 ] || /usr/bin/python3 -m venv --system-site-packages build/venv
# No package index is asked: the build backend (pyproject.toml) needs only the standard library.
build/venv/bin/python3 -m pip install --no-index .
build/venv/bin/python3 -c "import scalescope; print('LLaMA-3 70B on a TPU v5p 4x4x4:', round(scalescope.training_step(hardware='tpu-v5p', model='llama-3-70b', mesh=[4,4,4]).step_s, 2), 's per step')"
