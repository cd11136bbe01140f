"""The 1,326 hold'em starting hands (two cards) as arrays, by colex index ``a + C(b, 2)`` (a < b),
and their 169 classes (:func:`hand_classes`).

Ranges, the matchup table and every range kernel index hands this way, so a hand is one
integer and a range is two arrays (indices and weights), never Python objects per hand.
"""

from __future__ import annotations

import numpy as np

from pipeline.core.cards import RANKS
from pipeline.core.constants import DECK_SIZE, N_HOLE_PAIRS

#: HOLE_CARDS[h] = (a, b), a < b: the two card ids of hand h.
HOLE_CARDS = np.array([(a, b) for b in range(DECK_SIZE) for a in range(b)], dtype=np.int64)
#: HOLE_MASKS[h] = the hand's card bitmap (bit c for card c).
HOLE_MASKS = (np.uint64(1) << HOLE_CARDS[:, 0].astype(np.uint64)) | \
    (np.uint64(1) << HOLE_CARDS[:, 1].astype(np.uint64))
#: Rank (0..12) of each hand's higher and lower card, and whether it is suited.
HOLE_HIGH = HOLE_CARDS[:, 1] >> 2
HOLE_LOW = HOLE_CARDS[:, 0] >> 2
HOLE_SUITED = (HOLE_CARDS[:, 0] & 3) == (HOLE_CARDS[:, 1] & 3)


def hole_index(a: int, b: int) -> int:
    """Colex index (0..1325) of the two-card hand {a, b} (any order, a != b)."""
    if a > b:
        a, b = b, a
    return a + b * (b - 1) // 2


def hands_touching(mask: int) -> np.ndarray:
    """Boolean[1326]: the hands holding a card of the bitmap ``mask``."""
    return (HOLE_MASKS & np.uint64(mask)) != 0


def hand_classes() -> tuple[np.ndarray, list[str], np.ndarray, np.ndarray, np.ndarray]:
    """Starting-hand classes: (class of each 2-card colex index, 169 names, grid row, col, combos).

    Grid: row/column 0 is the Ace; pairs on the diagonal, suited hands above it (row = high
    rank), offsuit below it (row = low rank) - the usual chart layout.
    """
    cls = np.empty(N_HOLE_PAIRS, np.int64)
    names: list[str] = []
    rows = np.empty(169, np.int64)
    cols = np.empty(169, np.int64)
    index: dict[tuple[int, int], int] = {}
    for i in range(13):
        for j in range(13):
            hi, lo = 12 - min(i, j), 12 - max(i, j)
            if i == j:
                name = RANKS[hi] * 2
            elif i < j:
                name = RANKS[hi] + RANKS[lo] + "s"
            else:
                name = RANKS[hi] + RANKS[lo] + "o"
            index[(i, j)] = len(names)
            rows[len(names)] = i
            cols[len(names)] = j
            names.append(name)
    for b in range(52):
        for a in range(b):
            hi, lo = b >> 2, a >> 2
            if hi < lo:
                hi, lo = lo, hi
            if hi == lo:
                cell = (12 - hi, 12 - hi)
            elif (a & 3) == (b & 3):
                cell = (12 - hi, 12 - lo)
            else:
                cell = (12 - lo, 12 - hi)
            cls[a + b * (b - 1) // 2] = index[cell]
    combos = np.bincount(cls, minlength=169)
    return cls, names, rows, cols, combos


__all__ = ["hand_classes", "HOLE_CARDS", "HOLE_MASKS", "HOLE_HIGH", "HOLE_LOW", "HOLE_SUITED", "hole_index",
           "hands_touching"]
