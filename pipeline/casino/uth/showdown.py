"""Every player hole against every dealer hole on one complete board, split by whether the
dealer qualifies: the river counts Ultimate Texas Hold'em is solved from.

On a fixed board the player and the dealer both draw two cards from the same live cards, so
one board serves every player hole at once (as "hand versus range on a fixed board"): score
each live two-card hole once, sort the holes by score, and sweep upward keeping, per card, how
many holes below the current score hold that card. A hole {a, b} then beats

    (holes below it) - (holes below it holding a) - (holes below it holding b)

dealer holes (inclusion-exclusion; no hole below it holds both a and b: that is itself), and
ties the same count taken over its own score. The dealer qualifies with a score at least
``qual`` (a pair or better: a threshold on the score, since categories are score ranges), so
the same counters taken where the sweep crosses ``qual`` give each hole's non-qualifying
dealer holes. Work per board: one score per hole, one sort, one sweep; O(1) per hole.

Output per hole k (local order, ``k < n``): its cards ``pa[k] < pb[k]``, ``score[k]`` and
``wq, wn, lq, ln`` = dealer holes it beats that qualify / do not, dealer holes that beat it
and qualify / do not; ties are ``dealers - wq - wn - lq - ln``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.fasteval import hand_score

#: Sort keys hold the hole's two card ids (6 bits each) below the score, so the sweep reads
#: the cards from the key in sorted order instead of gathering them.
CARD_BITS = 6
CARD_MASK = (1 << CARD_BITS) - 1
HOLE_BITS = 2 * CARD_BITS
#: Most live cards after the board (52 - 5 = 47 on a river; the player's cards are among them).
MAX_LIVE = 47
#: Most player holes on one board: C(47, 2).
MAX_HOLES = MAX_LIVE * (MAX_LIVE - 1) // 2
#: Cards in a deck's card-id space (counters are indexed by card id).
CARD_IDS = 52
#: The sort is a two-pass radix sort on the 13-bit score: low digit, then high digit.
LOW_BITS = 7
LOW_MASK = (1 << LOW_BITS) - 1
#: Buckets per pass (the high digit of a score <= 7462 is at most 58).
RADIX = 1 << LOW_BITS


@nb.njit(cache=True)
def showdown_scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                np.ndarray, np.ndarray]:
    """Per-thread buffers of :func:`river_counts`: ``(pa, pb, score, keys, wq, wn, lq, ln,
    less_c, eq_c, nq_c, kc)``; ``keys`` has room for the radix sort's second buffer and counts."""
    return (np.empty(MAX_HOLES, np.int64), np.empty(MAX_HOLES, np.int64),
            np.empty(MAX_HOLES, np.int64), np.empty(2 * MAX_HOLES + RADIX, np.int64),
            np.empty(MAX_HOLES, np.int64), np.empty(MAX_HOLES, np.int64),
            np.empty(MAX_HOLES, np.int64), np.empty(MAX_HOLES, np.int64),
            np.zeros(CARD_IDS, np.int64), np.zeros(CARD_IDS, np.int64),
            np.zeros(CARD_IDS, np.int64), np.empty(CARD_IDS, np.int64))


@nb.njit(cache=True)
def radix_sort_scores(keys: np.ndarray, tmp: np.ndarray, n: int, count: np.ndarray) -> None:
    """Sort ``keys[:n]`` (score << HOLE_BITS | hole) by score, in place: two counting passes
    over 7-bit digits (a comparison sort of 1,081 keys took three quarters of a board's time)."""
    for shift, src, dst in ((HOLE_BITS, keys, tmp), (HOLE_BITS + LOW_BITS, tmp, keys)):
        count[:] = 0
        for i in range(n):
            count[(src[i] >> shift) & LOW_MASK] += 1
        total = 0
        for d in range(RADIX):
            c = count[d]
            count[d] = total
            total += c
        for i in range(n):
            d = (src[i] >> shift) & LOW_MASK
            dst[count[d]] = src[i]
            count[d] += 1


