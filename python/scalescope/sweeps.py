"""Sweeps: many scenarios of one query, from a grid or a DataFrame of the helpers' keyword arguments, answered as one
DataFrame, on every core of the machine (threads: the engine releases the GIL while it runs) or over a Dask cluster.
"""
from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from . import _engine
from .engine import Result, ScalescopeError, scenario_text
from .frames import pandas
from .queries import DEFAULTED, Serving, TrainingStep, _engine_defaults, scenario

if TYPE_CHECKING:
    import pandas as pd

#: The answer type of each query a sweep runs; its headline numbers are the sweep's columns by default.
RESULT_TYPES: dict[str, type[Result]] = {"training_step": TrainingStep, "serving": Serving}
#: The scenarios of one engine call: enough to make the call's own cost small, few enough to share the work out.
CHUNK = 512
#: The most the engine answers in one call (core/io/limits.h, kMaxScenariosPerCall).
MAX_CHUNK = 1024


def grid(**axes: Any) -> pd.DataFrame:
    """Every combination of the values given, one row each: the table `sweep` takes.

    A keyword given a list sweeps its values; any other value (a string, a number, a dict) is the same in every row.
    A value that is itself a list, such as a mesh shape, goes in a list of its own: `mesh=[[4, 4, 4]]`.

    >>> grid(hardware=["h100-sxm", "b200"], model="llama-3-8b", mesh=[8, 64]).shape
    (4, 3)
    """
    names = list(axes)
    values = [v if isinstance(v, list) else [v] for v in axes.values()]
    return pandas().DataFrame([dict(zip(names, row)) for row in itertools.product(*values)], columns=names)


def sweep(rows: pd.DataFrame | Iterable[Mapping[str, Any]], kind: str = "training_step", *,
          columns: Mapping[str, str] | None = None, threads: int | None = None, client: Any = None,
          chunk: int = CHUNK) -> pd.DataFrame:
    """The answers to many scenarios of one `kind` ("training_step" or "serving"), one row each, in order.

    Each of `rows` (a DataFrame, e.g. from `grid`, or mappings) holds the keyword arguments of the helper of that
    name: `hardware`, `model`, `mesh` and the query's own. The workload and plan it does not give are the engine's
    defaults, as the helper fills them, asked once per distinct hardware, model and mesh. The answer has the rows'
    columns, `ok` and `error` (the first error when the engine refused the row), the headline numbers of the
    helper's result, and one column per entry of `columns` (name -> JSON pointer into the result).

    The work is spread over `threads` threads (default: every core), or, given a Dask `distributed.Client` as
    `client`, over its workers (each must import scalescope).

    >>> table = sweep(grid(hardware="h100-sxm", model=["llama-3-8b", "llama-3-70b"], mesh=64))
    >>> list(table["model"]), bool(table["ok"].all()), bool((table["step_s"] > 0).all())
    (['llama-3-8b', 'llama-3-70b'], True, True)
    """
    if kind not in RESULT_TYPES:
        raise ValueError(f"sweep: kind {kind!r} is not one of {sorted(RESULT_TYPES)}")
    if not 1 <= chunk <= MAX_CHUNK:
        raise ValueError(f"sweep: chunk {chunk!r} is not a number of scenarios from 1 to {MAX_CHUNK}")
    pd_ = pandas()
    table = rows if isinstance(rows, pd_.DataFrame) else pd_.DataFrame(list(rows))
    pointers = _columns(kind, columns)
    scenarios = _scenarios(kind, table)
    chunks = [scenarios[i:i + chunk] for i in range(0, len(scenarios), chunk)]
    if client is not None:
        answered = client.gather(client.map(answer_chunk, chunks, pointers=pointers, pure=False))
    else:
        with ThreadPoolExecutor(max_workers=threads or os.cpu_count() or 1) as pool:
            answered = list(pool.map(lambda c: answer_chunk(c, pointers), chunks))
    out = pd_.DataFrame([row for part in answered for row in part], columns=["ok", "error", *pointers],
                        index=table.index)
    return pd_.concat([table, out], axis=1)


def _columns(kind: str, columns: Mapping[str, str] | None) -> dict[str, str]:
    """Column name -> JSON pointer: the helper's headline numbers, then the caller's."""
    result_type = RESULT_TYPES[kind]
    pointers = {name: _pointer(result_type, name) for name, _ in result_type.headline}
    return {**pointers, **(columns or {})}


def _pointer(result_type: type[Result], name: str) -> str:
    """The JSON pointer a headline property reads (its one `self.at(...)`), so that a sweep's column and the
    helper's attribute are one number."""
    probe = result_type("{}", {"ok": True, "result": {}})
    seen: list[str] = []
    probe.at = lambda pointer: seen.append(pointer)  # type: ignore[method-assign]
    getattr(probe, name)
    return seen[0]


def _scenarios(kind: str, table: pd.DataFrame) -> list[dict[str, Any]]:
    """Each row's scenario, with the engine's defaults filled in once per distinct hardware, model and mesh."""
    keys = DEFAULTED[kind]
    defaults_of: dict[str, dict[str, Any]] = {}
    out = []
    for row in table.to_dict("records"):
        args = {k: v for k, v in row.items() if not _missing(v)}
        hardware, model, mesh = args.pop("hardware", None), args.pop("model", None), args.pop("mesh", None)
        shape = repr((hardware, model, mesh, [k for k in keys if k in args]))
        if shape not in defaults_of:
            defaults_of[shape] = _engine_defaults(kind, keys, hardware, model, mesh, args)
        out.append(scenario(kind, hardware, model, mesh, **defaults_of[shape], **args))
    return out


def _missing(value: Any) -> bool:
    """A cell a row leaves empty (NaN or None), so that rows of a table may give different arguments."""
    return value is None or isinstance(value, float) and value != value


def answer_chunk(scenarios: Sequence[Mapping[str, Any]], pointers: Mapping[str, str]) -> list[list]:
    """One engine call's rows: [ok, first error, the value at each pointer] (the engine's evaluate_fields, which
    writes only those). A function of the module, so that a Dask worker can run it."""
    request = scenario_text({"scenarios": list(scenarios), "fields": list(pointers.values())})
    answer = json.loads(_engine.evaluate_fields(request))
    if not answer.get("ok"):  # the call itself was refused
        raise ScalescopeError(Result(json.dumps(answer)))
    return answer["rows"]
