"""Scalescope in Python: the C++ engine that makes "How to Scale Your Model" live, for notebooks and scripts.

The same engine as the CLI and the web explorer, byte for byte (docs/python.md). Scenarios and results are the
JSON of docs/api.md, as Python dicts; the common questions have functions, and ranked lists come as DataFrames.

>>> import scalescope
>>> scalescope.training_step(hardware="tpu-v5p", model="llama-3-70b", mesh=[4, 4, 4]).fits
True
"""
from .engine import Diagnostic, Result, ScalescopeError, check, engine_version, evaluate, evaluate_many
from .launch import FRAMEWORKS, ImportedConfig, LaunchConfig, import_config, launch_config
from .queries import (Calibration, KernelFit, Serving, TrainingStep, calibrate, hf_model, kernel_family, kernel_fit,
                      pareto_front, plan_search, presets, scenario, serving, serving_search, training_step, validate)
from .sweeps import grid, sweep
from .traces import Trace, trace

__version__ = engine_version

__all__ = ["FRAMEWORKS", "Calibration", "Diagnostic", "ImportedConfig", "KernelFit", "LaunchConfig", "Result",
           "ScalescopeError", "Serving", "Trace", "TrainingStep", "calibrate", "check", "engine_version", "evaluate",
           "evaluate_many", "grid", "hf_model", "import_config", "kernel_family", "kernel_fit", "launch_config",
           "pareto_front", "plan_search", "presets", "scenario", "serving", "serving_search", "sweep", "trace",
           "training_step", "validate"]
