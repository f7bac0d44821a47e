"""Bad input gets a clear error that names the field and the valid choices, as ScalescopeError or as a Result,
by choice; nothing crashes or hangs (docs/python.md "Errors")."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

import scalescope
from scalescope import ScalescopeError, evaluate

CHIP = {"hardware": {"preset": "tpu-v5p"}, "query": {"kind": "chip"}}


def test_a_result_holds_the_engines_text_and_its_parts():
    r = evaluate(CHIP)
    assert r.ok and r.query == "chip" and r.diagnostics == []
    assert json.loads(r.json) == r.data and r.data["result"] is r.result
    # scaling-book/tpus, critical intensities (TPU v5p): 4.59e14 bf16 FLOP/s over 2.8e12 bytes/s of HBM
    assert r["hbm_critical_intensity_flops_per_byte"]["bf16"] == pytest.approx(4.59e14 / 2.8e12, rel=1e-12)
    assert r.at("/peak_flops_per_s/bf16") == 4.59e14
    assert "chip" in repr(r)


def test_an_unknown_choice_raises_with_the_field_and_the_valid_choices():
    with pytest.raises(ScalescopeError) as e:
        evaluate({"hardware": {"preset": "tpu-v9"}, "query": {"kind": "chip"}})
    (d,) = e.value.diagnostics
    assert (d.path, d.code) == ("/hardware/preset", "unknown_preset")
    assert "tpu-v5p" in d.message and "tpu-v9" in str(e.value)
    assert e.value.result.ok is False


def test_without_raising_the_result_says_what_is_wrong():
    r = evaluate({"query": {"kind": "nope"}}, raise_on_error=False)
    assert not r.ok and r.result == {}
    assert r.diagnostics[0].path == "/query/kind" and "training_step" in r.diagnostics[0].message


def test_zero_chips_names_the_mesh_entry():
    with pytest.raises(ScalescopeError) as e:
        scalescope.training_step("h100-sxm", "llama-3-70b", [0])
    assert any(d.path == "/mesh/shape/0" and "got 0" in d.message for d in e.value.diagnostics)


@pytest.mark.parametrize("text, code", [
    ('{"query": ', "malformed_json"),
    ("", "malformed_json"),
    ('{"query": {"kind": "chip"}, "hardware": {"preset": "\\ud800"}}', None),
    ('{"hardware": {"preset": "тпу-в5п ☃"}, "query": {"kind": "chip"}}', "unknown_preset"),
    ("[" * 100000 + "]" * 100000, "too_deep"),
    ('{"query": {"kind": "chip"}}\x00', None),
])
def test_malformed_non_ascii_and_deep_text_is_refused_cleanly(text, code):
    r = evaluate(text, raise_on_error=False)
    assert not r.ok and r.diagnostics
    if code:
        assert r.diagnostics[0].code == code, r.diagnostics


def test_a_lone_surrogate_and_invalid_utf8_do_not_crash():
    for scenario in ('{"query": {"kind": "\udc80"}}', b'{"query": {"kind": "\xff"}}'):
        r = evaluate(scenario, raise_on_error=False)
        assert not r.ok and r.diagnostics


def test_python_values_json_cannot_hold_are_refused_with_not_json():
    deep: dict = {}
    node = deep
    for _ in range(100000):
        node["x"] = {}
        node = node["x"]
    for value in (deep, {"query": {"kind": "roofline", "flops": math.nan, "bytes": 1}}, {"query": object()}):
        with pytest.raises(ScalescopeError) as e:
            evaluate(value)
        assert e.value.diagnostics[0].code == "not_json"


def test_a_nan_or_an_infinity_is_refused_at_its_field():
    # issue 40: "holds NaN" named no field. Python's, numpy's and one inside a numpy array are all named.
    cases = [({"query": {"kind": "roofline", "flops": math.nan, "bytes": 1}}, "/query/flops"),
             ({"query": {"kind": "x", "dims": [1, 2, -math.inf]}}, "/query/dims/2"),
             ({"query": {"kind": "x", "a/b": {"~c": np.float32("nan")}}}, "/query/a~1b/~0c"),
             ({"mesh": {"shape": np.array([4.0, np.inf])}}, "/mesh/shape/1")]
    for value, path in cases:
        with pytest.raises(ScalescopeError) as e:
            evaluate(value)
        assert (e.value.diagnostics[0].code, e.value.diagnostics[0].path) == ("not_json", path)
        assert f"at {path}" in str(e.value)


def test_reading_a_number_of_a_refused_answer_raises_its_refusal():
    # issue 40: raise_on_error=False, then .step_s was a bare KeyError('time').
    step = scalescope.training_step("h100-sxm", "no-such-model", 8, raise_on_error=False)
    assert not step.ok
    with pytest.raises(ScalescopeError, match="/model/preset: unknown_preset"):
        step.step_s
    with pytest.raises(ScalescopeError):
        step.at("/time/step_s")


def test_numpy_numbers_from_a_dataframe_are_accepted():
    r = evaluate({"hardware": {"preset": "h100-sxm"},
                  "query": {"kind": "roofline", "flops": np.float64(1e12), "bytes": np.int64(10**9)}})
    assert r["intensity_flops_per_byte"] == 1000.0


@pytest.mark.parametrize("flops, code", [(1e308, "too_large"), (5e-324, None), (-1.0, None)])
def test_absurd_and_tiny_numbers_are_refused_at_their_field(flops, code):
    r = evaluate({"hardware": {"preset": "h100-sxm"}, "query": {"kind": "roofline", "flops": flops, "bytes": 1}},
                 raise_on_error=False)
    assert not r.ok and r.diagnostics[0].path == "/query/flops", r.diagnostics
    assert code is None or r.diagnostics[0].code == code


def test_evaluate_many_answers_each_scenario_on_its_own():
    answers = scalescope.evaluate_many([CHIP, {"query": {"kind": "nope"}}, json.dumps(CHIP)])
    assert [a.ok for a in answers] == [True, False, True]
    assert answers[0].data == answers[2].data
    with pytest.raises(ScalescopeError) as e:
        scalescope.evaluate_many([CHIP] * 1025)
    assert e.value.diagnostics[0].code == "too_large" and "1024" in e.value.diagnostics[0].message


def test_evaluate_many_gives_each_answer_the_engines_own_text():
    # issue 40: each answer was parsed twice (in the array, then its text written again with other spacing)
    scenarios = [CHIP, {"query": {"kind": "nope"}}]
    assert [a.json for a in scalescope.evaluate_many(scenarios)] == \
        [evaluate(s, raise_on_error=False).json for s in scenarios]
    assert scalescope.evaluate_many([]) == []


def test_issue_41_numpy_long_doubles_huge_integers_and_bytes_that_are_not_json():
    # A long double is the double JSON holds, not "nested too deep".
    r = evaluate({"hardware": {"preset": "h100-sxm"},
                  "query": {"kind": "roofline", "flops": np.longdouble(1e12), "bytes": np.longdouble(1e9)}})
    assert r["intensity_flops_per_byte"] == 1000.0
    # An integer beyond any double is the module's not_json, not the engine's malformed_json.
    with pytest.raises(ScalescopeError) as e:
        evaluate({"hardware": {"preset": "h100-sxm"}, "query": {"kind": "roofline", "flops": 10**400, "bytes": 1}})
    assert e.value.diagnostics[0].code == "not_json" and "401 digits" in e.value.diagnostics[0].message
    # Bytes that are not UTF-8 in evaluate_many raise ScalescopeError, as evaluate's do.
    with pytest.raises(ScalescopeError) as e:
        scalescope.evaluate_many([CHIP, b"\xff"])
    assert e.value.diagnostics[0].code == "malformed_json" and "scenario 1" in e.value.diagnostics[0].message


def test_check_validates_without_running():
    assert scalescope.check(CHIP) == []
    (d,) = scalescope.check({"hardware": {"preset": "tpu-v9"}, "query": {"kind": "chip"}})
    assert d.path == "/hardware/preset" and d.code == "unknown_preset"
