"""The helpers ask the engine the same questions as a scenario would, and their frames carry its numbers
unchanged (docs/python.md; docs/api.md for each query)."""
from __future__ import annotations

import json

import numpy as np
import pytest

import scalescope
from scalescope import ScalescopeError, _engine, query_arguments
from conftest import ROOT, run_cli

V5P = dict(hardware="tpu-v5p", model="llama-3-70b", mesh=[4, 4, 4])


def test_training_step_defaults_are_the_summary_querys_own():
    step = scalescope.training_step(**V5P)
    summary = scalescope.evaluate(scalescope.scenario("summary", **V5P))["training_step"]
    assert step.at("/degrees") == summary["degrees"]
    # the summary runs its default step at the planners' default fidelity (calibrated), with the book's ideal beside
    assert summary["fidelity"] == "calibrated"
    assert step.step_s == summary["time"]["step_s"]
    book = scalescope.training_step(**V5P, fidelity="book")
    assert book.step_s == summary["ideal"]["step_s"]
    assert step.step_s == step.at("/time/step_s") and step.bound == step.at("/time/bound")


def test_an_argument_given_replaces_the_default_and_a_misspelled_one_is_named():
    wide = scalescope.training_step(**V5P, batch_tokens=4 * 1048576)
    assert wide.at("/tokens_per_chip") == 4 * scalescope.training_step(**V5P).at("/tokens_per_chip")
    with pytest.raises(scalescope.ScalescopeError) as e:
        scalescope.training_step(**V5P, batch_tokenz=1)
    assert any(d.path == "/query/batch_tokenz" for d in e.value.diagnostics)


def test_a_plan_row_goes_back_into_training_step_as_it_is_and_gives_the_same_step_to_the_last_bit():
    # issue 40: five fields had to be reassembled from a row, and its degrees came back as floats
    plans = scalescope.plan_search("h100-sxm", "llama-3-70b", 256, keep=5, batch_tokens=4194304, seq_len=4096)
    assert list(plans.index) == [1, 2, 3, 4, 5]
    assert plans["step_s"].is_monotonic_increasing
    best = plans.iloc[0]
    step = scalescope.training_step(**best["training_step"])
    assert step.step_s == best["step_s"] and step.memory_bytes == best["memory_bytes"]
    degrees = [c for c in plans.columns if c.startswith("degrees.")]
    assert all(plans[c].dtype.kind == "i" for c in degrees + ["microbatch_sequences"])
    mesh, parallelism = best["training_step"]["mesh"], best["training_step"]["parallelism"]
    assert all(type(n) is int for n in mesh["shape"]) and type(parallelism["microbatches"]) is int
    result = plans.attrs["result"]
    assert result["counts"]["evaluated"] + result["counts"]["equivalent"] == result["space"]
    front = scalescope.pareto_front(plans)
    assert len(front) == result["pareto_size"] and front["step_s"].is_monotonic_increasing


def test_a_tpu_row_keeps_the_searchs_mesh_defaults_and_precision_beside_its_own():
    plans = scalescope.plan_search(**V5P, keep=2, precision={"master_weights": "fp32"})
    row = plans.loc[1, "training_step"]
    assert row["mesh"] == V5P["mesh"] and row["batch_tokens"] == 1048576
    assert row["precision"] == {"master_weights": "fp32", "matmul": plans.loc[1, "precision.matmul"]}
    step = scalescope.training_step(**row)
    assert step.step_s == plans.loc[1, "step_s"] and step.memory_bytes == plans.loc[1, "memory_bytes"]


