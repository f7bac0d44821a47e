# %% [markdown]
# # LLaMA-3 70B on 1024 H100s: the best plans, their cost, and my logged step time
#
# A real question answered end to end with the `scalescope` module (docs/python.md). The "logged step" is a
# published run: Megatron-Bridge's Llama 3 70B pretraining on 64 H100s in FP8, 1602 tokens/s per GPU
# (run B2 of tests/validation/published-runs.json, from Megatron-Bridge's performance summary). We check the
# engine against it, then ask what 1024 GPUs would do with the same tokens per GPU, sweep 128 plans around the
# best one, and save the plan search's Pareto front as a PNG.
#
# Run it as a script: `python3 examples/python/llama3_70b_h100.py [OUTPUT_DIR]` (the notebook beside it is
# generated from this file by scripts/python_notebook.py).

# %%
import itertools
import json
import pathlib
import sys

import pandas as pd

import scalescope
from scalescope import plots

# As a script, the repository is two folders up; as the notebook, Jupyter starts in examples/python.
ROOT = pathlib.Path(__file__).resolve().parents[2] if "__file__" in globals() else pathlib.Path.cwd().parents[1]
OUT = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 and "__file__" in globals() else pathlib.Path(".")
OUT.mkdir(parents=True, exist_ok=True)
pd.set_option("display.width", 140)

# %% [markdown]
# ## 1. My logged step against the engine
#
# The run's scenario is the plan as it ran: DP2 x TP4 x PP8 with 5 virtual stages, 128 sequences of 8192
# tokens, FP8 matmuls.

# %%
runs = json.loads((ROOT / "tests/validation/published-runs.json").read_text())["runs"]
logged = next(r for r in runs if r["id"] == "B2")
step = scalescope.evaluate(logged["scenario"])
print(f"logged {logged['measured']:.2f} s per step; the engine says {step['time']['step_s']:.2f} s "
      f"({step['time']['step_s'] / logged['measured'] - 1:+.1%}), the book's ideal {step['ideal']['step_s']:.2f} s")
print(step["calibration"]["error_band"]["text"])
plots.step_bars(step, title="The logged step, part by part")  # a notebook draws it; a script drops it

# %% [markdown]
# ## 2. The best plans on 1024 H100s
#
# The same model, precision and tokens per GPU (16 x the batch), searched over every plan of the space.

# %%
query = {k: v for k, v in logged["scenario"]["query"].items() if k not in ("kind", "parallelism", "remat")}
query["batch_tokens"] = 16 * query["batch_tokens"]
plans = scalescope.plan_search("h100-sxm", "llama-3-70b", 1024, keep=100, train_tokens=15e12, **query)
search = plans.attrs["result"]
print(f"{search['space']:,} plans in the space, {search['counts']['fitting']:,} fit in HBM")
best = plans[["degrees.data", "degrees.fsdp", "degrees.tensor", "degrees.pipeline", "degrees.context", "remat", "step_s", "mfu_frac",
              "usd_per_step", "train_usd"]].head(5)
print(best.to_string(float_format=lambda x: f"{x:,.3g}"))
tokens_per_gpu_logged = query["batch_tokens"] / 16 / logged["measured"] / 64
tokens_per_gpu_best = plans["tokens_per_s"].iloc[0] / 1024
print(f"tokens/s per GPU: logged {tokens_per_gpu_logged:,.0f} on 64 GPUs; best plan on 1024 "
      f"{tokens_per_gpu_best:,.0f} ({tokens_per_gpu_best / tokens_per_gpu_logged - 1:+.0%})")

# %% [markdown]
# ## 3. A sweep: 128 plans around the best one
#
# Tensor x pipeline degrees x microbatch size x remat policy at 1024 GPUs, every one a `training_step`; the
# rest of the GPUs go to FSDP (ZeRO-1, as Megatron's distributed optimizer). `scalescope.sweep` answers a table
# of the helpers' arguments as a table, on every core.

# %%
arguments, labels = [], []
for tp, pp, mbs, remat in itertools.product([1, 2, 4, 8], [1, 2, 4, 8], [1, 2], ["none", "block", "big_matmuls",
                                                                                  "mlp_matmuls"]):
    dp = 1024 // (tp * pp)
    sequences_per_shard = query["batch_tokens"] // query["seq_len"] // dp
    mesh = {"shape": [pp, dp, tp], "axis_names": ["PP", "DP", "TP"]}
    parallelism = {"fsdp": ["DP"], "tensor": ["TP"], "zero_stage": 1, "microbatches": sequences_per_shard // mbs}
    if pp > 1:
        parallelism["pipeline"] = ["PP"]
    arguments.append({"hardware": "h100-sxm", "model": "llama-3-70b", "mesh": mesh, "parallelism": parallelism,
                      "remat": remat, **query})
    labels.append({"tensor": tp, "pipeline": pp, "fsdp": dp, "microbatch_sequences": mbs})
answers = scalescope.sweep(arguments)
sweep = pd.concat([pd.DataFrame(labels), answers[["remat", "ok", "step_s", "memory_bytes", "fits", "error"]]], axis=1)
sweep["memory_gb"] = sweep.pop("memory_bytes") / 1e9
fitting = sweep[sweep["fits"] == True]  # noqa: E712 (a refused row's fits is None)
print(f"{len(sweep)} scenarios: {len(fitting)} fit, {int((~sweep['ok']).sum())} refused")
print(fitting.sort_values("step_s").drop(columns=["ok", "fits", "error"]).head(5).to_string(index=False))

# %% [markdown]
# ## 4. The Pareto front, saved as a PNG

# %%
figure = plots.pareto(plans, hbm_bytes=80e9, title="LLaMA-3 70B on 1024 H100s (FP8): step time against memory")
figure.savefig(OUT / "llama3_70b_h100_pareto.png", dpi=120)
print(f"wrote {OUT / 'llama3_70b_h100_pareto.png'}")
figure

# %% [markdown]
# ## 5. The best plan as a launch config, and back
#
# The best plan written as Megatron-Bridge's recipe overrides (docs/api.md "Framework launch configs"): the text
# to launch, what the engine left to us (data, learning rate, checkpoints), and what of the plan the framework's
# config cannot carry. Read back, the config gives the same plan but for those settings.

# %%
best_step = scalescope.training_step(**plans.iloc[0]["training_step"])
config = scalescope.launch_config(best_step, "megatron-bridge")
(OUT / "llama3_70b_h100_megatron_bridge.yaml").write_text(config.text)
print(config.text)
back = scalescope.import_config(config.text, "megatron-bridge", scenario=best_step)
read = back.scenario_read["query"]
changed = sorted(key for key in set(read) | set(config.plan) if read.get(key) != config.plan.get(key))
print(f"read back: the same plan but for {changed or 'nothing'}; "
      f"the config cannot carry {[n['setting'] for n in config.unexpressed] or 'nothing'}")
