"""Hold'em win probability (win / tie / lose / equity) against N opponents, on the 7-card table.

Definitions (hero's point of view): *win* = hero's hand is strictly best; *tie* = hero shares
the best hand; *lose* = someone is strictly better; *equity* = expected share of the pot, a
k-way tie paying 1/k. Opponents are ``N`` random hands plus any named hands (at most 9 in all);
dead cards are removed from the deck. The opponents share the board and the deck, so nothing
here multiplies heads-up probabilities (``1 - p**N`` is wrong and is never used).

Methods

* **exact**, counted rather than dealt:

  - board completions are enumerated once per orbit of the suit permutations that fix every
    known card set (hero, each named hand, the board, the dead cards), weighted by orbit size;
  - on a complete board every remaining two-card hand has a fixed score, so the number of
    ordered tuples of N pairwise-disjoint opponent hands that are all below (or tie) a score
    is a count of small matchings, done by inclusion-exclusion over shared cards with card
    degrees, edge neighbourhoods and triangles (N <= 3), with a polynomial in ``x`` that
    counts how many opponents tie;
  - preflop against one random hand (no named hands): a board-major pass over the canonical
    boards computes, per board, every two-card hand's win/tie/lose count against all disjoint
    hands by a sort sweep, then symmetrises over the suit group (:func:`heads_up_all_hands`,
    also used by the ``preflop`` stage).

* **Monte Carlo** otherwise: each sample deals the missing board cards and the random hands
  by a partial Fisher-Yates shuffle of the live deck (no collisions, no patched cards, so
  every deal is equally likely), with a counter-based generator per chunk so results depend
  only on ``seed`` and ``samples``, never on thread scheduling. The standard error of the
  equity is reported; the default sample count bounds it below 0.1 percentage point.

Exact counts are integers: ``deals`` counts ordered deals (opponent seats are distinct),
equity is an integer numerator over ``2520 * deals`` (2520 = lcm(1..10), so every k-way
share is exact).

This module is read-side: it needs only ``seven.h5`` (memory-mapped) and no build stage.
"""

from __future__ import annotations

import itertools
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Union

import numba as nb
import numpy as np

from pipeline.core.cards import BINOM, format_cards, parse_cards
from pipeline.core.combos import next_combination, sort_small, unrank_into
from pipeline.core.rng import below, bits32, seed_state, splitmix
from pipeline.equity.result import EquityResult, seat_row
from pipeline.errors import InputError

MAX_OPPONENTS = 9
#: lcm(1..10): a k-way split (k <= 10 players) is an integer number of 1/2520ths of the pot.
from pipeline.core.constants import SHARE_SCALE  # noqa: E402  (re-exported)

#: Monte Carlo default: equity shares lie in [0, 1] so their variance is at most 1/4, and
#: 0.5 / sqrt(300,000) = 0.091 pp < 0.1 pp whatever the spot.
DEFAULT_SAMPLES = 300_000
#: Exact enumeration is chosen automatically when its estimated table lookups stay below this.
EXACT_BUDGET = 400_000_000
#: With ``exact=True`` a spot above this many lookups is refused (it would run for hours).
EXACT_HARD_LIMIT = 60_000_000_000
MAX_EXACT_RANDOM = 3
N_CHUNKS = 64

SUIT_PERMS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)

CardsInput = Union[str, Sequence[int], Sequence[str]]