def test_a_gpu_count_alone_is_laid_out_by_the_engine_tp_inside_a_node_fsdp_over_the_rest():
    # issue 40: 64 H100s were one 64-way TP group (13% MFU), and 128 were refused (128-way TP splits no 64 heads).
    # The engine's summary now gives a GPU count TP inside one NVLink domain and FSDP over the rest.
    nodes = scalescope.training_step("h100-sxm", "llama-3-70b", [8, 8])  # TP on a node's axis, FSDP over 8 nodes
    step = scalescope.training_step("h100-sxm", "llama-3-70b", 64)
    assert step.at("/degrees") == nodes.at("/degrees") and step.step_s == nodes.step_s
    assert step.defaults["parallelism"] == {"fsdp": 8, "tensor": 8}
    for chips in (128, 4096):
        degrees = scalescope.training_step("h100-sxm", "llama-3-70b", chips).at("/degrees")
        assert (degrees["tensor"], degrees["fsdp"]) == (8, chips / 8)
    # TP stays inside one NVLink domain: 8 of a GB200 NVL72's 72 (72 splits no 64 heads; 16 would straddle domains)
    assert scalescope.training_step("gb200-nvl72", "llama-3-70b", 144).at("/degrees/tensor") == 8
    # fewer GPUs than a node: TP over them all, as the summary's default on their one axis
    assert scalescope.training_step("h100-sxm", "llama-3-8b", 4).at("/degrees") == \
        scalescope.training_step("h100-sxm", "llama-3-8b", [4]).at("/degrees")
    # with parallelism given, the count is the engine's to lay out as asked
    given = scalescope.training_step("h100-sxm", "llama-3-70b", 64, parallelism={"fsdp": 32, "tensor": 2})
    assert given.at("/degrees/tensor") == 2 and "parallelism" not in given.defaults


def test_defaults_are_asked_once_per_shape_not_on_every_call(monkeypatch):
    # issue 40: every call ran a summary query first
    asked = []
    engine_evaluate = _engine.evaluate

    def counted(text):
        asked.append(text)
        return engine_evaluate(text)

    monkeypatch.setattr(_engine, "evaluate", counted)
    shape = dict(hardware="h100-sxm", model="llama-3-8b", mesh=16, seq_len=2048)  # a shape no other test asks
    first = scalescope.training_step(**shape)
    first_calls = len(asked)
    assert first_calls > 1
    again = scalescope.training_step(**shape)
    assert len(asked) == first_calls + 1 and again.json == first.json  # the step alone
    again.defaults["parallelism"]["tensor"] = 1  # an answer's defaults are its own, not the cache's
    assert scalescope.training_step(**shape).json == first.json


def test_serving_search_deployments_are_serving_queries():
    deployments = scalescope.serving_search("tpu-v5e", "llama-3-70b", prompt_len=8192, generated_len=512, keep=3)
    first = deployments.iloc[0]
    replica = scalescope.serving("tpu-v5e", "llama-3-70b", first["mesh"], parallelism=first["parallelism"],
                                 dtypes=first["dtypes"], batch=int(first["batch"]), prompt_len=8192,
                                 generated_len=512)
    # docs/api.md serving_search: "ready for a serving query, which gives the same decode step"
    assert replica.decode_step_s == first["decode_step_s"]


def test_calibrate_from_five_runs_gives_a_profile_that_training_step_uses():
    runs = json.loads((ROOT / "tests/validation/published-runs.json").read_text())["runs"]
    mine = [r for r in runs if r["scenario"]["hardware"].get("preset") == "tpu-v5e" and r["task"] == "training"
            and not r.get("excluded")][:5]
    assert len(mine) == 5
    for r in mine:
        r.pop("split", None)
    calibration = scalescope.calibrate(mine)
    profile = calibration.profile
    assert profile["id"] == "tpu-v5e" and sorted(profile["fitted_on"]) == sorted(r["id"] for r in mine)
    assert set(calibration.runs.index) == {r["id"] for r in mine}
    assert calibration.fits["converged"].all()
    first = mine[0]["scenario"]
    step = scalescope.evaluate({**first, "query": {**first["query"], "calibration": profile}})
    row = calibration.runs.loc[mine[0]["id"]]
    assert step["time"]["step_s"] == pytest.approx(row["calibrated"], rel=1e-12)
    assert step["calibration"]["profile"]["fitted_on"] == profile["fitted_on"]


def test_the_profile_of_a_calibration_with_a_profile_prefix():
    # issue 40: with profile_prefix the family profile's id ("team-tpu") was taken for a chip's, and .profile raised
    runs = json.loads((ROOT / "tests/validation/published-runs.json").read_text())["runs"]
    mine = [{k: v for k, v in r.items() if k != "split"} for r in runs if r["task"] == "training"
            and r["scenario"]["hardware"].get("preset") == "tpu-v5e" and not r.get("excluded")]
    calibration = scalescope.calibrate(mine[:3], profile_prefix="team")
    assert sorted(calibration.profiles) == ["team-tpu", "team-tpu-v5e"]
    assert calibration.profile["id"] == "team-tpu-v5e" and calibration.profile["name"].startswith("team: ")


