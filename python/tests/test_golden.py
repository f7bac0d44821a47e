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
