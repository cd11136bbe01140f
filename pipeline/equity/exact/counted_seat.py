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
def prepare_counted(score: np.ndarray, lo: int, hi: int, prev: int, hand_a: np.ndarray,
                    hand_b: np.ndarray, hand_w: np.ndarray, weighted: bool, keyb: np.ndarray,
                    tmp: np.ndarray, radix: np.ndarray, lw: np.ndarray, ls: np.ndarray,
                    tw: np.ndarray, cc: np.ndarray, cw: np.ndarray, pairpos: np.ndarray,
                    below: np.ndarray, upto: np.ndarray) -> int:
    """The counted seat's tables on one board. Sort its live hands (rows ``lo:hi`` with
    ``score >= 0``) by score and fill, for positions ``i = 0..n`` of that order (n live hands,
    the answer): ``ls[i]`` the i-th score, ``cc[i * 52 + c]`` how many of the first ``i`` hands
    hold card ``c``, ``pairpos[a * 52 + b]`` the position of hand {a, b} (the ``prev`` hands of
    the previous board, still in ``keyb``, are marked absent first); with ``weighted`` also
    ``lw`` (weights in order), ``tw[i]`` (prefix weights) and ``cw`` (prefix weights per card).
    Every row ``k < lo`` with a live score learns how many of the sorted scores are below it
    (``below[k]``) and at most it (``upto[k]``)."""
    for i in range(prev):
        k = lo + (keyb[i] & ROW_MASK)
        pairpos[hand_a[k] * DECK_SIZE + hand_b[k]] = ABSENT
        pairpos[hand_b[k] * DECK_SIZE + hand_a[k]] = ABSENT
    n = np.int64(0)  # not a literal: one specialization of the sort
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
    for k in range(lo):
        s = score[k]
        if s < 0:
            continue
        x, y = np.int64(0), n
        while x < y:
            mid = (x + y) >> 1
            if ls[mid] < s:
                x = mid + 1
            else:
                y = mid
        below[k] = x
        y = n
        while x < y:
            mid = (x + y) >> 1
            if ls[mid] <= s:
                x = mid + 1
            else:
                y = mid
        upto[k] = x
    return n


__all__ = ["ABSENT", "prepare_counted"]