# --------------------------------------------------------------------------- numba helpers
@nb.njit(cache=True)
def _popcount(x: np.uint64) -> int:
    """Bits set in a uint64 (SWAR; numba has no portable popcount intrinsic)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@nb.njit(cache=True)
def _prepare_board(board: np.ndarray, binom: np.ndarray, parts: np.ndarray, gap: np.ndarray) -> None:
    """For a sorted 5-card board: gap[c] = board cards below c, parts[ga, gb] = board's colex part.

    With hole cards a < b, ``index7 = parts[gap[a], gap[b]] + C(a, gap[a]+1) + C(b, gap[b]+2)``:
    board card k sits at position k + [a < b_k] + [b < b_k] among the seven, and a < b_k
    exactly when k >= gap[a]. This turns each 7-card lookup on a fixed board into 3 adds.
    """
    j = 0
    for c in range(52):
        while j < 5 and board[j] < c:
            j += 1
        gap[c] = j
    for ga in range(6):
        for gb in range(ga, 6):
            s = 0
            for k in range(5):
                s += binom[board[k], k + 1 + (1 if k >= ga else 0) + (1 if k >= gb else 0)]
            parts[ga, gb] = s


@nb.njit(cache=True)
def _index7(a: int, b: int, parts: np.ndarray, gap: np.ndarray, binom: np.ndarray) -> int:
    """Colex index of board + {a, b} (any order) after :func:`_prepare_board`."""
    if a > b:
        a, b = b, a
    return parts[gap[a], gap[b]] + binom[a, gap[a] + 1] + binom[b, gap[b] + 2]


@nb.njit(cache=True)
def _index7_direct(board: np.ndarray, a: int, b: int, binom: np.ndarray) -> int:
    """Colex index of a sorted 5-card board plus {a, b}, without a prepared board (Monte Carlo)."""
    if a > b:
        a, b = b, a
    ga = 0
    gb = 0
    for k in range(5):
        if board[k] < a:
            ga += 1
        if board[k] < b:
            gb += 1
    s = binom[a, ga + 1] + binom[b, gb + 2]
    for k in range(5):
        s += binom[board[k], k + 1 + (1 if k >= ga else 0) + (1 if k >= gb else 0)]
    return s


@nb.njit(cache=True)
def _orbit_weight(x: np.ndarray, r: int, perms: np.ndarray, binom: np.ndarray,
                  work: np.ndarray) -> int:
    """Orbit size of the sorted card set x[:r] if it is its orbit's colex-least member, else 0.

    ``perms`` is a suit-permutation group that maps the live deck onto itself, so every
    image is another completion; counting each orbit once with its size is exact.
    """
    g = perms.shape[0]
    if g == 1 or r == 0:
        return 1
    v0 = 0
    for i in range(r):
        v0 += binom[x[i], i + 1]
    stab = 0
    for p in range(g):
        for i in range(r):
            c = x[i]
            work[i] = 4 * (c >> 2) + perms[p, c & 3]
        sort_small(work, r)
        v = 0
        for i in range(r):
            v += binom[work[i], i + 1]
        if v < v0:
            return 0
        if v == v0:
            stab += 1
    return g // stab


@nb.njit(cache=True)
def _canonical_weights(avail: np.ndarray, r: int, perms: np.ndarray, binom: np.ndarray,
                       start: int, stop: int, out: np.ndarray) -> None:
    """out[i - start] = orbit weight (0 if not canonical) of the r-subset of avail with colex i."""
    pos = np.empty(8, np.int64)
    x = np.empty(8, np.int64)
    work = np.empty(8, np.int64)
    n = avail.shape[0]
    for idx in range(start, stop):
        unrank_into(idx, r, n, binom, pos)
        for i in range(r):
            x[i] = avail[pos[i]]
        out[idx - start] = _orbit_weight(x, r, perms, binom, work)


@nb.njit(cache=True, parallel=True)
def canonical_subsets(avail: np.ndarray, r: int, perms: np.ndarray, binom: np.ndarray
                      ) -> np.ndarray:
    """Orbit weight of every r-subset of the sorted card array ``avail`` (colex over positions);
    0 for subsets that are not their orbit's representative. Weights sum to C(len(avail), r)."""
    n = avail.shape[0]
    total = binom[n, r]
    out = np.zeros(total, np.int64)
    nch = 256
    for ch in nb.prange(nch):
        a = total * ch // nch
        b = total * (ch + 1) // nch
        if a < b:
            _canonical_weights(avail, r, perms, binom, a, b, out[a:b])
    return out


# --------------------------------------------------------------------------- heads-up, all hands
@nb.njit(cache=True, parallel=True)
def _hu_all_hands(boards: np.ndarray, weights: np.ndarray, dead: np.uint64, table: np.ndarray,
                  binom: np.ndarray, n_chunks: int) -> np.ndarray:
    """Weighted win/tie/lose counts of every two-card hand against every disjoint hand.

    For each board (row of ``boards``, sorted), the C(m, 2) live two-card hands are scored
    and sorted once; sweeping scores upward with per-card counters gives, for hand {a, b},
    the hands below it that avoid a and b by inclusion-exclusion (all - with a - with b;
    the pair {a, b} itself is never below itself). Returns int64[n_chunks, 1326, 3].
    """
    nb_ = boards.shape[0]
    acc = np.zeros((n_chunks, 1326, 3), np.int64)
    for ch in nb.prange(n_chunks):
        start = nb_ * ch // n_chunks
        stop = nb_ * (ch + 1) // n_chunks
        parts = np.empty((6, 6), np.int64)
        gap = np.empty(52, np.int64)
        board = np.empty(5, np.int64)
        live = np.empty(52, np.int64)
        keys = np.empty(1326, np.int64)
        pa = np.empty(1326, np.int64)
        pb = np.empty(1326, np.int64)
        less_c = np.zeros(52, np.int64)
        eq_c = np.zeros(52, np.int64)
        for bi in range(start, stop):
            w = weights[bi]
            bm = dead
            for k in range(5):
                board[k] = boards[bi, k]
                bm |= np.uint64(1) << np.uint64(board[k])
            _prepare_board(board, binom, parts, gap)
            m = 0
            for c in range(52):
                if not (bm >> np.uint64(c)) & np.uint64(1):
                    live[m] = c
                    m += 1
            n = 0
            for i in range(m):
                a = live[i]
                for j in range(i + 1, m):
                    b = live[j]
                    s = table[parts[gap[a], gap[b]] + binom[a, gap[a] + 1] + binom[b, gap[b] + 2]]
                    pa[n] = a
                    pb[n] = b
                    keys[n] = (np.int64(s) << 11) | n
                    n += 1
            srt = np.sort(keys[:n])
            disjoint = (m - 2) * (m - 3) // 2
            for c in range(52):
                less_c[c] = 0
            less_all = 0
            g0 = 0
            while g0 < n:
                s0 = srt[g0] >> 11
                g1 = g0
                while g1 < n and (srt[g1] >> 11) == s0:
                    k = srt[g1] & 2047
                    eq_c[pa[k]] += 1
                    eq_c[pb[k]] += 1
                    g1 += 1
                gs = g1 - g0
                for t in range(g0, g1):
                    k = srt[t] & 2047
                    a = pa[k]
                    b = pb[k]
                    lo = less_all - less_c[a] - less_c[b]
                    eq = gs - eq_c[a] - eq_c[b] + 1
                    h = a + b * (b - 1) // 2
                    acc[ch, h, 0] += w * lo
                    acc[ch, h, 1] += w * eq
                    acc[ch, h, 2] += w * (disjoint - lo - eq)
                for t in range(g0, g1):
                    k = srt[t] & 2047
                    eq_c[pa[k]] = 0
                    eq_c[pb[k]] = 0
                    less_c[pa[k]] += 1
                    less_c[pb[k]] += 1
                less_all += gs
                g0 = g1
    return acc


