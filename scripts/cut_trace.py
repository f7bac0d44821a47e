#!/usr/bin/env python3
"""Cuts a small test fixture from a public PyTorch profiler trace (Kineto Chrome-trace JSON, .json or .json.gz).

Keeps the first N device events (kernels, copies, sets) by start time, the runtime launches that started them,
and the CPU ops that enclose those launches on their thread (so that both ways of linking a kernel to its op,
by External id and by nesting, still work), with only the event fields `scalescope trace` reads. Metadata keeps
the first device's properties and the distributed rank and world size.

usage: scripts/cut_trace.py SOURCE OUT.json [--kernels N]
"""
import argparse
import gzip
import json

DEVICE_CATS = {"kernel", "gpu_memcpy", "gpu_memset"}
LAUNCH_CATS = {"cuda_runtime", "cuda_driver", "hip_runtime", "hip_driver"}
KERNEL_ARGS = {"External id", "device", "stream", "correlation", "bytes", "Collective name", "In msg nelems",
               "Out msg nelems", "Group size", "dtype"}
OP_ARGS = {"External id", "Input Dims", "Input type"}


def slim(event, keep_args):
    out = {k: event[k] for k in ("ph", "cat", "name", "pid", "tid", "ts", "dur") if k in event}
    out["args"] = {k: v for k, v in event.get("args", {}).items() if k in keep_args}
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("out")
    parser.add_argument("--kernels", type=int, default=1000)
    a = parser.parse_args()
    opener = gzip.open if a.source.endswith(".gz") else open
    with opener(a.source, "rt") as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    device = sorted((e for e in events if e.get("cat") in DEVICE_CATS and e.get("ph") == "X"), key=lambda e: e["ts"])
    device = device[: a.kernels]
    correlations = {e["args"].get("correlation") for e in device}
    launches = [e for e in events
                if e.get("cat") in LAUNCH_CATS and e.get("args", {}).get("correlation") in correlations]
    by_thread = {}
    for launch in launches:
        by_thread.setdefault(launch["tid"], []).append(launch["ts"])
    ops = []
    for e in events:
        if e.get("cat") != "cpu_op":
            continue
        start, end = e["ts"], e["ts"] + e.get("dur", 0)
        if any(start <= t <= end for t in by_thread.get(e["tid"], ())):
            ops.append(e)
    info = trace.get("distributedInfo", {})
    out = {
        "schemaVersion": trace.get("schemaVersion", 1),
        "deviceProperties": trace.get("deviceProperties", [])[:1],
        "distributedInfo": {k: info[k] for k in ("backend", "rank", "world_size") if k in info},
        "traceEvents": [slim(e, OP_ARGS) for e in ops] + [slim(e, {"External id", "correlation"}) for e in launches]
        + [slim(e, KERNEL_ARGS) for e in device],
    }
    with open(a.out, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
