"""The figures draw the engine's numbers: bar lengths, stacked memory and curve points read back from the artists."""
from __future__ import annotations

import pytest

import scalescope
from scalescope import plots

STEP = scalescope.training_step("tpu-v5p", "llama-3-70b", [4, 4, 4])


def bar_widths(ax):
    return [p.get_width() for p in ax.patches]


def test_step_bars_show_each_term_and_the_communication_hidden_and_exposed():
    ax = plots.step_bars(STEP).axes[0]
    t = STEP.at("/time")
    widths = bar_widths(ax)
    assert widths[0] == t["compute_s"] and widths[1] == t["hbm_total_s"] and widths[3] == t["bubble_s"]
    hidden, exposed = widths[4], widths[5]
    assert hidden + exposed == pytest.approx(t["comms_sum_s"], rel=1e-12)
    assert exposed == t["comms_exposed_s"]
    assert ax.lines[0].get_xdata()[0] == t["step_s"]


def test_memory_bars_stack_to_the_total_against_hbm():
    ax = plots.memory_bars(STEP).axes[0]
    m = STEP.at("/memory")
    assert sum(bar_widths(ax)) == pytest.approx(m["total_bytes"] / 1e9, rel=1e-9)
    assert ax.lines[0].get_xdata()[0] == m["hbm_capacity_bytes"] / 1e9


def test_the_roofline_is_flat_at_the_peak_past_the_critical_intensity():
    chip = scalescope.evaluate(scalescope.scenario("chip", "h100-sxm")).result
    ax = plots.roofline("h100-sxm", {"decode": (1e12, 1e11)}).axes[0]
    x, y = ax.lines[0].get_xdata(), ax.lines[0].get_ydata()
    critical = chip["hbm_critical_intensity_flops_per_byte"]["bf16"]
    peak = chip["peak_flops_per_s"]["bf16"]
    assert all(v == pytest.approx(peak) for i, v in zip(x, y) if i >= critical)
    assert all(v == pytest.approx(i * chip["hbm_bandwidth_bytes_per_s"]) for i, v in zip(x, y) if i < critical)
    (point,) = ax.collections[0].get_offsets()
    assert tuple(point) == pytest.approx((10.0, 10.0 * chip["hbm_bandwidth_bytes_per_s"]))


def test_the_pareto_plot_draws_the_front():
    plans = scalescope.plan_search("h100-sxm", "llama-3-70b", 64, keep=20)
    ax = plots.pareto(plans, hbm_bytes=80e9).axes[0]
    front = scalescope.pareto_front(plans)
    assert list(ax.lines[0].get_ydata()) == list(front["step_s"])
    assert len(ax.collections[0].get_offsets()) == 20


def test_a_figure_shows_itself_in_a_notebook_as_png():
    # issue 40: without %matplotlib inline a Figure showed as its text, <Figure size 700x280 with 1 Axes>
    for figure in (plots.step_bars(STEP), plots.memory_bars(STEP)):
        assert figure._repr_png_()[:8] == b"\x89PNG\r\n\x1a\n"