def hand_index2(a: int, b: int) -> int:
    """Colex index (0..1325) of a two-card hand."""
    if a > b:
        a, b = b, a
    return a + b * (b - 1) // 2


def _hand_perm_table(perms: np.ndarray) -> np.ndarray:
    """int64[g, 1326]: the two-card index each suit permutation sends each hand to."""
    hands = np.array([(a, b) for b in range(52) for a in range(b)], dtype=np.int64)
    out = np.empty((perms.shape[0], 1326), np.int64)
    for p, perm in enumerate(perms):
        a = 4 * (hands[:, 0] >> 2) + perm[hands[:, 0] & 3]
        b = 4 * (hands[:, 1] >> 2) + perm[hands[:, 1] & 3]
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        out[p] = lo + hi * (hi - 1) // 2
    return out


def stabilizer(card_sets: Sequence[Sequence[int]]) -> np.ndarray:
    """The suit permutations (rows of 4) that map each given card set onto itself."""
    keep = []
    for perm in SUIT_PERMS:
        ok = True
        for cs in card_sets:
            s = {int(c) for c in cs}
            if {4 * (c >> 2) + int(perm[c & 3]) for c in s} != s:
                ok = False
                break
        if ok:
            keep.append(perm)
    return np.array(keep, dtype=np.int64).reshape(-1, 4)


_HU_CACHE: dict[tuple[int, int, tuple[int, ...]], np.ndarray] = {}


def _heads_up_cached(table7: np.ndarray, dead: Sequence[int]) -> np.ndarray:
    """:func:`heads_up_all_hands` remembered per table and dead set (32 KB each): every
    preflop heads-up question after the first is then a row lookup."""
    key = (table7.__array_interface__["data"][0], table7.shape[0], tuple(sorted(dead)))
    hit = _HU_CACHE.get(key)
    if hit is None:
        hit = _HU_CACHE[key] = heads_up_all_hands(table7, dead)
    return hit


def heads_up_all_hands(table7: np.ndarray, dead: Sequence[int] = (),
                       progress: Any = None) -> np.ndarray:
    """Exact preflop win/tie/lose counts of all 1,326 hands against one random hand.

    Returns int64[1326, 3] by two-card colex index; a hand's row sums to
    C(50-d, 2) * C(48-d, 5) deals (d dead cards; 2,097,572,400 with none), hands touching a
    dead card are all zero. Boards are enumerated once per orbit of the suit permutations
    that fix the dead set (134,459 boards with no dead cards), then counts are symmetrised.
    """
    dead_l = sorted({int(c) for c in dead})
    perms = stabilizer([dead_l])
    avail = np.array([c for c in range(52) if c not in set(dead_l)], dtype=np.int64)
    w = canonical_subsets(avail, 5, perms, BINOM)
    keep = np.flatnonzero(w)
    pos = _positions(keep, 5, len(avail))
    boards = avail[pos]
    weights = w[keep]
    dmask = np.uint64(sum(1 << c for c in dead_l))
    acc = np.zeros((1326, 3), np.int64)
    # blocks keep progress reporting possible without changing the result
    nblk = 16 if progress else 1
    for i in range(nblk):
        a = len(boards) * i // nblk
        b = len(boards) * (i + 1) // nblk
        part = _hu_all_hands(np.ascontiguousarray(boards[a:b]), weights[a:b], dmask, table7,
                             BINOM, N_CHUNKS)
        acc += part.sum(axis=0)
        if progress:
            progress((i + 1) / nblk)
    ptab = _hand_perm_table(perms)
    sym = acc[ptab].sum(axis=0)
    if np.any(sym % len(perms)):
        raise AssertionError("suit symmetrisation left a remainder")  # cannot happen
    return sym // len(perms)


@nb.njit(cache=True, parallel=True)
def _positions_kernel(idx: np.ndarray, r: int, n: int, binom: np.ndarray, out: np.ndarray) -> None:
    for i in nb.prange(idx.shape[0]):
        pos = np.empty(8, np.int64)
        unrank_into(idx[i], r, n, binom, pos)
        for t in range(r):
            out[i, t] = pos[t]


