"""Caribbean Stud's dealer counts: for a player's five cards P and the dealer's up card u, how
many of the C(46, 4) = 163,185 dealer hands (u and four of the other 46 cards) fail to qualify,
lose to P, tie it, or beat it — without enumerating them.

The dealer hands holding u and disjoint from P with a score below t are, by inclusion–exclusion
over the subsets S of P, ``sum_S (-1)^|S| g(S + u, t)`` where ``g(T, t)`` counts the five-card
hands holding T with a score below t. ``g`` is read from tables built once per process:

* |T| = 1, 2: cumulative counts per card and per pair of cards (``cum1``, ``cum2``: one read);
* |T| = 3, 4: the sorted scores of the 1,176 (48) hands holding each 3 (4) cards (a binary
  search), plus the count below the qualifying score precomputed per subset;
* |T| = 5: the hand's own score; |T| = 6 holds no five-card hand.

So one (P, u) costs 31 subset terms for the three thresholds (the qualifier, P's score and one
above it). The kernel runs in parallel over the player's suit classes.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numba as nb
import numpy as np

from pipeline.casino.hands import five_card_ranking, five_card_scores
from pipeline.casino.subsets import colex_hands
from pipeline.core.cards import BINOM

#: dealer hands per (player hand, up card): four more cards from 46
DEALER_HANDS = 163_185
#: outcome columns of the counts
NOT_QUALIFIED, PLAYER_WINS, PUSH, DEALER_WINS = range(4)


class DealerTables(NamedTuple):
    """The ``g(T, t)`` tables (see the module docstring); scores as int32."""

    score5: np.ndarray      # uint16[C(52,5)]
    cum1: np.ndarray        # int32[52, S + 2]
    cum2: np.ndarray        # int32[C(52,2), S + 2]
    sorted3: np.ndarray     # uint16[C(52,3), 1176]
    sorted4: np.ndarray     # uint16[C(52,4), 48]


@nb.njit(cache=True)
def _fill_sorted(hands: np.ndarray, order: np.ndarray, score: np.ndarray, binom: np.ndarray,
                 cum1: np.ndarray, cum2: np.ndarray, sorted3: np.ndarray, sorted4: np.ndarray) -> None:
    """Walk the hands in ascending score order: append each hand's score to the sorted lists of
    its 3- and 4-card subsets, and count it per card and per pair (``cum`` as counts here)."""
    fill3 = np.zeros(sorted3.shape[0], np.int64)
    fill4 = np.zeros(sorted4.shape[0], np.int64)
    for j in range(order.shape[0]):
        h = order[j]
        s = score[h]
        c = hands[h]
        for a in range(5):
            cum1[c[a], s + 1] += 1
            for b in range(a + 1, 5):
                cum2[binom[c[a], 1] + binom[c[b], 2], s + 1] += 1
                for d in range(b + 1, 5):
                    i3 = binom[c[a], 1] + binom[c[b], 2] + binom[c[d], 3]
                    sorted3[i3, fill3[i3]] = s
                    fill3[i3] += 1
        for skip in range(5):
            i4 = 0
            t = 0
            for a in range(5):
                if a != skip:
                    t += 1
                    i4 += binom[c[a], t]
            sorted4[i4, fill4[i4]] = s
            fill4[i4] += 1


@functools.cache
def dealer_tables() -> DealerTables:
    """The tables, built once per process (about 150 MB)."""
    score = five_card_scores()
    n = five_card_ranking().n_scores
    hands = colex_hands(5)
    order = np.argsort(score, kind="stable").astype(np.int64)
    cum1 = np.zeros((52, n + 2), np.int32)
    cum2 = np.zeros((1326, n + 2), np.int32)
    sorted3 = np.zeros((22_100, 1_176), np.uint16)
    sorted4 = np.zeros((270_725, 48), np.uint16)
    _fill_sorted(hands, order, score, BINOM, cum1, cum2, sorted3, sorted4)
    # cum[x, t] = hands holding x with a score below t (counts sat at t + 1)
    np.cumsum(cum1, axis=1, out=cum1)
    np.cumsum(cum2, axis=1, out=cum2)
    return DealerTables(score, cum1, cum2, sorted3, sorted4)


@nb.njit(cache=True, inline="always")
def _below(row: np.ndarray, t: int) -> int:
    """How many entries of the ascending ``row`` are below ``t`` (binary search)."""
    lo, hi = 0, row.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if row[mid] < t:
            lo = mid + 1
        else:
            hi = mid
    return lo


@nb.njit(cache=True, parallel=True)
def _counts(hands: np.ndarray, pscore: np.ndarray, q: int, score5: np.ndarray, cum1: np.ndarray,
            cum2: np.ndarray, sorted3: np.ndarray, sorted4: np.ndarray, binom: np.ndarray,
            total: int, out: np.ndarray) -> None:
    """out[i, u] = (not qualified, player wins, push, dealer wins) dealer hands for player hand
    ``hands[i]`` (score ``pscore[i]``) and up card u; rows of u in the hand stay zero."""
    for i in nb.prange(hands.shape[0]):
        p = np.int64(pscore[i])
        t = np.empty(6, np.int64)
        for u in range(52):
            held = False
            for a in range(5):
                if hands[i, a] == u:
                    held = True
            if held:
                continue
            nq = np.int64(0)
            lt = np.int64(0)
            le = np.int64(0)
            for mask in range(31):  # subsets S of P without all five: |S + u| <= 5
                k = 0
                placed = False
                for a in range(5):
                    if mask >> a & 1:
                        c = np.int64(hands[i, a])
                        if not placed and u < c:
                            t[k] = u
                            k += 1
                            placed = True
                        t[k] = c
                        k += 1
                if not placed:
                    t[k] = u
                    k += 1
                idx = np.int64(0)
                for j in range(k):
                    idx += binom[t[j], j + 1]
                sign = 1 if k % 2 == 1 else -1  # |S| = k - 1
                if k == 1:
                    a0 = np.int64(cum1[u, q])
                    a1 = np.int64(cum1[u, p])
                    a2 = np.int64(cum1[u, p + 1])
                elif k == 2:
                    a0 = np.int64(cum2[idx, q])
                    a1 = np.int64(cum2[idx, p])
                    a2 = np.int64(cum2[idx, p + 1])
                elif k == 3:
                    a0 = np.int64(_below(sorted3[idx], q))
                    a1 = np.int64(_below(sorted3[idx], p))
                    a2 = np.int64(_below(sorted3[idx], p + 1))
                elif k == 4:
                    a0 = np.int64(_below(sorted4[idx], q))
                    a1 = np.int64(_below(sorted4[idx], p))
                    a2 = np.int64(_below(sorted4[idx], p + 1))
                else:
                    s = np.int64(score5[idx])
                    a0 = np.int64(s < q)
                    a1 = np.int64(s < p)
                    a2 = np.int64(s < p + 1)
                nq += sign * a0
                lt += sign * a1
                le += sign * a2
            win = lt - nq if p >= q else 0
            tie = le - lt if p >= q else 0
            out[i, u, 0] = nq
            out[i, u, 1] = win
            out[i, u, 2] = tie
            out[i, u, 3] = total - nq - win - tie


def dealer_counts(hands: np.ndarray, qualifier: int) -> np.ndarray:
    """int32[n, 52, 4]: per player hand (rows of ``hands``, ascending ids) and up card, the
    dealer hands not qualifying, losing to the player, tying, and winning."""
    dt = dealer_tables()
    hands = np.ascontiguousarray(hands, np.uint8)
    idx = np.zeros(len(hands), np.int64)
    for j in range(5):
        idx += BINOM[hands[:, j].astype(np.int64), j + 1]
    pscore = dt.score5[idx].astype(np.int64)
    out = np.zeros((len(hands), 52, 4), np.int32)
    _counts(hands, pscore, int(qualifier), dt.score5, dt.cum1, dt.cum2, dt.sorted3, dt.sorted4, BINOM,
            DEALER_HANDS, out)
    return out


__all__ = ["DEALER_HANDS", "NOT_QUALIFIED", "PLAYER_WINS", "PUSH", "DEALER_WINS", "DealerTables",
           "dealer_tables", "dealer_counts"]
