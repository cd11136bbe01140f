"""Section ``startup`` of `make bench`: what a fresh process pays before its first answer, with
numba's cache warm (issue 33).

* ``pokertables eval "As Ks Qs Js Ts"`` and ``pokertables equity AsKs --vs QhQd`` (a preflop
  table read): wall seconds per call, median of ``RUNS``, and the CPU seconds of the same runs;
* the first exact range question of a fresh Python process (``equity_seats(Tables(...),
  "QQ+,AKs", vs=["JJ-88"], board="2c 4c 5h")``, imports included) minus the same question asked
  again in that process; the child reports its own phases' CPU (numpy, h5py, the engine, the
  question) and whether numba was loaded (a small heads-up spot is counted in numpy).

Wall times on a loaded machine are longer than CPU times: the load average is printed with them.
Targets (issue 33): eval <= 0.3 s, equity table read <= 0.5 s, first question <= 0.2 s above the
in-process time.

Run alone: ``python bench/run.py startup``.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ARTIFACTS = ROOT / "artifacts"
#: runs per measurement (the median is reported)
RUNS = 5
EVAL_TARGET_S = 0.3
TABLE_READ_TARGET_S = 0.5
FIRST_QUESTION_TARGET_S = 0.2

#: the child process of the first-question measurement: prints its phases as JSON
CHILD = """
import json, time
P, W = time.process_time, time.perf_counter
w0, marks = W(), []
def mark(name): marks.append((name, P()))
mark("start")
import numpy; mark("numpy")
import pipeline; mark("pipeline")
from pipeline import Tables; import pipeline.query.tables; mark("tables (h5py)")
from pipeline.equity.engine import equity_seats; mark("engine")
ask = lambda: equity_seats(Tables({artifacts!r}), "QQ+,AKs", vs=["JJ-88"], board="2c 4c 5h")
ask(); mark("question")
first = W() - w0
again = []
for _ in range(3):
    t = W(); ask(); again.append(W() - t)
phases = {{b: p1 - p0 for (a, p0), (b, p1) in zip(marks, marks[1:])}}
import sys
print(json.dumps({{"first": first, "again": sorted(again)[1], "phases": phases,
                  "numba": "numba" in sys.modules}}))
"""


def _timed(cmd: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, r.stdout


def _cli(args: list[str]) -> tuple[float, float]:
    """Median wall and CPU seconds of ``pokertables args`` (after one warm-up run)."""
    exe = [str(Path(sys.executable).with_name("pokertables")), "-a", str(ARTIFACTS), *args]
    _timed(exe)
    runs = [_timed(exe)[:2] for _ in range(RUNS)]
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def run(report: Any) -> None:
    """Measure the three start-up costs and check them against issue 33's targets."""
    report.head("startup (fresh processes, numba cache warm)")
    load = os.getloadavg()
    report.say(f"  load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} core(s)")
    for key, args, target in (("eval", ["eval", "As Ks Qs Js Ts"], EVAL_TARGET_S),
                              ("table_read", ["equity", "AsKs", "--vs", "QhQd"], TABLE_READ_TARGET_S)):
        wall, cpu = _cli(args)
        report.value(f"{key}_s", wall, f"  pokertables {' '.join(args)}: {wall:.3f} s wall, "
                                       f"{cpu:.3f} s CPU (median of {RUNS})")
        report.target(f"pokertables {args[0]} <= {target} s", wall <= target, f"{wall:.3f} s")
    child = [sys.executable, "-c", CHILD.format(artifacts=str(ARTIFACTS))]
    _timed(child)  # compiles what a cold cache lacks
    runs = [json.loads(_timed(child)[2]) for _ in range(RUNS)]
    above = statistics.median(r["first"] - r["again"] for r in runs)
    phases = {k: statistics.median(r["phases"][k] for r in runs) for k in runs[0]["phases"]}
    report.value("first_question_above_s", above,
                 f"  first exact range question of a fresh process: {above:.3f} s above its "
                 f"in-process time ({statistics.median(r['again'] for r in runs) * 1e3:.1f} ms)")
    numba = "loaded" if any(r["numba"] for r in runs) else "not loaded"
    report.value("first_question_phases_cpu_s", phases, "  CPU by phase: " + ", ".join(
        f"{k} {v * 1e3:.0f} ms" for k, v in phases.items()) + f" (numba {numba})")
    report.target(f"first exact range question <= {FIRST_QUESTION_TARGET_S} s above in-process",
                  above <= FIRST_QUESTION_TARGET_S, f"{above:.3f} s")
