"""Equity for every seat: up to 10 players, each a hand, a weighted range or a random hand, in
hold'em and the other games, through one question and one planner.

The flow: a door makes one :class:`~pipeline.equity.question.Question` (the only validator),
:func:`~pipeline.equity.planner.solve` picks the solver whose plan fits the question's budget
(tables, exact counting, exact enumeration, numpy small spots, Monte Carlo, the other games)
and returns one frozen :class:`~pipeline.equity.spots.answer.Answer`. :func:`equity_seats` and
:func:`preflop` are the text doors of the Python API (``pipeline.hand_equity`` the typed one).

Convention (PokerStove/Equilab): each non-conflicting assignment of hands to seats counts
with the product of its weights; equity = wins + split shares (a k-way tie pays 1/k).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from pipeline.equity.montecarlo.stopping import DEFAULT_SAMPLES
from pipeline.equity.planner import solve
from pipeline.equity.question import EXACT_HARD_SECONDS, EXACT_SECONDS, Ask, Question
from pipeline.equity.seating import Table, parse_table
from pipeline.equity.spots.answer import Answer

if TYPE_CHECKING:
    from pipeline.query.tables import Tables

#: A progress callback: (fraction done 0..1, what is being done).
Progress = Callable[[float, str], None]


def equity_seats(tables: Tables, hero: str, vs: Sequence[str] = (), opponents: int | None = None,
                 board: str = "", dead: str = "", exact: bool | None = None,
                 samples: int | None = None, stderr: float | None = None,
                 time_limit: float | None = None, seed: int | None = None,
                 progress: Progress | None = None, from_tables: bool = False,
                 game: str | None = None) -> Answer:
    """Win/tie/lose/equity of every seat (:meth:`Question.parse` then :func:`solve`).

    ``exact=True`` insists on an exact method, ``samples``/``stderr``/``time_limit`` ask for
    Monte Carlo; ``from_tables`` (the ``preflop`` command) answers only from the tables or by
    exact enumeration, never by sampling. ``game`` names another game (``omaha``, ``omaha5``,
    ``omaha6``, ``omaha-hi-lo``, ``short-deck``, ``stud``, ``stud-hi-lo``, ``razz``); without
    it four hole cards mean Omaha.
    """
    q = Question.parse(hero, list(vs), opponents, board, dead, game=game, exact=bool(exact),
                       samples=samples, stderr=stderr, time=time_limit, seed=seed,
                       ask=Ask.PREFLOP if from_tables else Ask.EQUITY)
    return solve(q, tables, progress)


def preflop(tables: Tables, hand: str, vs: str | None = None, opponents: int | None = None) -> Answer:
    """Preflop equity from the tables only (the ``preflop`` command): a hand or range against
    ``opponents`` random hands (heads-up exact, 2..9 from the Monte Carlo columns) or heads-up
    against the range ``vs`` (exact from the matchup table, or by enumeration when that table
    is not built)."""
    q = Question.parse(hand, [vs] if vs is not None else [], opponents, ask=Ask.PREFLOP)
    return solve(q, tables)


__all__ = ["DEFAULT_SAMPLES", "EXACT_HARD_SECONDS", "EXACT_SECONDS", "Table", "equity_seats",
           "parse_table", "preflop"]
