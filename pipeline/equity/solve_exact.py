"""Exact solvers of hold'em questions, each with its cost estimate:

* :func:`hand_count`: one hand against named hands and up to 3 random hands, counted over board
  orbits with inclusion-exclusion over the random hands (:mod:`pipeline.equity.exact.count`);
* :func:`small_spot`: a small heads-up spot of two range seats after the flop, counted in numpy
  without loading numba (:mod:`pipeline.equity.exact.small_spots`);
* :func:`range_enumeration`: every board x every non-conflicting assignment of the ranges' hands
  (:mod:`pipeline.equity.exact.ranges`; one random seat counted per board,
  :mod:`pipeline.equity.exact.range_random`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from pipeline.core.constants import BOARD_CARDS, DECK_SIZE, SHARE_SCALE
from pipeline.equity.assembly import Numbers, seat_rows, symmetric_random
from pipeline.equity.question import EXACT_HARD_SECONDS, PARSE_CACHE, Question
from pipeline.equity.seating import Table, seats_arrays
from pipeline.equity.solver import ENGINE_LOOKUPS_PER_S, Plan
from pipeline.equity.spots.answer import Counts, Method, Solution
from pipeline.equity.spots.seats import Seats

if TYPE_CHECKING:
    from pipeline.equity.ranges.parse import Range
    from pipeline.equity.spots.spot import Spot
    from pipeline.query.tables import Tables

#: Most random opponents the hand counter takes.
MAX_COUNTED_RANDOM = 3


# --------------------------------------------------------------------------- hand counting
def hand_count(q: Question, table: Table, tables: Tables) -> Plan | None:
    """Named hands only (and up to 3 random seats), the hero a hand."""
    singles = all(s.is_single for s in table.ranged)
    # two named hands after the flop go to the range path, which counts them without numba
    face_up = len(table.seats) == 2 and not table.n_random and len(table.board) >= 3
    if not singles or table.random[0] or table.n_random > MAX_COUNTED_RANDOM or face_up:
        return None
    # the counter's modules load numba: only now, never for a spot the numpy path answers
    from pipeline.equity.exact.count import exact_cost
    from pipeline.equity.spots.spot import Spot

    a, b = table.seats[0].cards()
    named = tuple((s.cards()[0], s.cards()[1])
                  for s, r in zip(table.seats[1:], table.random[1:]) if not r)
    spot = Spot((a, b), table.board, named, table.dead, table.n_random)
    return Plan(exact_cost(spot) / ENGINE_LOOKUPS_PER_S, lambda: _hand_exact(table, spot, tables))


def _hand_exact(table: Table, spot: Spot, tables: Tables) -> Solution:
    from pipeline.equity.exact.count import exact_counts

    acc, n = exact_counts(spot, tables.table(7), tables.eval_tables())
    # acc rows: hero, then the named hands in seat order
    fixed = [0] + [i for i in range(1, len(table.seats)) if not table.random[i]]
    per: dict[int, Numbers] = {}
    for k, i in enumerate(fixed):
        w, t, lo, sh = (int(v) for v in acc[k, :4])
        per[i] = (w / n, t / n, lo / n, sh / (SHARE_SCALE * n), None)
    eq = symmetric_random(table, {i: row[3] for i, row in per.items()})
    hero = per[0]
    nums: list[Numbers] = []
    for i in range(len(table.seats)):
        if i in per:
            nums.append(per[i])
        elif table.n_random == 1 and len(table.seats) == 2:
            nums.append((hero[2], hero[1], hero[0], eq[i], None))
        else:
            nums.append((None, None, None, eq[i], None))
    w, t, lo, sh = (int(v) for v in acc[0, :4])
    return Solution(Method.EXACT, seat_rows(table, nums),
                    Counts(w, t, lo, sh, SHARE_SCALE * n), deals=n)


# --------------------------------------------------------------------------- ranges
@dataclass(frozen=True, slots=True)
class Walk:
    """The deal walk of a table: seats in the kernels' order (ranges by size, the largest last,
    then the random seats unless one random seat is counted per board), the cards left."""

    order: tuple[int, ...]
    walked: tuple[Range, ...]
    seats: Seats
    avail: np.ndarray
    board: np.ndarray
    counted: bool

    @property
    def to_come(self) -> int:
        """Board cards still to deal."""
        return BOARD_CARDS - len(self.board)


@functools.lru_cache(maxsize=PARSE_CACHE)
def walk_of(table: Table) -> Walk:
    """The :class:`Walk` of ``table``, made once per (cached) table."""
    ranged = table.ranged
    # one random seat is counted per board (rangerandom); otherwise random seats are ranges
    # of every hand in the deal walk (rangeexact)
    counted = table.n_random == 1 and bool(ranged)
    # the largest range last: the kernels' innermost loop runs over the last seat's hands
    fixed = sorted((i for i in range(len(table.seats)) if not table.random[i]),
                   key=lambda i: table.seats[i].combos)
    order = fixed + [i for i in range(len(table.seats)) if table.random[i]]
    walked = tuple(table.seats[i] for i in (fixed if counted else order))
    gone = 0
    for c in [*table.board, *table.dead, *(c for s in ranged if s.is_single for c in s.cards())]:
        gone |= 1 << c
    return Walk(tuple(order), walked, _exact_seats(walked), _deck_without(gone),
                np.array(table.board, np.int64), counted)


@functools.lru_cache(maxsize=PARSE_CACHE)
def _exact_seats(seats: tuple[Range, ...]) -> Seats:
    """:func:`seats_arrays` for the exact kernels, which only read it: built once per tuple
    of (cached, card-removed) ranges."""
    return seats_arrays(seats)


@functools.lru_cache(maxsize=PARSE_CACHE)
def _deck_without(mask: int) -> np.ndarray:
    """Sorted card ids not in the bitmap ``mask``, shared between calls: callers only read it
    (left writable, since a read-only array would compile every kernel a second time)."""
    return np.array([c for c in range(DECK_SIZE) if not mask >> c & 1], np.int64)


def small_spot(q: Question, table: Table, tables: Tables) -> Plan | None:
    """Two range seats after the flop, few enough (completion, hand, hand) triples: numpy."""
    if table.n_random or len(table.seats) != 2:
        return None
    from pipeline.equity.exact.small_spots import headsup_small, is_small

    walk = walk_of(table)
    if not is_small(walk.seats, len(walk.avail), walk.to_come):
        return None

    def run() -> Solution:
        # numpy only: a small spot must not wait for numba to load (issue 33)
        return _sums(table, walk, *headsup_small(walk.seats, walk.board, walk.avail, walk.to_come,
                                                  *tables.eval_tables()))
    triples = comb(len(walk.avail), walk.to_come) * math.prod(s.combos for s in walk.walked)
    return Plan(triples / ENGINE_LOOKUPS_PER_S, run)


def range_enumeration(q: Question, table: Table, tables: Tables) -> Plan | None:
    """Every board and every assignment of the ranges' hands, folded by the suit symmetries."""
    walk = walk_of(table)
    bound, perms, cost = _enumeration_cost(table)
    if perms is None or bound > q.limit:
        return None
    from pipeline.equity.exact.range_random import range_random
    from pipeline.equity.exact.ranges import range_exact

    if walk.counted:
        def run() -> Solution:
            return _sums(table, walk, *range_random(walk.seats, walk.board, walk.avail,
                                                    walk.to_come, perms, *tables.eval_tables()))
    else:
        known = _exact_flags(table)

        def run() -> Solution:
            return _sums(table, walk, *range_exact(walk.seats, walk.board, walk.avail,
                                                   walk.to_come, perms, *tables.eval_tables(),
                                                   known))
    return Plan(cost, run)


