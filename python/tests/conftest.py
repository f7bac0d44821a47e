"""Where the tests find the repository and the native build they compare with (SCALESCOPE_BUILD_DIR, default
build/release: the CLI and golden_dump beside the module)."""
from __future__ import annotations

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("SCALESCOPE_BUILD_DIR", ROOT / "build" / "release"))


@pytest.fixture(scope="session")
def root() -> pathlib.Path:
    return ROOT


@pytest.fixture(scope="session")
def cli() -> pathlib.Path:
    path = BUILD / "scalescope"
    assert path.exists(), f"the native CLI is not built: {path} (cmake --build build/release)"
    return path


def run_cli(cli: pathlib.Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(cli), *args], input=stdin, capture_output=True, timeout=120)
