"""Sweeps (issue 40 item 4): a grid or a table of the helpers' keyword arguments, answered as a DataFrame whose numbers
are the helpers' own, on threads or over a Dask cluster."""
from __future__ import annotations

import math

import pandas as pd
import pytest

import scalescope
from scalescope import sweeps


def test_grid_is_every_combination_and_a_list_valued_argument_goes_in_a_list():
    g = scalescope.grid(hardware=["h100-sxm", "b200"], model="llama-3-8b", mesh=[[2, 4], [8]], seq_len=[2048, 4096])
    assert len(g) == 8
    assert list(g.columns) == ["hardware", "model", "mesh", "seq_len"]
    assert set(map(tuple, g["mesh"])) == {(2, 4), (8,)}
    assert (g["model"] == "llama-3-8b").all()


def test_a_sweep_row_is_the_helper_answer_to_the_same_arguments():
    # The helper fills the workload and plan from the engine's summary; the sweep fills the same, once per shape.
    rows = scalescope.grid(hardware=["h100-sxm", "tpu-v5p"], model=["llama-3-8b", "llama-3-70b"],
                           mesh=[[4, 4, 4]], remat=["none", "block"])
    table = scalescope.sweep(rows)
    assert len(table) == 8 and table["ok"].all()
    for _, row in table.iterrows():
        step = scalescope.training_step(row["hardware"], row["model"], row["mesh"], remat=row["remat"])
        for name, _unit in scalescope.TrainingStep.headline:
            assert row[name] == getattr(step, name), name


def test_serving_sweeps_and_extra_columns_by_json_pointer():
    rows = [{"hardware": "h200", "model": "llama-3-70b", "mesh": [8], "batch": b} for b in (8, 64)]
    table = scalescope.sweep(rows, "serving", columns={"memory": "/memory/total_bytes", "absent": "/no/such"})
    assert list(table["batch"]) == [8, 64]
    for _, row in table.iterrows():
        s = scalescope.serving(row["hardware"], row["model"], row["mesh"], batch=row["batch"])
        assert row["decode_step_s"] == s.decode_step_s
        assert row["memory"] == s.at("/memory/total_bytes")
    assert table["absent"].isna().all()
    assert table.loc[1, "memory"] > table.loc[0, "memory"]


def test_a_refused_row_says_why_and_the_others_answer():
    rows = pd.DataFrame([{"hardware": "h100-sxm", "model": "llama-3-8b", "mesh": 8},
                         {"hardware": "h100-sxm", "model": "llama-3-8b", "mesh": 8, "remat": "sometimes"}])
    table = scalescope.sweep(rows)
    assert table["ok"].tolist() == [True, False]
    assert table.loc[1, "error"].startswith("/query/remat: ")
    assert "sometimes" in table.loc[1, "error"] or "full" in table.loc[1, "error"]
    assert math.isnan(table.loc[1, "step_s"]) or table.loc[1, "step_s"] is None


def test_rows_may_leave_arguments_empty_and_the_index_is_kept():
    rows = pd.DataFrame({"hardware": ["h100-sxm"] * 2, "model": ["llama-3-8b"] * 2, "mesh": [8, 8],
                         "seq_len": [None, 8192]}, index=["default", "long"])
    table = scalescope.sweep(rows)
    assert list(table.index) == ["default", "long"]
    assert table.loc["long", "step_s"] == scalescope.training_step("h100-sxm", "llama-3-8b", 8, seq_len=8192).step_s
    assert table.loc["default", "step_s"] == scalescope.training_step("h100-sxm", "llama-3-8b", 8).step_s


def test_threads_and_chunks_do_not_change_the_answer():
    rows = scalescope.grid(hardware="h100-sxm", model="llama-3-8b", mesh=[8, 16, 32, 64],
                           batch_tokens=[2**19 * k for k in range(1, 11)])
    one = scalescope.sweep(rows, threads=1)
    assert one.equals(scalescope.sweep(rows, threads=2, chunk=7))


def test_a_bad_kind_or_chunk_names_the_choices():
    with pytest.raises(ValueError, match="serving"):
        scalescope.sweep([], "plan_search")
    with pytest.raises(ValueError, match="1 to 1024"):
        scalescope.sweep([], chunk=2000)
    assert scalescope.sweep([]).empty


def test_the_same_sweep_runs_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed", reason="Debian's python3-distributed (scripts/setup.sh)")
    rows = scalescope.grid(hardware=["h100-sxm", "b200"], model="llama-3-8b", mesh=[8, 64],
                           batch_tokens=[2**20, 2**22])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            assert scalescope.sweep(rows, client=client, chunk=3).equals(scalescope.sweep(rows))


def test_the_headline_columns_read_the_helpers_pointers():
    assert sweeps._columns("training_step", None)["step_s"] == "/time/step_s"
    assert sweeps._columns("serving", None)["decode_step_s"] == "/decode/step_s"
