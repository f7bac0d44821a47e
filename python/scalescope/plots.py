"""The explorer's views as matplotlib Figures: step-time bars, memory against HBM, the roofline, a Pareto front,
the serving interactivity frontier.

Each function draws numbers the engine computed, never its own: pass the answer of a query (or, for the roofline,
the chip), get a matplotlib Figure to `savefig`, or to leave as a notebook cell's value: Jupyter draws it as a PNG
with or without `%matplotlib inline`. No pyplot state is touched.
"""
from __future__ import annotations

import io
from typing import Mapping

try:
    import matplotlib.figure
    import pandas as pd
except ImportError as e:
    raise ImportError("scalescope.plots draws with matplotlib and pandas, which this Python lacks: "
                      "`pip install 'scalescope[plots]'` or `apt install python3-matplotlib python3-pandas`") from e

from .engine import Result, evaluate_many
from .queries import Hardware, pareto_front, scenario

GB = 1e9
_COLOURS = {"compute": "#4c78a8", "memory": "#f58518", "communication": "#54a24b", "bubble": "#b279a2",
            "hidden": "#a8d5a2"}


class Figure(matplotlib.figure.Figure):
    """A matplotlib Figure that Jupyter draws by itself, as PNG. A plain Figure made without pyplot shows as its
    text (`<Figure size 700x280 with 1 Axes>`) unless `%matplotlib inline` registered a formatter for it."""

    def _repr_png_(self) -> bytes:
        png = io.BytesIO()
        self.savefig(png, format="png")
        return png.getvalue()


def step_bars(step: Result, title: str | None = None) -> Figure:
    """A training step's time: compute, HBM traffic, communication (the part hidden behind compute drawn light,
    the exposed part dark) and the pipeline bubble, with the step itself as a line (docs/api.md `training_step`).

    >>> from scalescope import training_step
    >>> fig = step_bars(training_step("tpu-v5p", "llama-3-70b", [4, 4, 4]))
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ['compute', 'memory (HBM)', 'communication', 'pipeline bubble']
    """
    t = step.at("/time")
    comms, exposed = t["comms_sum_s"], t["comms_exposed_s"]
    fig = Figure(figsize=(7, 2.8), layout="constrained")
    ax = fig.add_subplot()
    labels = ["compute", "memory (HBM)", "communication", "pipeline bubble"]
    ax.barh(labels, [t["compute_s"], t["hbm_total_s"], 0, t["bubble_s"]],
            color=[_COLOURS["compute"], _COLOURS["memory"], _COLOURS["communication"], _COLOURS["bubble"]])
    ax.barh(labels[2], comms - exposed, color=_COLOURS["hidden"], label="communication hidden behind compute")
    ax.barh(labels[2], exposed, left=comms - exposed, color=_COLOURS["communication"], label="communication exposed")
    ax.axvline(t["step_s"], color="black", linestyle="--", label=f"step {t['step_s']:.3g} s ({t['bound']}-bound)")
    ax.invert_yaxis()
    ax.set_xlabel("seconds per step")
    ax.set_title(title or f"Training step ({step['fidelity']})")
    ax.legend(loc="lower right", fontsize="small")
    return fig


_MEMORY_PARTS = (("params_bytes", "parameters"), ("grads_bytes", "gradients"), ("optimizer_bytes", "optimizer"),
                 ("master_weights_bytes", "master weights"), ("activations_bytes", "activations"),
                 ("transient_bytes", "transient"), ("context_buffers_bytes", "context buffers"))


def memory_bars(step: Result, title: str | None = None) -> Figure:
    """HBM per chip, part by part, stacked against the chip's capacity (docs/api.md `training_step` `memory`).

    >>> from scalescope import training_step
    >>> fig = memory_bars(training_step("tpu-v5p", "llama-3-70b", [4, 4, 4]))
    >>> fig.axes[0].get_legend().get_texts()[0].get_text()
    'HBM 96 GB'
    """
    m = step.at("/memory")
    fig = Figure(figsize=(7, 2.4), layout="constrained")
    ax = fig.add_subplot()
    left = 0.0
    ax.axvline(m["hbm_capacity_bytes"] / GB, color="black", linestyle="--", label=f"HBM {m['hbm_capacity_bytes'] / GB:.3g} GB")
    for key, label in _MEMORY_PARTS:
        value = m.get(key, 0.0) / GB
        if value > 0:
            ax.barh(["per chip"], [value], left=left, label=f"{label} {value:.3g} GB")
            left += value
    ax.set_xlabel("GB per chip")
    ax.set_title(title or f"Memory per chip: {m['total_bytes'] / GB:.3g} GB, {'fits' if m['fits'] else 'does not fit'}")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.35), ncol=4, fontsize="small")
    return fig


