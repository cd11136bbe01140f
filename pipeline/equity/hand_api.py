"""``pipeline.hand_equity``: the library's convenience door to the one equity engine.

It takes cards as text, ids or names (``"AsKs"``, ``[51, 47]``, ``["As", "Ks"]``; text may be a
range), makes the one :class:`~pipeline.equity.question.Question` of them
(:meth:`~pipeline.equity.question.Question.from_cards`: ids are never turned back into text)
and returns the planner's answer unchanged: the same method choice, limits, seed semantics and
numbers as ``pokertables equity``. Four hole cards are an Omaha hand, as on the command line.

Definitions (hero's point of view): *win* = hero's hand is strictly best; *tie* = hero shares
the best hand; *lose* = someone is strictly better; *equity* = expected share of the pot, a
k-way tie paying 1/k. The opponents share the board and the deck, so nothing multiplies
heads-up probabilities (``1 - p**N`` is wrong and is never used).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from pipeline.core.constants import DECK_SIZE
from pipeline.equity.montecarlo.stopping import DEFAULT_SAMPLES
from pipeline.equity.planner import solve
from pipeline.equity.question import HOLDEM_HOLE, CardsInput, Question
from pipeline.equity.spots.answer import Answer
from pipeline.errors import InputError

if TYPE_CHECKING:
    from pipeline.core.fasteval import EvalTables
    from pipeline.equity.exact.enumerate import ExactCounts
    from pipeline.query.tables import Tables

#: A progress callback: (fraction done 0..1, what is being done).
Progress = Callable[[float, str], None]


def equity(tables: Tables, hole: CardsInput, board: CardsInput = (), opponents: int | None = None,
           vs: Sequence[CardsInput] = (), dead: CardsInput = (), exact: bool | None = None,
           samples: int | None = None, seed: int | None = None) -> Answer:
    """Win/tie/lose/equity of ``hole`` against ``opponents`` random hands plus the ``vs`` seats.

    ``exact=None`` lets the engine choose (tables, exact counting when cheap, else Monte Carlo);
    ``exact=True`` insists (InputError when impossible); ``samples`` asks for that many Monte
    Carlo deals (default :data:`DEFAULT_SAMPLES`), reproducible with ``seed``. ``opponents``
    defaults to 1 without ``vs``. Same answer as ``pokertables equity`` for the same question.
    """
    q = Question.from_cards(hole, board, opponents, vs, dead, exact=bool(exact), samples=samples,
                            seed=seed)
    return solve(q, tables)


def omaha_equity(tables: Tables, hole: CardsInput, board: CardsInput = (), opponents: int = 1,
                 vs: Sequence[CardsInput] | None = None, dead: CardsInput = (),
                 exact: bool | None = None, samples: int | None = None, seed: int | None = None,
                 stderr: float | None = None, time_limit: float | None = None,
                 progress: Progress | None = None) -> Answer:
    """PLO win/tie/lose/equity of 4 hole cards against ``opponents`` random hands plus the
    ``vs`` hands: the Omaha game's answer (exact when cheap, else Monte Carlo with hold'em's
    stopping rules and seeds), as ``pokertables equity --game omaha``."""
    q = Question.from_cards(hole, board, opponents, vs or (), dead, game="omaha",
                            exact=bool(exact), samples=samples, stderr=stderr, time=time_limit,
                            seed=seed)
    return solve(q, tables, progress)


def exact_fixed(hands: np.ndarray, board: np.ndarray, dead_mask: int,
                tables: EvalTables) -> ExactCounts:
    """Exact win/tie/share counts of fixed hold'em hands over every completion of ``board``
    (:func:`~pipeline.equity.exact.enumerate.count_fixed`), from raw arrays.

    ``hands``: card ids, one row of 2 per seat (the first is the hero); ``board``: 0, 3, 4 or 5
    card ids; ``dead_mask``: bitmap of cards out of play. The cards are checked as a question's
    are (:meth:`Question.from_cards`: seats, board size, cards named twice; InputError naming
    the field)."""
    from pipeline.equity.exact.enumerate import count_fixed  # numba: loaded when counting

    h = np.asarray(hands)
    b = np.asarray(board).reshape(-1)
    if h.ndim != 2 or h.shape[1] != HOLDEM_HOLE or not h.shape[0]:
        raise InputError("{hero} and {vs}: one row of 2 card ids per seat (shape (n, 2)), got "
                         "shape {shape}", field="hero", shape=h.shape)
    if not 0 <= int(dead_mask) < 1 << DECK_SIZE:
        raise InputError("{dead} must be a 52-bit card bitmap, got {got:#x}", field="dead",
                         got=int(dead_mask))
    seats = [[int(c) for c in row] for row in h.tolist()]
    dead = [c for c in range(DECK_SIZE) if int(dead_mask) >> c & 1]
    Question.from_cards(seats[0], [int(c) for c in b.tolist()], 0, seats[1:], dead)
    return count_fixed(h.astype(np.uint8), b.astype(np.uint8), int(dead_mask), tables)


__all__ = ["equity", "exact_fixed", "omaha_equity", "DEFAULT_SAMPLES"]
