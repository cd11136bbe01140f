"""Uniform random deals for Monte Carlo kernels: a partial Fisher-Yates shuffle of a deck array.

Drawing the first ``need`` positions without replacement makes ``deck[:need]`` a uniformly
random ordered draw from ``deck[:n]``: no collisions to reject and no patched cards, so every
deal is equally likely. The generator is the counter-based one of :mod:`pipeline.core.rng`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.combos import sort_small
from pipeline.core.rng import below


@nb.njit(cache=True)
def partial_shuffle(state: np.ndarray, deck: np.ndarray, n: int, need: int) -> None:
    """Shuffle ``deck[:need]`` into a uniform random ordered draw from ``deck[:n]`` in place."""
    for i in range(need):
        j = i + below(state, n - i)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp


@nb.njit(inline="always", cache=True)
def complete_board(board: np.ndarray, board0: np.ndarray, dealt: np.ndarray, r: int) -> None:
    """``board`` = the known cards ``board0`` plus the first ``r`` of ``dealt``, sorted ascending
    (the order the colex index of a board wants)."""
    n0 = board0.shape[0]
    for i in range(n0):
        board[i] = board0[i]
    for i in range(r):
        board[n0 + i] = dealt[i]
    sort_small(board, n0 + r)


__all__ = ["complete_board", "partial_shuffle"]
