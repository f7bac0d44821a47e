"""The common questions as functions: each builds one scenario (docs/api.md) and asks the engine.

`hardware` and `model` are a preset id or an object as in a scenario; `model` may also be the path of a Hugging
Face config.json. `mesh` is a shape (`[4, 4, 4]`, or a GPU count), or a mesh object. Every other keyword is the
query's own argument, passed as it is: the engine checks it, and a misspelled one comes back as a ScalescopeError
that names it and the valid keys.
"""
from __future__ import annotations

import copy
import functools
import json
import numbers
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Union


from . import _engine
from .engine import R, Result, ScalescopeError, evaluate, evaluate_as, finish, scenario_text
from .frames import DEPLOYMENT_COLUMNS, KERNEL_SCORE_COLUMNS, PLAN_COLUMNS, RUN_COLUMNS, frame
from .signatures import takes_query_arguments

if TYPE_CHECKING:  # pandas is imported where a table is made (frames.py): the engine needs none
    import pandas as pd

Hardware = Union[str, Mapping[str, Any]]
Model = Union[str, Mapping[str, Any], "os.PathLike[str]"]
Mesh = Union[int, Sequence[int], Mapping[str, Any]]
Runs = Union[Sequence[Mapping[str, Any]], str, "os.PathLike[str]"]


def _read_json(path: str | os.PathLike[str]) -> Any:
    # Python's json.dump writes float('inf') and float('nan') as the bare words Infinity and NaN (Nemotron-H's
    # config.json: "time_step_limit": [0.0, Infinity]). They stay words, as the engine reads them from text: a key it
    # ignores passes, and a number field given one is named "not a finite number".
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"), parse_constant=str)


def scenario(kind: str, hardware: Hardware | None = None, model: Model | None = None, mesh: Mesh | None = None,
             **query: Any) -> dict[str, Any]:
    """The scenario dict the helpers send, to edit or to batch with `evaluate_many`.

    >>> scenario("training_step", "h100-sxm", "llama-3-8b", 8, batch_tokens=1048576)
    {'hardware': {'preset': 'h100-sxm'}, 'model': {'preset': 'llama-3-8b'}, 'mesh': {'shape': [8]}, 'query': {'kind': 'training_step', 'batch_tokens': 1048576}}
    """
    out: dict[str, Any] = {}
    if hardware is not None:
        out["hardware"] = {"preset": hardware} if isinstance(hardware, str) else dict(hardware)
    if model is not None:
        if isinstance(model, os.PathLike) or isinstance(model, str) and model.endswith(".json"):
            out["model"] = {"hf_config": _read_json(model)}
        else:
            out["model"] = {"preset": model} if isinstance(model, str) else dict(model)
    if mesh is not None:
        if isinstance(mesh, Mapping):
            out["mesh"] = dict(mesh)
        else:
            # Any number (numpy's too) is a GPU count; the engine says if it is not a whole one.
            out["mesh"] = {"shape": [mesh] if isinstance(mesh, numbers.Number) else list(mesh)}
    out["query"] = {"kind": kind, **query}
    return out


@functools.lru_cache(maxsize=256)
def _asked(text: bytes) -> Result:
    """The engine's answer to a scenario, kept: read it, never change it."""
    return Result(_engine.evaluate(text).decode("utf-8", "replace"))


def _answer(kind: str, hardware: Hardware, model: Model, mesh: Mesh | None = None, **query: Any) -> dict[str, Any]:
    """The result of a query that fills in defaults (`summary`, `plan_mesh`), empty when refused. Each distinct
    scenario is asked once (an answer never changes): a loop of calls of one shape pays for its defaults once."""
    r = _asked(scenario_text(scenario(kind, hardware, model, mesh, **query)))
    return r.result if r.ok else {}


