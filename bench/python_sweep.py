#!/usr/bin/env python3
"""Scenarios per second of a Python sweep (issue 40 item 4): 100,000 training steps (2 chips x 2 models x 5 GPU counts
x 5,000 batch sizes) on 1 thread, on every core, and on a local Dask cluster of two worker processes.

usage: PYTHONPATH=build/release/python python3 bench/python_sweep.py [--dask]
A measurement, never a test: the figures go in docs/python.md "Tests and speed".
"""
import os
import sys
import time

import scalescope


def timed(rows, **how):
    start = time.perf_counter()
    table = scalescope.sweep(rows, **how)
    return time.perf_counter() - start, table


def main() -> None:
    rows = scalescope.grid(hardware=["h100-sxm", "b200"], model=["llama-3-8b", "llama-3-70b"],
                           mesh=[64, 128, 256, 512, 1024], batch_tokens=[2**20 * k for k in range(1, 5001)])
    cores = os.cpu_count() or 1
    best = {}
    for threads in (1, cores, 1, cores):  # alternated, the best of two each: the machine is shared
        seconds, table = timed(rows, threads=threads)
        best[threads] = min(best.get(threads, seconds), seconds)
    print(f"{len(rows):,} training steps ({table['ok'].mean():.0%} answered): 1 thread {len(rows) / best[1]:,.0f}/s, "
          f"{cores} threads {len(rows) / best[cores]:,.0f}/s, {best[1] / best[cores]:.2f}x")
    if "--dask" in sys.argv:
        from distributed import Client, LocalCluster

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            with Client(cluster) as client:
                seconds, on_cluster = timed(rows, client=client)
        print(f"a local Dask cluster of 2 worker processes: {len(rows) / seconds:,.0f}/s, "
              f"the same table: {on_cluster.equals(table)}")


if __name__ == "__main__":
    main()
