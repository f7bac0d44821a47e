"""Framework launch configs in and out (docs/api.md "Framework launch configs"): a plan as MaxText, Megatron-LM,
Megatron-Bridge, DeepSpeed, vLLM, SGLang or TensorRT-LLM spell it, and such a config read back into a scenario.
The engine writes and reads them; these functions only carry the scenario there and back.
"""
from __future__ import annotations

import html
import os
from collections.abc import Mapping
from typing import Any, Union

from .engine import Result, evaluate_as

#: The frameworks the engine writes and reads: training, then serving (docs/api.md).
FRAMEWORKS = ("maxtext", "megatron", "megatron-bridge", "deepspeed", "vllm", "sglang", "trtllm")

Plan = Union[Result, Mapping[str, Any]]


def _scenario_of(plan: Plan) -> dict[str, Any]:
    """The scenario a helper's answer was asked with, or the scenario dict itself."""
    if isinstance(plan, Result):
        if not plan.scenario:
            raise ValueError("this answer keeps no scenario: pass one from training_step or serving, or a scenario "
                             "dict")
        return dict(plan.scenario)
    return dict(plan)


class LaunchConfig(Result):
    """A `launch_config` answer: `text` is the framework's configuration; `unexpressed` what of the plan it cannot
    carry, `undecided` what the engine does not decide. A notebook shows the text.

    >>> from scalescope import training_step
    >>> step = training_step("tpu-v5p", "llama-3-70b", [4, 4, 8], batch_tokens=4194304, seq_len=8192,
    ...                      parallelism={"fsdp": 32, "tensor": 4})
    >>> config = launch_config(step, "maxtext")
    >>> "ici_fsdp_parallelism=32" in config.text, "per_device_batch_size=4" in config.text
    (True, True)
    """

    headline = (("framework", ""), ("format", ""))

    @property
    def framework(self) -> str:
        return self.at("/framework")

    @property
    def format(self) -> str:
        """`command_line`, `yaml` or `json`."""
        return self.at("/format")

    @property
    def text(self) -> str:
        """The configuration, ready to run or to paste."""
        return self.at("/text")

    @property
    def plan(self) -> dict[str, Any]:
        """The plan as the framework sees it: the training_step or serving query in degrees."""
        return self.at("/plan")

    @property
    def unexpressed(self) -> list[dict[str, str]]:
        """Each setting of the plan the config cannot carry: {setting (a JSON pointer into `plan`), text}."""
        return self.at("/unexpressed")

    @property
    def undecided(self) -> list[str]:
        """What the engine does not decide (data paths, learning rate, the launch on each node)."""
        return self.at("/undecided")

    def _repr_html_(self) -> str:
        if not self.ok:
            return super()._repr_html_()
        notes = "".join(f"<li>{html.escape(n['text'])}</li>" for n in self.unexpressed)
        return (f"<b>{html.escape(self.at('/title'))}</b><pre>{html.escape(self.text)}</pre>" +
                (f"<p>Not expressible in this config:</p><ul>{notes}</ul>" if notes else ""))


class ImportedConfig(Result):
    """An `import_config` answer: `scenario` is ready for `evaluate` (the given scenario's hardware, model and mesh
    with the plan the config gives); `unmapped` and `assumed` say what was not read and what was taken as the
    framework's default."""

    headline = (("framework", ""),)

    def __init__(self, text: str, data: dict[str, Any] | None = None):
        super().__init__(text, data)
        self.base: dict[str, Any] = {}

    @property
    def framework(self) -> str:
        return self.at("/framework")

    @property
    def scenario_read(self) -> dict[str, Any]:
        """What the config itself gave: the query, and the mesh and model where it says them."""
        return self.at("/scenario")

    @property
    def runnable(self) -> dict[str, Any]:
        """The scenario to evaluate: the base scenario's hardware, model and mesh, with what the config gave."""
        out = {key: value for key, value in self.base.items() if key in ("hardware", "model", "mesh")}
        out.update(self.scenario_read)
        return out

    @property
    def mapped(self) -> list[dict[str, Any]]:
        """Each setting read: {key, value, line, setting (the JSON pointer it became)}."""
        return self.at("/mapped")

    @property
    def unmapped(self) -> list[dict[str, Any]]:
        """Each setting not read: {key, value, line, reason}."""
        return self.at("/unmapped")

    @property
    def assumed(self) -> list[str]:
        """Each framework default the plan took where the config is silent."""
        return self.at("/assumed")


def launch_config(plan: Plan, framework: str, *, raise_on_error: bool = True) -> LaunchConfig:
    """The plan of a `training_step` or `serving` answer (or of a scenario dict) as `framework`'s launch config
    (one of FRAMEWORKS)."""
    scenario = _scenario_of(plan)
    query = scenario.pop("query", None)
    if not isinstance(query, Mapping):
        raise ValueError("the scenario has no query: give a training_step or serving scenario")
    scenario["query"] = {"kind": "launch_config", "framework": framework, "plan": dict(query)}
    return evaluate_as(LaunchConfig, scenario, raise_on_error)


def import_config(config: str | os.PathLike[str], framework: str, *, scenario: Plan | None = None,
                  chips: int | None = None, seq_len: int | None = None, prompt_len: int | None = None,
                  generated_len: int | None = None, raise_on_error: bool = True) -> ImportedConfig:
    """A launch config (its text, or the path of its file) read into a scenario; `scenario` gives the hardware,
    model and mesh it runs on (a TPU plan is read against its torus), the keywords what the config may not say.

    >>> from scalescope import evaluate, training_step
    >>> step = training_step("h100-sxm", "llama-3-70b", 64, batch_tokens=1048576, seq_len=8192,
    ...                      parallelism={"tensor": 8, "pipeline": 4, "fsdp": 2, "microbatches": 32})
    >>> back = import_config(launch_config(step, "megatron-bridge").text, "megatron-bridge", scenario=step)
    >>> back.scenario_read["query"]["parallelism"]["pipeline"], evaluate(back.runnable).ok
    (4, True)
    """
    if isinstance(config, os.PathLike) or ("\n" not in config and len(config) < 4096 and os.path.isfile(config)):
        with open(config, encoding="utf-8", errors="replace") as f:
            config = f.read()
    base = _scenario_of(scenario) if scenario is not None else {}
    ask: dict[str, Any] = {key: value for key, value in base.items() if key in ("hardware", "model", "mesh")}
    query: dict[str, Any] = {"kind": "import_config", "framework": framework, "text": config}
    hints = {"chips": chips, "seq_len": seq_len, "prompt_len": prompt_len, "generated_len": generated_len}
    query.update({key: value for key, value in hints.items() if value is not None})
    ask["query"] = query
    answer = evaluate_as(ImportedConfig, ask, raise_on_error)
    answer.base = base
    return answer
