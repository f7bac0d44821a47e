"""The package as pip installs it (issue 40 item 1): `pip install .` from the clone into a fresh virtual environment
with no package index, imported from outside the clone, with its metadata; a clear error for an engine module built
for another Python."""
from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
import sysconfig
import zipfile

from conftest import BUILD, ROOT


def _backend():
    spec = importlib.util.spec_from_file_location("scalescope_build", ROOT / "python/build_backend/scalescope_build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_wheel_holds_the_package_the_engine_and_a_true_record(tmp_path):
    backend = _backend()
    name = backend.build_wheel(str(tmp_path), {"build-dir": str(BUILD)})
    tag = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    assert name.startswith(f"scalescope-{backend.version()}-{tag}-{tag}-linux_")
    with zipfile.ZipFile(tmp_path / name) as wheel:
        names = set(wheel.namelist())
        assert {"scalescope/__init__.py", "scalescope/py.typed", "scalescope/sweeps.py",
                "scalescope/_engine" + sysconfig.get_config_var("EXT_SUFFIX")} <= names
        record = wheel.read(f"scalescope-{backend.version()}.dist-info/RECORD").decode().splitlines()
        for line in record:
            path, digest, size = line.rsplit(",", 2)
            if digest:  # RECORD lists itself without a hash
                data = wheel.read(path)
                assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                assert int(size) == len(data)
        assert {line.split(",")[0] for line in record} == names
        metadata = wheel.read(f"scalescope-{backend.version()}.dist-info/METADATA").decode()
    assert "Requires-Python: >=3.9" in metadata and 'Requires-Dist: pandas>=1.3; extra == "frames"' in metadata


def test_pip_installs_it_into_a_fresh_environment_with_no_index(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    # The default build isolation: the backend needs nothing, so pip fetches nothing. The engine is the test
    # command's own build (a new folder would compile it again for minutes).
    install = subprocess.run([str(python), "-m", "pip", "install", "--no-index", "--config-settings",
                              f"build-dir={BUILD}", str(ROOT)], capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stdout[-2000:] + install.stderr[-2000:]
    check = """
import importlib.metadata, json, scalescope
try:
    scalescope.plan_search("h100-sxm", "llama-3-8b", 8)
    tables = "no error"
except ImportError as e:
    tables = str(e)
print(json.dumps({"file": scalescope.__file__, "version": scalescope.__version__,
                  "metadata": importlib.metadata.version("scalescope"),
                  "step_s": scalescope.training_step("tpu-v5p", "llama-3-70b", [4, 4, 4]).step_s, "tables": tables}))
"""
    # From outside the clone, in an environment without Debian's packages (so without pandas).
    out = subprocess.run([str(python), "-c", check], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    seen = json.loads(out.stdout)
    assert seen["file"].startswith(str(venv))
    assert seen["version"] == seen["metadata"] == _backend().version()
    assert seen["step_s"] > 0
    assert "scalescope[frames]" in seen["tables"]


def test_an_engine_built_for_another_python_is_named(tmp_path):
    package = tmp_path / "scalescope"
    shutil.copytree(BUILD / "python" / "scalescope", package)
    here = "_engine" + sysconfig.get_config_var("EXT_SUFFIX")
    (package / here).rename(package / "_engine.cpython-399-x86_64-linux-gnu.so")
    out = subprocess.run([sys.executable, "-c", "import scalescope"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode != 0
    message = out.stderr.strip().splitlines()[-1]
    assert "built for another Python" in message and here in message and "cpython-399" in message
    assert "pip install ." in message and "circular import" not in message
