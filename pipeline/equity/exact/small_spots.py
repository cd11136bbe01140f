"""Exact heads-up range against range in plain numpy, for spots too small to be worth the JIT.

A fresh process pays about a quarter of a second to import numba and start its runtime before
the first kernel answers; a heads-up question on the flop, turn or river between two modest
ranges is a few million comparisons, which numpy does in milliseconds. This module counts
those spots with array operations only (it imports no numba), and gives the same sums as
:func:`pipeline.equity.exact.ranges.range_exact` with two seats: every board completion x
every pair of hands that share no card with each other or the board, each counted with the
product of its weights (PokerStove/Equilab). It walks every completion (no suit symmetry), so
the integer counts are exactly the kernel's; weighted sums agree to rounding.

Each completion's hands are scored once per seat (:func:`pipeline.core.evalkeys.score_keys`);
the comparisons are counted per pair of hands over a block of completions, so the weights
multiply integer counts once at the end.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np

from pipeline.core.constants import SHARE_SCALE
from pipeline.core.evalkeys import EvalTables, score_keys
from pipeline.equity.spots.seats import Seats

#: Spots of up to this many (board completion, hand, hand) triples are counted here (about
#: 30 ms of numpy on one core); bigger ones go to the numba kernels.
MAX_TRIPLES = 4_000_000
#: Most board cards still to come (flop, turn, river spots): a preflop walk lists too many
#: completions to hold them as one array.
MAX_TO_COME = 2
#: Triples compared per numpy block: keeps the temporary arrays near a megabyte each.
BLOCK_TRIPLES = 1 << 20
#: Pot share of a heads-up win and of a split.
WIN_SHARE, TIE_SHARE = SHARE_SCALE, SHARE_SCALE // 2
#: Score given to a hand that shares a card with the board completion.
DEAD = -1


def is_small(seats: Seats, n_avail: int, r: int) -> bool:
    """Whether this module counts the spot: two seats, at most :data:`MAX_TO_COME` cards to
    come and at most :data:`MAX_TRIPLES` (completion, hand, hand) triples."""
    sizes = np.diff(seats.off)
    return (len(sizes) == 2 and r <= MAX_TO_COME
            and comb(n_avail, r) * int(sizes[0]) * int(sizes[1]) <= MAX_TRIPLES)


def _completions(avail: np.ndarray, r: int, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Key sums and card bitmaps (int64) of every ``r``-card completion drawn from ``avail``."""
    cards = np.array(list(combinations(avail.tolist(), r)), np.int64).reshape(comb(len(avail), r), r)
    return keys[cards].sum(axis=1), (np.int64(1) << cards).sum(axis=1)


def _seat_scores(seats: Seats, p: int, bkey: np.ndarray, bmask: np.ndarray, keys: np.ndarray,
                 ev: EvalTables) -> tuple[np.ndarray, np.ndarray]:
    """(scores[completion, hand] with :data:`DEAD` where a hand meets the board, hand bitmaps)."""
    rows = slice(int(seats.off[p]), int(seats.off[p + 1]))
    hkey = keys[seats.hand_a[rows]] + keys[seats.hand_b[rows]]
    hmask = seats.hand_m[rows].astype(np.int64)
    live = (bmask[:, None] & hmask[None, :]) == 0
    out = np.full(live.shape, DEAD, np.int64)
    rows_i, cols = np.nonzero(live)
    out[rows_i, cols] = score_keys(bkey[rows_i] + hkey[cols], bmask[rows_i] | hmask[cols], ev)
    return out, hmask


