"""Subset-count arrays: for every k-card subset (k = 0..4), the deals containing it per category.

``counts[k][i, p]`` = number of 5-card deals that contain the k cards with colex index ``i``
and have pay category ``p``. Sizes C(deck,k) x K (deck = 52, or 53 / 54 with one / two jokers).

Built top down without scattering: a 4-card subset gathers the categories of the 48 deals
that extend it; a k-card subset (k < 4) sums the rows of its (k+1)-card extensions, each deal
being reached 5-k times, so the sum is divided by 5-k exactly. Gathers are race free, so the
kernels run in parallel over subsets (threads taking tasks of :data:`ROWS_PER_TASK` rows).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.parallel import run_rows
from pipeline.videopoker.solver.deals import VP_BINOM, deck_hands

#: rows of subsets handled by one parallel task (scratch arrays are allocated once per task)
ROWS_PER_TASK = 1024


@nb.njit(cache=True, nogil=True)
def _extend_counts(lo: int, hi: int, sub: np.ndarray, deck_size: int, upper: np.ndarray,
                   pay_cat: np.ndarray, use_cat: bool, n_cat: int, binom: np.ndarray,
                   out: np.ndarray) -> None:
    """out[i] = (sum over cards x not in sub[i] of the (k+1)-row of sub[i] + x) / (5 - k), for
    the rows of tasks ``lo:hi`` (threads take tasks: :func:`run_rows`).

    With ``use_cat`` the (k+1)-rows are one-hot deal categories ``pay_cat`` (k = 4).

    The colex index of ``sub[i] + x`` is ``below + binom[x, pos + 1] + above[pos]``, where
    ``pos`` subset cards lie below ``x``: those keep their colex terms (``below``, summed as
    ``x`` passes them) and the ``k - pos`` above shift up one place (``above[pos]``, summed
    once per row). So each extension costs one table read, not a sorted insert and k + 1 reads.
    """
    n, k = sub.shape
    div = 5 - k
    for task in range(lo, hi):
        acc = np.zeros(n_cat, np.int64)
        above = np.zeros(k + 1, np.int64)
        for i in range(task * ROWS_PER_TASK, min(n, (task + 1) * ROWS_PER_TASK)):
            acc[:] = 0
            above[k] = 0
            for t in range(k - 1, -1, -1):
                above[t] = above[t + 1] + binom[np.int64(sub[i, t]), t + 2]
            below = np.int64(0)
            pos = 0
            for x in range(deck_size):
                if pos < k and np.int64(sub[i, pos]) == x:
                    below += binom[x, pos + 1]
                    pos += 1
                    continue
                idx = below + binom[x, pos + 1] + above[pos]
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
        tasks = (sub.shape[0] + ROWS_PER_TASK - 1) // ROWS_PER_TASK
        run_rows(_extend_counts, tasks, sub, deck_size, upper, pay_cat, k == 4, n_cat, VP_BINOM, out)
        counts[k] = out
        upper = out
    return counts
