"""Lists of the engine's records (plans, deployments, runs, presets) as pandas DataFrames.

Nested numbers become dotted columns (`degrees.tensor`, `ideal.step_s`); the objects a caller passes back to the
engine as they are (a plan's `parallelism`, `layout`, `mesh`) stay whole, one Python object per cell.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping

if TYPE_CHECKING:
    import pandas as pd

#: Record keys kept whole in one cell: what goes back into a query unchanged, or has no fixed shape.
WHOLE = frozenset({"parallelism", "layout", "mesh", "tie", "dtypes", "parameters", "kernels", "error_bands",
                   "notes", "sources", "not_modelled", "approx", "scenario", "datasheet_differences", "fitted_on",
                   "hardware", "overrides", "warnings"})


def pandas() -> Any:
    """pandas, imported on first use: only the tables need it (the package's extra `frames`)."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError("scalescope's tables are pandas DataFrames, and this Python has no pandas: "
                          "`pip install 'scalescope[frames]'` or `apt install python3-pandas`") from e
    return pandas


def flatten(record: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """One row: nested objects as `outer.inner` columns, except the keys in WHOLE."""
    row: dict[str, Any] = {}
    for key, value in record.items():
        name = prefix + key
        if isinstance(value, Mapping) and key not in WHOLE:
            row.update(flatten(value, name + "."))
        else:
            row[name] = value
    return row


def frame(records: Iterable[Mapping[str, Any]], first: Iterable[str] = (), index: str | None = None) -> pd.DataFrame:
    """A DataFrame of records, with the columns in `first` leading (those present) and `index` as its index."""
    rows = [flatten(r) for r in records]
    df = pandas().DataFrame(rows)
    lead = [c for c in first if c in df.columns]
    df = df[lead + [c for c in df.columns if c not in lead]]
    if index and index in df.columns:
        df = df.set_index(index)
    return df


#: The columns a reader looks at first in a ranked plan: its degrees, then what it costs.
PLAN_COLUMNS = ("rank", "degrees.data", "degrees.fsdp", "degrees.tensor", "degrees.pipeline", "degrees.expert",
                "degrees.context", "microbatch_sequences", "remat", "precision.matmul", "step_s", "mfu_frac",
                "memory_bytes", "fits", "bound", "binding", "tokens_per_s", "usd_per_step", "train_usd", "pareto")

DEPLOYMENT_COLUMNS = ("total_chips", "replicas", "degrees.tensor", "degrees.expert", "batch", "dtypes",
                      "disaggregated", "latency_per_token_s", "time_to_first_token_s", "tokens_per_s_per_chip",
                      "usd_per_million_output_tokens", "meets_targets", "bound")

KERNEL_SCORE_COLUMNS = ("op", "variant", "fit_rows", "fit_median_frac", "held_rows", "held_median_frac", "held_p90_frac",
                        "held_family", "family_rows", "family_median_frac", "family_p90_frac", "signed_median_frac",
                        "stop")

RUN_COLUMNS = ("id", "family", "kind", "task", "architecture", "split", "excluded", "metric", "measured", "book",
               "calibrated", "book_error_frac", "calibrated_error_frac", "profile")
