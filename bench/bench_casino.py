"""Bench section "casino": a row per casino game (issue 40): the exact analysis's time, cold (a
fresh process: the game's shared tables are built and its kernels loaded, then the analysis) and
warm (a pay table edited in the same process, as the server and a sweep see it: only what the
pays change is computed), with the issue's targets (Three Card Poker, Let It Ride and Mississippi
Stud 1 s each, Caribbean Stud 60 s, on 2 cores). The warm time is the one held to the target for
the small games, the cold one for Caribbean Stud (its dealer counts are the whole work)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: (game, a pay edit for the warm run, target seconds, which time the target applies to)
ROWS = [
    ("three-card-poker", "straight=2", 1.0, "warm"),
    ("let-it-ride", "flush=7", 1.0, "warm"),
    ("mississippi-stud", "straight=5", 1.0, "warm"),
    ("caribbean-stud", "straight=5", 60.0, "cold"),
    ("ultimate-texas-holdem", "flush=2", 900.0, "cold"),   # bench_uth.py: CPU, Dask, exactness
]
CHILD = """
import json, sys, time
t0 = time.perf_counter(); c0 = time.process_time()
from pipeline.casino.catalog import load_game
from pipeline.casino.play import analyze
a = analyze(load_game(sys.argv[1]))
cold, cpu = time.perf_counter() - t0, time.process_time() - c0
t1 = time.perf_counter(); c1 = time.process_time()
b = analyze(load_game(sys.argv[1], [sys.argv[2]]))
print(json.dumps({"cold": cold, "cold_cpu": cpu, "warm": time.perf_counter() - t1,
                  "warm_cpu": time.process_time() - c1,
                  "edge": float(a.house_edge), "edited_edge": float(b.house_edge),
                  "combinations": a.combinations}))
"""


def run(report) -> None:
    """Time every game's analysis in a fresh process."""
    report.head("casino: exact analysis per game (cold: fresh process; warm: a pay edit after it)")
    report.say(f"  {'game':<22} {'house edge':>11} {'deals':>22} {'cold s':>8} {'cold CPU s':>11} {'warm s':>8}"
               f" {'warm CPU s':>11}")
    for game, edit, target, which in ROWS:
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, "-c", CHILD, game, edit], capture_output=True, text=True,
                           cwd=ROOT, timeout=1800)
        if r.returncode != 0:
            report.say(f"  {game:<22} failed: {r.stderr.strip().splitlines()[-1:]}")
            continue
        got = json.loads(r.stdout)
        report.say(f"  {game:<22} {got['edge']:>10.4%} {got['combinations']:>22,} {got['cold']:>8.2f} "
                   f"{got['cold_cpu']:>11.2f} {got['warm']:>8.2f} {got['warm_cpu']:>11.2f}"
                   f"   (process {time.perf_counter() - t0:.1f} s)")
        for key in ("cold", "cold_cpu", "warm", "warm_cpu", "edge"):
            report.value(f"{game}/{key}", got[key])
        report.target(f"{game} analysis <= {target:g} s ({which})", got[which] <= target,
                      f"{got[which]:.2f} s")
