"""Exact heads-up preflop counts of two fixed hands: rank-only counting plus flush corrections.

Every one of the C(48, 5) = 1,712,304 boards is counted, but few are looked at one by one:

* **Rank-only pass.** Ignoring flushes, both scores depend only on the board's rank multiset
  ``R``. There are at most 6,175 of them, and ``R`` is dealt in ``prod_r C(live_r, m_r)`` ways
  (``live_r`` = cards of rank ``r`` that neither hand holds, ``m_r`` = copies of ``r`` in ``R``).
  So ``sum over boards of outcome_rank(X)`` is one weighted pass over the multisets.
* **Flush corrections.** A player holding ``h`` cards of suit ``s`` can flush only if the board
  has ``5 - h`` or more cards of ``s``; with ``t_s = 5 - max(h)`` over both hands, the boards
  with ``>= t_s`` cards of some suit ``s`` are the only ones where a flush can change the
  outcome. ``t_s >= 3``, so no board has that many cards of two suits: these sets are disjoint.
  Each is walked exactly: the ``k >= t_s`` cards of suit ``s`` one subset at a time, the other
  ``5 - k <= 2`` cards by rank, weighted by how many cards of other suits each rank has left.
  Such a board adds ``outcome(X) - outcome_rank(X)``.

Total = rank-only pass + corrections, in exact integers. AsKs vs QdQc looks at about 60,000
boards instead of 1.7 million, and the rank-only lookups of the second pass hit the same small
tables as the first (:mod:`pipeline.core.fasteval`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.bits import ctpop64
from pipeline.core.constants import BOARD_CARDS, FLUSH_CARDS, N_RANKS, N_SUITS
from pipeline.core.fasteval import RANK_KEY_MASK, SUIT_BITS, SUIT_SHIFT, hand_score, rank_score

#: Result slots: first hand's wins, second hand's wins, ties, boards looked at.
WIN_A, WIN_B, TIE, LOOKED = 0, 1, 2, 3


@nb.njit(inline="always", cache=True)
def _credit(out: np.ndarray, sa: int, sb: int, w: int) -> None:
    """Add weight ``w`` to the outcome of scores ``sa`` vs ``sb`` (``w`` may be negative)."""
    if sa > sb:
        out[WIN_A] += w
    elif sb > sa:
        out[WIN_B] += w
    else:
        out[TIE] += w


@nb.njit(inline="always", cache=True)
def _correct(out: np.ndarray, key: np.uint64, mask: np.uint64, ka: np.uint64, kb: np.uint64,
             ma: np.uint64, mb: np.uint64, offsets: np.ndarray, ranks: np.ndarray,
             flush: np.ndarray, w: int) -> None:
    """Replace the rank-only outcome of one flush-capable board (weight ``w``) by the real one."""
    xa = key + ka
    xb = key + kb
    _credit(out, hand_score(xa, mask | ma, offsets, ranks, flush),
            hand_score(xb, mask | mb, offsets, ranks, flush), w)
    _credit(out, rank_score(xa & np.uint64(RANK_KEY_MASK), offsets, ranks),
            rank_score(xb & np.uint64(RANK_KEY_MASK), offsets, ranks), -w)


@nb.njit(cache=True)
def headsup_preflop(a0: int, a1: int, b0: int, b1: int, card_keys: np.ndarray,
                    offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
                    binom: np.ndarray, out: np.ndarray) -> None:
    """Add (wins of {a0,a1}, wins of {b0,b1}, ties, boards looked at) over all C(48, 5) boards
    to ``out`` (int64[4]); the four card ids must be distinct."""
    one = np.uint64(1)
    dead = (one << np.uint64(a0)) | (one << np.uint64(a1)) | (one << np.uint64(b0)) | (one << np.uint64(b1))
    ka = card_keys[a0] + card_keys[a1]
    kb = card_keys[b0] + card_keys[b1]
    ma = (one << np.uint64(a0)) | (one << np.uint64(a1))
    mb = (one << np.uint64(b0)) | (one << np.uint64(b1))
    rka = ka & np.uint64(RANK_KEY_MASK)
    rkb = kb & np.uint64(RANK_KEY_MASK)
    rk = np.empty(N_RANKS, np.uint64)
    live = np.empty(N_RANKS, np.int64)
    for r in range(N_RANKS):
        rk[r] = card_keys[N_SUITS * r] & np.uint64(RANK_KEY_MASK)
        n = 0
        for s in range(N_SUITS):
            n += np.int64(((dead >> np.uint64(N_SUITS * r + s)) & one) == 0)
        live[r] = n

    # rank-only pass: every rank multiset of the board, nondecreasing r1..r5
    looked = 0
    run = np.empty(BOARD_CARDS, np.int64)
    for r1 in range(N_RANKS):
        for r2 in range(r1, N_RANKS):
            for r3 in range(r2, N_RANKS):
                for r4 in range(r3, N_RANKS):
                    for r5 in range(r4, N_RANKS):
                        run[0], run[1], run[2], run[3], run[4] = r1, r2, r3, r4, r5
                        w = np.int64(1)
                        m = 1
                        for i in range(1, BOARD_CARDS + 1):
                            if i < BOARD_CARDS and run[i] == run[i - 1]:
                                m += 1
                            else:
                                w *= binom[live[run[i - 1]], m]
                                m = 1
                        if w == 0:
                            continue
                        x = rk[r1] + rk[r2] + rk[r3] + rk[r4] + rk[r5]
                        _credit(out, rank_score(x + rka, offsets, ranks),
                                rank_score(x + rkb, offsets, ranks), w)
                        looked += 1

    # flush corrections, one suit at a time
    other = np.empty(N_RANKS, np.int64)  # live cards of each rank in the other three suits
    for s in range(N_SUITS):
        ha = np.int64((a0 & 3) == s) + np.int64((a1 & 3) == s)
        hb = np.int64((b0 & 3) == s) + np.int64((b1 & 3) == s)
        need = FLUSH_CARDS - max(ha, hb)
        live_s = 0
        for r in range(N_RANKS):
            own = np.int64(((dead >> np.uint64(N_SUITS * r + s)) & one) == 0)
            live_s |= own << r
            other[r] = live[r] - own
        unit = np.uint64(1) << np.uint64(SUIT_SHIFT + SUIT_BITS * s)
        for sub in range(1 << N_RANKS):
            if sub & ~live_s:
                continue
            k = ctpop64(np.uint64(sub))
            if k < need or k > BOARD_CARDS:
                continue
            key = unit * np.uint64(k)
            mask = np.uint64(0)
            for r in range(N_RANKS):
                if (sub >> r) & 1:
                    key += rk[r]
                    mask |= one << np.uint64(N_SUITS * r + s)
            rest = BOARD_CARDS - k
            if rest == 0:
                _correct(out, key, mask, ka, kb, ma, mb, offsets, ranks, flush, 1)
                looked += 1
            elif rest == 1:
                for r in range(N_RANKS):
                    if other[r] > 0:
                        _correct(out, key + rk[r], mask, ka, kb, ma, mb, offsets, ranks, flush,
                                 other[r])
                        looked += 1
            else:
                for r in range(N_RANKS):
                    if other[r] == 0:
                        continue
                    for q in range(r, N_RANKS):
                        w = binom[other[r], 2] if q == r else other[r] * other[q]
                        if w > 0:
                            _correct(out, key + rk[r] + rk[q], mask, ka, kb, ma, mb, offsets,
                                     ranks, flush, w)
                            looked += 1
    out[LOOKED] += looked


__all__ = ["headsup_preflop", "WIN_A", "WIN_B", "TIE", "LOOKED"]
