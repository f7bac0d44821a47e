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


def test_the_notebook_runs_headless_and_draws_its_figures_as_images(tmp_path, monkeypatch):
    # Jupyter's own runner (Debian's python3-nbclient and python3-ipykernel), as a reader's "Run all" would.
    import nbclient
    import nbformat

    # The notebook finds the repository two folders up from where it runs, and writes its PNG there.
    here = tmp_path / "examples" / "python"
    here.mkdir(parents=True)
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    monkeypatch.setenv("PYTHONPATH", str(BUILD / "python"))
    notebook = nbformat.read(EXAMPLE.with_suffix(".ipynb"), as_version=4)
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(here)}}).execute()
    code = [c for c in notebook.cells if c.cell_type == "code"]
    outputs = [o for c in code for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs)
    assert "128 scenarios" in text and "plans in the space" in text
    assert "tensor_model_parallel_size" in text and "read back: the same plan" in text  # the best plan launched
    # The step's bars and the Pareto front render themselves as PNGs, with no %matplotlib line.
    images = [c for c in code if any("image/png" in o.get("data", {}) for o in c.outputs)]
    assert [c.source.splitlines()[-1] for c in images] == [
        'plots.step_bars(step, title="The logged step, part by part")  # a notebook draws it; a script drops it',
        "figure"]
    assert not [o for o in outputs if "<Figure size" in o.get("data", {}).get("text/plain", "") and
                "image/png" not in o.get("data", {})]
    assert (here / "llama3_70b_h100_pareto.png").read_bytes()[:4] == b"\x89PNG"


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
