"""Bench section "casino": a row per casino game (issue 40), each in a fresh process: the
import of the package, the first analysis (the game's shared tables built, its kernels loaded
from numba's cache, then the analysis: what a user's first ``casino analyze`` costs), and a pay
table edited in the same process (as the server and a sweep see it: only what the pays change
is computed). Wall and CPU seconds of each. Targets (2 cores): Three Card Poker, Let It Ride and
Mississippi Stud 1 s each, held to the first analysis and to the edit; Caribbean Stud 60 s and
Ultimate Texas Hold'em 15 min, held to the first analysis (their dealer counts are the whole
work). Each row also checks the exact published figure (house edge as a fraction, element of
risk, deals counted): a speed is worth nothing if the answer moved."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: (game, a pay edit for the second analysis, target seconds, the times it holds to)
ROWS = [
    ("three-card-poker", "straight=2", 1.0, ("first", "edit")),
    ("let-it-ride", "flush=7", 1.0, ("first", "edit")),
    ("mississippi-stud", "straight=5", 1.0, ("first", "edit")),
    ("caribbean-stud", "straight=5", 60.0, ("first",)),
    ("ultimate-texas-holdem", "flush=2", 900.0, ("first",)),   # bench_uth.py: CPU, Dask, exactness
]
#: the exact figures of optimal play: house edge, element of risk (rounded as published), deals
#: (Wizard of Odds: 3.37% / 2.01%; 3.51%; 4.91%; 5.224% / 2.555%; 2.185%, quoted 2.19%)
EXACT = {
    "three-card-poker": (Fraction(686_689, 20_358_520), "2.01%", 407_170_400),
    "let-it-ride": (Fraction(37_963, 1_082_900), None, 51_979_200),
    "mississippi-stud": (Fraction(53_223, 1_082_900), "1.37%", 155_937_600),
    "caribbean-stud": (Fraction(142_031_221, 2_718_662_100), "2.555%", 19_933_230_517_200),
    "ultimate-texas-holdem": (Fraction(50_643_648_973, 2_317_817_502_000), "0.53%", 27_813_810_024_000),
}
CHILD = """
import json, sys, time
w0 = time.perf_counter(); c0 = time.process_time()
from pipeline.casino.catalog import load_game
from pipeline.casino.play import analyze
w1 = time.perf_counter(); c1 = time.process_time()
a = analyze(load_game(sys.argv[1]))
w2 = time.perf_counter(); c2 = time.process_time()
b = analyze(load_game(sys.argv[1], [sys.argv[2]]))
w3 = time.perf_counter(); c3 = time.process_time()
print(json.dumps({"import": w1 - w0, "import_cpu": c1 - c0, "first": w2 - w1, "first_cpu": c2 - c1,
                  "edit": w3 - w2, "edit_cpu": c3 - c2, "edge": str(a.house_edge),
                  "risk": float(a.element_of_risk), "edited_edge": float(b.house_edge),
                  "combinations": a.combinations}))
"""


def run(report) -> None:  # type: ignore[no-untyped-def]
    """Time every game's analysis in a fresh process; check its exact figures."""
    import os

    report.head("casino: exact analysis per game (fresh process: import, first analysis, then a pay edit)")
    report.say(f"  load average {os.getloadavg()[0]:.1f}; seconds wall / CPU (CPU counts both threads)")
    report.say(f"  {'game':<22} {'house edge':>11} {'deals':>22} {'import':>11} {'first analysis':>15}"
               f" {'pay edit':>13}")
    for game, edit, target, held in ROWS:
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, "-c", CHILD, game, edit], capture_output=True, text=True,
                           cwd=ROOT, timeout=1800)
        if r.returncode != 0:
            report.say(f"  {game:<22} failed: {r.stderr.strip().splitlines()[-1:]}")
            report.target(f"{game} analysis runs", False, "the child process failed")
            continue
        got = json.loads(r.stdout)
        edge = Fraction(got["edge"])

        def pair(key: str) -> str:
            return f"{got[key]:.2f}/{got[key + '_cpu']:.2f}"

        report.say(f"  {game:<22} {float(edge):>10.4%} {got['combinations']:>22,} {pair('import'):>11}"
                   f" {pair('first'):>15} {pair('edit'):>13}   (process {time.perf_counter() - t0:.1f} s)")
        for key in ("import", "import_cpu", "first", "first_cpu", "edit", "edit_cpu"):
            report.value(f"{game}/{key}", got[key])
        report.value(f"{game}/edge", float(edge))
        for which in held:
            report.target(f"{game} {which} analysis <= {target:g} s", got[which] <= target,
                          f"{got[which]:.2f} s wall, {got[which + '_cpu']:.2f} s CPU")
        exact, risk, deals = EXACT[game]
        shown = f"{float(got['risk']):.{len(risk) - 3}%}" if risk else None
        report.target(f"{game} exact figures", edge == exact and shown == risk and got["combinations"] == deals,
                      f"house edge {edge}, element of risk {shown}, {got['combinations']:,} deals")
