"""Where seats stand at a showdown: the bookkeeping every counting and sampling kernel shares.

Both helpers are inlined into the calling kernel (``inline="always"``), so a hot loop keeps
its code as if written out in place.
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(inline="always", cache=True)
def add_score(v: int, best: int, holders: int) -> tuple[int, int]:
    """(best score, how many seats hold it) after one more seat scores ``v``."""
    if v > best:
        return np.int64(v), np.int64(1)
    if v == best:
        return np.int64(best), np.int64(holders + 1)
    return np.int64(best), np.int64(holders)


@nb.njit(inline="always", cache=True)
def rivals(scores: np.ndarray, p: int) -> tuple[bool, int]:
    """(whether another seat of ``scores`` beats seat ``p``, how many others tie it)."""
    s = scores[p]
    beaten = False
    ties = 0
    for q in range(scores.shape[0]):
        if q != p:
            if scores[q] > s:
                beaten = True
            elif scores[q] == s:
                ties += 1
    return beaten, ties


__all__ = ["add_score", "rivals"]
