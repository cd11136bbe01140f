"""The colex index of a 5-card board plus two hole cards, in three adds once the board is fixed.

Every kernel that scores many two-card hands on one board (exact counting, the all-hands
passes, Monte Carlo on the 7-card table) looks scores up in ``seven.h5`` by this index.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.constants import BOARD_CARDS, DECK_SIZE


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
def index7_direct(board: np.ndarray, a: int, b: int, binom: np.ndarray) -> int:
    """Colex index of a sorted 5-card board plus {a, b}, without a prepared board (for a few
    lookups per board, where preparing would cost more than it saves)."""
    if a > b:
        a, b = b, a
    ga = 0
    gb = 0
    for k in range(BOARD_CARDS):
        if board[k] < a:
            ga += 1
        if board[k] < b:
            gb += 1
    s = binom[a, ga + 1] + binom[b, gb + 2]
    for k in range(BOARD_CARDS):
        s += binom[board[k], k + 1 + (1 if k >= ga else 0) + (1 if k >= gb else 0)]
    return s


@nb.njit(cache=True)
def score_pairs(live: np.ndarray, m: int, table: np.ndarray, parts: np.ndarray, gap: np.ndarray,
                binom: np.ndarray, out: np.ndarray) -> int:
    """out[k] = 7-card score of the k-th pair {live[i], live[j]} (i < j, i-major) of the m
    sorted live cards on the prepared board; returns the number of pairs, C(m, 2)."""
    k = 0
    for i in range(m):
        a = live[i]
        for j in range(i + 1, m):
            b = live[j]
            out[k] = table[parts[gap[a], gap[b]] + binom[a, gap[a] + 1] + binom[b, gap[b] + 2]]
            k += 1
    return k


__all__ = ["board_scratch", "prepare_board", "index7", "index7_direct", "score_pairs"]
