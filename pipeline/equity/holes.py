"""The 1,326 two-card hold'em hands as arrays, by colex index ``a + C(b, 2)`` (a < b).

Ranges, the matchup table and every range kernel index hands this way, so a hand is one
integer and a range is two arrays (indices and weights), never Python objects per hand.
"""

from __future__ import annotations

import numpy as np

from pipeline.core.constants import DECK_SIZE

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


__all__ = ["HOLE_CARDS", "HOLE_MASKS", "HOLE_HIGH", "HOLE_LOW", "HOLE_SUITED", "hole_index",
           "hands_touching"]
