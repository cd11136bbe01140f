"""``pokertables warm``: compile the query kernels once, so the first real query answers at once.

Numba compiles a kernel on its first call and caches the machine code next to the module
(``__pycache__``); a fresh clone has no cache, so its first postflop or Monte Carlo query would
sit silent for 15-20 s. ``make tables`` ends with this command. A query that still has to
compile says so on stderr (:func:`announce_compile`).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import typer

from pipeline.cli.app import app, artifacts_dir

#: The equity kernels' modules: a query compiles when one of them has no cache index yet.
EQUITY_KERNEL_MODULES = ("exactcount", "enumerate", "rangeexact", "rangerandom", "montecarlo",
                         "mcfixed", "omaha", "breakdown", "allhands", "headsup_preflop")
#: One question of each kind the equity engine answers differently (hero, vs, -n, board).
WARM_QUESTIONS: tuple[tuple[str, tuple[str, ...], int | None, str, int | None], ...] = (
    ("AsKs", ("QdQc",), None, "", None),                  # two hands preflop
    ("AsKs", ("QdQc", "JhTh"), None, "", None),           # face-up hands: rank-first walk
    ("AsAc", (), 1, "6d9d2h", None),                      # hand vs random: orbit counting
    ("AsAc", (), 2, "6d9d2hKc", None),                    # vs 2 random: inclusion-exclusion
    ("KK", ("AK", "QJs"), None, "Kd9s4c2h", None),        # ranges, serial kernel
    ("QQ+,AKs", ("A2s+",), None, "2c4c5h", None),         # ranges, parallel kernel
    ("AK", ("QQ", "random"), None, "Ks9d4c", None),       # ranges + one random seat
    ("AsKs", (), 3, "2c7h8h", 1000),                      # Monte Carlo, fixed hands
    ("QQ+", ("AK", "random"), None, "", 1000),            # Monte Carlo, ranges
    ("AsAdKsKd", (), 1, "2c7h9sQd3c", None),              # Omaha river, exact
    ("AsAdKsKd", (), 2, "2c7h9s", 1000),                  # Omaha, Monte Carlo
)


def _cache_dirs(module_file: Path) -> list[Path]:
    """Where numba keeps a module's cache: NUMBA_CACHE_DIR's mirror of the path, or __pycache__."""
    root = os.environ.get("NUMBA_CACHE_DIR")
    if root:
        return [Path(root) / module_file.parent.resolve().relative_to("/")]
    return [module_file.parent / "__pycache__"]


def cold_modules(package_file: str, modules: tuple[str, ...]) -> list[str]:
    """The modules of the package (``__file__`` of one of its modules) with no numba cache index."""
    here = Path(package_file).resolve().parent
    cold = []
    for m in modules:
        dirs = _cache_dirs(here / f"{m}.py")
        if not any(d.is_dir() and any(d.glob(f"{m}.*.nbi")) for d in dirs):
            cold.append(m)
    return cold


def announce_compile() -> None:
    """Say on stderr when the equity kernels are not compiled yet (a fresh clone before
    ``make tables``): the first answer then takes seconds of compiling. Called by the CLI's
    progress callback, so only for a terminal and only once the question is known to be valid
    (a bad input still gets its one ``error:`` line, and piped output stays the same warm or
    cold)."""
    import pipeline.equity.engine as engine

    if cold_modules(engine.__file__, EQUITY_KERNEL_MODULES):
        print("compiling the equity kernels for their first use (once, about 20 s; "
              "`make tables` or `pokertables warm` does it ahead)", file=sys.stderr)


@app.command("warm")
def warm_cmd() -> None:
    """Compile the query kernels now (``make tables`` runs this last), so the first query of
    each kind answers in about a second instead of compiling for 15-20 s."""
    from pipeline.core.cards import parse_cards
    from pipeline.equity.breakdown import equity_breakdown
    from pipeline.equity.engine import equity_seats
    from pipeline.equity.hits import range_hits
    from pipeline.equity.ranges import parse_range
    from pipeline.errors import ArtifactError
    from pipeline.query.tables import Tables

    t0 = time.perf_counter()
    tables = Tables(artifacts_dir())
    skipped = 0
    try:
        tables.eval_tables()
    except ArtifactError as exc:
        # a partial build (make tables STAGES=...): nothing the engine can run yet
        typer.echo(f"warm: skipped, the equity engine needs the evaluator's tables ({exc})")
        return
    for hero, vs, n, board, samples in WARM_QUESTIONS:
        try:
            equity_seats(tables, hero, list(vs), opponents=n, board=board, samples=samples,
                         seed=0 if samples else None)
        except ArtifactError:
            skipped += 1  # a table this kind of question reads is not built
    equity_breakdown(tables, "AK", ["QQ"], board="Ks9d4c")
    range_hits(parse_range("AK,QQ,JTs"), parse_cards("Ks9d4c"), [], tables.eval_tables())
    note = f" ({skipped} question(s) skipped: tables not built)" if skipped else ""
    typer.echo(f"query kernels compiled and cached in {time.perf_counter() - t0:.1f}s{note}")