def test_a_result_shows_its_headline_numbers_in_repr_and_in_a_notebook():
    # issue 40: a Result showed as <scalescope.Result training_step: ok>, with no numbers
    step = scalescope.training_step(**V5P)
    assert repr(step).startswith(f"<scalescope.TrainingStep training_step: step_s {step.step_s:.4g} s, bound compute, ")
    page = step._repr_html_()
    for text in (f"{step.step_s:.4g} s", f"{step.mfu_frac:.1%}", f"{step.memory_bytes / 1e9:.4g} GB", "tokens/s",
                 "USD/h", "batch_tokens", "1,048,576", step.at("/calibration/error_band/text")):
        assert text in page, text
    out_of_hbm = scalescope.training_step(**V5P, parallelism={"data": ["X", "Y", "Z"]})
    assert "1 warning" in repr(out_of_hbm) and "out_of_hbm" in out_of_hbm._repr_html_()
    assert "parallelism" not in out_of_hbm._repr_html_()  # given, not a default
    serving = scalescope.serving("tpu-v5e", "llama-3-70b", [4, 4])
    assert f"decode_step_s {serving.decode_step_s:.4g} s" in repr(serving)
    refused = scalescope.evaluate({"hardware": {"preset": "<b>v9</b>"}, "query": {"kind": "chip"}},
                                  raise_on_error=False)
    assert "unknown_preset" in repr(refused)
    assert "&lt;b&gt;v9&lt;/b&gt;" in refused._repr_html_() and "<b>" not in refused._repr_html_()


def test_validate_gives_one_row_per_run_with_its_error():
    path = ROOT / "tests/validation/published-runs.json"
    errors = scalescope.validate(path)
    runs = json.loads(path.read_text())["runs"]
    assert list(errors.index) == [r["id"] for r in runs]
    timed = errors[errors["metric"] == "step_s"]
    # docs/api.md validation: predicted / measured - 1 for a time
    assert (timed["calibrated_error_frac"] - (timed["calibrated"] / timed["measured"] - 1)).abs().max() < 1e-12
    assert errors.attrs["result"]["summary"]


def test_calibration_profiles_are_format_2_with_their_kernels_whole():
    profiles = scalescope.presets()["calibration_profiles"]
    assert set(profiles["schema"]) == {"scalescope.calibration/2"}
    # a profile's kernel models stay one object per cell, as a query takes them back
    assert profiles.loc["h100-sxm", "kernels"]["gemm"]["bf16"]["ceiling_frac"] > 0
    assert not [c for c in profiles.columns if c.startswith("kernels.")]
    assert "overlap_frac" in profiles.loc["h100-sxm", "parameters"]


def test_kernel_fit_and_kernel_family_as_the_engine_answers_them():
    path = ROOT / "tests/kernels/h100-sxm.json"
    tables = json.loads(path.read_text())
    fit = scalescope.kernel_fit(path)
    assert fit.json == scalescope.evaluate({"hardware": {"preset": "h100-sxm"},
                                            "query": {"kind": "kernel_fit", "tables": tables}}).json
    scores = fit.scores
    assert list(scores.columns[:2]) == ["op", "variant"]
    assert ("gemm", "bf16") in set(zip(scores["op"], scores["variant"]))
    assert (scores["fit_rows"] + scores["held_rows"] + scores["family_rows"]).min() > 0
    assert fit.tiling["tile_k"] == 64
    # the family of one chip with tables and one without: the second takes every model from the first
    other = {"hardware": "h200", "kernels": {**fit.kernels, "source": {"repository": ""}}}
    family = scalescope.kernel_family([fit, other])
    assert family["family"]["gemm"]["bf16"] == pytest.approx(fit.kernels["gemm"]["bf16"], rel=1e-12)
    assert [c["hardware"] for c in family["chips"]] == ["h100-sxm", "h200"]
    with pytest.raises(scalescope.ScalescopeError) as e:
        scalescope.kernel_fit(tables, hardware="h200")
    assert [d.code for d in e.value.diagnostics] == ["inconsistent"]