def _engine_defaults(part: str, keys: Sequence[str], hardware: Hardware, model: Model, mesh: Mesh | None,
                     query: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments in `keys` the query does not give, from the summary query's default training step or serving
    point (docs/api.md `summary`), so that the defaults live in the engine alone."""
    missing = [k for k in keys if k not in query]
    if not missing or mesh is None:
        return {}
    defaults = _answer("summary", hardware, model, mesh).get(part, {}).get("query", {})
    return {k: defaults[k] for k in missing if k in defaults}


def _ask_with(result_type: type[R], kind: str, hardware: Hardware, model: Model, mesh: Mesh,
              defaults: dict[str, Any], query: Mapping[str, Any], raise_on_error: bool) -> R:
    """The query with the engine's defaults filled in; the answer keeps them as `defaults`, to show what was
    assumed."""
    r = evaluate_as(result_type, scenario(kind, hardware, model, mesh, **defaults, **query), False)
    r.defaults = copy.deepcopy(defaults)  # the answer's own: the values come from the cache
    return finish(r, raise_on_error)


class TrainingStep(Result):
    """A `training_step` answer, with its headline numbers as attributes (the rest under `result`).

    >>> training_step("tpu-v5p", "llama-3-70b", [4, 4, 4])  # doctest: +ELLIPSIS
    <scalescope.TrainingStep training_step: step_s ... s, bound compute, mfu_frac ...%, memory_bytes ... GB, fits...>
    """

    headline = (("step_s", "s"), ("bound", ""), ("mfu_frac", "%"), ("memory_bytes", "GB"), ("fits", ""),
                ("tokens_per_s", "tokens/s"), ("usd_per_hour", "USD/h"), ("train_time_s", "days"),
                ("wall_time_s", "days"), ("goodput_frac", "%"))

    @property
    def step_s(self) -> float:
        """Seconds per training step (at the query's fidelity: calibrated by default)."""
        return self.at("/time/step_s")

    @property
    def bound(self) -> str:
        """What sets the step: compute, memory or communication."""
        return self.at("/time/bound")

    @property
    def mfu_frac(self) -> float:
        """Model FLOPs utilisation, 0 to 1."""
        return self.at("/mfu_frac")

    @property
    def memory_bytes(self) -> float:
        """HBM per chip the plan needs."""
        return self.at("/memory/total_bytes")

    @property
    def fits(self) -> bool:
        """Whether the plan fits in HBM."""
        return self.at("/memory/fits")

    @property
    def tokens_per_s(self) -> float:
        """Training tokens per second over all chips."""
        return self.at("/tokens_per_s")

    @property
    def usd_per_hour(self) -> float:
        """Dollars per hour of the mesh."""
        return self.at("/cost/usd_per_hour")

    @property
    def train_time_s(self) -> float:
        """Seconds to train on `train_tokens` with no failures (the step times the steps)."""
        return self.at("/cost/train_time_s")

    @property
    def wall_time_s(self) -> float:
        """Expected wall-clock seconds to train once chips fail, checkpoints are saved and the job restarts (the
        calibrated fidelity with `train_tokens`; `result["goodput"]` has the rest: interruptions, checkpoint
        interval, restart time, cost, each default's source).

        >>> step = training_step("h100-sxm", "llama-3-70b", 4096, train_tokens=15e12)
        >>> step.wall_time_s > step.train_time_s, 0.9 < step.goodput_frac < 1
        (True, True)
        """
        return self.at("/goodput/wall_time_s")

    @property
    def goodput_frac(self) -> float:
        """Useful time over wall time (the effective training time ratio), 0 to 1."""
        return self.at("/goodput/goodput_frac")

    @property
    def wall_usd(self) -> float:
        """Expected dollars to train once chips fail, checkpoints are saved and the job restarts (spares included)."""
        return self.at("/goodput/wall_usd")


class Serving(Result):
    """A `serving` answer, with its headline numbers as attributes (the rest under `result`)."""

    headline = (("time_to_first_token_s", "s"), ("decode_step_s", "s"), ("tokens_per_s_per_chip", "tokens/s"),
                ("usd_per_million_output_tokens", "USD"), ("fits", ""))

    @property
    def time_to_first_token_s(self) -> float:
        """Seconds from a prompt to its first token."""
        return self.at("/time_to_first_token_s")

    @property
    def decode_step_s(self) -> float:
        """Seconds per decode step (one token of every sequence in the batch)."""
        return self.at("/decode/step_s")

    @property
    def tokens_per_s_per_chip(self) -> float:
        """Output tokens per second per chip."""
        return self.at("/tokens_per_s_per_chip")

    @property
    def usd_per_million_output_tokens(self) -> float:
        """Dollars per million output tokens."""
        return self.at("/usd_per_million_output_tokens")

    @property
    def fits(self) -> bool:
        """Whether the weights and this batch's KV caches fit in the replica's HBM."""
        return self.at("/memory/fits")

    @property
    def frontier(self) -> pd.DataFrame:
        """The interactivity frontier under a benchmark's load (asked with `load={"concurrency": ...,
        "concurrencies": [...]}`): one row per concurrency, throughput per chip against tokens per second per user,
        with TTFT and TPOT (docs/api.md `serving`, `load`). Empty without `load.concurrencies`.

        >>> s = serving("h200", "llama-3-70b", [8], batch=8, prompt_len=1024, generated_len=1024,
        ...             dtypes={"weights": "fp8", "kv": "fp8"},
        ...             load={"concurrency": 8, "backend": "trtllm", "concurrencies": [4, 16, 64]})
        >>> list(s.frontier.index), bool(s.frontier["tokens_per_s_per_user"].is_monotonic_decreasing)
        ([4, 16, 64], True)
        """
        points = [_whole(p) for p in (self.result.get("load") or {}).get("frontier", [])]
        return frame(points, ("concurrency", "output_tokens_per_s_per_chip", "tokens_per_s_per_user"),
                     index="concurrency")


_WORKLOAD = ("batch_tokens", "seq_len", "train_tokens")
#: The arguments each helper fills from the engine's summary query when they are not given.
DEFAULTED: dict[str, tuple[str, ...]] = {
    "training_step": (*_WORKLOAD, "parallelism"),
    "serving": ("batch", "prompt_len", "generated_len", "dtypes", "parallelism"),
}


@takes_query_arguments("training_step")
def training_step(hardware: Hardware, model: Model, mesh: Mesh, *, raise_on_error: bool = True,
                  **query: Any) -> TrainingStep:
    """One training step of `model` on `mesh` (docs/api.md `training_step`).

    `batch_tokens`, `seq_len`, `train_tokens` and `parallelism` not given take the summary query's defaults: 1M
    tokens of 4096, 15T tokens to train, TP over the innermost axis and FSDP over the rest (a GPU count: TP inside
    one NVLink domain, FSDP over the rest). The answer's `defaults` holds what was filled in.

    >>> step = training_step(hardware="tpu-v5p", model="llama-3-70b", mesh=[4, 4, 4])
    >>> step.bound, step.fits, round(step.step_s, 1) > 0
    ('compute', True, True)
    >>> dp = training_step("tpu-v5p", "llama-3-70b", [4, 4, 4], parallelism={"data": ["X", "Y", "Z"]})
    >>> dp.fits, dp.warnings[0].code
    (False, 'out_of_hbm')
    >>> gpus = training_step("h100-sxm", "llama-3-70b", 64)
    >>> gpus.defaults["parallelism"]
    {'fsdp': 8, 'tensor': 8}
    """
    defaults = _engine_defaults("training_step", DEFAULTED["training_step"], hardware, model, mesh, query)
    return _ask_with(TrainingStep, "training_step", hardware, model, mesh, defaults, query, raise_on_error)


@takes_query_arguments("serving")
def serving(hardware: Hardware, model: Model, mesh: Mesh, *, raise_on_error: bool = True, **query: Any) -> Serving:
    """Prefill and decode of one serving replica (docs/api.md `serving`).

    `batch`, `prompt_len`, `generated_len`, `dtypes` and `parallelism` not given take the summary query's
    defaults: 32 sequences of 8192 + 512 tokens, int8 weights and KV, TP over every axis.

    >>> s = serving("tpu-v5e", "llama-3-70b", [4, 4], batch=32)
    >>> s.fits, s.decode_step_s < 0.1
    (True, True)
    """
    defaults = _engine_defaults("serving", DEFAULTED["serving"], hardware, model, mesh, query)
    return _ask_with(Serving, "serving", hardware, model, mesh, defaults, query, raise_on_error)


#: plan_search's own arguments, which a training step does not take (docs/api.md `plan_search`).
_SEARCH_ONLY = frozenset({"keep", "objective", "constraints", "space", "limit", "count_only", "chunk_plans", "resume"})


def _whole(value: Any) -> Any:
    """Whole numbers as ints, in lists and dicts too: the engine writes every number as a double (a degree as 8.0)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_whole(v) for v in value]
    if isinstance(value, dict):
        return {k: _whole(v) for k, v in value.items()}
    return value


def _plan(record: Mapping[str, Any]) -> dict[str, Any]:
    """A plan of the search with its degrees, microbatch size, mesh and parallelism in whole numbers."""
    return {**record, **{k: _whole(record[k]) for k in ("degrees", "microbatch_sequences", "mesh", "parallelism")
                         if k in record}}


@takes_query_arguments("plan_search")
def plan_search(hardware: Hardware, model: Model, mesh: Mesh, **query: Any) -> pd.DataFrame:
    """The best training plans of the whole space for the mesh, ranked (docs/api.md `plan_search`).

    One row per kept plan (`keep`, at most 100), indexed by rank, best first, its degrees as integers. Each row's
    `training_step` column holds the keyword arguments of its step (the search's hardware, model and workload,
    the plan's mesh, parallelism, remat, precision and offload): `training_step(**row["training_step"])` gives the
    same step to the last bit. `frame.attrs["result"]` is the whole answer: `counts`, `space`, the Pareto front
    (`pareto_front(frame)`) and `calibration`. `batch_tokens`, `seq_len` and `train_tokens` not given take the
    summary query's defaults.

    >>> plans = plan_search("h100-sxm", "llama-3-70b", 64, keep=3)
    >>> list(plans.index), bool(plans["fits"].all()), plans.loc[1, "degrees.tensor"]
    ([1, 2, 3], True, 2)
    >>> training_step(**plans.loc[1, "training_step"]).step_s == plans.loc[1, "step_s"]
    True
    """
    query = {**_engine_defaults("training_step", _WORKLOAD, hardware, model, mesh, query), **query}
    r = evaluate(scenario("plan_search", hardware, model, mesh, **query))
    plans = [_plan(p) for p in r["plans"]]
    df = frame(plans, PLAN_COLUMNS, index="rank")
    if plans:
        step_query = {k: v for k, v in query.items() if k not in _SEARCH_ONLY}
        df["training_step"] = [_plan_step(hardware, model, mesh, step_query, p) for p in plans]
    df.attrs["result"] = r
    return df


def _plan_step(hardware: Hardware, model: Model, mesh: Mesh, query: Mapping[str, Any],
               plan: Mapping[str, Any]) -> dict[str, Any]:
    """training_step's keyword arguments for one plan: the search's, with the plan's mesh (GPUs: its own) and the
    four settings docs/api.md says go back as they are, each setting's keys over the search's (which may set more
    of `precision` than the plan's matmul)."""
    own = {"parallelism": plan["parallelism"], "remat": plan["remat"],
           **{k: {**query.get(k, {}), **plan[k]} for k in ("precision", "offload")}}
    return {"hardware": hardware, "model": model, "mesh": plan.get("mesh", mesh), **query, **own}


def pareto_front(plans: pd.DataFrame) -> pd.DataFrame:
    """The plan search's front of step time against memory per chip (fastest first), from `plan_search`'s frame.

    >>> front = pareto_front(plan_search("h100-sxm", "llama-3-70b", 64, keep=3))
    >>> bool(front["step_s"].is_monotonic_increasing and front["memory_bytes"].is_monotonic_decreasing)
    True
    """
    return frame([_plan(p) for p in plans.attrs["result"]["pareto"]], PLAN_COLUMNS[1:])


@takes_query_arguments("serving_search")
def serving_search(hardware: Hardware, model: Model, **query: Any) -> pd.DataFrame:
    """The serving deployments that meet the targets, best first (docs/api.md `serving_search`).

    `frame.attrs["result"]` is the whole answer, with the latency x cost `frontier`.

    >>> d = serving_search("tpu-v5e", "llama-3-70b", prompt_len=8192, generated_len=512, keep=3,
    ...                    targets={"latency_per_token_s": 0.05})
    >>> len(d), bool(d["meets_targets"].all())
    (3, True)
    """
    r = evaluate(scenario("serving_search", hardware, model, **query))
    df = frame(r["deployments"], DEPLOYMENT_COLUMNS)
    df.attrs["result"] = r
    return df


def _runs(runs: Runs) -> list[Any]:
    if isinstance(runs, (str, os.PathLike)):
        document = _read_json(runs)
        return document["runs"] if isinstance(document, Mapping) and "runs" in document else document
    return list(runs)


class Calibration(Result):
    """A `calibrate` answer: the fitted profiles, how each fit went, and every run's error."""

    @property
    def profiles(self) -> dict[str, dict[str, Any]]:
        """Every profile by id: a family profile per chip kind with runs ("tpu", "gpu"), then one per chip."""
        return {p["id"]: p for p in self["profiles"]}

    @property
    def profile(self) -> dict[str, Any]:
        """The one chip's profile, ready for a query's `calibration=`; with runs on several chips, see `profiles`."""
        chips = [p for p in self["profiles"] if p.get("hardware")]  # a family profile lists no chip
        if len(chips) != 1:
            raise ValueError(f"the runs are on {len(chips)} chips ({', '.join(p['id'] for p in chips)}): "
                             "choose one from .profiles")
        return chips[0]

    @property
    def fits(self) -> pd.DataFrame:
        """One row per fit (chip kind and task): runs, converged, iterations, cost before and after."""
        return frame(self["fits"])

    @property
    def runs(self) -> pd.DataFrame:
        """One row per run: measured, predicted by the book and by the fitted profiles, and the errors."""
        return frame(self["runs"], RUN_COLUMNS, index="id")


def calibrate(runs: Runs, **query: Any) -> Calibration:
    """Fits calibration profiles to measured runs (docs/api.md `calibrate`): a list of runs, or the path of a
    runs file (`{"runs": [...]}`, as tests/validation/published-runs.json). Pass `.profile` back as a query's
    `calibration=`.

    >>> v5e = scenario("training_step", "tpu-v5e", "llama-3-8b", [16, 16], seq_len=8192,
    ...                parallelism={"fsdp": ["X", "Y"]}, remat="block")
    >>> def run(i, batch, step_s):
    ...     return {"id": f"mine-{i}", "task": "training", "metric": "step_s", "measured": step_s,
    ...             "scenario": {**v5e, "query": {**v5e["query"], "batch_tokens": batch}}}
    >>> fitted = calibrate([run(1, 4194304, 6.1), run(2, 8388608, 12.3), run(3, 2097152, 3.2)])
    >>> fitted.profile["id"], sorted(fitted.runs.index)
    ('tpu-v5e', ['mine-1', 'mine-2', 'mine-3'])
    >>> step = training_step("tpu-v5e", "llama-3-8b", [16, 16], calibration=fitted.profile, **{
    ...     k: v for k, v in v5e["query"].items() if k != "kind"}, batch_tokens=4194304)
    >>> abs(step.step_s / 6.1 - 1) < 0.1
    True
    """
    return evaluate_as(Calibration, {"query": {"kind": "calibrate", "runs": _runs(runs), **query}}, True)


def validate(runs: Runs, **query: Any) -> pd.DataFrame:
    """Every run predicted by the book and by the calibrated model, with the error of each (docs/api.md
    `validation`): one row per run, indexed by id. `frame.attrs["result"]` holds the summary statistics (with
    `family_holdout=True`, each family held out whole and the `transfer` figure per chip kind and task).

    >>> errors = validate("tests/validation/published-runs.json")
    >>> held = errors[(errors["split"] == "held") & (errors["excluded"] == "") & (errors["task"] == "training")]
    >>> bool(held["calibrated_error_frac"].abs().median() < held["book_error_frac"].abs().median())
    True
    """
    r = evaluate({"query": {"kind": "validation", "runs": _runs(runs), **query}})
    df = frame(r["runs"], RUN_COLUMNS, index="id")
    df.attrs["result"] = r
    return df


class KernelFit(Result):
    """A `kernel_fit` answer: one chip's kernel models fitted to its measured kernel tables."""

    @property
    def kernels(self) -> dict[str, Any]:
        """The fitted kernel models: a calibration profile's `kernels`, and one chip of `kernel_family`'s `chips`."""
        return self["kernels"]

    @property
    def tiling(self) -> dict[str, Any]:
        """The GEMM tiling the bf16 GEMM fit chose (a profile's `tiling`)."""
        return self["tiling"]

    @property
    def scores(self) -> pd.DataFrame:
        """One row per model (op, variant): its rows and errors on the fit rows, the held rows and the held family."""
        return frame(self["scores"], KERNEL_SCORE_COLUMNS)


def kernel_fit(tables: Mapping[str, Any] | str | os.PathLike[str], hardware: Hardware | None = None,
               **query: Any) -> KernelFit:
    """Fits one chip's kernel models to its measured kernel tables (docs/api.md `kernel_fit`): a tables dict or the
    path of a tables file (tests/kernels/<chip>.json). `hardware` defaults to the chip the tables name.

    >>> fit = kernel_fit("tests/kernels/h100-sxm.json")
    >>> row = fit.scores.set_index(["op", "variant"]).loc[("gemm", "bf16")]
    >>> bool(row["held_median_frac"] < 0.1), fit.kernels["source"]["repository"]
    (True, 'ai-dynamo/aiconfigurator')
    """
    document = tables if isinstance(tables, Mapping) else _read_json(tables)
    chip = hardware if hardware is not None else document.get("hardware")
    return evaluate_as(KernelFit, scenario("kernel_fit", chip, tables=document, **query), True)


def kernel_family(chips: Sequence[KernelFit | Mapping[str, Any]], **query: Any) -> Result:
    """A chip family's kernel models from its chips' (docs/api.md `kernel_family`): `kernel_fit` answers, or
    `{"hardware": ..., "kernels": ...}` records. `result["family"]` is the family's; `result["chips"]` each chip's,
    with the models it had no table for taken from the family.
    """
    records = [{"hardware": c["hardware"], "kernels": c["kernels"]} for c in chips]
    return evaluate({"query": {"kind": "kernel_family", "chips": records, **query}})


def presets() -> dict[str, pd.DataFrame]:
    """The embedded presets, each with its sources: `hardware`, `models` and `calibration_profiles`, indexed by id.

    >>> p = presets()
    >>> p["hardware"].loc["tpu-v5p", "hbm_capacity_bytes"]
    96000000000.0
    """
    data = json.loads(_engine.presets().decode("utf-8"))
    return {k: frame(data[k], ("name",), index="id") for k in ("hardware", "models", "calibration_profiles")}


def hf_model(config: Mapping[str, Any] | str | os.PathLike[str]) -> dict[str, Any]:
    """The model the engine reads from a Hugging Face config.json (a dict, or the file's path), as `--hf-model`.

    >>> m = hf_model({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
    ...               "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
    ...               "vocab_size": 128256})
    >>> m["layers"], m["kv_heads"]
    (32, 8)
    """
    document = config if isinstance(config, Mapping) else _read_json(config)
    r = Result(_engine.model(scenario_text({"hf_config": document})).decode("utf-8", "replace"))
    if not r.ok:
        raise ScalescopeError(r)
    return r.data["model"]