def roofline(hardware: Hardware, points: Mapping[str, tuple[float, float]] | None = None, dtype: str = "bf16",
             title: str | None = None) -> Figure:
    """The chip's roofline (scaling-book/roofline; scaling-book/tpus, critical intensities): attainable FLOP/s
    against arithmetic intensity, on log axes, with `points` (label -> (flops, bytes)) placed on it. Every value is
    the engine's `roofline` query.

    >>> fig = roofline("h100-sxm", {"decode matmul": (2 * 8 * 8192 * 8192, 2 * 8192 * 8192)})
    >>> fig.axes[0].get_xscale()
    'log'
    """
    intensities = [2.0 ** (k / 4) for k in range(-4, 4 * 16)]
    queries = [scenario("roofline", hardware, flops=i * GB, bytes=GB, dtype=dtype) for i in intensities]
    labelled = list((points or {}).items())
    queries += [scenario("roofline", hardware, flops=f, bytes=b, dtype=dtype) for _, (f, b) in labelled]
    answers = evaluate_many(queries, raise_on_error=True)
    curve, placed = answers[: len(intensities)], answers[len(intensities):]
    fig = Figure(figsize=(6, 4), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(intensities, [a["attainable_flops_per_s"] for a in curve], color=_COLOURS["compute"], label="attainable")
    critical = curve[0]["critical_intensity_flops_per_byte"]
    ax.axvline(critical, color="grey", linestyle=":", label=f"critical intensity {critical:.3g} FLOPs/byte")
    for (label, _), a in zip(labelled, placed):
        ax.scatter([a["intensity_flops_per_byte"]], [a["attainable_flops_per_s"]], zorder=3)
        right_of_ridge = a["intensity_flops_per_byte"] > critical  # label on the side with room
        ax.annotate(f"{label} ({a['bound']}-bound)", (a["intensity_flops_per_byte"], a["attainable_flops_per_s"]),
                    textcoords="offset points", xytext=(-6 if right_of_ridge else 6, -14),
                    ha="right" if right_of_ridge else "left", fontsize="small")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (FLOPs per byte of HBM)")
    ax.set_ylabel("attainable FLOP/s")
    ax.set_title(title or f"Roofline ({dtype})")
    ax.legend(loc="lower right", fontsize="small")
    return fig


def pareto(plans: pd.DataFrame, hbm_bytes: float | None = None, title: str | None = None) -> Figure:
    """A plan search's kept plans and its Pareto front: step time against memory per chip (from `plan_search`).

    >>> from scalescope import plan_search
    >>> fig = pareto(plan_search("h100-sxm", "llama-3-70b", 64, keep=20))
    >>> fig.axes[0].get_xlabel()
    'GB per chip'
    """
    front = pareto_front(plans)
    fig = Figure(figsize=(6, 4), layout="constrained")
    ax = fig.add_subplot()
    ax.scatter(plans["memory_bytes"] / GB, plans["step_s"], s=14, color="#9ecae9", label=f"best {len(plans)} plans")
    ax.plot(front["memory_bytes"] / GB, front["step_s"], marker="o", color=_COLOURS["compute"],
            label=f"Pareto front ({len(front)} plans)")
    if hbm_bytes:
        ax.axvline(hbm_bytes / GB, color="black", linestyle="--", label=f"HBM {hbm_bytes / GB:.3g} GB")
    best = plans.iloc[0]
    ax.annotate("best", (best["memory_bytes"] / GB, best["step_s"]), textcoords="offset points", xytext=(6, 6))
    ax.set_xlabel("GB per chip")
    ax.set_ylabel("seconds per step")
    ax.set_title(title or "Plan search: step time against memory")
    ax.legend(fontsize="small")
    return fig


def frontier(*answers: Result, title: str | None = None) -> Figure:
    """Serving's interactivity frontier: output tokens per second per chip against tokens per second per user, one
    curve per `serving` answer asked with `load.concurrencies`, each point labelled with its concurrency.

    >>> from scalescope import serving
    >>> s = serving("h200", "llama-3-70b", [8], batch=8, prompt_len=1024, generated_len=1024,
    ...             load={"concurrency": 8, "backend": "vllm", "concurrencies": [1, 8, 64]})
    >>> frontier(s).axes[0].get_xlabel()
    'tokens/s per user'
    """
    fig = Figure(figsize=(6, 4), layout="constrained")
    ax = fig.add_subplot()
    for answer in answers:
        points = answer.frontier
        backend = (answer.result["load"].get("backend") or {}).get("name", "the kernels' step")
        ax.plot(points["tokens_per_s_per_user"], points["output_tokens_per_s_per_chip"], marker="o", label=backend)
        for c, row in points.iterrows():
            ax.annotate(f"{c:g}", (row["tokens_per_s_per_user"], row["output_tokens_per_s_per_chip"]),
                        textcoords="offset points", xytext=(4, 4), fontsize="x-small")
    ax.set_xlabel("tokens/s per user")
    ax.set_ylabel("output tokens/s per chip")
    ax.set_title(title or "Serving: throughput against interactivity")
    ax.legend(fontsize="small")
    return fig
