"""Heads-up preflop matchups: exact win/tie counts of every pair of the 1,326 hands.

Hands are numbered in colex order of their two card ids ``c1 < c2``: ``index = C(c1,1) + C(c2,2)``
(:func:`pipeline.equity.hands.starting_hands.hole_index`). A pair of disjoint hands and its images under
the 24 suit permutations have the same counts, so the 812,175 unordered disjoint pairs are
grouped into 47,008 suit-isomorphism classes; one representative per class is counted exactly
over all 1,712,304 boards (:mod:`pipeline.equity.exact.headsup_preflop`: rank multisets plus flush
corrections) and the counts are copied to every member, oriented by which hand of the pair the
permutation sends where.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations
from math import comb
from typing import NamedTuple

import numba as nb
import numpy as np

from pipeline.core.cards import BINOM
from pipeline.core.constants import N_HOLE_PAIRS
from pipeline.core.fasteval import EvalTables
from pipeline.core.parallel import run_rows
from pipeline.equity.exact.headsup_preflop import headsup_preflop

#: Boards of a heads-up preflop matchup: C(48, 5).
MATCHUP_BOARDS = comb(48, 5)
#: Unordered pairs of disjoint two-card hands: C(52,2) * C(50,2) / 2.
DISJOINT_PAIRS = N_HOLE_PAIRS * comb(50, 2) // 2
#: Classes in the default solving batch between progress reports.
SOLVE_BATCH = 2048


class MatchupClasses(NamedTuple):
    """Suit-isomorphism classes of unordered pairs of disjoint hands."""

    reps: np.ndarray      # int64[K, 2]: representative (lo, hi) hand indices, lo < hi
    first: np.ndarray     # int64[P]: first hand of every disjoint pair (P = 812,175) ...
    second: np.ndarray    # int64[P]: ... and the second (first < second)
    cls: np.ndarray       # int64[P]: the pair's class
    straight: np.ndarray  # bool[P]: the permutation maps ``first`` to the class's ``lo`` hand


def hand_cards() -> np.ndarray:
    """uint8[1326, 2]: the two card ids (ascending) of each hand index."""
    return np.array([(a, b) for b in range(52) for a in range(b)], dtype=np.uint8)


def matchup_classes() -> MatchupClasses:
    """Group the 812,175 unordered disjoint hand pairs into suit-isomorphism classes."""
    cards = hand_cards().astype(np.int64)
    first, second = np.triu_indices(N_HOLE_PAIRS, k=1)
    a0, a1 = cards[first, 0], cards[first, 1]
    b0, b1 = cards[second, 0], cards[second, 1]
    disjoint = (a0 != b0) & (a0 != b1) & (a1 != b0) & (a1 != b1)
    first, second = first[disjoint].astype(np.int64), second[disjoint].astype(np.int64)
    best = np.full(len(first), np.iinfo(np.int64).max)
    straight = np.zeros(len(first), bool)
    for perm in permutations(range(4)):
        p = np.asarray(perm)
        x = 4 * (cards >> 2) + p[cards & 3]
        lo, hi = np.minimum(x[:, 0], x[:, 1]), np.maximum(x[:, 0], x[:, 1])
        image = lo + hi * (hi - 1) // 2                 # hand index each hand maps to
        u, v = image[first], image[second]
        code = np.minimum(u, v) * N_HOLE_PAIRS + np.maximum(u, v)
        better = code < best
        best = np.where(better, code, best)
        straight = np.where(better, u < v, straight)
    codes, cls = np.unique(best, return_inverse=True)
    reps = np.stack([codes // N_HOLE_PAIRS, codes % N_HOLE_PAIRS], axis=1)
    return MatchupClasses(reps, first, second, cls.astype(np.int64), straight)


@nb.njit(cache=True, nogil=True)
def _solve(lo: int, hi: int, reps: np.ndarray, cards: np.ndarray, card_keys: np.ndarray,
           offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray, binom: np.ndarray,
           out: np.ndarray) -> None:
    """out[k] = (wins of reps[k,0], wins of reps[k,1], ties, boards looked at) over all boards,
    for k in ``lo:hi`` (threads take chunks: :func:`run_rows`)."""
    for k in range(lo, hi):
        a = cards[reps[k, 0]]
        b = cards[reps[k, 1]]
        # int64 card ids, as the engine passes them (count._two_hands_preflop): one
        # specialization for both, so warm loads what the build compiled or the reverse
        headsup_preflop(np.int64(a[0]), np.int64(a[1]), np.int64(b[0]), np.int64(b[1]),
                        card_keys, offsets, ranks, flush, binom, out[k])


def solve_classes(reps: np.ndarray, tables: EvalTables,
                  progress: Callable[[float], None] | None = None) -> np.ndarray:
    """int64[K, 4]: per representative (lo, hi): lo's wins, hi's wins, ties, evaluations."""
    out = np.zeros((len(reps), 4), np.int64)
    cards = hand_cards()
    r = np.ascontiguousarray(reps, dtype=np.int64)
    for lo in range(0, len(r), SOLVE_BATCH):
        hi = min(len(r), lo + SOLVE_BATCH)
        run_rows(_solve, hi - lo, r[lo:hi], cards, *tables, BINOM, out[lo:hi])
        if progress is not None:
            progress(hi / len(r))
    return out


def expand(classes: MatchupClasses, solved: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(win, tie) uint32[1326, 1326]: row hand vs column hand; 0 where the hands share a card."""
    w_lo, w_hi, t = solved[classes.cls, 0], solved[classes.cls, 1], solved[classes.cls, 2]
    w_first = np.where(classes.straight, w_lo, w_hi)
    w_second = np.where(classes.straight, w_hi, w_lo)
    win = np.zeros((N_HOLE_PAIRS, N_HOLE_PAIRS), np.uint32)
    tie = np.zeros((N_HOLE_PAIRS, N_HOLE_PAIRS), np.uint32)
    win[classes.first, classes.second] = w_first
    win[classes.second, classes.first] = w_second
    tie[classes.first, classes.second] = t
    tie[classes.second, classes.first] = t
    return win, tie


__all__ = [
    "DISJOINT_PAIRS",
    "MATCHUP_BOARDS",
    "MatchupClasses",
    "expand",
    "hand_cards",
    "matchup_classes",
    "solve_classes",
]