@nb.njit(cache=True)
def river_counts(live: np.ndarray, n_live: int, bkey: int, bmask: int, qual: int,
                 card_keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
                 pa: np.ndarray, pb: np.ndarray, score: np.ndarray, keys: np.ndarray,
                 wq: np.ndarray, wn: np.ndarray, lq: np.ndarray, ln: np.ndarray,
                 less_c: np.ndarray, eq_c: np.ndarray, nq_c: np.ndarray, kc: np.ndarray) -> int:
    """Fill the per-hole outputs (module docstring) for every two-card hole of ``live[:n_live]``
    on the board whose key sum is ``bkey`` and card mask ``bmask``; return the number of holes.
    Holes come out in ascending score order.

    Dealer holes are the holes of the other ``n_live - 2`` cards: C(n_live - 2, 2) of them.
    """
    one = np.int64(1)
    for i in range(n_live):
        kc[i] = np.int64(bkey) + np.int64(card_keys[live[i]])
    n = np.int64(0)  # not a literal 0: that would compile radix_sort_scores twice
    for j in range(n_live):
        b = live[j]
        kb = np.int64(card_keys[b])
        mb = np.int64(bmask) | (one << b)
        for i in range(j):
            a = live[i]
            s = hand_score(kc[i] + kb, mb | (one << a), offsets, ranks, flush)
            keys[n] = (np.int64(s) << HOLE_BITS) | (a << CARD_BITS) | b
            n += 1
    radix_sort_scores(keys, keys[MAX_HOLES:2 * MAX_HOLES], n, keys[2 * MAX_HOLES:])
    dealers = (n_live - 2) * (n_live - 3) // 2
    for i in range(n_live):
        c = live[i]
        less_c[c] = 0
        eq_c[c] = 0
        nq_c[c] = 0
    less = np.int64(0)
    nq_all = np.int64(-1)  # set where the sweep first reaches a qualifying score
    g0 = 0
    while g0 < n:
        s0 = keys[g0] >> HOLE_BITS
        if nq_all < 0 and s0 >= qual:
            nq_all = less
            for i in range(n_live):
                nq_c[live[i]] = less_c[live[i]]
        g1 = g0
        while g1 < n and (keys[g1] >> HOLE_BITS) == s0:
            eq_c[(keys[g1] >> CARD_BITS) & CARD_MASK] += 1
            eq_c[keys[g1] & CARD_MASK] += 1
            g1 += 1
        eqn = g1 - g0
        for t in range(g0, g1):
            a = (keys[t] >> CARD_BITS) & CARD_MASK
            b = keys[t] & CARD_MASK
            pa[t] = a
            pb[t] = b
            score[t] = s0
            wq[t] = less - less_c[a] - less_c[b]  # every hole it beats; split below
            lq[t] = eqn - eq_c[a] - eq_c[b] + 1  # its ties, for now
        for t in range(g0, g1):
            a = pa[t]
            b = pb[t]
            eq_c[a] = 0
            eq_c[b] = 0
            less_c[a] += 1
            less_c[b] += 1
        less += eqn
        g0 = g1
    if nq_all < 0:  # no hole qualifies: every dealer hole is below the threshold
        nq_all = less
        for i in range(n_live):
            nq_c[live[i]] = less_c[live[i]]
    for k in range(n):
        a = pa[k]
        b = pb[k]
        below = wq[k]
        ties = lq[k]
        s = score[k]
        nq = nq_all - nq_c[a] - nq_c[b] + (1 if s < qual else 0)
        if s < qual:  # every hole it beats fails to qualify; of those above it, some qualify
            wn[k] = below
            wq[k] = 0
            ln[k] = nq - below - ties
            lq[k] = dealers - nq
        else:  # every non-qualifying hole is below it
            wn[k] = nq
            wq[k] = below - nq
            ln[k] = 0
            lq[k] = dealers - below - ties
    return n


__all__ = ["HOLE_BITS", "MAX_LIVE", "radix_sort_scores", "MAX_HOLES", "showdown_scratch", "river_counts"]