def test_presets_come_with_their_sources():
    p = scalescope.presets()
    assert {"tpu-v5p", "h100-sxm", "b200"} <= set(p["hardware"].index)
    assert {"llama-3-70b", "deepseek-v3"} <= set(p["models"].index)
    assert p["hardware"]["sources"].map(len).min() > 0
    assert p["models"]["sources"].map(len).min() > 0


def test_hf_model_reads_a_config_as_the_cli_does(cli):
    path = ROOT / "tests/hf_configs/meta-llama-3-70b.json"
    native = run_cli(cli, "--hf-model", str(path))
    assert native.returncode == 0
    assert scalescope.hf_model(path) == json.loads(native.stdout)["model"]
    assert scalescope.hf_model(json.loads(path.read_text()))["layers"] == 80
    with pytest.raises(scalescope.ScalescopeError) as e:
        scalescope.hf_model({"model_type": "llama"})
    assert e.value.diagnostics and all(d.path.startswith("/model") for d in e.value.diagnostics)


def test_the_models_and_chips_of_2026_round_trip_through_python():
    """Issue 36: each new preset is listed with its sources, and a published config.json reads to the same model."""
    p = scalescope.presets()
    assert {"b300", "gb300-nvl72", "mi325x", "mi355x"} <= set(p["hardware"].index)
    pairs = {"qwen3.5-397b-a17b": "qwen3.5-397b-a17b.json", "deepseek-v3.2": "deepseek-v3.2.json",
             "glm-5": "glm-5.json", "kimi-k2.5": "kimi-k2.5.json", "minimax-m2.5": "minimax-m2.5.json",
             "gemma-4-26b-a4b": "gemma-4-26b-a4b.json", "gemma-4-31b": "gemma-4-31b-it-nvfp4.json",
             "nemotron-3-super-120b-a12b": "nemotron-3-super-120b-a12b-fp8.json",
             "nemotron-3-nano-30b-a3b": "nemotron-3-nano-30b-a3b.json"}
    assert set(pairs) <= set(p["models"].index)
    for preset, config in pairs.items():
        from_config = scalescope.evaluate(scalescope.scenario("transformer", model=ROOT / "tests/hf_configs" / config,
                                                              seq_len=131072))
        from_preset = scalescope.evaluate(scalescope.scenario("transformer", model=preset, seq_len=131072))
        assert from_config.at("/params/total") == pytest.approx(from_preset.at("/params/total"), rel=1e-12), preset
        assert from_config.at("/kv_cache_bytes_per_sequence") == \
            pytest.approx(from_preset.at("/kv_cache_bytes_per_sequence"), rel=1e-12), preset


def test_a_model_given_as_a_config_path_is_read_from_the_file():
    path = ROOT / "tests/hf_configs/meta-llama-3-70b.json"
    from_file = scalescope.training_step("tpu-v5p", path, [4, 4, 4])
    assert from_file.at("/degrees") == scalescope.training_step(**V5P).at("/degrees")


def test_a_config_path_with_python_s_infinity_and_nan_reads_as_the_engine_reads_the_text(tmp_path):
    """Nemotron-H's config.json carries Infinity (time_step_limit): it reads; a NaN where a size belongs is named."""
    config = json.loads((ROOT / "tests/hf_configs/nemotron-3-nano-30b-a3b.json").read_text())
    config["time_step_limit"] = [0.0, float("inf")]
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))  # Python writes the bare word Infinity
    assert "Infinity" in path.read_text()
    read = scalescope.evaluate(scalescope.scenario("transformer", model=path, seq_len=8192))
    assert read.at("/params/total") == pytest.approx(31.6e9, rel=0.01)
    config["hidden_size"] = float("nan")
    path.write_text(json.dumps(config))
    with pytest.raises(scalescope.ScalescopeError) as e:
        scalescope.evaluate(scalescope.scenario("transformer", model=path, seq_len=8192))
    assert any(d.path == "/model/hf_config/hidden_size" and "not a finite number" in d.message
               for d in e.value.diagnostics)


