"""Solvers that read preflop answers from the built tables (no dead cards, no board):

* :func:`preflop_table`: a hand or range against random hands, ``preflop.h5`` (exact heads-up
  counts; 2..9 opponents from its Monte Carlo columns with their standard error);
* :func:`matchups`: heads-up, every seat a range (``random`` is the range of all 1,326 hands),
  from ``preflop_matchups.h5``: exact.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.equity.assembly import Numbers, seat_rows, symmetric_random
from pipeline.equity.question import Question
from pipeline.equity.seating import Table
from pipeline.equity.solver import FREE, Plan
from pipeline.equity.spots.answer import Method, Solution
from pipeline.errors import ArtifactError

if TYPE_CHECKING:
    from pipeline.query.tables import Tables


def _preflop(table: Table) -> bool:
    return not table.board and not table.dead


def preflop_table(q: Question, table: Table, tables: Tables) -> Plan | None:
    """Every other seat random: the hero's row of ``preflop.h5`` (the Monte Carlo columns only
    when an exact answer is not insisted on)."""
    import pipeline.equity.tables.preflop as pq

    n = len(table.seats) - 1
    if not _preflop(table) or not all(table.random[1:]) or table.random[0] or (n > 1 and q.budget.exact):
        return None
    hero = table.seats[0]
    try:
        num = pq.vs_random(tables, hero.hands, hero.weights, n)
    except ArtifactError:
        return None
    eq = symmetric_random(table, {0: num.equity})
    rows: list[Numbers] = [(num.win, num.tie, num.lose, num.equity, num.stderr)]
    for i in range(1, n + 1):
        rows.append((num.lose, num.tie, num.win, eq[i], None) if n == 1
                    else (None, None, None, eq[i], None))
    if n == 1:
        sol = Solution(Method.EXACT, seat_rows(table, rows), num.counts, deals=num.deals,
                       source="preflop.h5 (exact heads-up counts)")
    else:
        sol = Solution(Method.MONTE_CARLO, seat_rows(table, rows),
                       source=f"preflop.h5 (Monte Carlo column vs {n}, stderr from the table)")
    return Plan(FREE, lambda: sol)


def matchups(q: Question, table: Table, tables: Tables) -> Plan | None:
    """Heads-up range against range: weighted sums over ``preflop_matchups.h5``'s pairs."""
    import pipeline.equity.tables.preflop as pq

    if not _preflop(table) or len(table.seats) != 2 or (all(table.random[1:]) and not table.random[0]):
        return None
    mt = pq.matchup_tables(tables)
    if mt is None:
        return None
    a, b = table.seats

    def run() -> Solution:
        h, v = pq.range_vs_range(mt, a.hands, a.weights, b.hands, b.weights)
        rows: list[Numbers] = [(h.win, h.tie, h.lose, h.equity, None),
                               (v.win, v.tie, v.lose, v.equity, None)]
        return Solution(Method.EXACT, seat_rows(table, rows), h.counts, deals=h.deals,
                        source="preflop_matchups.h5 (exact heads-up matchup table)")
    return Plan(FREE, run)


__all__ = ["matchups", "preflop_table"]
