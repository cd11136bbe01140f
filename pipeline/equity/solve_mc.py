"""The Monte Carlo solver of hold'em questions (:mod:`pipeline.equity.montecarlo.driver`): deals
until the question's stopping rule holds (a sample count, a target standard error or a time
limit; :data:`DEFAULT_SAMPLES` deals when none is given), each seat's numbers with its standard
error."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from pipeline.core.constants import DECK_SIZE, SHARE_SCALE
from pipeline.equity.assembly import Numbers, seat_rows
from pipeline.equity.montecarlo.stopping import DEFAULT_SAMPLES
from pipeline.equity.question import Question
from pipeline.equity.seating import Table, seats_arrays
from pipeline.equity.solver import Plan
from pipeline.equity.spots.answer import Counts, Method, Solution

if TYPE_CHECKING:
    from pipeline.query.tables import Tables

#: Deals per second the cost estimate assumes (one thread, a few seats).
DEALS_PER_S = 3.0e7


def monte_carlo(q: Question, table: Table, tables: Tables,
                progress: Callable[[float, str], None] | None = None) -> Plan:
    """Sampling answers every question: its cost is the time limit, or the deals asked for."""
    b = q.budget
    if b.time is not None:
        cost = b.time
    else:
        cost = (b.samples or DEFAULT_SAMPLES) / DEALS_PER_S * len(table.seats)
    return Plan(cost, lambda: _sample(q, table, tables, progress))


def _sample(q: Question, table: Table, tables: Tables,
            progress: Callable[[float, str], None] | None) -> Solution:
    b = q.budget
    seed = b.draw_seed()
    order = [i for i in range(len(table.seats)) if not table.random[i]] + \
        [i for i in range(len(table.seats)) if table.random[i]]
    ranged = [table.seats[i] for i in order if not table.random[i]]
    seats = seats_arrays(ranged)
    seats.n_random = table.n_random
    # a seat keeps a drawn hand with probability weight / (its largest weight): the same
    # distribution as weight alone, but a range of tiny weights (AA:0.000000001) is not a
    # rejection loop of a billion draws
    for p in range(len(ranged)):
        lo, hi = seats.off[p], seats.off[p + 1]
        seats.hand_w[lo:hi] = seats.hand_w[lo:hi] / seats.hand_w[lo:hi].max()
    single_cards = [c for s in ranged if s.is_single for c in s.cards()]
    gone = set(table.board) | set(table.dead) | set(single_cards)
    deck = np.array([c for c in range(DECK_SIZE) if c not in gone], np.int64)
    ev = tables.eval_tables()
    bkey = int(sum(int(ev.card_keys[c]) for c in table.board))
    bmask = sum(1 << c for c in table.board)
    samples = b.samples
    if samples is None and b.stderr is None and b.time is None:
        samples = DEFAULT_SAMPLES
    # the Monte Carlo kernels load here, not with the engine: a table read never needs them
    from pipeline.equity.montecarlo.driver import run_mc, stop_note

    tot = run_mc(seats, bkey, bmask, 5 - len(table.board), deck, ev.card_keys, ev.offsets,
                 ev.ranks, ev.flush, seed, samples=samples, target=b.stderr, time_limit=b.time,
                 progress=progress)
    se = tot.stderr()
    n = tot.deals
    nums: list[Numbers] = [(None, None, None, 0.0, None)] * len(table.seats)
    for k, i in enumerate(order):
        w, t, lo, sh = (int(v) for v in tot.sums[k, :4])
        nums[i] = (w / n, t / n, lo / n, sh / (SHARE_SCALE * n), float(se[k]))
    h = tot.sums[order.index(0)]
    counts = Counts(int(h[0]), int(h[1]), int(h[2]),
                    assignment_draws=tot.tries if tot.tries > n else None)
    return Solution(Method.MONTE_CARLO, seat_rows(table, nums), counts, samples=n, seed=seed,
                    note=stop_note(tot, b.stderr, b.time))


__all__ = ["monte_carlo"]
