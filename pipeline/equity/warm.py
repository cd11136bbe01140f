"""The query kernels compiled ahead (``pokertables warm``, the end of ``make tables``), across
the cores: one question of each kind the engine answers differently, in groups whose kernels
do not overlap, each group run by a worker process. numba's on-disk cache is shared, so what a
worker compiles every later process loads (a kernel already cached is loaded, not compiled).

A warm that finished leaves a stamp (:data:`STAMP`): the sources' fingerprint, the numba and
Python versions, the cache folder and the cache index files there were. While all of those
are unchanged, a second ``make tables`` has nothing to compile and nothing to load, and warm
returns after checking the stamp (milliseconds) instead of starting workers that would only
load the cached kernels again (seconds).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from pipeline.equity.question import Question as EquityQuestion


class Ask(NamedTuple):
    """One warm question: hero, the other seats, random opponents, board, Monte Carlo samples
    (None: exact), the game (:data:`pipeline.equity.games.spec.GAME_NAMES`) and dead cards.
    ``BREAKDOWN`` and ``HITS`` stand for the per-class breakdown and the hit counter."""

    hero: str
    vs: tuple[str, ...] = ()
    opponents: int | None = None
    board: str = ""
    samples: int | None = None
    game: str = "holdem"
    dead: str = ""


#: A warm question: an :class:`Ask` or one of the named kinds below.
WarmQuestion = Ask | str
BREAKDOWN = "breakdown"
HITS = "hits"
#: Monte Carlo deals of a warm question (enough to run every kernel of the kind once).
MC = 1000

#: The questions in groups that share no kernel, each with the CPU seconds its kernels took to
#: compile with a cold cache (bench/compile_times.py, AMD EPYC; only the ratios matter: they
#: decide which worker takes which group). Questions that share a big kernel sit in one group,
#: so no two workers compile it (nor write its cache index) at once. Small shared kernels are not
#: kept apart: groups 2-4 share the orbit weights, the unranking and the score sort, groups 0
#: and 1 the random generator's seeding (about 3 CPU s in all, compiled by both workers when the
#: groups land on different ones: keeping them together would unbalance the two workers more).
WARM_GROUPS: tuple[tuple[float, tuple[WarmQuestion, ...]], ...] = (
    # the other games (pipeline.equity.games): one exact kernel and one Monte Carlo kernel for
    # all, Omaha and Omaha hi-lo Monte Carlo their own; a Monte Carlo and an exact spot of each
    # game (tests/test_warm.py checks each is answered the way it says)
    (27.6, (Ask("AsAdKsKd", ("QhQdJhTd",), None, "Qs7h2d", None, "omaha"),
            Ask("AsAdKsKd", ("AAxx!AAAx",), None, "", MC, "omaha"),
            Ask("AsAdKcQdJc", ("Th9h8c7c6d",), None, "Ks8h2d", None, "omaha5"),
            Ask("AsAdKcQdJc", ("Th9h8c7c6d",), None, "", MC, "omaha5"),
            Ask("AsAdKsKdQhJh", ("Tc9c8d7d6s5s",), None, "Qs7h2d", None, "omaha6"),
            Ask("AsAdKsKdQhJh", (), 1, "", MC, "omaha6"),
            Ask("As2s3dKd", ("AhKhQcJc",), None, "4c5hTd", None, "omaha-hi-lo"),
            Ask("As2s3dKd", ("AAxx",), None, "4c5hTd", MC, "omaha-hi-lo"),
            Ask("AsKs", ("QhQd",), None, "9cTc6h", None, "short-deck"),
            Ask("AsKs", ("QQ+,AK",), None, "", MC, "short-deck"),
            Ask("AsAdKc9h7s2d", ("QhJhTh8h",), None, "", None, "stud", "Ah4h3s"),
            Ask("AsAd3c", ("Kh",), None, "", MC, "stud"),
            Ask("As2d3c6h9s9d", ("KhQhJh5c",), None, "", None, "stud-hi-lo", "7h4s"),
            Ask("As2d3c", ("Kh",), None, "", MC, "stud-hi-lo"),
            Ask("As2d3c6hKd8c", ("4c5c7dQh",), None, "", None, "razz"),
            Ask("As2d3c", ("4c",), None, "", MC, "razz"))),
    (19.2, (Ask("AsKs", (), 3, "2c7h8h", MC),                 # Monte Carlo, fixed hands
            Ask("QQ+", ("AK", "random"), None, "", MC))),      # Monte Carlo, ranges
    (7.3, (Ask("AsAc", (), 1, "6d9d2h"),                      # hand vs random: orbit counting
           Ask("AsAc", (), 2, "6d9d2hKc"))),                  # vs 2 random: inclusion-exclusion
    (4.0, (Ask("KK", ("AK", "QJs"), None, "Kd9s4c2h"),        # ranges, serial kernel
           Ask("JJ+,AK", ("22+,A2s+,KTs+",), None, "2c4c5h"),  # ranges, parallel kernel
           BREAKDOWN)),                                       # per-class breakdown
    (4.8, (Ask("AK", ("QQ", "random"), None, "Ks9d4c"),)),    # ranges + one random seat
    (1.1, (HITS,)),                                           # the hit counter
    (1.9, (Ask("AsKs", ("QdQc",)),                            # two hands preflop (a table read)
           Ask("AsKs", ("QdQc", "JhTh")),                     # face-up hands: rank-first walk
           Ask("AsKs", (), 2),                                # vs random preflop (a table read)
           Ask("AK", ("QQ",), None, "Ks9d4c"))),              # small heads-up spot (numpy)
)


def parsed(q: Ask) -> EquityQuestion:
    """``q`` as the engine's question (Monte Carlo ones seeded, so every run deals the same)."""
    from pipeline.equity.question import Question

    return Question.parse(q.hero, list(q.vs), q.opponents, q.board, q.dead, game=q.game,
                          samples=q.samples, seed=0 if q.samples else None)