def _pair_counts(seats: Seats, board0: np.ndarray, avail: np.ndarray, r: int, keys: np.ndarray,
                 offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pair of hands (seat 0's rows x seat 1's): completions seat 0 wins, ties, and all
    completions the pair can see (int64 matrices)."""
    ev = EvalTables(keys, offsets, ranks, flush)
    k64 = keys.astype(np.int64)
    b = np.asarray(board0, np.int64)
    bkey, bmask = _completions(np.asarray(avail, np.int64), r, k64)
    bkey += k64[b].sum()
    bmask |= (np.int64(1) << b).sum()
    s0, m0 = _seat_scores(seats, 0, bkey, bmask, k64, ev)
    s1, m1 = _seat_scores(seats, 1, bkey, bmask, k64, ev)
    apart = (m0[:, None] & m1[None, :]) == 0
    wins = np.zeros(apart.shape, np.int64)
    ties = np.zeros(apart.shape, np.int64)
    pairs = np.zeros(apart.shape, np.int64)
    step = max(1, BLOCK_TRIPLES // max(1, apart.size))
    for lo in range(0, s0.shape[0], step):
        a, c = s0[lo:lo + step, :, None], s1[lo:lo + step, None, :]
        ok = (a != DEAD) & (c != DEAD) & apart
        wins += (ok & (a > c)).sum(axis=0)
        ties += (ok & (a == c)).sum(axis=0)
        pairs += ok.sum(axis=0)
    return wins, ties, pairs


def _weights(seats: Seats) -> np.ndarray:
    """Product of the two hands' weights, per pair of hands."""
    return seats.hand_w[seats.off[0]:seats.off[1], None] * seats.hand_w[None, seats.off[1]:seats.off[2]]


def headsup_small(seats: Seats, board0: np.ndarray, avail: np.ndarray, r: int,
                  keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray
                  ) -> tuple[np.ndarray, int, np.ndarray, float]:
    """Exact sums of a two-seat spot, in the form of ``range_exact``: (int64[2, 4] win/tie/lose/
    share counts, pairs x completions, float64[2, 4] the same weighted, weighted total)."""
    wins, ties, pairs = _pair_counts(seats, board0, avail, r, keys, offsets, ranks, flush)
    loses = pairs - wins - ties
    w = _weights(seats)
    acc_i = np.zeros((2, 4), np.int64)
    acc_f = np.zeros((2, 4), np.float64)
    for p, (n_win, n_lose) in enumerate(((wins, loses), (loses, wins))):
        for col, n in enumerate((n_win, ties, n_lose)):
            acc_i[p, col] = int(n.sum())
            acc_f[p, col] = float((n * w).sum())
        acc_i[p, 3] = acc_i[p, 0] * WIN_SHARE + acc_i[p, 1] * TIE_SHARE
        acc_f[p, 3] = acc_f[p, 0] * WIN_SHARE + acc_f[p, 1] * TIE_SHARE
    return acc_i, int(pairs.sum()), acc_f, float((pairs * w).sum())


def headsup_small_hands(seats: Seats, board0: np.ndarray, avail: np.ndarray, r: int,
                        keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray,
                        flush: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per hand of seat 0, in the form of ``range_exact_hands``: (int64[n, 5] win/tie/lose/
    share counts and deals, float64[n, 5] the same weighted by both hands' weights)."""
    wins, ties, pairs = _pair_counts(seats, board0, avail, r, keys, offsets, ranks, flush)
    loses = pairs - wins - ties
    w = _weights(seats)
    cols = (wins, ties, loses)
    h_i = np.stack([n.sum(axis=1) for n in cols] + [pairs.sum(axis=1)], axis=1)
    h_f = np.stack([(n * w).sum(axis=1) for n in cols] + [(pairs * w).sum(axis=1)], axis=1)
    share_i = h_i[:, 0] * WIN_SHARE + h_i[:, 1] * TIE_SHARE
    share_f = h_f[:, 0] * WIN_SHARE + h_f[:, 1] * TIE_SHARE
    return np.insert(h_i, 3, share_i, axis=1), np.insert(h_f, 3, share_f, axis=1)


__all__ = ["MAX_TO_COME", "MAX_TRIPLES", "headsup_small", "headsup_small_hands", "is_small"]
