"""The 32 holds of every deal class: final-hand counts by inclusion-exclusion, EVs, best hold.

For a deal D and a hold H (the cards kept), the final hands are the 5-card hands F with
H in F and F disjoint from D minus H. With ``g(S)`` = the subset-count row of S (deals
containing S, per category; for S = D the deal's own category) inclusion-exclusion gives

    N(H) = sum over H <= S <= D of (-1)^|S - H| g(S),

i.e. the superset Moebius transform of ``g`` over the 32 subsets of D: 5 x 16 row updates
per deal instead of enumerating up to 1,533,939 draws.

Exactness: a hold drawing ``d`` cards has ``C(R, d)`` equally likely draws (R = 47, or 48 with
the joker). With ``L = lcm(C(R, d), d = 0..5)`` every hold's expected pay is an integer over
``L * scale`` (``scale`` from fractional pays), so holds are compared exactly in int64 and the
final-hand distribution sums to integers over ``C(deck, 5) * L``.

Tie-break (fixed): among holds with exactly equal EV the best hold is the one keeping the
fewest cards; among those, the lowest hold mask (bit t = t-th card of the deal in ascending
card id order, i.e. keep the lowest cards).
"""

from __future__ import annotations

from math import comb, lcm

import numba as nb
import numpy as np

from pipeline.core.cards import BINOM


def draw_denominators(deck_size: int) -> tuple[np.ndarray, np.ndarray, int]:
    """``(C(R, d) for d = 0..5, L / C(R, d), L)`` with ``R = deck_size - 5``, ``L`` their lcm."""
    rest = deck_size - 5
    ways = [comb(rest, d) for d in range(6)]
    big = lcm(*ways)
    return (np.array(ways, dtype=np.int64), np.array([big // w for w in ways], dtype=np.int64),
            big)


@nb.njit(cache=True, parallel=True)
def _solve(hands: np.ndarray, c0: np.ndarray, c1: np.ndarray, c2: np.ndarray, c3: np.ndarray,
           c4: np.ndarray, pay_cat: np.ndarray, pays: np.ndarray, ways: np.ndarray,
           mult: np.ndarray, scale: int, binom: np.ndarray, ev_out: np.ndarray,
           best_out: np.ndarray, best_num: np.ndarray, best_counts: np.ndarray) -> None:
    n = hands.shape[0]
    k_cat = pays.shape[0]
    for i in nb.prange(n):
        g = np.empty((32, k_cat), np.int64)
        for m in range(32):
            k = 0
            idx = np.int64(0)
            for t in range(5):
                if (m >> t) & 1:
                    k += 1
                    idx += binom[hands[i, t], k]
            for p in range(k_cat):
                g[m, p] = 0
            if k == 5:
                g[m, pay_cat[idx]] = 1
            elif k == 4:
                for p in range(k_cat):
                    g[m, p] = c4[idx, p]
            elif k == 3:
                for p in range(k_cat):
                    g[m, p] = c3[idx, p]
            elif k == 2:
                for p in range(k_cat):
                    g[m, p] = c2[idx, p]
            elif k == 1:
                for p in range(k_cat):
                    g[m, p] = c1[idx, p]
            else:
                for p in range(k_cat):
                    g[m, p] = c0[0, p]
        # superset Moebius transform: g[H] becomes the final-hand counts of hold H
        for b in range(5):
            bit = 1 << b
            for m in range(32):
                if (m & bit) == 0:
                    for p in range(k_cat):
                        g[m, p] -= g[m | bit, p]
        best = -1
        best_e = np.int64(-1)
        best_k = 6
        for m in range(32):
            k = 0
            for t in range(5):
                k += (m >> t) & 1
            d = 5 - k
            s = np.int64(0)
            for p in range(k_cat):
                s += pays[p] * g[m, p]
            ev_out[i, m] = s / ways[d] / scale
            e = s * mult[d]  # exact EV * L * scale
            if e > best_e or (e == best_e and k < best_k):
                best = m
                best_e = e
                best_k = k
        best_out[i] = best
        best_num[i] = best_e
        for p in range(k_cat):
            best_counts[i, p] = g[best, p]


def solve_holds(hands: np.ndarray, counts: list[np.ndarray], pay_cat: np.ndarray,
                pays: np.ndarray, scale: int, deck_size: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """All 32 holds of each deal in ``hands`` (uint8[N, 5], ascending ids).

    Returns ``(ev float64[N, 32], best uint8[N], best_num int64[N], best_counts int64[N, K])``:
    the EV of every hold (bit t of the hold = keep card t), the best hold under the tie-break
    rule, its exact EV as an integer over ``L * scale`` (see :func:`draw_denominators`), and
    the final-hand counts of the best hold (out of ``C(R, cards drawn)``).
    """
    ways, mult, _ = draw_denominators(deck_size)
    n = hands.shape[0]
    k_cat = pays.shape[0]
    ev = np.empty((n, 32), np.float64)
    best = np.empty(n, np.uint8)
    best_num = np.empty(n, np.int64)
    best_counts = np.empty((n, k_cat), np.int64)
    h = np.ascontiguousarray(hands, dtype=np.uint8)
    _solve(h, counts[0], counts[1], counts[2], counts[3], counts[4], pay_cat, pays, ways, mult,
           scale, BINOM, ev, best, best_num, best_counts)
    return ev, best, best_num, best_counts
