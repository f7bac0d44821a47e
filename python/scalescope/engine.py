"""The engine's answer as Python objects: evaluate a scenario, get a Result or a ScalescopeError.

Everything goes through the C++ engine's JSON API (docs/api.md): this module only turns Python values into
scenario text and the answer text back into Python values. The engine decides what is valid.
"""
from __future__ import annotations

import copy
import html
import json
import math
import numbers
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, Union


def _engine_missing_message(error: ImportError) -> str:
    """Why the engine module did not load, in words: most often it was built for another Python (its file name
    says which), which Python otherwise reports as a "circular import" of scalescope."""
    import pathlib
    import sys
    import sysconfig

    wanted = "_engine" + str(sysconfig.get_config_var("EXT_SUFFIX"))
    found = sorted(p.name for p in pathlib.Path(__file__).parent.glob("_engine*"))
    here = f"Python {sys.version_info[0]}.{sys.version_info[1]} ({sys.executable}) loads {wanted}"
    if found and wanted not in found:
        return (f"scalescope's engine was built for another Python: {here}, and the package holds {', '.join(found)}. "
                "Install it for this Python: `python -m pip install .` in the clone (docs/python.md, Install)")
    if not found:
        return (f"scalescope's engine module is not built: {here}, and {pathlib.Path(__file__).parent} holds none. "
                "Install the package with `python -m pip install .` in the clone (docs/python.md, Install)")
    return f"scalescope's engine module {wanted} did not load: {error}"


try:
    from . import _engine
except ImportError as missing:
    raise ImportError(_engine_missing_message(missing)) from missing

Scenario = Union[Mapping[str, Any], str, bytes]

#: The version of the C++ engine this module was built with.
engine_version: str = _engine.engine_version


@dataclass(frozen=True)
class Diagnostic:
    """One problem the engine found: where (a JSON pointer into the scenario), what (a code), and why."""

    path: str
    code: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        return f"{self.path or '/'}: {self.code}: {self.message}"


class ScalescopeError(ValueError):
    """The engine refused the scenario. `diagnostics` say which fields and why; `result` is the whole answer."""

    def __init__(self, result: "Result"):
        self.result = result
        self.diagnostics = [d for d in result.diagnostics if d.severity == "error"]
        shown = "; ".join(str(d) for d in self.diagnostics[:5])
        more = f" (and {len(self.diagnostics) - 5} more)" if len(self.diagnostics) > 5 else ""
        super().__init__(f"the engine refused the scenario: {shown}{more}")