def _positions(idx: np.ndarray, r: int, n: int) -> np.ndarray:
    out = np.empty((idx.shape[0], r), np.int64)
    _positions_kernel(idx.astype(np.int64), r, n, BINOM, out)
    return out


# --------------------------------------------------------------------------- exact, general
@nb.njit(cache=True)
def _tuple_poly(pair_s: np.ndarray, m: int, nr: int, s: int, dL: np.ndarray, dE: np.ndarray,
                NL: np.ndarray, NE: np.ndarray, poly: np.ndarray) -> None:
    """Ordered tuples of ``nr`` (1..3) pairwise-disjoint hands from the m live cards, all scoring
    <= s, by how many score exactly s: poly[j] = tuples with j ties.

    Each hand is an edge of weight 1 (below s), x (equal) or 0 (above). The weighted count of
    disjoint tuples, by inclusion-exclusion over which positions share a card:
      N=1: S1;  N=2: S1^2 - Q;  N=3: S1^3 - 3 S1 Q + 3 P - T
    with S1 = sum w_e, Q = sum_c deg_c^2 - sum w_e^2 (ordered conflicting pairs),
    P = sum_e w_e (deg_a + deg_b - w_e)^2 (conflict paths through a middle edge),
    T = sum_c deg_c^3 - sum w_e^3 + 6 * triangles (pairwise-conflicting triples: a shared
    card, or three hands forming a triangle on three cards). Coefficients of x are integers.
    """
    for i in range(m):
        dL[i] = 0
        dE[i] = 0
        NL[i] = 0
        NE[i] = 0
    nL = 0
    nE = 0
    k = 0
    for i in range(m):
        for j in range(i + 1, m):
            v = pair_s[k]
            k += 1
            if v < s:
                nL += 1
                dL[i] += 1
                dL[j] += 1
                if nr == 3:
                    NL[i] |= np.uint64(1) << np.uint64(j)
                    NL[j] |= np.uint64(1) << np.uint64(i)
            elif v == s:
                nE += 1
                dE[i] += 1
                dE[j] += 1
                if nr == 3:
                    NE[i] |= np.uint64(1) << np.uint64(j)
                    NE[j] |= np.uint64(1) << np.uint64(i)
    for j in range(4):
        poly[j] = 0
    if nr == 1:
        poly[0] = nL
        poly[1] = nE
        return
    sLL = 0
    sLE = 0
    sEE = 0
    sLLL = 0
    sLLE = 0
    sLEE = 0
    sEEE = 0
    for i in range(m):
        a = dL[i]
        b = dE[i]
        sLL += a * a
        sLE += a * b
        sEE += b * b
        if nr == 3:
            sLLL += a * a * a
            sLLE += a * a * b
            sLEE += a * b * b
            sEEE += b * b * b
    q0 = sLL - nL
    q1 = 2 * sLE
    q2 = sEE - nE
    if nr == 2:
        poly[0] = nL * nL - q0
        poly[1] = 2 * nL * nE - q1
        poly[2] = nE * nE - q2
        return
    # nr == 3: paths and triangles need a second pass over the edges
    p0 = 0
    p1 = 0
    p2 = 0
    p3 = 0
    t0 = 0
    t1 = 0
    t2 = 0
    t3 = 0
    k = 0
    for i in range(m):
        for j in range(i + 1, m):
            v = pair_s[k]
            k += 1
            if v > s:
                continue
            isE = 1 if v == s else 0
            u = dL[i] + dL[j] - (1 - isE)
            w = dE[i] + dE[j] - isE
            hi = ~((np.uint64(2) << np.uint64(j)) - np.uint64(1))
            ll = _popcount(NL[i] & NL[j] & hi)
            le = _popcount(((NL[i] & NE[j]) | (NE[i] & NL[j])) & hi)
            ee = _popcount(NE[i] & NE[j] & hi)
            if isE == 0:
                p0 += u * u
                p1 += 2 * u * w
                p2 += w * w
                t0 += ll
                t1 += le
                t2 += ee
            else:
                p1 += u * u
                p2 += 2 * u * w
                p3 += w * w
                t1 += ll
                t2 += le
                t3 += ee
    T0 = sLLL - nL + 6 * t0
    T1 = 3 * sLLE + 6 * t1
    T2 = 3 * sLEE + 6 * t2
    T3 = sEEE - nE + 6 * t3
    c0 = nL * nL * nL
    c1 = 3 * nL * nL * nE
    c2 = 3 * nL * nE * nE
    c3 = nE * nE * nE
    sq0 = nL * q0
    sq1 = nL * q1 + nE * q0
    sq2 = nL * q2 + nE * q1
    sq3 = nE * q2
    poly[0] = c0 - 3 * sq0 + 3 * p0 - T0
    poly[1] = c1 - 3 * sq1 + 3 * p1 - T1
    poly[2] = c2 - 3 * sq2 + 3 * p2 - T2
    poly[3] = c3 - 3 * sq3 + 3 * p3 - T3


