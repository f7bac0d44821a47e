"""Framework launch configs from Python and the CLI (issue 40 item 5): `scalescope launch` of a searched plan read
back by `scalescope import` gives the same scenario; the Python helpers carry a step's scenario there and back."""
from __future__ import annotations

import json

import pytest

import scalescope
from conftest import BUILD, run_cli

CLI = BUILD / "scalescope"


def _searched_step(hardware: str, mesh: list[int] | int, remats: list[str]) -> scalescope.TrainingStep:
    """The best plan a search finds for LLaMA-3 70B among those the framework can run (its remat policies, fp32
    master weights as both frameworks keep), run as a training step."""
    plans = scalescope.plan_search(hardware, "llama-3-70b", mesh, batch_tokens=4194304, seq_len=8192, keep=1,
                                   precision={"master_weights": "fp32"}, space={"remat": remats})
    return scalescope.training_step(**plans.iloc[0]["training_step"])


@pytest.mark.parametrize("hardware, mesh, framework, remats", [
    ("tpu-v5p", [4, 4, 8], "maxtext", ["none", "big_matmuls", "block"]),  # MaxText's none, minimal, full
    ("h100-sxm", 128, "megatron-bridge", ["none", "selective", "block"]),  # Megatron's none, selective, full
])
def test_cli_launch_of_a_searched_plan_imports_as_the_same_scenario(tmp_path, hardware, mesh, framework, remats):
    step = _searched_step(hardware, mesh, remats)
    scenario_file = tmp_path / "scenario.json"
    scenario_file.write_text(json.dumps(step.scenario))
    launched = run_cli(CLI, "launch", "--for", framework, str(scenario_file))
    assert launched.returncode == 0, launched.stderr
    config = tmp_path / "config.txt"
    config.write_bytes(launched.stdout)
    imported = run_cli(CLI, "import", "--for", framework, str(config), "--scenario", str(scenario_file))
    assert imported.returncode == 0, imported.stderr
    back = json.loads(imported.stdout)
    written = scalescope.launch_config(step, framework)
    assert back["query"] == written.plan
    assert not written.unexpressed
    # The scenario read back runs with the same degrees. Where they lie on the torus is the engine's choice (the
    # fastest layout by the book's step) as it is MaxText's (its device mesh), not the config's.
    again = scalescope.evaluate(back)
    assert again.ok and again.result["degrees"] == step.result["degrees"]


def test_cli_import_prints_what_it_could_not_map_on_stderr(tmp_path):
    config = tmp_path / "train.sh"
    config.write_text("python3 -m MaxText.train MaxText/configs/base.yml run_name=x ici_fsdp_parallelism=8 "
                      "per_device_batch_size=2 max_target_length=4096 remat_policy=save_qkv_proj")
    scenario = tmp_path / "v5p.json"
    scenario.write_text(json.dumps({"hardware": {"preset": "tpu-v5p"}, "model": {"preset": "llama-3-8b"},
                                    "mesh": {"shape": [2, 2, 2]}, "query": {"kind": "chip"}}))
    out = run_cli(CLI, "import", "--for", "maxtext", str(config), "--scenario", str(scenario))
    assert out.returncode == 0, out.stderr
    err = out.stderr.decode()
    assert "not mapped: run_name=x" in err and "not mapped: remat_policy=save_qkv_proj" in err
    assert json.loads(out.stdout)["query"]["batch_tokens"] == 2 * 8 * 4096
    refused = run_cli(CLI, "import", "--for", "maxtext", str(config))  # -1 is the default fsdp: no chips to resolve
    assert refused.returncode == 0  # ici_fsdp_parallelism=8 given: the chips are its product
    bad = run_cli(CLI, "launch", "--for", "megatron", str(scenario))
    assert bad.returncode == 1 and b"launch_config" not in bad.stdout


def test_launch_config_in_a_notebook_shows_the_text_and_what_it_leaves_out():
    step = scalescope.training_step("h100-sxm", "llama-3-70b", 64, batch_tokens=1048576, seq_len=8192,
                                    parallelism={"tensor": 8, "pipeline": 4, "fsdp": 2, "microbatches": 32,
                                                 "pipeline_schedule": "zero_bubble"})
    config = scalescope.launch_config(step, "megatron")
    assert config.format == "command_line" and "--pipeline-model-parallel-size 4" in config.text
    assert {n["setting"] for n in config.unexpressed} == {"/precision/master_weights", "/parallelism/pipeline_schedule"}
    shown = config._repr_html_()
    assert "<pre>" in shown and "zero_bubble" in shown
    with pytest.raises(scalescope.ScalescopeError, match="not_applicable"):
        scalescope.launch_config(step, "vllm")


def test_import_config_reads_a_file_and_hints(tmp_path):
    ds = tmp_path / "ds_config.json"
    ds.write_text(json.dumps({"train_batch_size": 512, "train_micro_batch_size_per_gpu": 2,
                              "gradient_accumulation_steps": 4, "bf16": {"enabled": True},
                              "zero_optimization": {"stage": 3}}))
    back = scalescope.import_config(ds, "deepspeed", scenario={"hardware": {"preset": "a100-80gb"},
                                                               "model": {"preset": "llama-3-8b"},
                                                               "mesh": {"shape": [64]}}, seq_len=4096)
    query = back.scenario_read["query"]
    assert query["parallelism"] == {"fsdp": 64, "microbatches": 4, "zero_stage": 3}
    assert query["batch_tokens"] == 512 * 4096
    assert scalescope.evaluate(back.runnable).ok
    missing = scalescope.import_config(str(ds), "deepspeed", raise_on_error=False)
    assert [d.code for d in missing.diagnostics] == ["incomplete_config"]
    assert "how many chips" in missing.diagnostics[0].message