@functools.lru_cache(maxsize=PARSE_CACHE)
def _exact_flags(table: Table) -> tuple[bool, bool]:
    """:func:`~pipeline.equity.exact.ranges.range_exact_flags` of ``table``'s walk, once per
    (cached) table: a small spot asked again then pays only for its count."""
    from pipeline.equity.exact.ranges import range_exact_flags

    walk = walk_of(table)
    perms = _enumeration_cost(table)[1]
    return range_exact_flags(walk.seats, len(walk.avail), walk.to_come,
                             1 if perms is None else perms.shape[0])


@functools.lru_cache(maxsize=PARSE_CACHE)
def _enumeration_cost(table: Table) -> tuple[float, np.ndarray | None, float]:
    """(a bound without the symmetries, the symmetries, the estimated seconds) of enumerating
    ``table``, once per (cached) table; no symmetries (None) for a spot beyond any limit, whose
    group is not worth finding."""
    from numba import get_num_threads

    from pipeline.equity.exact.range_random import range_random_cost
    from pipeline.equity.exact.ranges import range_exact_cost
    from pipeline.equity.hands.symmetry import SUIT_PERMS, range_stabilizer

    walk = walk_of(table)
    estimate = range_random_cost if walk.counted else range_exact_cost
    args = (walk.seats, len(walk.avail), walk.to_come)
    bound = estimate(*args, 1) / len(SUIT_PERMS)
    if bound > EXACT_HARD_SECONDS:
        return bound, None, bound
    perms = range_stabilizer([table.board, table.dead], [(s.hands, s.weights) for s in walk.walked])
    return bound, perms, estimate(*args, len(perms)) / max(1, get_num_threads())


@functools.lru_cache(maxsize=PARSE_CACHE)
def _unit_weights(table: Table) -> bool:
    """Every seat's weights are 1 (the answer is counted in integers), once per table."""
    return all(s.unit_weights for s in table.seats)


def _sums(table: Table, walk: Walk, acc_i: np.ndarray, tot_i: int, acc_f: np.ndarray,
          tot_f: float) -> Solution:
    """The answer from the kernels' sums per walked seat (integer counts for unit weights,
    weighted sums over their total otherwise)."""
    unit = _unit_weights(table)
    sums, total = (acc_i.tolist(), tot_i) if unit else (acc_f.tolist(), tot_f)
    nums: list[Numbers] = [(None, None, None, 0.0, None)] * len(table.seats)
    for k, p in enumerate(walk.order):
        w, t, lo, sh = sums[k]
        nums[p] = (w / total, t / total, lo / total, sh / (SHARE_SCALE * total), None)
    if not unit:
        return Solution(Method.EXACT, seat_rows(table, nums))
    w, t, lo, sh = sums[walk.order.index(0)]
    return Solution(Method.EXACT, seat_rows(table, nums),
                    Counts(w, t, lo, sh, SHARE_SCALE * tot_i), deals=tot_i)


__all__ = ["Walk", "hand_count", "range_enumeration", "small_spot", "walk_of"]