@nb.njit(cache=True, parallel=True)
def _exact_kernel(fixed: np.ndarray, board0: np.ndarray, avail: np.ndarray, r: int, nr: int,
                  total_tuples: int, perms: np.ndarray, table: np.ndarray, binom: np.ndarray,
                  n_chunks: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact weighted counts per fixed player (hero first): int64[n_chunks, P, 4] of
    win, tie, lose, equity numerator (x2520), and the weight (board completions) per chunk."""
    P = fixed.shape[0]
    n = avail.shape[0]
    total = binom[n, r]
    nb0 = board0.shape[0]
    acc = np.zeros((n_chunks, P, 4), np.int64)
    wsum = np.zeros(n_chunks, np.int64)
    for ch in nb.prange(n_chunks):
        start = total * ch // n_chunks
        stop = total * (ch + 1) // n_chunks
        pos = np.zeros(8, np.int64)
        x = np.empty(8, np.int64)
        work = np.empty(8, np.int64)
        board = np.empty(5, np.int64)
        parts = np.empty((6, 6), np.int64)
        gap = np.empty(52, np.int64)
        fs = np.empty(P, np.int64)
        live = np.empty(52, np.int64)
        pair_s = np.empty(1326, np.int64)
        dL = np.empty(52, np.int64)
        dE = np.empty(52, np.int64)
        NL = np.empty(52, np.uint64)
        NE = np.empty(52, np.uint64)
        poly = np.zeros(4, np.int64)
        if start < stop:
            unrank_into(start, r, n, binom, pos)
        pos[r] = n
        for idx in range(start, stop):
            if idx > start:
                next_combination(pos)
            for i in range(r):
                x[i] = avail[pos[i]]
            w = _orbit_weight(x, r, perms, binom, work)
            if w == 0:
                continue
            for i in range(nb0):
                board[i] = board0[i]
            for i in range(r):
                board[nb0 + i] = x[i]
            sort_small(board, 5)
            if nr == 0:
                # few lookups per board: preparing the board would cost more than it saves
                for p in range(P):
                    fs[p] = table[_index7_direct(board, fixed[p, 0], fixed[p, 1], binom)]
            else:
                _prepare_board(board, binom, parts, gap)
                for p in range(P):
                    fs[p] = table[_index7(fixed[p, 0], fixed[p, 1], parts, gap, binom)]
            m = 0
            if nr > 0:
                t = 0
                for i in range(n):
                    if t < r and pos[t] == i:
                        t += 1
                        continue
                    live[m] = avail[i]
                    m += 1
                k = 0
                for i in range(m):
                    a = live[i]
                    for j in range(i + 1, m):
                        b = live[j]
                        pair_s[k] = table[parts[gap[a], gap[b]] + binom[a, gap[a] + 1]
                                          + binom[b, gap[b] + 2]]
                        k += 1
            for p in range(P):
                s = fs[p]
                greater = False
                eqf = 0
                for q in range(P):
                    if q != p:
                        if fs[q] > s:
                            greater = True
                        elif fs[q] == s:
                            eqf += 1
                if greater:
                    acc[ch, p, 2] += w * total_tuples
                    continue
                if nr > 0:
                    _tuple_poly(pair_s, m, nr, s, dL, dE, NL, NE, poly)
                else:
                    poly[0] = 1
                    poly[1] = 0
                    poly[2] = 0
                    poly[3] = 0
                tot = 0
                for j in range(nr + 1):
                    c = poly[j]
                    tot += c
                    if j + eqf == 0:
                        acc[ch, p, 0] += w * c
                    else:
                        acc[ch, p, 1] += w * c
                    acc[ch, p, 3] += w * c * (2520 // (1 + j + eqf))
                acc[ch, p, 2] += w * (total_tuples - tot)
            wsum[ch] += w
    return acc, wsum


# --------------------------------------------------------------------------- Monte Carlo
# the generator lives in pipeline.core.rng (shared with Omaha and the seat kernels)
_splitmix = splitmix
_bits32 = bits32
_below = below
_seed_state = seed_state


@nb.njit(cache=True, parallel=True)
def _mc_kernel(fixed: np.ndarray, board0: np.ndarray, avail: np.ndarray, r: int, nr: int,
               samples: int, seed: int, n_chunks: int, table: np.ndarray,
               binom: np.ndarray) -> np.ndarray:
    """Monte Carlo counts per fixed player: int64[n_chunks, P, 5] of win, tie, lose,
    equity numerator (x2520) and its sum of squares (for the standard error)."""
    P = fixed.shape[0]
    nb0 = board0.shape[0]
    need = r + 2 * nr
    acc = np.zeros((n_chunks, P, 5), np.int64)
    hero_only = P == 1
    for ch in nb.prange(n_chunks):
        st = _seed_state(seed, ch)
        deck = avail.copy()
        n = deck.shape[0]
        board = np.empty(5, np.int64)
        fs = np.empty(P, np.int64)
        cnt = samples * (ch + 1) // n_chunks - samples * ch // n_chunks
        for _ in range(cnt):
            # partial Fisher-Yates: deck[:need] becomes a uniform random ordered draw
            for i in range(need):
                j = i + _below(st, n - i)
                tmp = deck[i]
                deck[i] = deck[j]
                deck[j] = tmp
            for i in range(nb0):
                board[i] = board0[i]
            for i in range(r):
                board[nb0 + i] = deck[i]
            sort_small(board, 5)
            if hero_only:
                s = table[_index7_direct(board, fixed[0, 0], fixed[0, 1], binom)]
                lose = False
                eq = 0
                for o in range(nr):
                    so = table[_index7_direct(board, deck[r + 2 * o], deck[r + 2 * o + 1], binom)]
                    if so > s:
                        lose = True
                        break
                    if so == s:
                        eq += 1
                if lose:
                    acc[ch, 0, 2] += 1
                else:
                    sh = 2520 // (1 + eq)
                    if eq == 0:
                        acc[ch, 0, 0] += 1
                    else:
                        acc[ch, 0, 1] += 1
                    acc[ch, 0, 3] += sh
                    acc[ch, 0, 4] += sh * sh
                continue
            best_r = 0
            n_best_r = 0
            for o in range(nr):
                so = table[_index7_direct(board, deck[r + 2 * o], deck[r + 2 * o + 1], binom)]
                if so > best_r:
                    best_r = so
                    n_best_r = 1
                elif so == best_r:
                    n_best_r += 1
            for p in range(P):
                fs[p] = table[_index7_direct(board, fixed[p, 0], fixed[p, 1], binom)]
            for p in range(P):
                s = fs[p]
                greater = best_r > s
                eq = n_best_r if best_r == s else 0
                for q in range(P):
                    if q != p:
                        if fs[q] > s:
                            greater = True
                        elif fs[q] == s:
                            eq += 1
                if greater:
                    acc[ch, p, 2] += 1
                else:
                    sh = 2520 // (1 + eq)
                    if eq == 0:
                        acc[ch, p, 0] += 1
                    else:
                        acc[ch, p, 1] += 1
                    acc[ch, p, 3] += sh
                    acc[ch, p, 4] += sh * sh
    return acc


@nb.njit(cache=True, parallel=True)
def _mc_all_hands(nr: int, samples: int, seed: int, stream0: int, n_chunks: int,
                  table: np.ndarray, binom: np.ndarray) -> np.ndarray:
    """Preflop Monte Carlo for every hero hand at once against ``nr`` random hands.

    Each sample deals a board and ``nr`` hands from the full deck; every two-card hand from
    the remaining cards is then a hero whose deal is uniform given that it avoids those cards,
    so one sample serves hundreds of hands. Returns int64[n_chunks, 1326, 4]: observations,
    wins, ties, equity numerator (x2520), per chunk (the chunks are the batches for the
    batch-means standard error).
    """
    need = 5 + 2 * nr
    acc = np.zeros((n_chunks, 1326, 4), np.int64)
    for ch in nb.prange(n_chunks):
        st = _seed_state(seed, stream0 + ch)
        deck = np.arange(52).astype(np.int64)
        board = np.empty(5, np.int64)
        parts = np.empty((6, 6), np.int64)
        gap = np.empty(52, np.int64)
        cnt = samples * (ch + 1) // n_chunks - samples * ch // n_chunks
        for _ in range(cnt):
            for i in range(need):
                j = i + _below(st, 52 - i)
                tmp = deck[i]
                deck[i] = deck[j]
                deck[j] = tmp
            for i in range(5):
                board[i] = deck[i]
            sort_small(board, 5)
            _prepare_board(board, binom, parts, gap)
            best = 0
            nbest = 0
            for o in range(nr):
                so = table[_index7(deck[5 + 2 * o], deck[6 + 2 * o], parts, gap, binom)]
                if so > best:
                    best = so
                    nbest = 1
                elif so == best:
                    nbest += 1
            rest = deck[need:]
            m = 52 - need
            for i in range(m):
                a = rest[i]
                for j in range(i + 1, m):
                    b = rest[j]
                    s = table[_index7(a, b, parts, gap, binom)]
                    lo = a if a < b else b
                    hi = b if a < b else a
                    h = lo + hi * (hi - 1) // 2
                    acc[ch, h, 0] += 1
                    if s > best:
                        acc[ch, h, 1] += 1
                        acc[ch, h, 3] += 2520
                    elif s == best:
                        acc[ch, h, 2] += 1
                        acc[ch, h, 3] += 2520 // (1 + nbest)
    return acc


def multiway_all_hands(table7: np.ndarray, opponents: int, samples: int, seed: int,
                       stream0: int = 0) -> np.ndarray:
    """Monte Carlo preflop counts of every hand against ``opponents`` random hands.

    ``samples`` deals (board + opponents) are split over :data:`N_CHUNKS` batches; returns
    int64[N_CHUNKS, 1326, 4] (observations, wins, ties, equity numerator x2520). Rounds with
    different ``stream0`` are independent, so callers can add rounds until a target error.
    """
    if not 1 <= opponents <= MAX_OPPONENTS:
        raise InputError(f"opponents must be 1..{MAX_OPPONENTS}, got {opponents}")
    return _mc_all_hands(opponents, samples, seed, stream0, N_CHUNKS, table7, BINOM)


# --------------------------------------------------------------------------- the Python API
@dataclass(frozen=True)
class Spot:
    """A validated equity question: known cards and how many random opponents."""

    hole: tuple[int, int]
    board: tuple[int, ...]
    vs: tuple[tuple[int, int], ...]
    dead: tuple[int, ...]
    opponents: int

    @property
    def live(self) -> np.ndarray:
        """Sorted card ids nobody holds or sees (the deck the unknown cards come from)."""
        known = set(self.hole) | set(self.board) | set(self.dead)
        for h in self.vs:
            known |= set(h)
        return np.array([c for c in range(52) if c not in known], dtype=np.int64)

    @property
    def missing_board(self) -> int:
        """Board cards still to come."""
        return 5 - len(self.board)


def make_spot(hole: CardsInput, board: CardsInput = (), opponents: int | None = None,
              vs: Sequence[CardsInput] = (), dead: CardsInput = ()) -> Spot:
    """Parse and check a spot; raises ``ValueError`` with a message a user can act on."""
    h = parse_cards(hole, count=2) if not _is_empty(hole) else parse_cards("", count=2)
    b = parse_cards(board) if not _is_empty(board) else []
    if len(b) not in (0, 3, 4, 5):
        raise InputError(f"the board must have 0, 3, 4 or 5 cards, got {len(b)}: {format_cards(b)}")
    named = []
    for i, v in enumerate(vs):
        cards = parse_cards(v)
        if len(cards) != 2:
            raise InputError(f"--vs hand {i + 1} must be 2 cards, got {len(cards)}: "
                             f"{format_cards(cards) or '(none)'}")
        named.append(tuple(cards))
    d = parse_cards(dead) if not _is_empty(dead) else []
    if opponents is None:
        opponents = 0 if named else 1
    if opponents < 0:
        raise InputError(f"--opponents must be 0 or more, got {opponents}")
    total = opponents + len(named)
    if total > MAX_OPPONENTS:
        raise InputError(f"at most {MAX_OPPONENTS} opponents in all, got {total} "
                         f"({opponents} random + {len(named)} named)")
    if total == 0:
        raise InputError("need at least one opponent (--opponents N or --vs HAND)")
    owner: dict[int, str] = {}
    groups = [("hole", h), ("board", b)] + [(f"--vs hand {i + 1}", list(v)) for i, v in
                                             enumerate(named)] + [("dead", d)]
    for name, cards in groups:
        for c in cards:
            if c in owner:
                raise InputError(f"card {format_cards([c])} appears twice (in {owner[c]} and {name})")
            owner[c] = name
    spot = Spot((h[0], h[1]), tuple(b), tuple((v[0], v[1]) for v in named), tuple(d), opponents)
    need = spot.missing_board + 2 * opponents
    have = len(spot.live)
    if need > have:
        raise InputError(f"deck exhausted: the missing board cards and {opponents} random hands "
                         f"need {need} cards but only {have} are left")
    return spot


def _is_empty(x: Any) -> bool:
    if x is None:
        return True
    if isinstance(x, str):
        return not x.strip()
    return len(x) == 0


def _group_for(spot: Spot) -> np.ndarray:
    """Suit permutations fixing hero, each named hand, board and dead cards as sets."""
    return stabilizer([spot.hole, spot.board, spot.dead, *spot.vs])


def _ordered_tuples(m: int, n: int) -> int:
    """Ordered ways to deal n two-card hands from m cards."""
    t = 1
    for i in range(n):
        t *= math.comb(m - 2 * i, 2)
    return t


def exact_cost(spot: Spot) -> float:
    """Estimated 7-card lookups of an exact enumeration of ``spot`` (inf if not supported)."""
    n = len(spot.live)
    r = spot.missing_board
    if spot.opponents > MAX_EXACT_RANDOM:
        return math.inf
    if r == 5 and spot.opponents == 1 and not spot.vs:
        # board-major all-hands pass: canonical boards x live pairs
        g = len(stabilizer([spot.dead]))
        return math.comb(52 - len(spot.dead), 5) / g * math.comb(47 - len(spot.dead), 2)
    g = len(_group_for(spot))
    boards = math.comb(n, r) / g
    m = n - r
    per: float = 1 + len(spot.vs)
    if spot.opponents:
        per += math.comb(m, 2) * (1 + (0.3 * (1 + len(spot.vs)) if spot.opponents >= 2 else 0))
    return boards * per


def _table7(tables: Any) -> np.ndarray:
    return tables.table(7) if hasattr(tables, "table") else np.asarray(tables)


def equity(tables: Any, hole: CardsInput, board: CardsInput = (), opponents: int | None = None,
           vs: Sequence[CardsInput] = (), dead: CardsInput = (), exact: bool | None = None,
           samples: int | None = None, seed: int | None = None) -> EquityResult:
    """Win/tie/lose/equity of ``hole`` against ``opponents`` random hands plus named ``vs`` hands.

    ``tables`` is a :class:`pipeline.query.tables.Tables` (or the 7-card score array). ``exact=None``
    enumerates exactly when that is cheap (see :func:`exact_cost`) and otherwise samples;
    ``exact=True`` insists (ValueError when impossible), ``exact=False`` or ``samples``
    samples (default :data:`DEFAULT_SAMPLES`). ``opponents`` defaults to 1 without ``vs``.
    """
    spot = make_spot(hole, board, opponents, vs, dead)
    if exact and samples is not None:
        raise InputError("choose either --exact or --samples, not both")
    if samples is not None and samples < 1:
        raise InputError(f"--samples must be at least 1, got {samples}")
    table7 = _table7(tables)
    cost = exact_cost(spot)
    if exact is None:
        exact = samples is None and cost <= EXACT_BUDGET
    if exact:
        if spot.opponents > MAX_EXACT_RANDOM:
            raise InputError(f"exact enumeration handles at most {MAX_EXACT_RANDOM} random "
                             f"opponents (got {spot.opponents}); use Monte Carlo (--samples)")
        if cost > EXACT_HARD_LIMIT:
            raise InputError(f"exact enumeration of this spot needs about {cost:.2g} lookups; "
                             "use Monte Carlo (--samples)")
        return _run_exact(spot, table7)
    return _run_mc(spot, table7, samples or DEFAULT_SAMPLES,
                   seed if seed is not None else int.from_bytes(os.urandom(4), "little"))


def _player_rows(spot: Spot, acc: np.ndarray, denom: int, eq_scale: int) -> list[dict[str, Any]]:
    rows = []
    hands = [spot.hole, *spot.vs]
    for p, hand in enumerate(hands):
        w, t, lo, e = (int(v) for v in acc[p, :4])
        text = format_cards(hand)
        rows.append(seat_row("hero" if p == 0 else f"vs{p}", text, 1, w / denom, t / denom,
                             lo / denom, e / (eq_scale * denom), None, hand=text))
    return rows


def _run_exact(spot: Spot, table7: np.ndarray) -> EquityResult:
    t0 = time.perf_counter()
    if spot.missing_board == 5 and spot.opponents == 1 and not spot.vs:
        counts = _heads_up_cached(table7, spot.dead)[hand_index2(*spot.hole)]
        win, tie, lose = (int(v) for v in counts)
        deals = win + tie + lose
        eqn = SHARE_SCALE * win + SHARE_SCALE // 2 * tie
        acc = np.array([[win, tie, lose, eqn]], dtype=np.int64)
    else:
        live = spot.live
        r = spot.missing_board
        fixed = np.array([spot.hole, *spot.vs], dtype=np.int64).reshape(-1, 2)
        board0 = np.array(spot.board, dtype=np.int64)
        perms = _group_for(spot)
        tuples = _ordered_tuples(len(live) - r, spot.opponents)
        acc_c, wsum = _exact_kernel(fixed, board0, live, r, spot.opponents, tuples, perms,
                                    table7, BINOM, N_CHUNKS)
        acc = acc_c.sum(axis=0)
        completions = int(wsum.sum())
        if completions != math.comb(len(live), r):
            raise AssertionError("orbit weights do not cover every board")  # cannot happen
        deals = completions * tuples
    h = acc[0]
    win, tie, lose, eqn = (int(v) for v in h)
    if win + tie + lose != deals:
        raise AssertionError("exact counts do not add up")  # cannot happen
    players = _player_rows(spot, acc, deals, SHARE_SCALE) if spot.vs else []
    return EquityResult(
        hole=list(spot.hole), board=list(spot.board), dead=list(spot.dead),
        vs=[list(v) for v in spot.vs], opponents=spot.opponents, method="exact",
        win=win / deals, tie=tie / deals, lose=lose / deals,
        equity=eqn / (SHARE_SCALE * deals), stderr=None, seconds=time.perf_counter() - t0,
        deals=deals,
        counts={"win": win, "tie": tie, "lose": lose, "equity_numerator": eqn,
                "equity_denominator": SHARE_SCALE * deals},
        players=players)


def _run_mc(spot: Spot, table7: np.ndarray, samples: int, seed: int) -> EquityResult:
    t0 = time.perf_counter()
    fixed = np.array([spot.hole, *spot.vs], dtype=np.int64).reshape(-1, 2)
    acc = _mc_kernel(fixed, np.array(spot.board, dtype=np.int64), spot.live,
                     spot.missing_board, spot.opponents, samples, seed, N_CHUNKS, table7,
                     BINOM).sum(axis=0)
    win, tie, lose, eqn, eqsq = (int(v) for v in acc[0])
    mean = eqn / (SHARE_SCALE * samples)
    second = eqsq / (SHARE_SCALE * SHARE_SCALE * samples)
    var = max(second - mean * mean, 0.0) * samples / max(samples - 1, 1)
    players = _player_rows(spot, acc, samples, SHARE_SCALE) if spot.vs else []
    return EquityResult(
        hole=list(spot.hole), board=list(spot.board), dead=list(spot.dead),
        vs=[list(v) for v in spot.vs], opponents=spot.opponents, method="monte-carlo",
        win=win / samples, tie=tie / samples, lose=lose / samples, equity=mean,
        stderr=math.sqrt(var / samples), seconds=time.perf_counter() - t0,
        samples=samples, seed=seed,
        counts={"win": win, "tie": tie, "lose": lose}, players=players)


__all__ = ["equity", "EquityResult", "Spot", "make_spot", "exact_cost", "heads_up_all_hands",
           "multiway_all_hands", "stabilizer", "hand_index2", "canonical_subsets",
           "MAX_OPPONENTS", "DEFAULT_SAMPLES", "SHARE_SCALE"]
