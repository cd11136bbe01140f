"""The cache-resident evaluator's layout (card keys, flush test, perfect-hash rows) and a numpy
scorer over it that needs no JIT.

:mod:`pipeline.core.fasteval` holds the numba kernels that score one hand at a time inside
loops; this module holds what both sides share and what a process that never loads numba
needs: the constants, the table tuple, the 52 card keys and :func:`score_keys`, which scores
whole arrays of (key, mask) pairs with numpy operations. A fresh process pays about a quarter
of a second to import numba and load its runtime before a kernel runs; a small question
answered with :func:`score_keys` does not (``docs/ALGORITHM.md`` describes the layout).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from pipeline.core.constants import DECK_SIZE

#: Per-rank keys (2..A): the smallest increasing integers, chosen greedily rank by rank, such
#: that every multiset of at most 7 ranks with at most 4 of a rank has its own sum. The largest
#: 7-card sum is 4 * 3,453,520 + 3 * 1,526,359 = 18,393,157 (< 2**25). tests/test_fasteval.py
#: re-checks uniqueness over all 76,155 such multisets.
RANK_KEYS = (1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520)
#: Most cards in one evaluated hand.
MAX_HAND_CARDS = 7
#: Fewest cards in an evaluated hand.
MIN_HAND_CARDS = 5
#: Bits below this hold the rank-key sum; four 4-bit suit counters sit above it.
SUIT_SHIFT = 32
#: Suit counter width in bits.
SUIT_BITS = 4
#: Adding 3 to every suit counter makes bit 3 of a counter set exactly when the suit has 5+ cards.
SUIT_BIAS = 0x3333 << SUIT_SHIFT
#: The four counters' bit 3.
FLUSH_CHECK = 0x8888 << SUIT_SHIFT
#: Low bits of a key: the rank-key sum.
RANK_KEY_MASK = (1 << SUIT_SHIFT) - 1
#: Perfect hash rows hold 2**HASH_SHIFT consecutive rank-key sums.
HASH_SHIFT = 10
#: Every fourth bit of a card mask: one suit's 13 ranks (before compression).
SUIT_LANE = 0x1111111111111
#: Size of the flush table: one entry per 13-bit rank mask.
FLUSH_TABLE_SIZE = 1 << 13


class EvalTables(NamedTuple):
    """The evaluator's four arrays (about 190 kB together)."""

    card_keys: np.ndarray  # uint64[52]: rank key + suit counter increment of each card id
    offsets: np.ndarray    # int32[rows]: perfect-hash displacement per row of rank-key sums
    ranks: np.ndarray      # uint16[n]: score of a non-flush hand, at its hashed rank-key sum
    flush: np.ndarray      # uint16[8192]: score of a flush, by the flush suit's 13-bit rank mask


def card_keys() -> np.ndarray:
    """The 52 card keys: ``RANK_KEYS[c >> 2] + (1 << (SUIT_SHIFT + 4 * (c & 3)))``."""
    c = np.arange(DECK_SIZE)
    rk = np.asarray(RANK_KEYS, np.uint64)[c >> 2]
    return rk + (np.uint64(1) << (np.uint64(SUIT_SHIFT) + np.uint64(SUIT_BITS) * (c & 3).astype(np.uint64)))


def read_only(tables: EvalTables) -> EvalTables:
    """``tables`` with every array made read-only, as memory-mapped ones are: the kernels then
    compile one specialization for built, copied and mapped tables alike (numba types a
    read-only array apart from a writable one)."""
    for a in tables:
        a.flags.writeable = False
    return tables


#: The bit-gathering steps that pack a suit's every-fourth-bit lane into 13 contiguous bits:
#: (shift, mask kept after ``x | x >> shift``).
_GATHER = ((3, 0x0303030303030303), (6, 0x000F000F000F000F), (12, 0x000000FF000000FF), (24, 0x1FFF))


def score_keys(keys: np.ndarray, masks: np.ndarray, tables: EvalTables) -> np.ndarray:
    """Scores (int64, 1..7462, higher is stronger) of hands given by their key sums and card
    bitmaps (any equal shapes, int64 or uint64; 5 to 7 cards each), in numpy.

    The same arithmetic as :func:`pipeline.core.fasteval.hand_score`, one array operation at a
    time; the caller guarantees valid hands (the kernels' contract).
    """
    k = np.asarray(keys).astype(np.int64, copy=False)
    m = np.asarray(masks).astype(np.int64, copy=False)
    _, offsets, ranks, flush = tables
    rk = k & RANK_KEY_MASK
    out = ranks[rk + offsets[rk >> HASH_SHIFT]].astype(np.int64)
    fl = (k + SUIT_BIAS) & FLUSH_CHECK
    hit = np.flatnonzero(fl)
    if hit.size:
        f = fl.flat[hit] >> (SUIT_SHIFT + 3)  # 1, 16, 256 or 4096: the flush suit's counter
        suit = (f > 1).astype(np.int64) + (f > 16) + (f > 256)
        x = (m.flat[hit] >> suit) & SUIT_LANE
        for shift, keep in _GATHER:
            x = (x | (x >> shift)) & keep
        out.flat[hit] = flush[x]
    return out


__all__ = ["FLUSH_CHECK", "FLUSH_TABLE_SIZE", "HASH_SHIFT", "MAX_HAND_CARDS", "MIN_HAND_CARDS",
           "RANK_KEYS", "RANK_KEY_MASK", "SUIT_BIAS", "SUIT_BITS", "SUIT_LANE", "SUIT_SHIFT",
           "EvalTables", "card_keys", "read_only", "score_keys"]
