"""Section ``scale`` of `make bench`: the Jacks or Better pay sweep on 1 vs 2 Dask workers.

The shipped sweep (``configs/sweeps/jacks-or-better.toml``, 180 variants) is solved three
ways: the local executor (in process, numba on every core), and a Dask ``LocalCluster`` of 1
and of 2 single-threaded worker processes (``NUMBA_NUM_THREADS=1`` each, so 2 workers = 2
cores). Each run is timed after a two-variant warm-up on the same executor (workers have loaded
the numba cache). Reported: seconds, ms per variant,
and the scaling ratio t(1 worker) / t(2 workers) (2.0 would be perfect on 2 cores). The rows
of all three runs must be identical (exact returns), checked here too.

Run alone: ``python bench/run.py scale``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SWEEP = ROOT / "configs" / "sweeps" / "jacks-or-better.toml"
#: target scaling ratio of 2 workers over 1 on a 2-core machine
TARGET_RATIO = 1.6


def _classes(deck: int) -> Any:
    from pipeline.videopoker.solver.deals import deal_classes, read_classes

    p = ROOT / "artifacts" / "vp_classes.h5"
    return read_classes(p, deck) if p.exists() else deal_classes(deck)


def _warm(sweep: Any, ex: Any) -> None:
    """Two variants: load the numba cache (and the scattered counts) before timing."""
    from dataclasses import replace

    axes = tuple(replace(a, values=a.values[:1]) for a in sweep.axes)
    axes = (replace(axes[0], values=sweep.axes[0].values[:2]),) + axes[1:]
    _timed(replace(sweep, axes=axes), ex)


def _timed(sweep: Any, ex: Any) -> tuple[float, list[Any]]:
    from pipeline.videopoker.tools.sweep import solve_sweep

    t0 = time.perf_counter()
    rows = solve_sweep(sweep, _classes, ex)
    return time.perf_counter() - t0, [c for _, c in rows]


def run(report: Any) -> None:
    """Time the sweep locally and on 1 and 2 Dask workers."""
    report.head("scale: paytable sweep on Dask workers")
    try:
        from distributed import LocalCluster
    except ImportError:
        report.say("  (dask/distributed not installed: section skipped)")
        return
    from pipeline.build.executor import DaskExecutor, LocalExecutor
    from pipeline.videopoker.tools.sweep import load_sweep

    sweep = load_sweep(SWEEP)
    n = len(sweep.variants())
    ex = LocalExecutor()
    _warm(sweep, ex)
    local_s, local_rows = _timed(sweep, ex)
    report.value("local_s", local_s, f"  local executor: {n} variants in {local_s:.2f} s "
                                     f"({1000 * local_s / n:.1f} ms per variant)")
    times: dict[int, float] = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, processes=True, threads_per_worker=1,
                          dashboard_address=None, env={"NUMBA_NUM_THREADS": "1"}) as cluster, \
                DaskExecutor(scheduler=cluster.scheduler_address) as dex:
            _warm(sweep, dex)
            secs, rows = _timed(sweep, dex)
        if rows != local_rows:
            raise AssertionError(f"{workers} worker(s): sweep results differ from the local run")
        times[workers] = secs
        report.value(f"dask{workers}_s", secs,
                     f"  dask, {workers} worker(s) x 1 thread: {secs:.2f} s "
                     f"({1000 * secs / n:.1f} ms per variant)")
    ratio = times[1] / times[2]
    report.value("ratio", ratio, f"  scaling 1 -> 2 workers: {ratio:.2f}x (results identical)")
    report.value("ms_per_variant", 1000 * times[2] / n)
    report.target(f"2 workers >= {TARGET_RATIO}x one worker", ratio >= TARGET_RATIO, f"{ratio:.2f}x")


