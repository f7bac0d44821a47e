"""A profiler trace against the roofline (docs/api.md "Traces"): PyTorch's Chrome-trace JSON, whole or gzipped.

>>> t = trace("tests/traces/b200_vllm_gpt_oss_tp8_rank0.json")
>>> t.hardware_id, round(t.classified_share, 2)
('b200', 1.0)
>>> t.classes.loc["moe", "share"] > 0.5
True
"""
from __future__ import annotations

import gzip
import json
import os
from typing import IO, TYPE_CHECKING, Any, Union

from . import _engine
from .engine import Result, Scenario, _decode, evaluate, finish
from .frames import frame

if TYPE_CHECKING:  # pandas is imported where a table is made (frames.py): the engine needs none
    import pandas as pd

Source = Union[str, os.PathLike, IO[bytes]]
CHUNK_BYTES = 1 << 20


class Trace(Result):
    """A `trace` answer: the kernels' time by class, per device and per op, against the chip's roofline."""

    headline = (("kernel_time_s", "s"), ("classified_share", "%"), ("priced_share", "%"))

    @property
    def kernel_time_s(self) -> float:
        """The kernels', copies' and sets' summed time."""
        return self["kernel_time_s"]

    @property
    def classified_share(self) -> float:
        """The share of kernel time in a class other than `other`."""
        return self["classified_share"]

    @property
    def priced_share(self) -> float:
        """The share of kernel time with a roofline time."""
        return self["priced_share"]

    @property
    def hardware_id(self) -> str | None:
        """The preset the kernels were priced against (the trace's device's, or the one asked for)."""
        return (self["hardware"] or {}).get("id")

    @property
    def classes(self) -> pd.DataFrame:
        """Time by class (matmul, attention, moe, collective, ...), with the roofline of the priced part."""
        return frame(self["classes"], ("class", "time_s", "share", "kernels", "priced_time_s", "roofline_s",
                                       "achieved_fraction"), index="class")

    @property
    def devices(self) -> pd.DataFrame:
        """Per device: its window, busy, idle, compute, communication and exposed communication time."""
        return frame(self["devices"], index="device")

    @property
    def ops(self) -> pd.DataFrame:
        """The ops (one op at one shape, or one kernel) that take the most time."""
        return frame(self["ops"], ("class", "op", "shape", "calls", "time_s", "roofline_s", "achieved_fraction"))

    @property
    def plan(self) -> pd.DataFrame:
        """With `scenario`: the plan's predicted step beside the measured one, per step and device, part by part."""
        return frame(self["plan"]["rows"], ("part", "measured_s", "predicted_s", "measured_over_predicted"),
                     index="part")

    @property
    def kernel_tables(self) -> dict[str, Any]:
        """With `kernel_tables=True`: the trace's kernels in kernel_fit's tables format."""
        return self["kernel_tables"]

    @property
    def gaps(self) -> pd.DataFrame:
        """The largest losses against the roofline, idle time included, each with the book's reason."""
        return frame(self["gaps"], ("class", "op", "shape", "lost_s", "reason.code", "reason.message"))


def _chunks(source: Source):
    """The trace's text in chunks: a path (gzipped or not, as its first bytes say) or a binary file object."""
    if hasattr(source, "read"):
        stream, close = source, False
    else:
        with open(source, "rb") as probe:
            gzipped = probe.read(2) == b"\x1f\x8b"
        stream, close = (gzip.open(source, "rb") if gzipped else open(source, "rb")), True
    try:
        while chunk := stream.read(CHUNK_BYTES):
            yield chunk
    finally:
        if close:
            stream.close()


def trace(source: Source, hardware: Any = None, top: int = 10, *, scenario: Scenario | None = None,
          steps: int | None = None, kernel_tables: bool = False, raise_on_error: bool = True) -> Trace:
    """Reads a profiler trace (a path, `.json` or `.json.gz`, or a binary file object) and holds its kernels against
    the roofline of its chip: the trace's deviceProperties, or `hardware` (a preset id). `top` rows in `ops` and
    `gaps`. With `scenario`, the training_step scenario the trace ran, `plan` sets the engine's step beside the
    measured one (`steps`: the steps the trace holds, if it has no ProfilerStep annotations). With `kernel_tables`,
    `.kernel_tables` holds the trace's GEMMs and collectives as kernel tables: `kernel_fit(t.kernel_tables)` fits
    the chip's kernel models to this cluster's own kernels. The same numbers as `scalescope trace --json` (with
    `--scenario`, `--steps`, `--kernel-tables`).
    """
    session = _engine.TraceSession()
    for chunk in _chunks(source):
        if not session.feed(chunk):
            break
    options: dict[str, Any] = {"top": top}
    if hardware is not None:
        options["hardware"] = hardware
    if scenario is not None:
        options["step"] = evaluate(scenario, raise_on_error=False).data
    if steps is not None:
        options["steps"] = steps
    if kernel_tables:
        options["kernel_tables"] = True
    text = _decode(session.finish(json.dumps(options)))
    return finish(Trace(text), raise_on_error)
