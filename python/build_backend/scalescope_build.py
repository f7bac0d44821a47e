"""Scalescope's build backend (PEP 517 and PEP 660): `pip install .` from a clone builds the engine's Python module
with CMake for the Python that runs pip, and installs it as the package `scalescope` with its metadata.

It needs only the standard library, so pip's build isolation has nothing to fetch and works with no package index:
`--no-build-isolation` is never needed. What the build needs is the C++ tool chain and Debian's headers
(scripts/python.sh installs them; docs/python.md "Install").

The engine is built in `build/python-<interpreter>` of the source tree, kept between installs so that a reinstall
rebuilds only what changed. `--config-settings build-dir=DIR` (or SCALESCOPE_BUILD_DIR) uses another CMake build
folder instead, such as `build/release`, whose module must have been built for this Python.
"""
from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAME = "scalescope"
SUMMARY = "How to Scale Your Model, live: a roofline and scaling engine for LLM training and serving on TPUs and GPUs"
REQUIRES_PYTHON = ">=3.9"
# pandas for the tables (plan searches, sweeps, presets) and matplotlib for the figures, imported when first used:
# the engine itself needs neither, so a fresh environment with no package index can install and import it.
EXTRAS = {"frames": ["pandas>=1.3"], "plots": ["pandas>=1.3", "matplotlib>=3.5"]}
EXTRAS["all"] = sorted({d for deps in EXTRAS.values() for d in deps})


def version() -> str:
    """The engine's version, as every answer names it (core/io/version.h): the package's too."""
    text = (ROOT / "core" / "io" / "version.h").read_text(encoding="utf-8")
    return re.search(r'kEngineVersion = "([^"]+)"', text).group(1)


def _interpreter() -> str:
    """The CPython ABI this interpreter loads extensions of, e.g. cp311 (the wheel's and the build folder's tag)."""
    if sys.implementation.name != "cpython":
        raise RuntimeError(f"scalescope's engine module is built for CPython, not {sys.implementation.name}")
    return f"cp{sys.version_info[0]}{sys.version_info[1]}"


def _wheel_tag() -> str:
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{_interpreter()}-{_interpreter()}-{platform}"


def _build_dir(config_settings: dict | None) -> Path:
    chosen = (config_settings or {}).get("build-dir") or os.environ.get("SCALESCOPE_BUILD_DIR")
    return Path(chosen).resolve() if chosen else ROOT / "build" / f"python-{_interpreter()}"


def _run(command: list[str]) -> None:
    print("scalescope:", " ".join(command), file=sys.stderr, flush=True)
    subprocess.run(command, check=True, stdout=sys.stderr)


def _built_package(config_settings: dict | None) -> Path:
    """The package folder CMake assembles (the Python files, py.typed and the engine module), built for this
    Python."""
    build = _build_dir(config_settings)
    if not (build / "CMakeCache.txt").exists():
        # The interpreter pip runs, resolved past a virtual environment's link so that the folder outlives it.
        python = os.path.realpath(sys.executable)
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        _run(["cmake", "-S", str(ROOT), "-B", str(build), *generator, "-DCMAKE_BUILD_TYPE=Release",
              "-DSCALESCOPE_PYTHON=ON", "-DSCALESCOPE_CLI=OFF", f"-DPython_EXECUTABLE={python}"])
    _run(["cmake", "--build", str(build), "--target", "scalescope_python", "-j", str(os.cpu_count() or 1)])
    package = build / "python" / NAME
    module = package / ("_engine" + sysconfig.get_config_var("EXT_SUFFIX"))
    if not module.exists():
        found = ", ".join(p.name for p in package.glob("_engine*")) or "none"
        raise RuntimeError(f"{build} holds no engine module for this Python ({module.name}; it has: {found}): "
                           "give --config-settings build-dir= a folder of its own")
    return package


def _metadata() -> str:
    lines = ["Metadata-Version: 2.1", f"Name: {NAME}", f"Version: {version()}", f"Summary: {SUMMARY}",
             "License: Apache-2.0", f"Requires-Python: {REQUIRES_PYTHON}"]
    for extra, deps in EXTRAS.items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {dep}; extra == "{extra}"' for dep in deps]
    readme = ROOT / "README.md"
    if readme.exists():
        lines += ["Description-Content-Type: text/markdown", "", readme.read_text(encoding="utf-8")]
    return "\n".join(lines) + "\n"


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _write_wheel(wheel_directory: str, files: dict[str, bytes]) -> str:
    """A wheel holding `files` (name in the wheel -> bytes) and its dist-info, PEP 427's layout."""
    dist_info = f"{NAME}-{version()}.dist-info"
    files = dict(files)
    files[f"{dist_info}/METADATA"] = _metadata().encode()
    files[f"{dist_info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: {NAME}_build\nRoot-Is-Purelib: false\n"
                                   f"Tag: {_wheel_tag()}\n").encode()
    files[f"{dist_info}/top_level.txt"] = f"{NAME}\n".encode()
    record = [_record_line(name, data) for name, data in files.items()] + [f"{dist_info}/RECORD,,"]
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel_name = f"{NAME}-{version()}-{_wheel_tag()}.whl"
    with zipfile.ZipFile(Path(wheel_directory) / wheel_name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files.items():
            wheel.writestr(name, data)
    return wheel_name


# PEP 517 ------------------------------------------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings=None) -> list[str]:
    return []


def get_requires_for_build_editable(config_settings=None) -> list[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None) -> str:
    """The metadata alone, so that pip learns the name and version without building the engine."""
    dist_info = Path(metadata_directory) / f"{NAME}-{version()}.dist-info"
    dist_info.mkdir(parents=True, exist_ok=True)
    (dist_info / "METADATA").write_text(_metadata(), encoding="utf-8")
    return dist_info.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None) -> str:
    package = _built_package(config_settings)
    files = {f"{NAME}/{p.name}": p.read_bytes() for p in sorted(package.iterdir())
             if p.suffix in (".py", ".typed") or p.name == "_engine" + sysconfig.get_config_var("EXT_SUFFIX")}
    return _write_wheel(wheel_directory, files)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None) -> str:
    """An editable install: a .pth file that puts the build folder's package on the path. Rebuild it (pip install
    -e . again, or cmake --build DIR --target scalescope_python) after changing the engine or the Python files:
    CMake copies them there."""
    package = _built_package(config_settings)
    return _write_wheel(wheel_directory, {f"{NAME}.pth": f"{package.parent}\n".encode()})


def build_sdist(sdist_directory, config_settings=None) -> str:
    """The files git tracks, as NAME-VERSION.tar.gz with PKG-INFO."""
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], check=True, capture_output=True).stdout
    base = f"{NAME}-{version()}"
    name = f"{base}.tar.gz"
    with tarfile.open(Path(sdist_directory) / name, "w:gz", format=tarfile.PAX_FORMAT) as sdist:
        for path in filter(None, tracked.decode().split("\0")):
            if (ROOT / path).is_file():
                sdist.add(ROOT / path, arcname=f"{base}/{path}", recursive=False)
        info = _metadata().encode()
        entry = tarfile.TarInfo(f"{base}/PKG-INFO")
        entry.size = len(info)
        sdist.addfile(entry, io.BytesIO(info))
    return name
