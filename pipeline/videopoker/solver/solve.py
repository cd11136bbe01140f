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

Tie-break (the paytable's ``tie_break``): among holds with exactly equal EV,
``fewest-cards`` takes the one keeping the fewest cards, then the lowest hold mask (bit t =
t-th card of the deal in ascending card id order, i.e. keep the lowest cards);
``low-variance`` first takes the hold with the smaller second moment of its pay (equal EVs, so
the smaller variance), compared exactly as ``S2(a) * C(R, d_b)`` vs ``S2(b) * C(R, d_a)``, then
the same rule; ``lowest-mask`` takes the lowest hold mask, whatever the number of cards (the
first tied hold when the holds are enumerated as binary numbers over the deal's cards in
ascending id order, i.e. by rank: the rule Wizard of Odds' published tables follow).

Second-best hold: the best hold (same ordering) among the holds whose EV is *strictly* lower
than the best EV, so its cost ``best EV - second EV`` is the cheapest real mistake on that deal
(holds tied with the best cost nothing and are no mistake).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from math import comb, lcm

import numba as nb
import numpy as np

from pipeline.core.cancel import checkpoint
from pipeline.core.parallel import run_rows
from pipeline.videopoker.solver.deals import VP_BINOM

#: Tie-break codes for the kernel, by the paytable's ``tie_break`` name.
TIE_CODES = {"fewest-cards": 0, "low-variance": 1, "lowest-mask": 2}
NO_HOLD = 255  # second_hold of a deal whose 32 holds all have one EV (none is a mistake)
#: deals solved per kernel call: a server's deadline or cancel is checked between calls (about
#: a tenth of a second of a 52-card game's solve each)
SOLVE_CHUNK = 16_384


def draw_denominators(deck_size: int) -> tuple[np.ndarray, np.ndarray, int]:
    """``(C(R, d) for d = 0..5, L / C(R, d), L)`` with ``R = deck_size - 5``, ``L`` their lcm."""
    rest = deck_size - 5
    ways = [comb(rest, d) for d in range(6)]
    big = lcm(*ways)
    return (np.array(ways, dtype=np.int64), np.array([big // w for w in ways], dtype=np.int64),
            big)


@nb.njit(cache=True)
def better_hold(a: int, b: int, e: np.ndarray, kept: np.ndarray, s2: np.ndarray, ways: np.ndarray,
            mode: int) -> bool:
    """Is hold ``a`` preferred to hold ``b`` (exact EV, then the tie-break rule)?"""
    if e[a] != e[b]:
        return e[a] > e[b]
    if mode == 2:
        return a < b
    if mode == 1:
        lhs = s2[a] * ways[5 - kept[b]]
        rhs = s2[b] * ways[5 - kept[a]]
        if lhs != rhs:
            return lhs < rhs
    if kept[a] != kept[b]:
        return kept[a] < kept[b]
    return a < b


@nb.njit(cache=True, inline="always")
def hold_counts(hands: np.ndarray, i: int, c0: np.ndarray, c1: np.ndarray, c2: np.ndarray,
                 c3: np.ndarray, c4: np.ndarray, pay_cat: np.ndarray, binom: np.ndarray,
                 g: np.ndarray, kept: np.ndarray) -> None:
    """``g[H, p]`` = final hands in pay category ``p`` when deal ``i`` holds the cards of bit
    mask ``H`` (32 holds), ``kept[H]`` = cards held: the subset counts of each held subset,
    then a superset Moebius transform (counts over supersets become counts of exactly ``H``)."""
    k_cat = g.shape[1]
    for m in range(32):
        k = 0
        idx = np.int64(0)
        for t in range(5):
            if (m >> t) & 1:
                k += 1
                idx += binom[hands[i, t], k]
        kept[m] = k
        if k == 5:
            for p in range(k_cat):
                g[m, p] = 0
            g[m, pay_cat[idx]] = 1
        else:  # k cards held: row idx (0 when none) of the k-card subset counts
            src = c4 if k == 4 else c3 if k == 3 else c2 if k == 2 else c1 if k == 1 else c0
            for p in range(k_cat):
                g[m, p] = src[idx, p]
    for b in range(5):
        bit = 1 << b
        for m in range(32):
            if (m & bit) == 0:
                for p in range(k_cat):
                    g[m, p] -= g[m | bit, p]


@nb.njit(cache=True, nogil=True)
def _solve(lo: int, hi: int, hands: np.ndarray, c0: np.ndarray, c1: np.ndarray, c2: np.ndarray,
           c3: np.ndarray, c4: np.ndarray, pay_cat: np.ndarray, pays: np.ndarray, ways: np.ndarray,
           mult: np.ndarray, scale: int, mode: int, binom: np.ndarray, ev_out: np.ndarray,
           best_out: np.ndarray, best_num: np.ndarray, best_counts: np.ndarray,
           second_out: np.ndarray, second_num: np.ndarray) -> None:
    """Deals ``lo:hi`` (threads run chunks of rows side by side: :func:`run_rows`)."""
    k_cat = pays.shape[0]
    g = np.empty((32, k_cat), np.int64)  # every slot rewritten for each deal
    e = np.empty(32, np.int64)
    s2 = np.empty(32, np.int64)
    kept = np.empty(32, np.int64)
    for i in range(lo, hi):
        hold_counts(hands, i, c0, c1, c2, c3, c4, pay_cat, binom, g, kept)
        for m in range(32):
            d = 5 - kept[m]
            s = np.int64(0)
            q = np.int64(0)
            for p in range(k_cat):
                s += pays[p] * g[m, p]
                q += pays[p] * pays[p] * g[m, p]
            ev_out[i, m] = s / ways[d] / scale
            e[m] = s * mult[d]  # exact EV * L * scale
            s2[m] = q
        best = 0
        for m in range(1, 32):
            # np.int64: best and second start as literals (0, -1), one specialization each
            if better_hold(m, np.int64(best), e, kept, s2, ways, mode):
                best = m
        second = -1
        for m in range(32):
            if e[m] < e[best] and (second < 0 or better_hold(m, np.int64(second), e, kept, s2, ways, mode)):
                second = m
        best_out[i] = best
        best_num[i] = e[best]
        if second < 0:
            second_out[i] = 255
            second_num[i] = e[best]
        else:
            second_out[i] = second
            second_num[i] = e[second]
        for p in range(k_cat):
            best_counts[i, p] = g[best, p]


@dataclass
class Holds:
    """The solver's answer for N deals (see :func:`solve_holds`)."""

    ev: np.ndarray           # float64[N, 32] EV of every hold (column = hold mask)
    best: np.ndarray         # uint8[N] best hold mask under the tie-break rule
    best_num: np.ndarray     # int64[N] its exact EV as an integer over L * scale
    best_counts: np.ndarray  # int64[N, K] its final-hand counts, out of C(R, cards drawn)
    second: np.ndarray       # uint8[N] best hold with a strictly lower EV (NO_HOLD if none)
    second_num: np.ndarray   # int64[N] its exact EV over L * scale

    def __iter__(self) -> Iterator[np.ndarray]:
        """``ev, best, best_num, best_counts = solve_holds(...)`` (the earlier tuple) still works."""
        return iter((self.ev, self.best, self.best_num, self.best_counts))


def solve_holds(hands: np.ndarray, counts: list[np.ndarray], pay_cat: np.ndarray,
                pays: np.ndarray, scale: int, deck_size: int, tie_break: str = "fewest-cards"
                ) -> Holds:
    """All 32 holds of each deal in ``hands`` (uint8[N, 5], ascending ids).

    Bit t of a hold mask = keep card t. Exact EVs are integers over ``L * scale`` (see
    :func:`draw_denominators`); ``tie_break`` is a paytable's rule for equal EVs.
    """
    ways, mult, _ = draw_denominators(deck_size)
    n = hands.shape[0]
    k_cat = pays.shape[0]
    out = Holds(np.empty((n, 32), np.float64), np.empty(n, np.uint8), np.empty(n, np.int64),
                np.empty((n, k_cat), np.int64), np.empty(n, np.uint8), np.empty(n, np.int64))
    # a read-only view either way: deals read from a table are read-only, computed ones are
    # not, and each kind would compile its own specialization of the kernel
    h = np.ascontiguousarray(hands, dtype=np.uint8).view()
    h.flags.writeable = False
    for lo in range(0, n, SOLVE_CHUNK):
        checkpoint(lo / n)
        hi = min(n, lo + SOLVE_CHUNK)
        run_rows(_solve, hi - lo, h[lo:hi], counts[0], counts[1], counts[2], counts[3], counts[4],
                 pay_cat, pays, ways, mult, scale, TIE_CODES[tie_break], VP_BINOM, out.ev[lo:hi],
                 out.best[lo:hi], out.best_num[lo:hi], out.best_counts[lo:hi], out.second[lo:hi],
                 out.second_num[lo:hi])
    return out


@nb.njit(cache=True, parallel=True)
def _final_counts_many(hands: np.ndarray, weight: np.ndarray, c0: np.ndarray, c1: np.ndarray,
                       c2: np.ndarray, c3: np.ndarray, c4: np.ndarray, pay_cat: np.ndarray,
                       pays: np.ndarray, modes: np.ndarray, ways: np.ndarray, mult: np.ndarray,
                       binom: np.ndarray, blocks: int) -> np.ndarray:
    """Final-hand counts (over ``C(deck, 5) * L``) of every pay vector ``pays[v]`` (units, one
    row per variant, same lines) under its optimal strategy: :func:`_solve`'s hold counts and
    choice (same exact EVs, same tie-break), the counts of a deal computed once for all."""
    n = hands.shape[0]
    n_var, k_cat = pays.shape
    acc = np.zeros((blocks, n_var, k_cat), np.int64)
    for blk in nb.prange(blocks):
        g = np.empty((32, k_cat), np.int64)
        e = np.empty(32, np.int64)
        s2 = np.zeros(32, np.int64)
        kept = np.empty(32, np.int64)
        gt = np.empty((k_cat, 32), np.int64)
        hold_mult = np.empty(32, np.int64)   # L / C(R, cards drawn) of each hold
        for m in range(32):
            c = 0
            for t in range(5):
                c += (m >> t) & 1
            hold_mult[m] = mult[5 - c]
        for i in range(blk * n // blocks, (blk + 1) * n // blocks):
            hold_counts(hands, i, c0, c1, c2, c3, c4, pay_cat, binom, g, kept)
            for p in range(k_cat):
                for m in range(32):
                    gt[p, m] = g[m, p]
            for v in range(n_var):
                mode = modes[v]
                # hold by hold in the inner loop: contiguous, so the compiler vectorises it
                e[:] = 0
                for p in range(k_cat):
                    pv = pays[v, p]
                    for m in range(32):
                        e[m] += pv * gt[p, m]
                if mode == 1:
                    s2[:] = 0
                    for p in range(k_cat):
                        pv = pays[v, p] * pays[v, p]
                        for m in range(32):
                            s2[m] += pv * gt[p, m]
                for m in range(32):
                    e[m] *= hold_mult[m]
                best = 0
                for m in range(1, 32):
                    if e[m] >= e[best] and better_hold(m, np.int64(best), e, kept, s2, ways, mode):
                        best = m
                f = weight[i] * hold_mult[best]
                for p in range(k_cat):
                    acc[blk, v, p] += g[best, p] * f
    return acc.sum(axis=0)


def final_counts_many(hands: np.ndarray, weight: np.ndarray, counts: list[np.ndarray],
                      pay_cat: np.ndarray, pays: list[np.ndarray], deck_size: int,
                      tie_breaks: list[str]) -> list[list[int]]:
    """The final-hand counts of several pay vectors of one set of lines (a pay sweep), each
    under its own optimal strategy, as ``analyze(...).final_counts`` gives them one by one."""
    ways, mult, _ = draw_denominators(deck_size)
    h = np.ascontiguousarray(hands, dtype=np.uint8)
    out = _final_counts_many(h, weight.astype(np.int64), counts[0], counts[1], counts[2],
                             counts[3], counts[4], pay_cat, np.array(pays, np.int64),
                             np.array([TIE_CODES[t] for t in tie_breaks], np.int64), ways, mult,
                             VP_BINOM, 64)
    return [[int(x) for x in row] for row in out]
