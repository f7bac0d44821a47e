"""scalescope.trace (docs/api.md "Traces", issue 37): the same numbers as the CLI, gzipped or not, in chunks."""
from __future__ import annotations

import gzip
import io
import json

import pytest

import scalescope
from conftest import run_cli

B200 = "tests/traces/b200_vllm_gpt_oss_tp8_rank0.json"


def test_python_and_cli_give_the_same_answer(root, cli, tmp_path):
    # The fixture gzipped, as profilers write it: the CLI reads it through zlib, Python through gzip.
    gzipped = tmp_path / "trace.json.gz"
    gzipped.write_bytes(gzip.compress((root / B200).read_bytes()))
    out = run_cli(cli, "trace", str(gzipped), "--json", "--top", "20")
    assert out.returncode == 0, out.stderr
    assert scalescope.trace(gzipped, top=20).data == json.loads(out.stdout)
    assert scalescope.trace(root / B200, top=20).data == json.loads(out.stdout)


def test_frames_and_headline(root):
    t = scalescope.trace(root / B200, top=100)
    assert t.hardware_id == "b200"
    assert t.classes["time_s"].sum() == pytest.approx(t.kernel_time_s, rel=1e-12)
    assert set(t.classes.index) >= {"matmul", "moe", "collective", "attention"}
    addmm = t.ops[(t.ops["op"] == "aten::addmm") & (t.ops["shape"] == "888x2880 @ 2880x640")].iloc[0]
    assert addmm["flops"] / addmm["calls"] == 2 * 888 * 640 * 2880  # §2.1, by hand from the recorded dims
    assert t.gaps.iloc[0]["reason.code"] == "idle"
    assert "kernel_time_s" in repr(t)


def test_against_the_plan_as_the_cli(root, cli, tmp_path):
    plan = {"hardware": {"preset": "b200"}, "model": {"preset": "llama-3-8b"}, "mesh": {"shape": [8]},
            "query": {"kind": "training_step", "batch_tokens": 65536, "seq_len": 4096,
                      "parallelism": {"fsdp": ["X"]}, "fidelity": "calibrated"}}
    (tmp_path / "plan.json").write_text(json.dumps(plan))
    out = run_cli(cli, "trace", str(root / B200), "--json", "--scenario", str(tmp_path / "plan.json"), "--steps", "3")
    t = scalescope.trace(root / B200, scenario=plan, steps=3)
    assert t.data == json.loads(out.stdout)
    assert t.plan.loc["step", "predicted_s"] == scalescope.evaluate(plan)["time"]["step_s"]
    assert t.plan.loc["step", "measured_s"] == pytest.approx(t.devices["window_s"].iloc[0] / 3, rel=1e-12)


def test_calibrate_from_a_trace(root):
    t = scalescope.trace(root / B200, kernel_tables=True)
    fit = scalescope.kernel_fit(t.kernel_tables)  # the chip the tables name: the trace's
    assert fit.kernels["source"]["repository"] == "a PyTorch profiler trace"
    assert "gemm" in set(fit.scores["op"])


def test_a_file_object_and_bad_traces(root):
    with open(root / B200, "rb") as f:
        assert scalescope.trace(f, hardware="h100-sxm").hardware_id == "h100-sxm"
    with pytest.raises(scalescope.ScalescopeError, match="not_a_trace"):
        scalescope.trace(io.BytesIO(b"not a trace"))
    refused = scalescope.trace(io.BytesIO(b'{"traceEvents": []}'), raise_on_error=False)
    assert not refused.ok and refused.diagnostics[0].code == "no_events"
