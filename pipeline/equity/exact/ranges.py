"""Exact equity for seats holding ranges: every board, every non-conflicting assignment.

For each board completion (one per orbit of the suit permutations that fix the board, the
dead cards and every seat's weighted range, counted with the orbit's size) each seat's hands
are scored once; then a depth-first walk over the seats visits every assignment of hands
whose cards are pairwise disjoint and avoid the board, and adds the showdown to each seat
with the product of the assignment's weights. Summing board-major is the same sum as
assignment-major (each assignment sees every board that avoids its cards, and every
assignment leaves the same number of free cards), so the result is exactly the
PokerStove/Equilab convention. Unit weights give integer counts.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from pipeline.core.cards import BINOM
from pipeline.core.combos import colex_chunk
from pipeline.core.constants import BOARD_CARDS, SHARE_SCALE
from pipeline.core.fasteval import hand_key, hand_score
from pipeline.equity.hands.assignments import next_outer, start_walk
from pipeline.equity.hands.symmetry import orbit_step, range_stabilizer
from pipeline.equity.spots.seats import Seats

#: Chunks the boards are split into (parallel work units).
N_CHUNKS = 64
#: Cost model of :func:`range_exact_cost`, in nanoseconds on one core of the reference machine.
NS_PER_SCORE = 6.0
NS_PER_LEAF = 2.5
NS_PER_BOARD = 60.0
#: Spots estimated below this (s) run on the calling thread: waking the pool costs more.
SERIAL_SECONDS = 0.002
#: Every board completion is tested for being its orbit's representative: per suit permutation.
NS_PER_ORBIT_TEST = 120.0
#: Accumulator columns per seat: win, tie, lose, pot share numerator.
WIN, TIE, LOSE, SHARE = range(4)


@nb.njit(cache=True)
def _range_chunk(ch: int, n_chunks: int, b0key: np.uint64, b0mask: np.uint64, avail: np.ndarray,
                 r: int, perms: np.ndarray, off: np.ndarray, hand_a: np.ndarray, hand_b: np.ndarray,
                 hand_w: np.ndarray, hand_m: np.ndarray, keys: np.ndarray, offsets: np.ndarray,
                 ranks: np.ndarray, flush: np.ndarray, binom: np.ndarray, acc_i: np.ndarray,
                 tot_i: np.ndarray, acc_f: np.ndarray, tot_f: np.ndarray) -> None:
    """Chunk ``ch`` of the boards: adds its unit-weight win/tie/lose/share counts and
    assignments to ``acc_i[ch]``/``tot_i[ch]``, and the same weighted to ``acc_f``/``tot_f``."""
    P = off.shape[0] - 1
    n = avail.shape[0]
    nh = hand_a.shape[0]
    start, stop, pos = colex_chunk(binom[n, r], n_chunks, ch, 0, r, n, binom)
    x = np.empty(BOARD_CARDS, np.int64)
    work = np.empty(BOARD_CARDS, np.int64)
    score = np.empty(nh, np.int64)
    sel = np.empty(P, np.int64)
    at = np.empty(P, np.int64)
    used = np.zeros(P + 1, np.uint64)
    wp = np.ones(P + 1, np.float64)
    for idx in range(start, stop):
        wb = orbit_step(idx > start, avail, pos, r, perms, binom, x, work)
        if wb == 0:
            continue
        dealt_key, dealt_mask = hand_key(x, r, keys)
        bkey = b0key + dealt_key
        bmask = b0mask | dealt_mask
        for k in range(nh):
            if hand_m[k] & bmask:
                score[k] = -1
            else:
                score[k] = hand_score(bkey + keys[hand_a[k]] + keys[hand_b[k]],
                                      bmask | hand_m[k], offsets, ranks, flush)
        # every assignment of card-disjoint hands off the board (pipeline.equity.hands.assignments)
        d = start_walk(bmask, off, at, used, wp)
        while True:
            d = next_outer(d, off, hand_m, hand_w, at, used, wp, sel)
            if d < 0:
                break
            # the best of the outer seats is fixed while the last seat's hands run, so each
            # last hand only says above / level with / below it; the outer seats' counts
            # follow from how many (and how much weight) fell in each class
            best = 0  # scores are >= 1: no outer seat beats nothing
            nbest = 0
            for p in range(P - 1):
                s = score[sel[p]]
                if s > best:
                    best = s
                    nbest = 1
                elif s == best:
                    nbest += 1
            n_hi = 0
            n_eq = 0
            n_lo = 0
            w_hi = 0.0
            w_eq = 0.0
            w_lo = 0.0
            for k in range(off[P - 1], off[P]):  # the last seat
                if hand_m[k] & used[P - 1]:
                    continue
                s = score[k]
                if s > best:
                    n_hi += 1
                    w_hi += hand_w[k]
                elif s == best:
                    n_eq += 1
                    w_eq += hand_w[k]
                else:
                    n_lo += 1
                    w_lo += hand_w[k]
            n_all = n_hi + n_eq + n_lo
            if n_all == 0:
                continue
            wo = wb * wp[P - 1]
            w_all = w_hi + w_eq + w_lo
            tie_sh = SHARE_SCALE // (nbest + 1)
            last = P - 1
            _add(acc_i, acc_f, ch, last, WIN, wb * n_hi, SHARE_SCALE, wo * w_hi)
            _add(acc_i, acc_f, ch, last, TIE, wb * n_eq, tie_sh, wo * w_eq)
            _add(acc_i, acc_f, ch, last, LOSE, wb * n_lo, 0, wo * w_lo)
            for p in range(P - 1):
                if score[sel[p]] < best:
                    _add(acc_i, acc_f, ch, p, LOSE, wb * n_all, 0, wo * w_all)
                    continue
                _add(acc_i, acc_f, ch, p, LOSE, wb * n_hi, 0, wo * w_hi)
                _add(acc_i, acc_f, ch, p, TIE, wb * n_eq, tie_sh, wo * w_eq)
                _add(acc_i, acc_f, ch, p, WIN if nbest == 1 else TIE, wb * n_lo,
                     SHARE_SCALE // nbest, wo * w_lo)
            tot_i[ch] += wb * n_all
            tot_f[ch] += wo * w_all


@nb.njit(cache=True, inline="always")
def _add(acc_i: np.ndarray, acc_f: np.ndarray, ch: int, p: int, col: int, n: int, sh: int,
         w: float) -> None:
    """``n`` assignments x boards of outcome ``col`` (pot share ``sh`` each) for seat p, of
    total weight ``w``."""
    acc_i[ch, p, col] += n
    acc_f[ch, p, col] += w
    if sh:
        acc_i[ch, p, SHARE] += n * sh
        acc_f[ch, p, SHARE] += w * sh


@nb.njit(cache=True, parallel=True)
def _range_parallel(board0: np.ndarray, avail: np.ndarray, r: int, perms: np.ndarray,
                    off: np.ndarray, hand_a: np.ndarray, hand_b: np.ndarray, hand_w: np.ndarray,
                    hand_m: np.ndarray, keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray,
                    flush: np.ndarray, binom: np.ndarray, acc_i: np.ndarray, tot_i: np.ndarray,
                    acc_f: np.ndarray, tot_f: np.ndarray) -> None:
    """Every chunk of boards, spread over the threads."""
    n_chunks = tot_i.shape[0]
    b0key, b0mask = hand_key(board0, board0.shape[0], keys)
    for ch in nb.prange(n_chunks):
        # np.int64: a prange index is also typed uint64 in the parallel body
        _range_chunk(np.int64(ch), n_chunks, b0key, b0mask, avail, r, perms, off, hand_a, hand_b, hand_w,
                     hand_m, keys, offsets, ranks, flush, binom, acc_i, tot_i, acc_f, tot_f)


@nb.njit(cache=True)
def _range_serial(board0: np.ndarray, avail: np.ndarray, r: int, perms: np.ndarray,
                  off: np.ndarray, hand_a: np.ndarray, hand_b: np.ndarray, hand_w: np.ndarray,
                  hand_m: np.ndarray, keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray,
                  flush: np.ndarray, binom: np.ndarray, acc_i: np.ndarray, tot_i: np.ndarray,
                  acc_f: np.ndarray, tot_f: np.ndarray) -> None:
    """Every chunk of boards on this thread: a small spot costs less than waking the pool."""
    n_chunks = tot_i.shape[0]
    b0key, b0mask = hand_key(board0, board0.shape[0], keys)
    for ch in range(n_chunks):
        _range_chunk(ch, n_chunks, b0key, b0mask, avail, r, perms, off, hand_a, hand_b, hand_w,
                     hand_m, keys, offsets, ranks, flush, binom, acc_i, tot_i, acc_f, tot_f)


def range_group(seats: Seats, card_sets: list[list[int]]) -> np.ndarray:
    """Suit permutations fixing each card set and mapping every seat's weighted range onto
    itself (so board orbits under them give every seat the same counts)."""
    ranges = []
    for p in range(seats.off.shape[0] - 1):
        rows = slice(seats.off[p], seats.off[p + 1])
        a, b = seats.hand_a[rows], seats.hand_b[rows]
        ranges.append((a + b * (b - 1) // 2, seats.hand_w[rows]))
    return range_stabilizer(card_sets, ranges)


def range_exact_cost(seats: Seats, n_avail: int, r: int, group_size: int) -> float:
    """Estimated seconds of :func:`range_exact` on one core (boards x (scores + leaves))."""
    every = math.comb(n_avail, r)
    boards = every / max(group_size, 1)
    off = seats.off.tolist()
    sizes = [hi - lo for lo, hi in zip(off, off[1:])]
    leaves = float(math.prod(sizes))
    orbit = every * NS_PER_ORBIT_TEST * group_size if group_size > 1 else 0.0
    return (orbit + boards * (NS_PER_BOARD + NS_PER_SCORE * sum(sizes)
                              + NS_PER_LEAF * leaves)) * 1e-9


def range_exact(seats: Seats, board0: np.ndarray, avail: np.ndarray, r: int, perms: np.ndarray,
                keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray
                ) -> tuple[np.ndarray, int, np.ndarray, float]:
    """Exact per-seat sums: (int64[P, 4] win/tie/lose/share counts, assignments x boards,
    float64[P, 4] the same weighted, weighted total)."""
    P = seats.off.shape[0] - 1
    small = range_exact_cost(seats, avail.shape[0], r, perms.shape[0]) < SERIAL_SECONDS
    n_chunks = 1 if small else N_CHUNKS
    acc_i = np.zeros((n_chunks, P, 4), np.int64)
    tot_i = np.zeros(n_chunks, np.int64)
    acc_f = np.zeros((n_chunks, P, 4), np.float64)
    tot_f = np.zeros(n_chunks, np.float64)
    kernel = _range_serial if small else _range_parallel
    kernel(np.ascontiguousarray(board0, dtype=np.int64), np.ascontiguousarray(avail, dtype=np.int64),
           r, perms, seats.off, seats.hand_a, seats.hand_b, seats.hand_w, seats.hand_m, keys,
           offsets, ranks, flush, BINOM, acc_i, tot_i, acc_f, tot_f)
    return acc_i.sum(axis=0), int(tot_i.sum()), acc_f.sum(axis=0), float(tot_f.sum())


__all__ = ["range_exact", "range_exact_cost", "range_group"]