def game_questions() -> list[Ask]:
    """Warm's questions of the games other than hold'em (what ``pokertables serve`` asks at
    start, so its first request of a game loads no kernel)."""
    return [q for _, qs in WARM_GROUPS for q in qs if isinstance(q, Ask) and q.game != "holdem"]


PACKAGE = Path(__file__).resolve().parent.parent
#: where a finished warm leaves its stamp (next to Python's byte-code caches)
STAMP = Path(__file__).resolve().parent / "__pycache__" / "warm_stamp.json"


@dataclass
class WarmReport:
    """What warming did: wall seconds, numba compile seconds (summed over the workers) and
    specializations compiled per kernel, questions skipped for want of a table, workers."""

    seconds: float = 0.0
    compile_seconds: float = 0.0
    compiled: dict[str, int] = field(default_factory=dict)
    kernel_seconds: dict[str, float] = field(default_factory=dict)
    skipped: int = 0
    workers: int = 1
    #: nothing was run: the stamp says every kernel is compiled for these sources
    up_to_date: bool = False


def split(groups: tuple[tuple[float, tuple[WarmQuestion, ...]], ...], workers: int
          ) -> list[list[WarmQuestion]]:
    """The groups dealt to ``workers`` lists, largest first to the least loaded (so the
    slowest worker finishes about when the others do); each worker then asks its groups
    smallest first. Beside the build, warm starts before the preflop tables exist, so the
    smallest group's two-hands question computes its count with the kernel the build's
    ``preflop_matchups`` stage compiles (``headsup_preflop``, about 4 CPU s): asked first,
    it is cached long before the build gets there and loads it (asked last, the two
    processes compiled it at about the same time)."""
    loads = [0.0] * workers
    dealt: list[list[tuple[float, tuple[WarmQuestion, ...]]]] = [[] for _ in range(workers)]
    for cost, questions in sorted(groups, key=lambda g: -g[0]):
        w = loads.index(min(loads))
        loads[w] += cost
        dealt[w].append((cost, questions))
    return [[q for _, qs in reversed(part) for q in qs] for part in dealt if part]


def warm_here(artifacts: str, questions: list[WarmQuestion]
              ) -> tuple[int, float, dict[str, int], dict[str, float]]:
    """Ask ``questions`` in this process (a worker): (questions skipped because a table they
    read is missing, compile seconds, specializations compiled and seconds per kernel)."""
    from pipeline.core.cards import parse_cards
    from pipeline.core.jit_clock import CompileClock
    from pipeline.equity.breakdown import equity_breakdown
    from pipeline.equity.planner import solve
    from pipeline.equity.ranges.hits import range_hits
    from pipeline.equity.ranges.parse import parse_range
    from pipeline.errors import ArtifactError
    from pipeline.query.tables import Tables

    tables = Tables(artifacts)
    skipped = 0
    with CompileClock() as clock:
        for q in questions:
            try:
                if isinstance(q, str):
                    if q == BREAKDOWN:
                        equity_breakdown(tables, "AK", ["QQ"], board="Ks9d4c")
                    else:  # HITS
                        range_hits(parse_range("AK,QQ,JTs"), parse_cards("Ks9d4c"), [],
                                   tables.eval_tables())
                else:
                    solve(parsed(q), tables)
            except ArtifactError:
                skipped += 1  # a table this kind of question reads is not built
    return skipped, clock.total, dict(clock.compiles), dict(clock.seconds)


