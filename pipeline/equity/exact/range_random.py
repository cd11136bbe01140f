"""Exact equity for range seats plus one random seat, counted per board instead of per deal.

The random seat may hold any hand left once the board and the range seats' cards are out. On
each board completion (one per orbit of the suit permutations that fix the board, the dead
cards and every range, counted with the orbit's size) every live hand is scored once and the
scores are sorted, overall and per card. Then the depth-first walk over the range seats'
assignments (:mod:`pipeline.equity.hands.assignments`) asks, for the best score ``s`` among
the range seats, how many random hands score above, equal to and below ``s`` while sharing no
card with the assignment: the total count, minus the count among hands holding each of the
assignment's cards, plus the hands made of two of those cards (inclusion-exclusion; each count
is a binary search in a sorted list). The random seat's 1,081 hands cost a few searches per
assignment instead of 1,081 visits, and the counts are the same integers as the deal walk.
"""

from __future__ import annotations

import math
from typing import Any

import numba as nb
import numpy as np
from numba import get_num_threads

from pipeline.core.cancel import checked
from pipeline.core.cards import BINOM
from pipeline.core.combos import colex_chunk
from pipeline.core.constants import BOARD_CARDS, DECK_SIZE, N_HOLE_PAIRS, SHARE_SCALE
from pipeline.core.fasteval import hand_key, hand_score
from pipeline.core.parallel import run_chunks
from pipeline.equity.exact.ranges import (
    N_CHUNKS,
    NS_PER_BOARD,
    NS_PER_ORBIT_TEST,
    SERIAL_SECONDS,
)
from pipeline.equity.exact.scoresort import KEY_SHIFT, RADIX_COUNTS, sort_by_score
from pipeline.equity.hands.assignments import next_outer, start_walk
from pipeline.equity.hands.symmetry import orbit_step
from pipeline.equity.spots.seats import Seats

#: Per-card lists of the hands holding the card: at most the other 51 cards.
PER_CARD = DECK_SIZE - 1
#: Cost model of :func:`range_random_cost` (ns on one core of the reference machine).
NS_PER_LIVE_HAND = 40.0
NS_PER_COUNT_LEAF = 60.0
#: Accumulator columns per seat: win, tie, lose, pot share numerator.
WIN, TIE, LOSE, SHARE = range(4)
#: A live hand's sort key: score above its two card ids (6 bits each).
CARD_BITS = 6
CARD_MASK = (1 << CARD_BITS) - 1


@nb.njit(cache=True, inline="always")
def _above(arr: np.ndarray, n: int, s: int) -> int:
    """How many of the ascending ``arr[:n]`` exceed ``s``."""
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) >> 1
        if arr[mid] > s:
            hi = mid
        else:
            lo = mid + 1
    return n - lo


@nb.njit(cache=True, inline="always")
def _at_least(arr: np.ndarray, n: int, s: int) -> int:
    """How many of the ascending ``arr[:n]`` are at least ``s``."""
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) >> 1
        if arr[mid] >= s:
            hi = mid
        else:
            lo = mid + 1
    return n - lo


@nb.njit(cache=True, inline="always")  # its constant arguments: no literal specializations
def _add(acc_i: np.ndarray, acc_f: np.ndarray, p: int, col: int, n: int, sh: int, w: float) -> None:
    """``n`` deals of outcome ``col`` (pot share ``sh`` each) for seat p, weight ``w``."""
    acc_i[p, col] += n
    acc_f[p, col] += n * w
    if sh:
        acc_i[p, SHARE] += n * sh
        acc_f[p, SHARE] += n * w * sh