class Result:
    """The engine's answer to one scenario.

    `json` is the engine's exact text; `data` the whole answer as Python objects; `ok`, `query`, `diagnostics`
    (errors and warnings) and `result` (the query's numbers, SI units, the unit in every key) its parts.
    `result["time"]["step_s"]`, `r["time"]["step_s"]` and `r.at("/time/step_s")` all read one number. `defaults`
    holds the arguments a helper (`training_step`, `serving`) filled in from the engine's defaults.

    >>> r = evaluate({"hardware": {"preset": "tpu-v5p"}, "query": {"kind": "chip"}})
    >>> r.ok, r.query, r["hbm_capacity_bytes"]
    (True, 'chip', 96000000000.0)
    """

    #: The headline numbers as (attribute, unit): what `repr` and a notebook show first. The subclasses name theirs.
    headline: tuple[tuple[str, str], ...] = ()

    def __init__(self, text: str, data: dict[str, Any] | None = None):
        self.json: str = text
        self.data: dict[str, Any] = json.loads(text) if data is None else data
        self.ok: bool = bool(self.data.get("ok", False))
        self.query: str | None = self.data.get("query")
        self.diagnostics: list[Diagnostic] = [
            Diagnostic(d.get("path", ""), d.get("code", ""), d.get("message", ""), d.get("severity", "error"))
            for d in self.data.get("diagnostics", [])
        ]
        self.result: dict[str, Any] = self.data.get("result", {})
        self.defaults: dict[str, Any] = {}
        #: The scenario asked (when it was given as a dict): what `launch_config` writes a plan from.
        self.scenario: dict[str, Any] = {}

    @property
    def warnings(self) -> list[Diagnostic]:
        """The diagnostics that do not stop the answer (e.g. a plan out of HBM)."""
        return [d for d in self.diagnostics if d.severity == "warning"]

    def __getitem__(self, key: str) -> Any:
        return self.result[key]

    def __contains__(self, key: str) -> bool:
        return key in self.result

    def at(self, pointer: str) -> Any:
        """The value at a JSON pointer into the result, e.g. "/time/step_s" or "/plans/0/step_s". A refused answer
        has no result: reading one raises its ScalescopeError, which says why."""
        if not self.ok:
            raise ScalescopeError(self)
        node: Any = self.result
        for part in pointer.lstrip("/").split("/") if pointer not in ("", "/") else []:
            part = part.replace("~1", "/").replace("~0", "~")
            node = node[int(part)] if isinstance(node, list) else node[part]
        return node

    def _headline_values(self) -> list[tuple[str, str]]:
        """The headline numbers the answer has, as (attribute, value in its unit)."""
        values = []
        for name, unit in self.headline if self.ok else ():
            try:
                values.append((name, _shown(getattr(self, name), unit)))
            except (KeyError, IndexError, TypeError):  # a number this answer does not carry
                pass
        return values

    def __repr__(self) -> str:
        errors = [d for d in self.diagnostics if d.severity == "error"]
        if not self.ok:
            state = f"refused: {errors[0]}" if errors else "refused"
            state += f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        else:
            state = ", ".join(f"{name} {value}" for name, value in self._headline_values()) or "ok"
            state += f"; {len(self.warnings)} warning{'s' * (len(self.warnings) != 1)}" if self.warnings else ""
        return f"<scalescope.{type(self).__name__} {self.query or '?'}: {state}>"

    def _repr_html_(self) -> str:
        """A notebook's view: the headline numbers, the defaults filled in, the calibration band, the diagnostics."""
        rows: list[tuple[str, str | None]] = list(self._headline_values())
        if self.defaults:
            rows += [("filled in from the engine's defaults", None)]
            rows += [(name, _shown(value)) for name, value in self.defaults.items()]
        calibration = self.result.get("calibration")
        band = calibration.get("error_band", {}).get("text") if isinstance(calibration, dict) else None
        if band:
            rows += [("calibration", None), (calibration.get("profile", {}).get("id", "band"), band)]
        if self.diagnostics:
            rows += [("diagnostics", None)] + [(d.severity, str(d)) for d in self.diagnostics]
        cells = "".join(f'<tr><th colspan="2" style="text-align:left">{html.escape(name)}</th></tr>' if value is None
                        else f'<tr><td style="text-align:left">{html.escape(name)}</td>'
                             f'<td style="text-align:left">{html.escape(value)}</td></tr>'
                        for name, value in rows)
        fidelity = f" ({self.result['fidelity']})" if isinstance(self.result.get("fidelity"), str) else ""
        state = "" if self.ok else ": refused"
        caption = html.escape(f"{type(self).__name__} {self.query or '?'}{fidelity}{state}")
        return f"<table><caption>{caption}</caption>{cells}</table>"


def _shown(value: Any, unit: str = "") -> str:
    """A value as a reader wants it: a number to 4 significant digits (thousands separated from 10,000) with its
    unit ("%": a fraction as a percentage; "GB": bytes in GB), anything else as JSON.

    >>> _shown(0.3951, "%"), _shown(74760431206.4, "GB"), _shown(92193.4, "tokens/s"), _shown(True), _shown([8, 8])
    ('39.5%', '74.76 GB', '92,193 tokens/s', 'True', '[8, 8]')
    >>> _shown(6345608.7, "days")
    '73.44 days'
    """
    if isinstance(value, (str, bool)):
        return str(value)
    if not isinstance(value, numbers.Real):
        return json.dumps(value, ensure_ascii=False, default=_plain)
    if unit == "%":
        return f"{value:.1%}"
    if unit == "GB":
        value /= 1e9
    if unit == "days":  # seconds, as days
        value /= 86400
    number = f"{value:,.0f}" if abs(value) >= 1e4 else f"{value:.4g}"
    return f"{number} {unit}".rstrip()


