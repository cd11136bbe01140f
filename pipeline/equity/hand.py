"""Hold'em win probability (win / tie / lose / equity) of one hand against N opponents.

Definitions (hero's point of view): *win* = hero's hand is strictly best; *tie* = hero shares
the best hand; *lose* = someone is strictly better; *equity* = expected share of the pot, a
k-way tie paying 1/k. Opponents are ``N`` random hands plus any named hands (at most 9 in all);
dead cards are removed from the deck. The opponents share the board and the deck, so nothing
here multiplies heads-up probabilities (``1 - p**N`` is wrong and is never used).

:func:`equity` counts exactly when that is cheap (:mod:`pipeline.equity.exactcount`: board
orbits under suit symmetry, inclusion-exclusion over random hands; preflop heads-up from the
all-hands table of :mod:`pipeline.equity.allhands`) and samples otherwise
(:mod:`pipeline.equity.spotmc`). The default sample count bounds the standard error of the
equity below 0.1 percentage point.

This module is read-side: it needs ``seven.h5`` (memory-mapped) and, for two named hands
preflop, ``eval_tables.h5`` when built; no build stage.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from pipeline.core.fasteval import EvalTables
from pipeline.equity.disjoint import MAX_EXACT_RANDOM
from pipeline.equity.exactcount import exact_cost, run_exact
from pipeline.equity.montecarlo import DEFAULT_SAMPLES
from pipeline.equity.result import EquityResult
from pipeline.equity.spot import CardsInput, make_spot
from pipeline.equity.spotmc import run_mc
from pipeline.errors import ArtifactError, InputError

#: Exact enumeration is chosen automatically when its estimated table lookups stay below this.
EXACT_BUDGET = 400_000_000
#: With ``exact=True`` a spot above this many lookups is refused (it would run for hours).
EXACT_HARD_LIMIT = 60_000_000_000


def table7_of(tables: Any) -> np.ndarray:
    """The 7-card score array of a :class:`pipeline.query.tables.Tables` (or the array itself)."""
    return tables.table(7) if hasattr(tables, "table") else np.asarray(tables)


def eval_tables_of(tables: Any) -> EvalTables | None:
    """The cache-resident evaluator of a :class:`pipeline.query.tables.Tables` (None for a bare
    7-card array, or when ``eval_tables.h5`` is not built)."""
    if not hasattr(tables, "eval_tables"):
        return None
    try:
        ev: EvalTables = tables.eval_tables()
    except ArtifactError:
        return None
    return ev


def equity(tables: Any, hole: CardsInput, board: CardsInput = (), opponents: int | None = None,
           vs: Sequence[CardsInput] = (), dead: CardsInput = (), exact: bool | None = None,
           samples: int | None = None, seed: int | None = None) -> EquityResult:
    """Win/tie/lose/equity of ``hole`` against ``opponents`` random hands plus named ``vs`` hands.

    ``tables`` is a :class:`pipeline.query.tables.Tables` (or the 7-card score array). ``exact=None``
    enumerates exactly when that is cheap (see :func:`exact_cost`) and otherwise samples;
    ``exact=True`` insists (ValueError when impossible), ``exact=False`` or ``samples``
    samples (default :data:`DEFAULT_SAMPLES`). ``opponents`` defaults to 1 without ``vs``.
    """
    spot = make_spot(hole, board, opponents, vs, dead)
    if exact and samples is not None:
        raise InputError("choose either --exact or --samples, not both")
    if samples is not None and samples < 1:
        raise InputError(f"--samples must be at least 1, got {samples}")
    table7 = table7_of(tables)
    cost = exact_cost(spot)
    if exact is None:
        exact = samples is None and cost <= EXACT_BUDGET
    if exact:
        if spot.opponents > MAX_EXACT_RANDOM:
            raise InputError(f"exact enumeration handles at most {MAX_EXACT_RANDOM} random "
                             f"opponents (got {spot.opponents}); use Monte Carlo (--samples)")
        if cost > EXACT_HARD_LIMIT:
            raise InputError(f"exact enumeration of this spot needs about {cost:.2g} lookups; "
                             "use Monte Carlo (--samples)")
        return run_exact(spot, table7, eval_tables_of(tables))
    return run_mc(spot, table7, samples or DEFAULT_SAMPLES,
                  seed if seed is not None else int.from_bytes(os.urandom(4), "little"))


__all__ = ["equity", "eval_tables_of", "table7_of", "DEFAULT_SAMPLES", "EXACT_BUDGET", "EXACT_HARD_LIMIT"]