@nb.njit(cache=True, nogil=True)
def _count_chunk(ch: int, n_chunks: int, board0: np.ndarray, avail: np.ndarray,
                 r: int, perms: np.ndarray, off: np.ndarray, hand_a: np.ndarray,
                 hand_b: np.ndarray, hand_w: np.ndarray, hand_m: np.ndarray, keys: np.ndarray,
                 offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray, binom: np.ndarray,
                 acc_i: np.ndarray, tot_i: np.ndarray, acc_f: np.ndarray, tot_f: np.ndarray) -> None:
    """Chunk ``ch`` of the boards; rows 0..P-1 of the accumulators are the range seats, row P
    the random seat."""
    b0key, b0mask = hand_key(board0, board0.shape[0], keys)
    P = off.shape[0] - 1
    n = avail.shape[0]
    nh = hand_a.shape[0]
    start, stop, pos = colex_chunk(binom[n, r], n_chunks, ch, 0, r, n, binom)
    x = np.empty(BOARD_CARDS, np.int64)
    work = np.empty(BOARD_CARDS, np.int64)
    score = np.empty(nh, np.int64)
    pair_s = np.full(N_HOLE_PAIRS, -1, np.int64)
    live_h = np.empty(N_HOLE_PAIRS, np.int64)
    live_k = np.empty(N_HOLE_PAIRS, np.int64)
    live_tmp = np.empty(N_HOLE_PAIRS, np.int64)
    radix_count = np.empty(RADIX_COUNTS, np.int64)
    every = np.empty(N_HOLE_PAIRS, np.int64)
    per = np.empty((DECK_SIZE, PER_CARD), np.int64)
    per_n = np.zeros(DECK_SIZE, np.int64)
    sel = np.empty(P, np.int64)
    at = np.empty(P, np.int64)
    used = np.zeros(P + 1, np.uint64)
    wp = np.ones(P + 1, np.float64)
    sc = np.empty(P, np.int64)
    cards = np.empty(2 * P, np.int64)
    for idx in range(start, stop):
        wb = orbit_step(idx > start, avail, pos, r, perms, binom, x, work)
        if wb == 0:
            continue
        dealt_key, dealt_mask = hand_key(x, r, keys)
        bkey = b0key + dealt_key
        bmask = b0mask | dealt_mask
        # every live hand (both cards in the deck, off the board) scored once, then sorted:
        # a key packs score and cards, so one sort of plain integers orders them
        n_live = 0
        for i in range(n):
            ci = avail[i]
            if (bmask >> np.uint64(ci)) & np.uint64(1):
                continue
            ka = bkey + keys[ci]
            ma = bmask | (np.uint64(1) << np.uint64(ci))
            for j in range(i):
                cj = avail[j]
                if (bmask >> np.uint64(cj)) & np.uint64(1):
                    continue
                # avail is ascending: cj < ci
                s = hand_score(ka + keys[cj], ma | (np.uint64(1) << np.uint64(cj)), offsets, ranks, flush)
                h = cj + ci * (ci - 1) // 2
                pair_s[h] = s
                live_h[n_live] = h
                live_k[n_live] = (s << KEY_SHIFT) | (cj << CARD_BITS) | ci
                n_live += 1
        sort_by_score(live_k, np.int64(n_live), live_tmp, radix_count)  # not a literal 0
        per_n[:] = 0
        for k in range(n_live):
            key = live_k[k]
            s = key >> KEY_SHIFT
            every[k] = s
            lo = (key >> CARD_BITS) & CARD_MASK
            hi = key & CARD_MASK
            per[lo, per_n[lo]] = s
            per_n[lo] += 1
            per[hi, per_n[hi]] = s
            per_n[hi] += 1
        for k in range(nh):
            if hand_m[k] & bmask:
                score[k] = -1
            else:
                score[k] = hand_score(bkey + keys[hand_a[k]] + keys[hand_b[k]],
                                      bmask | hand_m[k], offsets, ranks, flush)
        d = start_walk(bmask, off, at, used, wp)
        while True:
            d = next_outer(d, off, hand_m, hand_w, at, used, wp, sel)
            if d < 0:
                break
            for k in range(off[P - 1], off[P]):  # the last seat
                if hand_m[k] & used[P - 1]:
                    continue
                sel[P - 1] = k
                w = wp[P - 1] * hand_w[k]
                best = 0
                nbest = 0
                for p in range(P):
                    s = score[sel[p]]
                    sc[p] = s
                    cards[2 * p] = hand_a[sel[p]]
                    cards[2 * p + 1] = hand_b[sel[p]]
                    if s > best:
                        best = s
                        nbest = 1
                    elif s == best:
                        nbest += 1
                # random hands avoiding the assignment's cards: above / at least best, and in all
                above = _above(every, n_live, best)
                least = _at_least(every, n_live, best)
                valid = n_live
                for i in range(2 * P):
                    c = cards[i]
                    above -= _above(per[c], per_n[c], best)
                    least -= _at_least(per[c], per_n[c], best)
                    valid -= per_n[c]
                    for j in range(i):
                        cj = cards[j]
                        lo, hi = (cj, c) if cj < c else (c, cj)
                        # scored on this board only when both cards are live (reset below)
                        s2 = pair_s[lo + hi * (hi - 1) // 2]
                        if s2 >= 0:
                            valid += 1
                            if s2 > best:
                                above += 1
                            if s2 >= best:
                                least += 1
                equal = least - above
                below = valid - least
                # random seat above everyone / level with the best / below
                _add(acc_i[ch], acc_f[ch], P, WIN, wb * above, SHARE_SCALE, w)
                _add(acc_i[ch], acc_f[ch], P, TIE, wb * equal, SHARE_SCALE // (nbest + 1), w)
                _add(acc_i[ch], acc_f[ch], P, LOSE, wb * below, 0, w)
                for p in range(P):
                    if sc[p] < best:
                        _add(acc_i[ch], acc_f[ch], p, LOSE, wb * valid, 0, w)
                        continue
                    _add(acc_i[ch], acc_f[ch], p, LOSE, wb * above, 0, w)
                    _add(acc_i[ch], acc_f[ch], p, TIE, wb * equal, SHARE_SCALE // (nbest + 1), w)
                    _add(acc_i[ch], acc_f[ch], p, WIN if nbest == 1 else TIE, wb * below,
                         SHARE_SCALE // nbest, w)
                tot_i[ch] += wb * valid
                tot_f[ch] += wb * valid * w
        # forget this board's scores (pair_s is read only for live pairs of the next board,
        # but a stale score must never pass as live)
        for k in range(n_live):
            pair_s[live_h[k]] = -1


def range_random_cost(seats: Seats, n_avail: int, r: int, group_size: int) -> float:
    """Estimated seconds of :func:`range_random` on one core."""
    every = math.comb(n_avail, r)
    boards = every / max(group_size, 1)
    off = seats.off.tolist()
    leaves = float(math.prod(hi - lo for lo, hi in zip(off, off[1:])))
    orbit = every * NS_PER_ORBIT_TEST * group_size if group_size > 1 else 0.0
    live = math.comb(n_avail - r, 2)
    return (orbit + boards * (NS_PER_BOARD + NS_PER_LIVE_HAND * live
                              + NS_PER_COUNT_LEAF * leaves)) * 1e-9


def range_random(seats: Seats, board0: np.ndarray, avail: np.ndarray, r: int, perms: np.ndarray,
                 keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray
                 ) -> tuple[np.ndarray, int, np.ndarray, float]:
    """Exact sums for the range seats of ``seats`` (rows 0..P-1) and one random seat (row P):
    (int64[P+1, 4] win/tie/lose/share counts, deals, float64[P+1, 4] weighted, weighted total).
    ``avail`` is the deck the board and the random hand come from."""
    P = seats.off.shape[0] - 1
    small = range_random_cost(seats, avail.shape[0], r, perms.shape[0]) < SERIAL_SECONDS
    n_chunks = 1 if small else N_CHUNKS
    acc_i = np.zeros((n_chunks, P + 1, 4), np.int64)
    tot_i = np.zeros(n_chunks, np.int64)
    acc_f = np.zeros((n_chunks, P + 1, 4), np.float64)
    tot_f = np.zeros(n_chunks, np.float64)
    board = np.ascontiguousarray(board0, dtype=np.int64)
    cards = np.ascontiguousarray(avail, dtype=np.int64)
    args: tuple[Any, ...] = (r, perms, seats.off, seats.hand_a, seats.hand_b, seats.hand_w, seats.hand_m, keys,
            offsets, ranks, flush, BINOM, acc_i, tot_i, acc_f, tot_f)
    # each chunk first checks the caller's deadline (a server's answer), on whichever thread
    run_chunks(checked(lambda ch: _count_chunk(ch, n_chunks, board, cards, *args)), n_chunks,
               1 if small else get_num_threads())
    return acc_i.sum(axis=0), int(tot_i.sum()), acc_f.sum(axis=0), float(tot_f.sum())


__all__ = ["range_random", "range_random_cost"]
