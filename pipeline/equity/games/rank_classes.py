"""Omaha hands grouped by rank multiset: the classes a compact Omaha range is made of.

A hand of ``hole`` cards has a rank multiset (how many cards of each of the 13 ranks) and, per
rank, a set of suits. The multisets are few (1,820 for four cards, 18,395 for six), and every
hand of one is a choice of ``m_r`` suits out of four for each rank ``r``: ``prod C(4, m_r)``
hands. Multisets with the same multiplicities in rank order (``(2, 1, 1)`` for ``AAKQ`` and
``2245`` alike) share one table of suit choices, so listing the hands of many multisets is one
array operation per multiplicity pattern, never a loop over hands.

Multisets are ordered strongest ranks first (``AAAA``, ``AAAK``, ... ``2222``), and the hands of
one multiset by their suit choices; a listing follows that order.
"""

from __future__ import annotations

import functools
from itertools import combinations, combinations_with_replacement, product
from math import comb

import numpy as np

from pipeline.core.constants import N_RANKS, N_SUITS

#: ``x << np.arange(...)`` over card ids: the id of the lowest card of each rank.
RANK_STEP = 4
#: C(4, k) for k = 0..4 (hands of one rank's cards per multiplicity), and 0 past four.
_C4 = np.array([comb(N_SUITS, k) for k in range(N_SUITS + 1)] + [0] * 3, np.int64)


@functools.cache
def multisets(hole: int) -> np.ndarray:
    """uint8[K, 13]: every rank multiset of ``hole`` cards (at most four of a rank), strongest
    ranks first. Read-only (shared)."""
    arr = np.array(list(combinations_with_replacement(range(N_RANKS - 1, -1, -1), hole)),
                   np.int64)
    counts = (arr[:, :, None] == np.arange(N_RANKS)).sum(axis=1).astype(np.uint8)
    counts = counts[counts.max(axis=1) <= N_SUITS]
    counts.flags.writeable = False
    return counts


@functools.cache
def class_sizes(hole: int) -> np.ndarray:
    """int64[K]: hands in each multiset of :func:`multisets` (``prod C(4, m_r)``)."""
    sizes = _C4[multisets(hole).astype(np.int64)].prod(axis=1)
    sizes.flags.writeable = False
    return sizes


def live_sizes(hole: int, index: np.ndarray, known: int) -> np.ndarray:
    """int64[len(index)]: hands of multisets ``index`` that hold none of the ``known`` cards
    (a bitmap): ``prod C(4 - k_r, m_r)``, ``k_r`` the known cards of rank ``r``."""
    ms = multisets(hole)[index].astype(np.int64)
    k = np.array([bin((known >> (RANK_STEP * r)) & 0xF).count("1") for r in range(N_RANKS)],
                 np.int64)
    free = N_SUITS - k
    # C(free, m) for free, m in 0..4: a small table
    table = np.array([[comb(f, m) for m in range(N_SUITS + 1)] for f in range(N_SUITS + 1)],
                     np.int64)
    return table[free[None, :], ms].prod(axis=1)


@functools.cache
def _suit_table(pattern: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """For multiplicities ``pattern`` (rank order): (int64[A, hole] the suit of each card
    position of every hand, int64[A] its suits holding two or more cards), ``A`` the hands."""
    per_rank = [list(combinations(range(N_SUITS), c)) for c in pattern]
    suits = np.array([sum(choice, ()) for choice in product(*per_rank)], np.int64)
    many = sum((suits == s).sum(axis=1) >= 2 for s in range(N_SUITS))
    for a in (suits, many):
        a.flags.writeable = False
    return suits, np.asarray(many, np.int64)


@functools.cache
def _groups(hole: int) -> tuple[np.ndarray, np.ndarray, tuple[tuple[int, ...], ...]]:
    """(int64[K] the pattern number of each multiset, int64[K, hole] its ranks ascending with
    repeats (the rank of each card position), the patterns)."""
    ms = multisets(hole)
    keys: dict[tuple[int, ...], int] = {}
    group = np.empty(len(ms), np.int64)
    for i, row in enumerate(ms.tolist()):
        group[i] = keys.setdefault(tuple(c for c in row if c), len(keys))
    ranks = np.repeat(np.tile(np.arange(N_RANKS), (len(ms), 1)).ravel(),
                      ms.astype(np.int64).ravel()).reshape(len(ms), hole)
    return group, ranks, tuple(keys)


def hands_of(hole: int, index: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every hand of the multisets ``index`` (ascending indexes into :func:`multisets`), in
    listing order: (int64 card bitmaps, int64 the multiset of each, int64 its suits holding two
    or more cards)."""
    index = np.asarray(index, np.int64)
    if not len(index):
        empty = np.zeros(0, np.int64)
        return empty, empty, empty
    group, ranks, patterns = _groups(hole)
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    for g in np.unique(group[index]).tolist():
        sel = index[group[index] == g]
        suits, many = _suit_table(patterns[g])
        bits = np.zeros((len(sel), len(suits)), np.int64)
        r = ranks[sel]
        for j in range(hole):
            bits |= np.left_shift(np.int64(1), RANK_STEP * r[:, j, None] + suits[None, :, j])
        order = np.repeat(np.searchsorted(index, sel), len(suits))
        parts.append((bits.ravel(), np.repeat(sel, len(suits)), np.tile(many, len(sel)), order))
    bits, owner, many, order = (np.concatenate(p) for p in zip(*parts))
    by = np.argsort(order, kind="stable")
    return bits[by], owner[by], many[by]


__all__ = ["multisets", "class_sizes", "live_sizes", "hands_of", "N_RANKS", "N_SUITS"]
