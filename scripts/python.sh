#!/usr/bin/env bash
# Sets up, builds and installs the Python module (docs/python.md) into a virtual environment, build/venv, made
# from Debian's /usr/bin/python3 with --system-site-packages (so Debian's pandas and matplotlib are seen), then
# runs the README's one-line check. Afterwards: `. build/venv/bin/activate` and `python3 -c "import scalescope"`,
# or, without the environment, PYTHONPATH=build/release/python /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release >/dev/null
cmake --build build/release -j"$(nproc)" --target scalescope_python
[ -x build/venv/bin/python3 ] || /usr/bin/python3 -m venv --system-site-packages build/venv
site=$(build/venv/bin/python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
rm -rf "$site/scalescope"
cp -r build/release/python/scalescope "$site/scalescope"
echo "python: scalescope installed in build/venv ($site/scalescope)"
build/venv/bin/python3 -c "import scalescope; print('LLaMA-3 70B on a TPU v5p 4x4x4:', round(scalescope.training_step(hardware='tpu-v5p', model='llama-3-70b', mesh=[4,4,4]).step_s, 2), 's per step')"
