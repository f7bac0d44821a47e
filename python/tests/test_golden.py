"""The module answers as the native engine does, byte for byte, on every golden case (tests/golden/*.json) and
the validation suite's calibrate and family-held-out validation, as the wasm module is held to (scripts/test.sh)."""
from __future__ import annotations

import json
import subprocess

import scalescope
from scalescope import _engine

from conftest import BUILD, run_cli


def golden_lines(*args: str) -> list[tuple[str, str]]:
    out = subprocess.run([str(BUILD / "golden_dump"), *args], capture_output=True, check=True, timeout=300).stdout
    lines = out.decode("utf-8").splitlines()
    return [(line.rsplit(" :: ", 1)[0], line.split(" :: ", 2)[2]) for line in lines]


def test_every_golden_case_and_the_calibration_suite_match_native_byte_for_byte():
    scenarios = golden_lines("--scenarios")
    answers = golden_lines()
    assert len(scenarios) == len(answers) > 300
    mismatched = []
    for (name, scenario), (answer_name, native) in zip(scenarios, answers):
        assert name.split(" :: ")[:2] == answer_name.split(" :: ")[:2]
        if _engine.evaluate(scenario.encode("utf-8")).decode("utf-8") != native:
            mismatched.append(name)
    assert not mismatched, f"{len(mismatched)} answers differ from native, e.g. {mismatched[:3]}"


def test_evaluate_equals_the_cli_and_resumes_a_search_as_it_does(cli):
    # 4096 H100s: the book-fidelity search stops at the per-call work limit three or more times.
    search = {"hardware": {"preset": "h100-sxm"}, "model": {"preset": "llama-3-70b"}, "mesh": {"shape": [4096]},
              "query": {"kind": "plan_search", "fidelity": "book", "batch_tokens": 16777216, "seq_len": 4096,
                        "keep": 3}}
    native = run_cli(cli, "-", stdin=json.dumps(search).encode())
    assert native.returncode == 0
    mine = scalescope.evaluate(search)
    assert mine.result["complete"] is True
    assert json.loads(native.stdout) == mine.data
    first_chunk = json.loads(_engine.evaluate(json.dumps(search).encode()))
    assert first_chunk["result"]["stopped_by"] == "work_limit"


def test_the_cli_shows_a_long_search_progress_on_stderr_and_only_the_answer_on_stdout(cli):
    # issue 40: a search resumed over many calls ran in silence. --progress writes a line per call on stderr.
    search = {"hardware": {"preset": "h100-sxm"}, "model": {"preset": "llama-3-70b"}, "mesh": {"shape": [4096]},
              "query": {"kind": "plan_search", "fidelity": "book", "batch_tokens": 16777216, "seq_len": 4096,
                        "keep": 3}}
    text = json.dumps(search).encode()
    quiet, shown = run_cli(cli, "-", stdin=text), run_cli(cli, "--progress", "-", stdin=text)
    assert shown.returncode == quiet.returncode == 0
    assert shown.stdout == quiet.stdout and quiet.stderr == b""  # not a terminal: nothing unless asked
    lines = shown.stderr.decode().splitlines()
    assert len(lines) >= 2, lines  # one per call the search stopped at the work limit
    shares = [int(line.split("plan search ")[1].split("%")[0]) for line in lines]
    assert shares == sorted(shares) and 0 < shares[0] and shares[-1] < 100
    assert all(" of 850256 plans, " in line for line in lines), lines[0]

