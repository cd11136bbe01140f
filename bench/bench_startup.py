"""Section ``startup`` of `make bench`: what a fresh process pays before its first answer, with
numba's cache warm (issue 33).

* ``pokertables eval "As Ks Qs Js Ts"`` and ``pokertables equity AsKs --vs QhQd`` (a preflop
  table read): wall seconds per call, median of ``RUNS``, and the CPU seconds of the same runs;
* the first exact range question of a fresh Python process (``equity_seats(Tables(...),
  "QQ+,AKs", vs=["JJ-88"], board="2c 4c 5h")``, imports included) minus the same question asked
  again in that process; the child reports its own phases' CPU (numpy, h5py, the engine, the
  question) and whether numba was loaded (a small heads-up spot is counted in numpy).

* (issue 39) the first question of each game, a Monte Carlo spot and an exact spot each (spots
  that ``pokertables warm`` does not ask itself): through the CLI, the first run minus the same
  command run again (median of ``AGAIN`` runs); over HTTP, from a freshly started ``pokertables
  serve``, the first request minus the same request again; with the engine's own seconds.

Wall times on a loaded machine are longer than CPU times: the load average is printed with them.
Targets (issue 33): eval <= 0.3 s, equity table read <= 0.5 s, first question <= 0.2 s above the
in-process time; (issue 39) each game's first question <= 0.5 s above the second through the
CLI, <= 0.3 s over HTTP for a spot the engine answers in <= 0.1 s.

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
GAME_CLI_TARGET_S = 0.5
GAME_HTTP_TARGET_S = 0.3
#: the HTTP target holds for spots the engine answers within this
GAME_HTTP_ENGINE_S = 0.1
#: runs of "the same command again" (the median is reported)
AGAIN = 2
#: (game, kind, hero, other seats, board, dead cards, Monte Carlo samples or None): spots other
#: than the ones ``pokertables warm`` asks (pipeline/equity/warm.py), so nothing is answered
#: from what warm left behind but the compiled kernels
GAME_SPOTS: tuple[tuple[str, str, str, tuple[str, ...], str, str, int | None], ...] = (
    ("holdem", "mc", "AhKh", ("QQ", "random"), "2d7s9c", "", 20_000),
    ("holdem", "exact", "AhKh", ("QsQc",), "2d7s9c", "", None),
    ("short-deck", "mc", "AhKh", ("JJ+",), "", "", 20_000),
    ("short-deck", "exact", "AhKh", ("QsQc",), "9d7s6c", "", None),
    ("omaha", "mc", "AhAcKhKc", ("QQxx",), "", "", 20_000),
    ("omaha", "exact", "AhAcKhKc", ("QsQcJsTc",), "9d7s2c", "", None),
    ("omaha5", "mc", "AhAcKhKcQd", ("JsJdTs9d8c",), "", "", 20_000),
    ("omaha5", "exact", "AhAcKhKcQd", ("JsJdTs9d8c",), "9h7s2c", "", None),
    ("omaha6", "mc", "AhAcKhKcQdJd", ("Ts9s8d7d6c5c",), "", "", 20_000),
    ("omaha6", "exact", "AhAcKhKcQdJd", ("Ts9s8d7d6c5c",), "9h7s2c", "", None),
    ("omaha-hi-lo", "mc", "Ah2h3cKc", ("AAxx",), "4d5sTc", "", 20_000),
    ("omaha-hi-lo", "exact", "Ah2h3cKc", ("AsKsQdJd",), "4d5sTc", "", None),
    ("stud", "mc", "AhAc3d", ("Ks",), "", "", 20_000),
    ("stud", "exact", "AhAcKd9s7h2c", ("QsJsTs8s",), "", "Ad4s3h", None),
    ("stud-hi-lo", "mc", "Ah2c3d", ("Ks",), "", "", 20_000),
    ("stud-hi-lo", "exact", "Ah2c3d6s9h9c", ("KsQsJs5d",), "", "7s4h", None),
    ("razz", "mc", "Ah2c3d", ("4d",), "", "", 20_000),
    ("razz", "exact", "Ah2c3d6sKc8d", ("4d5d7cQs",), "", "", None),
)

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


def _cli(args: list[str]) -> tuple[float, float, float]:
    """Median wall, median CPU and least wall seconds of ``pokertables args`` (after one warm-up
    run): on a shared machine the least is the closest to what an idle one would show."""
    exe = [str(Path(sys.executable).with_name("pokertables")), "-a", str(ARTIFACTS), *args]
    _timed(exe)
    runs = [_timed(exe)[:2] for _ in range(RUNS)]
    return (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs),
            min(w for w, _ in runs))


def _game_args(spot: tuple[str, str, str, tuple[str, ...], str, str, int | None]) -> list[str]:
    """The CLI arguments of one of :data:`GAME_SPOTS`."""
    game, _, hero, vs, board, dead, samples = spot
    args = ["equity", hero, "--game", game]
    for v in vs:
        args += ["-n", "1"] if v == "random" else ["--vs", v]
    args += ["-b", board] if board else []
    args += ["--dead", dead] if dead else []
    args += ["--samples", str(samples), "--seed", "1"] if samples else []
    return args


def _game_body(spot: tuple[str, str, str, tuple[str, ...], str, str, int | None]) -> dict[str, Any]:
    """The ``/api/equity`` body of one of :data:`GAME_SPOTS`."""
    game, _, hero, vs, board, dead, samples = spot
    body: dict[str, Any] = {"hero": hero, "game": game, "vs": [v for v in vs if v != "random"]}
    if "random" in vs:
        body["opponents"] = vs.count("random")
    body.update({k: v for k, v in (("board", board), ("dead", dead)) if v})
    if samples:
        body.update(samples=samples, seed=1)
    return body


def _games(report: Any) -> None:
    """Each game's first question through the CLI and over HTTP, against the same again."""
    from bench_serve import Conn, _free_port, _start

    exe = [str(Path(sys.executable).with_name("pokertables")), "-a", str(ARTIFACTS)]
    cli: list[tuple[float, float]] = []
    for spot in GAME_SPOTS:
        first = _timed([*exe, *_game_args(spot)])[0]
        again = statistics.median(_timed([*exe, *_game_args(spot)])[0] for _ in range(AGAIN))
        cli.append((first, again))
    port = _free_port()
    t0 = time.perf_counter()
    server = _start(port)
    started = time.perf_counter() - t0
    http: list[tuple[float, float, float]] = []
    try:
        conn = Conn(port)
        for spot in GAME_SPOTS:
            times, engine = [], 0.0
            for _ in range(1 + AGAIN):
                t = time.perf_counter()
                status, answer = conn.post("/api/equity", _game_body(spot))
                times.append(time.perf_counter() - t)
                if status != 200:
                    raise RuntimeError(f"/api/equity {_game_body(spot)}: {status} {answer}")
                engine = float(answer.get("seconds", 0.0))
            http.append((times[0], statistics.median(times[1:]), engine))
        conn.close()
    finally:
        server.terminate()
        server.wait(timeout=60)
    report.say(f"  each game's first question (server started in {started:.1f} s); seconds, "
               f"first run / again / first - again")
    report.say(f"  {'game':<12} {'spot':<6} {'CLI':>24} {'HTTP':>24} {'engine':>8}")
    worst_cli, worst_http = 0.0, 0.0
    for spot, (cf, ca), (hf, ha, eng) in zip(GAME_SPOTS, cli, http):
        worst_cli = max(worst_cli, cf - ca)
        if eng <= GAME_HTTP_ENGINE_S:
            worst_http = max(worst_http, hf - ha)
        report.say(f"  {spot[0]:<12} {spot[1]:<6} {cf:7.3f} {ca:7.3f} {cf - ca:+7.3f}  "
                   f"{hf:7.3f} {ha:7.3f} {hf - ha:+7.3f} {eng:8.3f}")
        report.value(f"game_first/{spot[0]}/{spot[1]}",
                     {"cli_first_s": cf, "cli_again_s": ca, "http_first_s": hf, "http_again_s": ha,
                      "engine_s": eng})
    report.target(f"every game's first question <= {GAME_CLI_TARGET_S} s above again (CLI)",
                  worst_cli <= GAME_CLI_TARGET_S, f"worst {worst_cli:+.3f} s")
    report.target(f"every game's first question <= {GAME_HTTP_TARGET_S} s above again (HTTP, "
                  f"engine <= {GAME_HTTP_ENGINE_S} s)", worst_http <= GAME_HTTP_TARGET_S,
                  f"worst {worst_http:+.3f} s")


def run(report: Any) -> None:
    """Measure the start-up costs and check them against issue 33's and 39's targets."""
    report.head("startup (fresh processes, numba cache warm)")
    load = os.getloadavg()
    report.say(f"  load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} core(s)")
    for key, args, target in (("eval", ["eval", "As Ks Qs Js Ts"], EVAL_TARGET_S),
                              ("table_read", ["equity", "AsKs", "--vs", "QhQd"], TABLE_READ_TARGET_S)):
        wall, cpu, least = _cli(args)
        report.value(f"{key}_s", wall, f"  pokertables {' '.join(args)}: {wall:.3f} s wall, "
                                       f"{cpu:.3f} s CPU (median of {RUNS}; least wall {least:.3f} s)")
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
    _games(report)