def _plain(value: Any) -> Any:
    """numpy scalars and arrays, paths and sets as JSON values (a DataFrame's cells are numpy types)."""
    if hasattr(value, "tolist"):
        plain = value.tolist()
        if type(plain) is not type(value):
            return plain
        # numpy's long doubles give themselves back (issue 41: that recursed until "nested too deep"): a real one is
        # written as the double JSON holds.
        if isinstance(value, numbers.Real):
            return float(value)
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"holds a {type(value).__name__}, which is not a JSON value")


def scenario_text(scenario: Scenario) -> bytes:
    """The scenario as the engine's input, UTF-8 bytes. Text is passed as it is, for the engine to judge.

    A Python value that JSON cannot hold (NaN, infinity, an object, nesting deeper than Python recurses) raises
    ScalescopeError with a `not_json` diagnostic, as the engine reports its own problems.
    """
    if isinstance(scenario, bytes):
        return scenario
    if isinstance(scenario, str):
        # Lone surrogates pass through as the invalid UTF-8 they are: the engine rejects them with a diagnostic.
        return scenario.encode("utf-8", "surrogatepass")
    path = ""
    try:
        _check_integers(scenario)
        text = json.dumps(scenario, default=_plain, allow_nan=False, ensure_ascii=False)
        return text.encode("utf-8", "surrogatepass")
    except OverflowError as e:
        problem = str(e)
    except RecursionError:
        problem = "is nested deeper than Python can write (the engine reads at most 32 levels)"
    except ValueError:
        path = _non_finite_at(scenario)
        problem = f"holds NaN or an infinity{f' at {path}' if path else ''}, which JSON cannot hold"
    except TypeError as e:
        problem = str(e)
    raise ScalescopeError(_refusal("not_json", f"the scenario {problem}", path))