def test_a_numpy_gpu_count_is_a_gpu_count_and_a_fraction_is_named_by_the_engine():
    as_int = scalescope.scenario("training_step", "h100-sxm", "llama-3-70b", 8)
    assert scalescope.scenario("training_step", "h100-sxm", "llama-3-70b", np.int64(8)) == as_int
    assert scalescope.training_step("h100-sxm", "llama-3-70b", np.int64(8)).step_s == \
        scalescope.training_step("h100-sxm", "llama-3-70b", 8).step_s
    with pytest.raises(scalescope.ScalescopeError) as e:
        scalescope.training_step("h100-sxm", "llama-3-70b", 8.5)
    assert any(d.path.startswith("/mesh") for d in e.value.diagnostics)


def test_goodput_settings_pass_through_and_a_search_ranks_by_the_expected_wall_time():
    """Issue 38: the time to train once chips fail is the engine's, with its settings as keyword arguments."""
    base = scalescope.training_step("h100-sxm", "llama-3-8b", 64, train_tokens=1e12)
    flaky = scalescope.training_step("h100-sxm", "llama-3-8b", 64, train_tokens=1e12,
                                     goodput={"failures_per_chip_hour": 1e-3, "checkpoint": "blocking"})
    assert base.wall_time_s > base.train_time_s and 0.9 < base.goodput_frac < 1
    assert flaky.goodput_frac < base.goodput_frac
    assert flaky.wall_usd == pytest.approx(flaky.wall_time_s / 3600 * flaky.usd_per_hour)
    assert flaky.result["goodput"]["settings"]["failures_per_chip_hour"] == 1e-3
    plans = scalescope.plan_search("h100-sxm", "llama-3-8b", 64, train_tokens=1e12, objective="wall_time", keep=4,
                                   goodput={"failures_per_chip_hour": 1e-3})
    assert list(plans["wall_time_s"]) == sorted(plans["wall_time_s"])
    assert (plans["goodput_frac"] < 1).all()


def test_each_helper_takes_its_query_arguments_by_name_with_their_help():
    # issue 40 item 2: every argument was **query, so nothing completed and help() pointed to another file.
    import inspect

    for helper, kind in ((scalescope.training_step, "training_step"), (scalescope.serving, "serving"),
                         (scalescope.plan_search, "plan_search"), (scalescope.serving_search, "serving_search")):
        parameters = inspect.signature(helper).parameters
        for name, annotation, text in query_arguments.QUERY_ARGUMENTS[kind]:
            assert parameters[name].kind is inspect.Parameter.KEYWORD_ONLY and parameters[name].default is None
            assert f"    {name} ({annotation}): " in helper.__doc__
        assert list(parameters)[-1] == "query"  # anything else still reaches the engine, which names it
    step = inspect.signature(scalescope.training_step).parameters
    assert step["batch_tokens"].annotation is int and step["remat"].annotation is str
    assert "The global batch in tokens. (1 to 1e+15; tokens)" in scalescope.training_step.__doc__
    assert "none | block | big_matmuls" in scalescope.training_step.__doc__


def test_an_argument_given_as_none_is_left_to_the_default():
    default = scalescope.training_step("tpu-v5p", "llama-3-70b", [4, 4, 4])
    assert scalescope.training_step("tpu-v5p", "llama-3-70b", [4, 4, 4], batch_tokens=None, remat=None).json == \
        default.json
    with pytest.raises(ScalescopeError, match="/query/no_such_key"):
        scalescope.training_step("tpu-v5p", "llama-3-70b", [4, 4, 4], no_such_key=1)


def test_ipython_completes_a_helper_keyword_arguments():
    from IPython.core.completer import provisionalcompleter
    from IPython.testing.globalipapp import start_ipython

    shell = start_ipython()
    shell.run_cell("import scalescope")
    text = 'scalescope.training_step("h100-sxm", "llama-3-8b", 8, batch_t'
    with provisionalcompleter():
        completions = [c.text for c in shell.Completer.completions(text, len(text))]
    assert "batch_tokens=" in completions
