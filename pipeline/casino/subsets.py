"""Counting hands by their subsets: the video-poker subset-count method, generalised.

For a set of hands (rows of ascending card ids) and a value per hand (a score or a pay line),
:func:`superset_counts` gives, for every subset of ``size`` cards, how many of the hands contain
it with each value; :func:`cumulative` turns per-value counts into "how many below value s".
Inclusion–exclusion over the subsets of a player's cards then counts the hands *disjoint* from
the player's cards (the dealer's hands, the completions of a draw):

    #{D : D ∩ P = ∅, value(D) < s} = Σ_{S ⊆ P} (-1)^{|S|} #{D ⊇ S : value(D) < s}

Everything is int64 and exact.

>>> from pipeline.core.combos import all_hands
>>> h = all_hands(2)
>>> int(superset_counts(h, np.zeros(len(h), np.int64), 1, 1)[0, 0])   # hands holding 2c
51
"""

from __future__ import annotations

import functools
from itertools import combinations

import numpy as np

from pipeline.core.cards import BINOM, n_combinations


def colex(cards: np.ndarray) -> np.ndarray:
    """int64 colex index of every row of ascending card ids (``(n, k)``; k = 0 gives zeros)."""
    cards = np.asarray(cards)
    out = np.zeros(cards.shape[0], np.int64)
    for i in range(cards.shape[1]):
        out += BINOM[cards[:, i].astype(np.int64), i + 1]
    return out


@functools.cache
def colex_hands(k: int) -> np.ndarray:
    """Every ``k``-card hand as uint8[C(52, k), k], row ``i`` = the ascending cards of colex
    index ``i`` (numpy only: no kernel to compile; read-only)."""
    out = np.zeros((1, 0), np.uint8)
    for size in range(1, k + 1):
        # colex order: by top card, and below it the smaller hands in their own colex order
        parts = []
        for top in range(size - 1, 52):
            below = out[:n_combinations(size - 1, top)]
            parts.append(np.column_stack([below, np.full(len(below), top, np.uint8)]))
        out = np.concatenate(parts)
    out.flags.writeable = False
    return out


def superset_counts(hands: np.ndarray, value: np.ndarray, n_values: int, size: int) -> np.ndarray:
    """int64[C(52, size), n_values]: per ``size``-card subset (by colex index), the number of
    ``hands`` (ascending card ids per row) containing it, by ``value`` (0..n_values-1)."""
    k = hands.shape[1]
    rows = n_combinations(size)
    flat = np.zeros(rows * n_values, np.int64)
    v = np.asarray(value, np.int64)
    for pos in combinations(range(k), size):
        idx = colex(hands[:, list(pos)]) * n_values + v
        flat += np.bincount(idx, minlength=rows * n_values)
    return flat.reshape(rows, n_values)


def cumulative(counts: np.ndarray) -> np.ndarray:
    """``out[..., s] = counts[..., :s].sum()``: how many are below value ``s`` (one column more
    than ``counts``, so ``out[..., n_values]`` is the total)."""
    shape = counts.shape[:-1] + (counts.shape[-1] + 1,)
    out = np.zeros(shape, np.int64)
    np.cumsum(counts, axis=-1, out=out[..., 1:])
    return out


def subsets_of(cards: np.ndarray, size: int) -> list[np.ndarray]:
    """The colex indexes of every ``size``-card subset of each row of ``cards`` (one array per
    subset position, in :func:`itertools.combinations` order)."""
    return [colex(cards[:, list(pos)]) for pos in combinations(range(cards.shape[1]), size)]


@functools.cache
def supersets(k: int) -> np.ndarray:
    """int64[C(52, k), 52 - k]: for every k-card hand (colex order), the colex indexes of the
    (k + 1)-card hands holding it (one per card it lacks, ascending): the gather that sums a
    quantity over "every next card" with no scatter (read-only)."""
    hands = colex_hands(k).astype(np.int64)
    n = len(hands)
    out = np.empty((n, 52 - k), np.int64)
    fill = np.zeros(n, np.int64)
    rows = np.arange(n)
    for c in range(52):
        below = (hands < c).sum(axis=1)
        free = ~(hands == c).any(axis=1)
        idx = BINOM[c, below + 1]
        for t in range(k):
            idx = idx + np.where(t < below, BINOM[hands[:, t], t + 1], BINOM[hands[:, t], t + 2])
        out[rows[free], fill[free]] = idx[free]
        fill += free
    out.flags.writeable = False
    return out


__all__ = ["colex", "colex_hands", "superset_counts", "cumulative", "subsets_of", "supersets"]
