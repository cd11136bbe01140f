"""The one planner: :func:`solve` answers a :class:`~pipeline.equity.question.Question` with the
first solver, in order of preference, whose plan fits the question's budget.

Hold'em (the other games: :mod:`pipeline.equity.solve_games`, with the same rules):

1. ``preflop.h5``, preflop without dead cards, every other seat random
   (:func:`~pipeline.equity.solve_tables.preflop_table`);
2. ``preflop_matchups.h5``, preflop heads-up, every seat a range (:func:`~.solve_tables.matchups`);
3. exact counting of one hand against named hands and up to 3 random hands
   (:func:`~pipeline.equity.solve_exact.hand_count`);
4. a small heads-up spot after the flop in numpy, without loading numba
   (:func:`~pipeline.equity.solve_exact.small_spot`);
5. every board x every non-conflicting assignment of the ranges' hands
   (:func:`~pipeline.equity.solve_exact.range_enumeration`);
6. otherwise Monte Carlo (:func:`~pipeline.equity.solve_mc.monte_carlo`) for a sample count, a
   target standard error or a time limit.

An exact plan is taken when its estimated time is at most the question's limit
(:data:`~pipeline.equity.question.EXACT_SECONDS`, or
:data:`~pipeline.equity.question.EXACT_HARD_SECONDS` when an exact answer is asked for); a
Monte Carlo rule in the budget skips the exact solvers. Convention (PokerStove/Equilab): each
non-conflicting assignment of hands to seats counts with the product of its weights; equity =
wins + split shares (a k-way tie pays 1/k).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from pipeline.equity.assembly import answer_of
from pipeline.equity.question import HOLDEM, Ask, Question
from pipeline.equity.seating import Table, seat_table
from pipeline.equity.solve_exact import hand_count, range_enumeration, small_spot
from pipeline.equity.solve_mc import monte_carlo
from pipeline.equity.solve_tables import matchups, preflop_table
from pipeline.equity.solver import Solver
from pipeline.equity.spots.answer import Answer, Solution
from pipeline.errors import InputError

if TYPE_CHECKING:
    from pipeline.query.tables import Tables

#: The exact solvers of hold'em, in order of preference (each declines or says its cost).
EXACT_SOLVERS: tuple[Solver, ...] = (preflop_table, matchups, hand_count, small_spot,
                                     range_enumeration)
#: Random opponents the exact hand counter takes at most (said when it is asked for more).
MAX_EXACT_RANDOM = 3
#: The note of a preflop heads-up range question answered without the matchup table.
NO_MATCHUPS = "preflop_matchups.h5 is not built: enumerated every board instead"


def solve(q: Question, tables: Tables,
          progress: Callable[[float, str], None] | None = None) -> Answer:
    """The answer to ``q`` (see the module docstring for the solver chosen). ``progress(done,
    what)`` hears first ``(0.0, "")`` once the question is valid, then Monte Carlo's progress."""
    t0 = time.perf_counter()
    if q.game != HOLDEM:
        from pipeline.equity.solve_games import solve_game

        sol = solve_game(q, tables, progress)
    else:
        table = seat_table(q, tables)
        if progress is not None:
            progress(0.0, "")  # the question is valid: the caller may announce slow work now
        sol = _solve_holdem(q, table, tables, progress)
    return answer_of(q, sol, time.perf_counter() - t0)


def _solve_holdem(q: Question, table: Table, tables: Tables,
                  progress: Callable[[float, str], None] | None) -> Solution:
    if not q.budget.monte_carlo:
        for solver in EXACT_SOLVERS:
            plan = solver(q, table, tables)
            if plan is not None and plan.seconds <= q.limit:
                sol = plan.run()
                if solver not in (preflop_table, matchups) and _matchup_question(table):
                    sol = sol._replace(note=NO_MATCHUPS)
                return sol
        if q.budget.exact or q.ask is Ask.PREFLOP:
            if table.n_random > MAX_EXACT_RANDOM:
                raise InputError("exact enumeration handles at most {most} random opponents (got "
                                 "{n}); use Monte Carlo ({samples}, {stderr} or {time})",
                                 field="exact", most=MAX_EXACT_RANDOM, n=table.n_random)
            raise InputError("exact enumeration of this spot would take too long; use Monte "
                             "Carlo ({samples}, {stderr} or {time})", field="exact")
    return monte_carlo(q, table, tables, progress).run()


def _matchup_question(table: Table) -> bool:
    """A preflop heads-up question of two ranges: the matchup table's, when it is built."""
    return not table.board and not table.dead and len(table.seats) == 2 and not any(table.random)


__all__ = ["EXACT_SOLVERS", "solve"]
