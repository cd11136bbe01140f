"""Trust section (issue 10): the integrity checks must stay cheap.

Targets: ``pokertables verify`` (full: re-hash, content invariants, shipped digests) under 5 s
and ``verify --quick`` under 2 s on the built default artifacts; a no-op ``pokertables build``
(what ``make tables`` runs when nothing changed) under 3 s. Each is the wall time of the real
command in a fresh process (imports included), best of a few runs with a warm page cache.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 3
TARGETS = {"verify": 5.0, "verify --quick": 2.0, "build (no-op)": 3.0}
COMMANDS = {"verify": ["verify", "--json"], "verify --quick": ["verify", "--quick", "--json"],
            "build (no-op)": ["build", "--json"]}


def _wall(args: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=ROOT, capture_output=True, text=True,
                       check=False)
    return time.perf_counter() - t0, r


def run(report) -> None:  # type: ignore[no-untyped-def]
    """Measure verify, verify --quick and a no-op build against their targets."""
    report.head("trust: verify and no-op build (issue 10)")
    _wall(["build"])  # bring the artifacts up to date first: the no-op case is what is measured
    for name, args in COMMANDS.items():
        best, last = min((_wall(args) for _ in range(RUNS)), key=lambda x: x[0])
        ok_run = last.returncode == 0
        report.value(name, round(best, 3), f"  {name:<16} {best:6.2f} s (best of {RUNS}"
                     f"{'' if ok_run else f', exit {last.returncode}'})")
        report.target(f"{name} < {TARGETS[name]:g} s", ok_run and best < TARGETS[name],
                      f"{best:.2f} s" + ("" if ok_run else f" (exit {last.returncode}: {last.stderr[-200:]})"))