def _check_integers(value: Any) -> None:
    """Raises OverflowError for a Python integer no JSON number the engine reads (a double) can hold: written out,
    it came back as malformed JSON (issue 41)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        if abs(value) > _LARGEST_DOUBLE:
            raise OverflowError(f"holds the integer {str(value)[:20]}... ({len(str(abs(value)))} digits), beyond the "
                                "largest number JSON's doubles hold (about 1.8e308)")
    elif isinstance(value, Mapping):
        for v in value.values():
            _check_integers(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _check_integers(v)


_LARGEST_DOUBLE = int(1.7976931348623157e308)


def _non_finite_at(value: Any, path: str = "") -> str:
    """The JSON pointer of the first NaN or infinity in a scenario (numpy's too), for the refusal to name it."""
    if isinstance(value, Mapping):
        for key, v in value.items():
            found = _non_finite_at(v, f"{path}/{str(key).replace('~', '~0').replace('/', '~1')}")
            if found:
                return found
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            found = _non_finite_at(v, f"{path}/{i}")
            if found:
                return found
    elif isinstance(value, numbers.Real):
        return "" if isinstance(value, bool) or math.isfinite(value) else path or "/"
    elif hasattr(value, "tolist"):  # a numpy array
        return _non_finite_at(value.tolist(), path)
    return ""


def _refusal(code: str, message: str, path: str = "") -> Result:
    return Result(json.dumps({"ok": False, "diagnostics": [{"path": path, "code": code, "message": message,
                                                             "severity": "error"}], "engine_version": engine_version}))


def _decode(answer: bytes) -> str:
    return answer.decode("utf-8", "replace")


R = TypeVar("R", bound=Result)


def finish(result: R, raise_on_error: bool) -> R:
    """The result, or ScalescopeError when it was refused and `raise_on_error`."""
    if raise_on_error and not result.ok:
        raise ScalescopeError(result)
    return result


def _whole_answer(text: bytes) -> tuple[str, dict[str, Any]]:
    """The engine's answer (its text, parsed), a plan search resumed from its cursor call by call until whole (as the
    CLI answers).

    Each call is bounded by the engine's work limit, so Ctrl-C (KeyboardInterrupt) stops a long search between
    calls: one engine call for the whole search held the interpreter until it returned.
    """
    answer = _decode(_engine.evaluate(text))
    scenario = None
    while True:
        parsed = json.loads(answer)
        result = parsed.get("result")
        if not (parsed.get("ok") and parsed.get("query") == "plan_search" and isinstance(result, dict)
                and result.get("stopped_by") == "work_limit"):
            return answer, parsed
        if scenario is None:
            scenario = json.loads(text)  # the engine accepted it, so it is JSON
            if "chunk_plans" in scenario["query"]:
                return answer, parsed
        scenario["query"]["resume"] = result["cursor"]
        answer = _decode(_engine.evaluate(scenario_text(scenario)))


def evaluate_as(result_type: type[R], scenario: Scenario, raise_on_error: bool) -> R:
    """`evaluate`, answering with a Result subclass (the helpers' TrainingStep, Serving, Calibration)."""
    answer = result_type(*_whole_answer(scenario_text(scenario)))
    if isinstance(scenario, Mapping):
        answer.scenario = copy.deepcopy(dict(scenario))
    return finish(answer, raise_on_error)


def evaluate(scenario: Scenario, *, raise_on_error: bool = True) -> Result:
    """Runs one scenario (docs/api.md: a dict, or its JSON text) on the engine.

    A plan search is resumed until whole, as the CLI does, unless the query asks for `chunk_plans`. With
    `raise_on_error` (the default) a refused scenario raises ScalescopeError; without, the Result says `ok=False`.

    >>> evaluate({"query": {"kind": "chip"}}, raise_on_error=False).diagnostics[0].code
    'missing_key'
    """
    return evaluate_as(Result, scenario, raise_on_error)


def evaluate_many(scenarios: Iterable[Scenario], *, raise_on_error: bool = False) -> list[Result]:
    """Runs many scenarios in one engine call (at most 1024; the engine says so when there are more).

    Each answer stands alone: by default a refused scenario is a Result with `ok=False`, not an exception. Each
    Result's `json` is its answer's text, as `evaluate` gives it.

    >>> chip = {"hardware": {"preset": "b200"}, "query": {"kind": "chip"}}
    >>> [a.ok for a in evaluate_many([chip, {"query": {"kind": "chip"}}])]
    [True, False]
    """
    items = [s if isinstance(s, Mapping) else _loaded(i, s) for i, s in enumerate(scenarios)]
    text = _decode(_engine.evaluate_many(scenario_text(items)))
    if not text.startswith("["):  # the call itself was refused (too many scenarios, too large)
        raise ScalescopeError(Result(text))
    return [finish(answer, raise_on_error) for answer in _answers(text)]


_parse_at = json.JSONDecoder().raw_decode


def _answers(array: str) -> Iterator[Result]:
    """The engine's array of answers, each parsed once and holding its own span of the engine's text."""
    at = 1
    while array[at] != "]":
        data, end = _parse_at(array, at)
        yield Result(array[at:end], data)
        at = end + (array[end] == ",")


def _loaded(index: int, scenario: Scenario) -> Any:
    """A scenario given as text, as a Python value for the array; text that is not JSON raises ScalescopeError, as
    evaluate's does (issue 41: bytes that were not UTF-8 raised UnicodeDecodeError)."""
    try:
        return json.loads(scenario_text(scenario))
    except ValueError as e:  # json.JSONDecodeError and UnicodeDecodeError
        raise ScalescopeError(_refusal("malformed_json", f"scenario {index} is not JSON text: {e}")) from None


def check(scenario: Scenario) -> list[Diagnostic]:
    """The diagnostics `evaluate` gives a scenario, without its result (the engine's `validate`: every reader runs).

    >>> [str(d) for d in check({"hardware": {"preset": "tpu-v9"}, "query": {"kind": "chip"}})][0][:44]
    '/hardware/preset: unknown_preset: unknown ha'
    """
    return Result(_decode(_engine.validate(scenario_text(scenario)))).diagnostics
