"""Scoring every two-card hand on one complete board.

The all-hands passes look scores up in ``seven.h5`` by the colex index of board plus hand,
three adds once the board is prepared (:func:`prepare_board`, :func:`index7`); exact counting
scores the live pairs on the cache-resident evaluator instead (:func:`score_live_pairs`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.constants import BOARD_CARDS, DECK_SIZE
from pipeline.core.fasteval import hand_score


@nb.njit(cache=True)
def board_scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-thread buffers ``(board, parts, gap)`` for :func:`prepare_board` and :func:`index7`."""
    return (np.empty(BOARD_CARDS, np.int64), np.empty((BOARD_CARDS + 1, BOARD_CARDS + 1), np.int64),
            np.empty(DECK_SIZE, np.int64))


@nb.njit(cache=True)
def prepare_board(board: np.ndarray, binom: np.ndarray, parts: np.ndarray, gap: np.ndarray) -> None:
    """For a sorted 5-card board: gap[c] = board cards below c, parts[ga, gb] = board's colex part.

    With hole cards a < b, ``index7 = parts[gap[a], gap[b]] + C(a, gap[a]+1) + C(b, gap[b]+2)``:
    board card k sits at position k + [a < b_k] + [b < b_k] among the seven, and a < b_k
    exactly when k >= gap[a]. This turns each 7-card lookup on a fixed board into 3 adds.
    """
    j = 0
    for c in range(DECK_SIZE):
        while j < BOARD_CARDS and board[j] < c:
            j += 1
        gap[c] = j
    for ga in range(BOARD_CARDS + 1):
        for gb in range(ga, BOARD_CARDS + 1):
            s = 0
            for k in range(BOARD_CARDS):
                s += binom[board[k], k + 1 + (1 if k >= ga else 0) + (1 if k >= gb else 0)]
            parts[ga, gb] = s


@nb.njit(cache=True)
def index7(a: int, b: int, parts: np.ndarray, gap: np.ndarray, binom: np.ndarray) -> int:
    """Colex index of board + {a, b} (any order) after :func:`prepare_board`."""
    if a > b:
        a, b = b, a
    return parts[gap[a], gap[b]] + binom[a, gap[a] + 1] + binom[b, gap[b] + 2]


@nb.njit(cache=True)
def score_live_pairs(live: np.ndarray, m: int, bkey: np.uint64, bmask: np.uint64, keys: np.ndarray,
                     offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray, out: np.ndarray) -> int:
    """out[k] = score of the k-th pair {live[i], live[j]} (i < j, i-major) of the m sorted live
    cards on a complete board, whose evaluator key and card mask are ``bkey``/``bmask``
    (:mod:`pipeline.core.fasteval`); returns the number of pairs, C(m, 2). Each pair adds its
    two cards to the board's key, and no lookup leaves the cache (a 7-card table lookup per
    pair misses it every time)."""
    k = 0
    one = np.uint64(1)
    for i in range(m):
        a = live[i]
        ka = bkey + keys[a]
        ma = bmask | (one << np.uint64(a))
        for j in range(i + 1, m):
            b = live[j]
            out[k] = hand_score(ka + keys[b], ma | (one << np.uint64(b)), offsets, ranks, flush)
            k += 1
    return k


__all__ = ["board_scratch", "prepare_board", "index7", "score_live_pairs"]