def _cache_indexes() -> list[str]:
    """numba's cache index files of the package's kernels, where this process's numba keeps
    them (the digest folder under ``NUMBA_CACHE_DIR`` holds only this package's caches; where
    no cache folder was writable, the ``__pycache__`` folders)."""
    root = os.environ.get("NUMBA_CACHE_DIR")
    return sorted(str(p) for p in Path(root or PACKAGE).rglob("*.nbi"))


def _state(artifacts: Path) -> dict[str, object]:
    """What the compiled kernels depend on, as the stamp records it (without the index list):
    the sources' digest is the one that names numba's cache folder."""
    from importlib.metadata import version

    from pipeline.core.kernel_cache import source_digest

    # the evaluator's tables decide which questions run (a missing table skips some)
    tables = sorted(p.name for p in artifacts.glob("*.h5")) if artifacts.is_dir() else []
    return {"sources": source_digest(), "numba": version("numba"), "python": sys.version,
            "cache_dir": os.environ.get("NUMBA_CACHE_DIR", ""), "tables": tables}


def is_warm(artifacts: Path) -> bool:
    """Whether a finished warm's stamp matches: same sources, versions, cache folder and
    tables, and every cache index it saw is still there."""
    try:
        stamp = json.loads(STAMP.read_text())
    except (OSError, ValueError):
        return False
    if not isinstance(stamp, dict) or stamp.get("state") != _state(artifacts):
        return False
    indexes = stamp.get("indexes")
    return isinstance(indexes, list) and bool(indexes) and all(os.path.exists(p) for p in indexes)


def _write_stamp(artifacts: Path) -> None:
    try:
        STAMP.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=STAMP.parent, prefix=".warm-", suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump({"state": _state(artifacts), "indexes": _cache_indexes()}, f)
        os.replace(tmp, STAMP)
    except OSError:
        pass  # a read-only install: warm checks by loading the kernels next time


def warm(artifacts: Path, workers: int | None = None, force: bool = False) -> WarmReport:
    """Compile (or load from numba's cache) every query kernel, the groups of
    :data:`WARM_GROUPS` spread over ``workers`` processes (default: one per core, at most one
    per group); nothing when :func:`is_warm` (unless ``force``). Needs the evaluator's tables
    (:class:`pipeline.errors.ArtifactError` if not built)."""
    from pipeline.core.kernel_cache import prune_stale
    from pipeline.query.tables import Tables

    t0 = time.perf_counter()
    artifacts = Path(artifacts)
    prune_stale()  # the caches of sources that are gone
    if not force and is_warm(artifacts):
        return WarmReport(seconds=time.perf_counter() - t0, workers=0, up_to_date=True)
    Tables(artifacts).eval_tables()  # fails at once, before any worker starts, if not built
    n = max(1, min(workers or os.cpu_count() or 1, len(WARM_GROUPS)))
    parts = split(WARM_GROUPS, n)
    report = WarmReport(workers=len(parts))
    results = None
    if len(parts) > 1:
        try:
            # spawn, not fork: a forked copy of a process that already started threads can hang
            with ProcessPoolExecutor(len(parts), mp_context=get_context("spawn")) as pool:
                results = list(pool.map(warm_here, [str(artifacts)] * len(parts), parts))
        except (OSError, BrokenProcessPool):
            results = None  # no worker processes here (a sandbox without semaphores): one process
    if results is None:
        report.workers = 1
        results = [warm_here(str(artifacts), [q for part in parts for q in part])]
    for skipped, seconds, compiled, kernel_seconds in results:
        report.skipped += skipped
        report.compile_seconds += seconds
        for k, c in compiled.items():
            report.compiled[k] = report.compiled.get(k, 0) + c
        for k, s in kernel_seconds.items():
            report.kernel_seconds[k] = report.kernel_seconds.get(k, 0.0) + s
    if not report.skipped:
        _write_stamp(artifacts)
    report.seconds = time.perf_counter() - t0
    return report
