"""The solver of the other games (Omaha 4/5/6 hi and hi-lo, short-deck hold'em, stud, stud hi-lo,
razz; :mod:`pipeline.equity.games.equity`), planned by hold'em's rule: exact (every deal,
counted in integers) when the cost estimate is within the question's limit, Monte Carlo with a
standard error otherwise, with the same stopping rules and seeds.

Pot shares: a pot goes to the best high hand; in hi-lo games, when some hand makes an eight-or-
better low, half goes to the best high and half to the best low. Ties split their part evenly,
so a seat that ties for the low and loses the high wins a quarter of the pot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pipeline.equity.games.equity import exact_cost, game_seats, run_exact, run_monte_carlo
from pipeline.equity.games.spec import GAMES
from pipeline.equity.question import Question
from pipeline.equity.solver import Plan
from pipeline.equity.spots.answer import Solution
from pipeline.errors import InputError

if TYPE_CHECKING:
    from pipeline.query.tables import Tables


def game_plans(q: Question, tables: Tables,
               progress: Callable[[float, str], None] | None = None) -> tuple[Plan | None, Plan]:
    """The exact plan (None when Monte Carlo was asked for) and the Monte Carlo plan."""
    game = GAMES[q.game]
    seats, deck = game_seats(game, q.seats, q.board, q.dead)
    bneed = game.board - len(q.board)
    b = q.budget
    exact = None
    if not b.monte_carlo:
        cost, n_assign = exact_cost(game, seats, deck, bneed)
        exact = Plan(cost, lambda: run_exact(game, seats, deck, q.board, bneed, n_assign, tables))
    mc = Plan(b.time or 0.0, lambda: run_monte_carlo(game, seats, deck, q.board, bneed, tables,
                                                     b.samples, b.stderr, b.time, b.draw_seed(),
                                                     progress))
    return exact, mc


def solve_game(q: Question, tables: Tables,
               progress: Callable[[float, str], None] | None = None) -> Solution:
    """The answer's solution: exact when affordable, else sampled (refused when exact was
    asked for and would take too long)."""
    exact, mc = game_plans(q, tables, progress)
    if progress is not None:
        progress(0.0, "")  # the question is valid: the caller may announce slow work now
    if exact is not None and exact.seconds <= q.limit:
        return exact.run()
    if q.budget.exact:
        raise InputError("exact {name} equity of this spot would take too long (about {s} s); "
                         "use Monte Carlo ({samples}, {stderr} or {time})", field="exact",
                         name=q.game, s=f"{exact.seconds if exact else 0:,.0f}")
    return mc.run()


__all__ = ["game_plans", "solve_game"]
