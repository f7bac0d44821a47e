"""The example script answers its question end to end and writes its PNG; its notebook is the script's cells; the
module's plan search costs at most 2x the CLI's for the same search (issue 21)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from conftest import BUILD, ROOT, run_cli

EXAMPLE = ROOT / "examples/python/llama3_70b_h100.py"


def test_the_example_script_runs_and_writes_its_pareto_png(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(BUILD / "python")}
    out = subprocess.run([sys.executable, str(EXAMPLE), str(tmp_path)], capture_output=True, text=True, env=env,
                         timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "128 scenarios" in out.stdout and "plans in the space" in out.stdout
    png = (tmp_path / "llama3_70b_h100_pareto.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert (width, height) == (720, 480)


def test_the_notebook_is_generated_from_the_script():
    sys.path.insert(0, str(ROOT / "scripts"))
    import python_notebook

    committed = EXAMPLE.with_suffix(".ipynb").read_text()
    assert committed == python_notebook.notebook(EXAMPLE.read_text()), \
        "run scripts/python_notebook.py examples/python/llama3_70b_h100.py"
    assert json.loads(committed)["cells"][0]["cell_type"] == "markdown"


def test_a_plan_search_into_a_dataframe_costs_at_most_twice_the_cli(cli, tmp_path):
    import scalescope

    # The case: LLaMA-3 70B on 4096 H100s, a space of 850k plans (calibrated, the default fidelity).
    query = {"batch_tokens": 16777216, "seq_len": 4096, "train_tokens": 15e12, "keep": 100}
    path = tmp_path / "search.json"
    path.write_text(json.dumps(scalescope.scenario("plan_search", "h100-sxm", "llama-3-70b", 4096, **query)))
    cli_s, module_s = [], []
    for _ in range(2):
        start = time.perf_counter()
        assert run_cli(cli, str(path)).returncode == 0
        cli_s.append(time.perf_counter() - start)
        start = time.perf_counter()
        plans = scalescope.plan_search("h100-sxm", "llama-3-70b", 4096, **query)
        module_s.append(time.perf_counter() - start)
    assert plans.attrs["result"]["space"] > 850_000 and len(plans) == 100
    ratio = min(module_s) / min(cli_s)
    print(f"plan search of {plans.attrs['result']['space']:,} plans: CLI {min(cli_s):.2f} s, module "
          f"{min(module_s):.2f} s, ratio {ratio:.2f}")
    assert ratio <= 2.0
