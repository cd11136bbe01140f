"""The last seat of the exact range walk, counted instead of walked.

On a complete board the last seat's live hands have fixed scores. For an assignment of the
other seats with best score ``s`` and cards ``C`` (pairwise disjoint), the last seat's hands
below ``s`` that share no card with ``C`` are, by inclusion-exclusion over the cards (a hand
has two cards, so it holds at most two of ``C``)::

    below(s) - sum over c in C of below_c(s) + sum over pairs {c, d} in C of [hand {c, d} below s]

where ``below_c`` counts the hands holding card ``c``. So, per board, the hands are sorted by
score once; for every position ``i`` of that order and every card ``c`` the prefix count (and
prefix weight) of the first ``i`` hands holding ``c`` is kept, and every other seat's hand
learns where its score falls in the order. An assignment then costs a few table reads per
card and per pair of cards instead of a visit to every hand of the last seat. The counts are
the same integers as the visits (the range tests compare them with a brute force).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.constants import DECK_SIZE
from pipeline.equity.exact.scoresort import KEY_SHIFT, sort_by_score

#: Marks a pair of cards that is no live hand of the counted seat on this board.
ABSENT = 1 << 30
#: Low bits of a sort key holding the hand's row within its seat.
ROW_MASK = (1 << KEY_SHIFT) - 1


@nb.njit(cache=True)
def prepare_counted(score: np.ndarray, lo: int, hi: int, hand_a: np.ndarray, hand_b: np.ndarray,
                    hand_w: np.ndarray, weighted: bool, keyb: np.ndarray, tmp: np.ndarray,
                    radix: np.ndarray, lw: np.ndarray, ls: np.ndarray, tw: np.ndarray,
                    cc: np.ndarray, cw: np.ndarray, pairpos: np.ndarray) -> int:
    """Sort the live hands of rows ``lo:hi`` (``score >= 0``) by score and fill, for positions
    ``i = 0..n`` of that order (n live hands, the answer): ``ls[i]`` the i-th score,
    ``cc[i * 52 + c]`` how many of the first ``i`` hands hold card ``c``, ``pairpos[a * 52 + b]``
    the position of hand {a, b}; with ``weighted`` also ``lw`` (weights in order), ``tw[i]``
    (prefix weights) and ``cw`` (prefix weights per card). Undo ``pairpos`` with
    :func:`clear_counted` before the next board."""
    n = 0
    for k in range(lo, hi):
        if score[k] >= 0:
            keyb[n] = (score[k] << KEY_SHIFT) | (k - lo)
            n += 1
    sort_by_score(keyb, n, tmp, radix)
    for c in range(DECK_SIZE):
        cc[c] = 0
    if weighted:
        tw[0] = 0.0
        for c in range(DECK_SIZE):
            cw[c] = 0.0
    for i in range(n):
        key = keyb[i]
        k = lo + (key & ROW_MASK)
        ls[i] = key >> KEY_SHIFT
        a = hand_a[k]
        b = hand_b[k]
        pairpos[a * DECK_SIZE + b] = i
        pairpos[b * DECK_SIZE + a] = i
        row = i * DECK_SIZE
        nxt = row + DECK_SIZE
        for c in range(DECK_SIZE):
            cc[nxt + c] = cc[row + c]
        cc[nxt + a] += 1
        cc[nxt + b] += 1
        if weighted:
            w = hand_w[k]
            lw[i] = w
            tw[i + 1] = tw[i] + w
            for c in range(DECK_SIZE):
                cw[nxt + c] = cw[row + c]
            cw[nxt + a] += w
            cw[nxt + b] += w
    return n


@nb.njit(cache=True)
def clear_counted(keyb: np.ndarray, n: int, lo: int, hand_a: np.ndarray, hand_b: np.ndarray,
                  pairpos: np.ndarray) -> None:
    """Mark the pairs :func:`prepare_counted` set as absent again."""
    for i in range(n):
        k = lo + (keyb[i] & ROW_MASK)
        pairpos[hand_a[k] * DECK_SIZE + hand_b[k]] = ABSENT
        pairpos[hand_b[k] * DECK_SIZE + hand_a[k]] = ABSENT


@nb.njit(cache=True)
def place_scores(score: np.ndarray, lo: int, hi: int, ls: np.ndarray, n: int, below: np.ndarray,
                 upto: np.ndarray) -> None:
    """For rows ``lo:hi`` with a live score: how many of the ascending ``ls[:n]`` are below it
    (``below``) and at most it (``upto``)."""
    for k in range(lo, hi):
        s = score[k]
        if s < 0:
            continue
        a, b = 0, n
        while a < b:
            mid = (a + b) >> 1
            if ls[mid] < s:
                a = mid + 1
            else:
                b = mid
        below[k] = a
        b = n
        while a < b:
            mid = (a + b) >> 1
            if ls[mid] <= s:
                a = mid + 1
            else:
                b = mid
        upto[k] = a


__all__ = ["ABSENT", "clear_counted", "place_scores", "prepare_counted"]
