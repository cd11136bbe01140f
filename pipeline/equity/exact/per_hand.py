"""One range seat's exact answer per hand, from one enumeration of the spot (``--breakdown``).

The deals of a range spot split by the hand the first seat holds, and the deals in which it
holds ``h`` are exactly the deals of the spot with ``h`` in its place. So one enumeration that
keeps its sums per hand of that seat answers every hand's spot at once, with the same integer
counts as asking them one by one: the range kernel walks that seat and counts the largest of
the others (:func:`pipeline.equity.exact.ranges.range_exact_hands`); a small heads-up spot is
counted in numpy, without loading numba (:func:`pipeline.equity.exact.small_spots.headsup_small_hands`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pipeline.core.constants import BOARD_CARDS, DECK_SIZE
from pipeline.core.evalkeys import EvalTables
from pipeline.equity.exact.columns import DEALS, LOSE, SHARE, TIE, WIN
from pipeline.equity.exact.small_spots import headsup_small_hands, is_small
from pipeline.equity.hands.starting_hands import HOLE_CARDS, HOLE_MASKS
from pipeline.equity.ranges.parse import Range
from pipeline.equity.spots.seats import Seats


def _seats(ranges: Sequence[Range]) -> Seats:
    off = np.zeros(len(ranges) + 1, np.int64)
    off[1:] = np.cumsum([s.combos for s in ranges])
    hands = np.concatenate([s.hands for s in ranges])
    return Seats(off, np.ascontiguousarray(HOLE_CARDS[hands, 0]),
                 np.ascontiguousarray(HOLE_CARDS[hands, 1]),
                 np.ascontiguousarray(np.concatenate([s.weights for s in ranges])),
                 np.ascontiguousarray(HOLE_MASKS[hands]), 0)


def _walk(ranges: Sequence[Range], board: Sequence[int], dead: Sequence[int]
          ) -> tuple[Seats, np.ndarray, int]:
    """The kernels' seats (the split seat first, the others by size, the largest last), the
    cards the board may still take, and how many it takes."""
    walked = (ranges[0], *sorted(ranges[1:], key=lambda s: s.combos))
    gone = 0
    for c in (*board, *dead, *(c for s in walked if s.is_single for c in s.cards())):
        gone |= 1 << c
    avail = np.array([c for c in range(DECK_SIZE) if not gone >> c & 1], np.int64)
    return _seats(walked), avail, BOARD_CARDS - len(board)


def _small(seats: Seats, avail: np.ndarray, r: int) -> bool:
    return seats.off.shape[0] == 3 and is_small(seats, len(avail), r)


def split_cost(ranges: Sequence[Range], board: Sequence[int], dead: Sequence[int]) -> float:
    """Estimated seconds of :func:`split_rows` on one core, ignoring suit symmetry (0 for a
    small heads-up spot, which numpy counts in milliseconds)."""
    seats, avail, r = _walk(ranges, board, dead)
    if _small(seats, avail, r):
        return 0.0
    from pipeline.equity.exact.ranges import range_exact_cost

    return range_exact_cost(seats, len(avail), r, 1)


def split_rows(ranges: Sequence[Range], board: Sequence[int], dead: Sequence[int],
               evaluator: EvalTables) -> tuple[np.ndarray, np.ndarray]:
    """Per hand of ``ranges[0]`` (in its order), seats holding the ``ranges`` (card-removed; a
    random seat is the range of every hand): int64[n, 5] win, tie, lose, share numerator and
    deals, and float64[n, 5] the same weighted by the product of the assignment's weights
    (this hand's included, so ratios of a row are its weighted answer)."""
    seats, avail, r = _walk(ranges, board, dead)
    board0 = np.array(board, np.int64)
    if _small(seats, avail, r):
        return headsup_small_hands(seats, board0, avail, r, *evaluator)
    from pipeline.equity.exact.ranges import range_exact_hands, range_group

    perms = range_group(seats, [list(board), list(dead)])
    return range_exact_hands(seats, board0, avail, r, perms, *evaluator, 0)


__all__ = ["DEALS", "LOSE", "SHARE", "TIE", "WIN", "split_cost", "split_rows"]
