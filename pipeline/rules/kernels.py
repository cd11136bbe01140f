"""Numba kernels that score hands under any :class:`~pipeline.rules.RuleSet`.

Unlike the standard fast path (rank multisets, :mod:`pipeline.core.evaluate`), these compute a
comparable integer key for every 5-card hand of the deck directly from its cards, so suit
tie-breaks, moved straights and reordered categories are just parameters. Scores are the
ranks of the distinct keys; bigger sets (6 or 7 cards) take the best 5-card score inside.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numba as nb
import numpy as np

from pipeline.core.category import Category
from pipeline.core.combos import colex_chunk, hands_range, next_combination
from pipeline.core.parallel import run_chunks, run_rows

RANK_BASE = 16 ** 5  # the five ordered rank values, base 16
# category codes as plain ints: numba freezes module globals into the kernel as constants
(_HIGH_CARD, _PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL_HOUSE, _QUADS,
 _STRAIGHT_FLUSH) = (int(c) for c in Category)


@nb.njit(cache=True)
def _key5(cards: np.ndarray, rank_value: np.ndarray, straights: bool, flushes: bool, wheel: int,
          lowest: int, cat_pos: np.ndarray, suit_rank: np.ndarray, use_suits: bool, low: bool,
          ordered: np.ndarray) -> tuple[np.int64, np.int64]:
    """Key and category of five standard card ids; fills ``ordered`` with ranks by significance."""
    counts = np.zeros(13, np.int64)
    suit0 = cards[0] & 3
    same_suit = True
    for i in range(5):
        counts[cards[i] >> 2] += 1
        if cards[i] & 3 != suit0:
            same_suit = False
    # ranks by (count desc, value desc)
    rank_of = np.empty(13, np.int64)
    for r in range(13):
        rank_of[rank_value[r]] = r
    n = 0
    for cnt in range(4, 0, -1):
        for v in range(12, -1, -1):
            r = rank_of[v]
            if counts[r] == cnt:
                for _ in range(cnt):
                    ordered[n] = r
                    n += 1
    distinct = 0
    for r in range(13):
        if counts[r] > 0:
            distinct += 1
    flush = flushes and same_suit
    top2 = -1  # straight strength on a doubled scale, so "second" can sit between K and A
    if straights and distinct == 5:
        if ordered[0] - ordered[4] == 4:
            top2 = 2 * ordered[0]
        elif wheel != 2 and counts[12] == 1 and counts[lowest] == 1 and counts[lowest + 1] == 1 \
                and counts[lowest + 2] == 1 and counts[lowest + 3] == 1:
            top2 = 2 * (lowest + 3) if wheel == 0 else 23
            for i in range(4):
                ordered[i] = lowest + 3 - i
            ordered[4] = 12
    c0 = counts[ordered[0]]
    c1 = counts[ordered[c0]] if c0 < 5 else 0
    if top2 >= 0 and flush:
        cat = _STRAIGHT_FLUSH
    elif c0 == 4:
        cat = _QUADS
    elif c0 == 3 and c1 == 2:
        cat = _FULL_HOUSE
    elif flush:
        cat = _FLUSH
    elif top2 >= 0:
        cat = _STRAIGHT
    elif c0 == 3:
        cat = _TRIPS
    elif c0 == 2 and c1 == 2:
        cat = _TWO_PAIR
    elif c0 == 2:
        cat = _PAIR
    else:
        cat = _HIGH_CARD
    if cat == _STRAIGHT_FLUSH or cat == _STRAIGHT:
        v = np.int64(top2)
    else:
        v = np.int64(0)
        for i in range(5):
            v = v * 16 + rank_value[ordered[i]]
    s = np.int64(0)
    if use_suits:
        for i in range(5):
            if cards[i] >> 2 == ordered[0] and suit_rank[cards[i] & 3] > s:
                s = suit_rank[cards[i] & 3]
    key = (cat_pos[cat] * RANK_BASE + v) * 4 + s
    if low:
        key = -key
    return key, np.int64(cat)


@nb.njit(cache=True, nogil=True)
def _hand_keys(lo: int, hi: int, hands: np.ndarray, offset: int, rank_value: np.ndarray,
               straights: bool, flushes: bool, wheel: int, lowest: int, cat_pos: np.ndarray,
               suit_rank: np.ndarray, use_suits: bool, low: bool, keys: np.ndarray,
               cats: np.ndarray, ranks: np.ndarray) -> None:
    """Key, category and significance-ordered ranks of each 5-card row (local ids + offset)."""
    for i in range(lo, hi):
        cards = np.empty(5, np.int64)
        for t in range(5):
            cards[t] = hands[i, t] + offset
        ordered = np.empty(5, np.int64)
        k, c = _key5(cards, rank_value, straights, flushes, wheel, lowest, cat_pos, suit_rank,
                     use_suits, low, ordered)
        keys[i] = k
        cats[i] = c
        for t in range(5):
            ranks[i, t] = ordered[t]


def hand_keys(hands: np.ndarray, offset: int, rank_value: np.ndarray, straights: bool,
              flushes: bool, wheel: int, lowest: int, cat_pos: np.ndarray, suit_rank: np.ndarray,
              use_suits: bool, low: bool, keys: np.ndarray, cats: np.ndarray,
              ranks: np.ndarray) -> None:
    """Key, category and significance-ordered ranks of each 5-card row (local ids + offset),
    the rows cut into chunks that Python threads take (:func:`run_rows`)."""
    run_rows(_hand_keys, hands.shape[0], hands, offset, rank_value, straights, flushes, wheel,
             lowest, cat_pos, suit_rank, use_suits, low, keys, cats, ranks)


def all_combinations(n: int, k: int) -> np.ndarray:
    """Every k-subset of 0..n-1 in colex order as uint8[C(n,k), k]."""
    return hands_range(k, 0, comb(n, k), n)


#: Chunks :func:`best_of_subsets` cuts the k-hands into (each unranks its first hand).
SUBSET_CHUNKS = 256


def best_of_subsets(n: int, k: int, five: np.ndarray, subsets: np.ndarray, binom: np.ndarray,
                    out: np.ndarray) -> None:
    """out[colex] = max five-table score over the 5-subsets (``subsets`` positions) of each
    k-hand; Python threads take the chunks (:func:`run_chunks`: no ``parallel=True`` wrapper to
    compile)."""
    run_chunks(lambda ch: _best_chunk(ch, n, k, five, subsets, binom, out), SUBSET_CHUNKS,
               nb.get_num_threads())


@nb.njit(cache=True, nogil=True)
def _best_chunk(ch: int, n: int, k: int, five: np.ndarray, subsets: np.ndarray, binom: np.ndarray,
                out: np.ndarray) -> None:
    """Chunk ``ch`` of :func:`best_of_subsets`."""
    start, stop, cards = colex_chunk(out.shape[0], SUBSET_CHUNKS, ch, 0, k, n, binom)
    for idx in range(start, stop):
        if idx > start:
            next_combination(cards)
        best = 0
        for s in range(subsets.shape[0]):
            sub = 0
            for j in range(5):
                sub += binom[cards[subsets[s, j]], j + 1]
            v = five[sub]
            if v > best:
                best = v
        out[idx] = best


def subset_positions(k: int) -> np.ndarray:
    """All 5-element position subsets of 0..k-1 (ascending), e.g. 21 rows for k = 7."""
    return np.array(list(combinations(range(k), 5)), dtype=np.int64)
