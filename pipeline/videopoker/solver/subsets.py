"""Subset-count arrays: for every k-card subset (k = 0..4), the deals containing it per category.

``counts[k][i, p]`` = number of 5-card deals that contain the k cards with colex index ``i``
and have pay category ``p``. Sizes C(deck,k) x K (deck = 52, or 53 / 54 with one / two jokers).

Built top down without scattering: a 4-card subset gathers the categories of the 48 deals
that extend it; a k-card subset (k < 4) sums the rows of its (k+1)-card extensions, each deal
being reached 5-k times, so the sum is divided by 5-k exactly. Gathers are race free, so the
kernels run in parallel over subsets.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.videopoker.solver.deals import VP_BINOM, deck_hands


@nb.njit(cache=True, parallel=True)
def _extend_counts(sub: np.ndarray, deck_size: int, upper: np.ndarray, pay_cat: np.ndarray,
                   use_cat: bool, n_cat: int, binom: np.ndarray, out: np.ndarray) -> None:
    """out[i] = (sum over cards x not in sub[i] of the (k+1)-row of sub[i] + x) / (5 - k).

    With ``use_cat`` the (k+1)-rows are one-hot deal categories ``pay_cat`` (k = 4).
    """
    n, k = sub.shape
    div = 5 - k
    for i in nb.prange(n):
        acc = np.zeros(n_cat, np.int64)
        cards = np.empty(k + 1, np.int64)
        for x in range(deck_size):
            # insert x into the sorted subset; skip cards already in it
            pos = 0
            dup = False
            for t in range(k):
                c = np.int64(sub[i, t])
                if c == x:
                    dup = True
                if c < x:
                    pos = t + 1
            if dup:
                continue
            for t in range(pos):
                cards[t] = sub[i, t]
            cards[pos] = x
            for t in range(pos, k):
                cards[t + 1] = sub[i, t]
            idx = np.int64(0)
            for t in range(k + 1):
                idx += binom[cards[t], t + 1]
            if use_cat:
                acc[pay_cat[idx]] += 1
            else:
                for p in range(n_cat):
                    acc[p] += upper[idx, p]
        for p in range(n_cat):
            out[i, p] = acc[p] // div


def subset_counts(pay_cat: np.ndarray, n_cat: int, deck_size: int = 52) -> list[np.ndarray]:
    """``[counts0, ..., counts4]``, ``counts_k`` uint32[C(deck,k), n_cat] (see module doc)."""
    counts: list[np.ndarray] = [np.empty((0, 0), np.uint32)] * 5
    dummy = np.zeros((1, n_cat), np.uint32)
    upper = dummy
    for k in range(4, -1, -1):
        sub = deck_hands(deck_size, k)
        out = np.empty((sub.shape[0], n_cat), np.uint32)
        _extend_counts(sub, deck_size, upper, pay_cat, k == 4, n_cat, VP_BINOM, out)
        counts[k] = out
        upper = out
    return counts
