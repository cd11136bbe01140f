"""Exact equity for seats holding ranges: every board, every non-conflicting assignment.

For each board completion (one per orbit of the suit permutations that fix the board, the
dead cards and every seat's weighted range, counted with the orbit's size) each seat's hands
are scored once; then every assignment of hands whose cards are pairwise disjoint and avoid
the board adds its showdown to each seat with the product of the assignment's weights.
Summing board-major is the same sum as assignment-major (each assignment sees every board
that avoids its cards, and every assignment leaves the same number of free cards), so the
result is exactly the PokerStove/Equilab convention. Unit weights give integer counts.

A depth-first walk visits the assignments of every seat but the last (the largest range).
The last seat is counted, not walked: per board its hands are sorted by score with per-card
prefix counts (:mod:`pipeline.equity.exact.counted_seat`), so the number of its hands below,
level with and above the walked seats' best that share no card with them is a few table
reads; a last seat of at most :data:`VISIT_MAX` hands is cheaper visited hand by hand. The
outcomes are tallied by which walked seats hold the best (:mod:`pipeline.equity.exact.outcomes`).
Optionally the sums are also kept per hand of one walked seat (:func:`range_exact_hands`).
"""

from __future__ import annotations

import math
from typing import Any

import numba as nb
import numpy as np
from numba import get_num_threads

from pipeline.core.bits import ctpop64
from pipeline.core.cancel import checked
from pipeline.core.cards import BINOM
from pipeline.core.combos import colex_chunk
from pipeline.core.constants import BOARD_CARDS, DECK_SIZE, N_HOLE_PAIRS
from pipeline.core.fasteval import hand_key, hand_score
from pipeline.core.parallel import run_chunks
from pipeline.equity.exact.columns import HAND_COLUMNS
from pipeline.equity.exact.counted_seat import ABSENT, prepare_counted
from pipeline.equity.exact.outcomes import per_hand, resolve, tally
from pipeline.equity.exact.scoresort import RADIX_COUNTS
from pipeline.equity.hands.assignments import next_outer, start_walk
from pipeline.equity.hands.symmetry import hand_perm_table, orbit_step, range_stabilizer
from pipeline.equity.spots.seats import Seats

#: Chunks the boards are split into (parallel work units).
N_CHUNKS = 16
#: Cost model of :func:`range_exact_cost`, in nanoseconds on one core of the reference machine.
NS_PER_SCORE = 6.0
NS_PER_VISIT = 2.5
NS_PER_COUNTED = 30.0
NS_PER_LEAF = 15.0
NS_PER_BOARD = 60.0
#: A last seat of at most this many hands is visited per assignment instead of counted.
VISIT_MAX = 16
#: Spots estimated below this (s) run on the calling thread: waking the pool costs more.
SERIAL_SECONDS = 0.002
#: Every board completion is tested for being its orbit's representative: per suit permutation.
NS_PER_ORBIT_TEST = 120.0
#: The per-hand sums when no seat is split (never written; writable, or the kernel would be
#: compiled a second time for read-only arrays).
_NO_ROWS = (np.zeros((0, 0, HAND_COLUMNS), np.int64), np.zeros((0, 0, HAND_COLUMNS), np.float64))


@nb.njit(cache=True, nogil=True)
def _range_chunk(ch: int, n_chunks: int, board0: np.ndarray, avail: np.ndarray,
                 r: int, perms: np.ndarray, off: np.ndarray, hand_a: np.ndarray, hand_b: np.ndarray,
                 hand_w: np.ndarray, hand_m: np.ndarray, keys: np.ndarray, offsets: np.ndarray,
                 ranks: np.ndarray, flush: np.ndarray, binom: np.ndarray, weighted: bool, bd: int,
                 acc_i: np.ndarray, tot_i: np.ndarray, acc_f: np.ndarray, tot_f: np.ndarray,
                 hand_i: np.ndarray, hand_f: np.ndarray) -> None:
    """Chunk ``ch`` of the boards: adds its unit-weight win/tie/lose/share counts and
    assignments to ``acc_i[ch]``/``tot_i[ch]`` and, when ``weighted``, the same weighted to
    ``acc_f``/``tot_f``. With ``bd >= 0`` (a seat other than the last) also per hand of that
    seat, by row: ``hand_i[ch, row]``/``hand_f[ch, row]`` = win, tie, lose, share, deals."""
    b0key, b0mask = hand_key(board0, board0.shape[0], keys)
    P = off.shape[0] - 1
    L = P - 1  # the counted seat; seats 0..L-1 are walked
    lo_l = off[L]
    n_l = off[P] - lo_l
    outer = off[:P]
    n = avail.shape[0]
    nh = hand_a.shape[0]
    start, stop, pos = colex_chunk(binom[n, r], n_chunks, ch, 0, r, n, binom)
    x = np.empty(BOARD_CARDS, np.int64)
    work = np.empty(BOARD_CARDS, np.int64)
    score = np.empty(nh, np.int64)
    # a small last seat is visited hand by hand: its tables would cost more than they save
    visit = n_l <= VISIT_MAX
    t_l = 0 if visit else n_l  # the counted seat's tables: none when it is visited
    keyb = np.empty(t_l, np.int64)
    tmp = np.empty(t_l, np.int64)
    radix = np.empty(RADIX_COUNTS, np.int64)
    ls = np.empty(t_l + 1, np.int64)
    lw = np.empty(t_l, np.float64)
    tw = np.zeros(t_l + 1, np.float64)
    cc = np.empty((t_l + 1) * DECK_SIZE, np.int32)
    cw = np.empty((t_l + 1) * DECK_SIZE if weighted else 0, np.float64)
    pairpos = np.full(0 if visit else DECK_SIZE * DECK_SIZE, ABSENT, np.int64)
    below = np.empty(0 if visit else lo_l, np.int64)
    upto = np.empty(0 if visit else lo_l, np.int64)
    n_masks = 1 << L
    # last-seat hands below / level with / above the best of the walked seats, by the mask of
    # walked seats holding that best: this board (hb) and the chunk, times board weights (hc)
    hb_i = np.zeros((n_masks, 3), np.int64)
    hc_i = np.zeros((n_masks, 3), np.int64)
    hb_f = np.zeros((n_masks, 3), np.float64)
    hc_f = np.zeros((n_masks, 3), np.float64)
    sel = np.empty(L, np.int64)
    at = np.empty(L, np.int64)
    used = np.zeros(L + 1, np.uint64)
    wp = np.ones(L + 1, np.float64)
    nf = 2 * (L - 1)  # cards of the seats before the walk's last one
    cards = np.empty(max(nf, 1), np.int64)
    q0 = np.empty((nf + 1) * (nf + 1), np.int64)  # C(nf, 2) + 2 nf + 1 pairs at most
    last_bit = np.int64(1) << (L - 1)
    prev = np.int64(0)  # the counted seat's live hands on the board before
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
        nl = n_l
        if not visit:
            nl = prepare_counted(score, lo_l, lo_l + n_l, prev, hand_a, hand_b, hand_w, weighted,
                                 keyb, tmp, radix, lw, ls, tw, cc, cw, pairpos, below, upto)
            prev = nl
        end = nl * DECK_SIZE
        d = start_walk(bmask, outer, at, used, wp)
        while nl > 0:
            d = next_outer(d, outer, hand_m, hand_w, at, used, wp, sel)
            if d < 0:
                break
            # the seats before the walk's last one: their best, its positions, their cards
            best0 = 0  # scores are >= 1: no seat beats nothing
            m0 = 0
            p_lo = 0
            p_le = 0
            for p in range(L - 1):
                k = sel[p]
                s = score[k]
                if s > best0:
                    best0 = s
                    m0 = np.int64(1) << p
                    if not visit:
                        p_lo = below[k]
                        p_le = upto[k]
                elif s == best0:
                    m0 |= np.int64(1) << p
                cards[2 * p] = hand_a[k]
                cards[2 * p + 1] = hand_b[k]
            f_lo = 0
            f_le = 0
            f_all = 0
            fw_lo = 0.0
            fw_le = 0.0
            fw_all = 0.0
            for i in range(0 if visit else nf):
                c = cards[i]
                f_lo += cc[p_lo * DECK_SIZE + c]
                f_le += cc[p_le * DECK_SIZE + c]
                f_all += cc[end + c]
                if weighted:
                    fw_lo += cw[p_lo * DECK_SIZE + c]
                    fw_le += cw[p_le * DECK_SIZE + c]
                    fw_all += cw[end + c]
            nq = 0  # counted-seat hands made of two of those cards
            for i in range(0 if visit else nf):
                for j in range(i):
                    q = pairpos[cards[i] * DECK_SIZE + cards[j]]
                    if q != ABSENT:
                        q0[nq] = q
                        nq += 1
            for k in range(outer[L - 1], outer[L]):  # the walk's last seat
                if hand_m[k] & used[L - 1]:
                    continue
                s = score[k]
                a = hand_a[k]
                b = hand_b[k]
                if s > best0:
                    m = last_bit
                elif s == best0:
                    m = m0 | last_bit
                else:
                    m = m0
                c_lo = 0
                c_le = 0
                c_all = 0
                w_lo = 0.0
                w_le = 0.0
                w_all = 0.0
                if visit:
                    # the last seat hand by hand (written out here: an inlined helper taking
                    # arrays can keep a reference count per call in this loop)
                    best = max(s, best0)
                    taken = used[L - 1] | hand_m[k]
                    for j in range(lo_l, lo_l + n_l):
                        if hand_m[j] & taken:
                            continue
                        sj = score[j]
                        wj = hand_w[j]
                        c_all += 1
                        w_all += wj
                        if sj <= best:
                            c_le += 1
                            w_le += wj
                            if sj < best:
                                c_lo += 1
                                w_lo += wj
                else:
                    if s > best0:
                        pl = below[k]
                        pe = upto[k]
                        g_lo = 0
                        g_le = 0
                        for i in range(nf):
                            g_lo += cc[pl * DECK_SIZE + cards[i]]
                            g_le += cc[pe * DECK_SIZE + cards[i]]
                    else:
                        pl = p_lo
                        pe = p_le
                        g_lo = f_lo
                        g_le = f_le
                    rl = pl * DECK_SIZE
                    re = pe * DECK_SIZE
                    c_lo = pl - g_lo - cc[rl + a] - cc[rl + b]
                    c_le = pe - g_le - cc[re + a] - cc[re + b]
                    c_all = nl - f_all - cc[end + a] - cc[end + b]
                    # a hand made of two of the assignment's cards was taken away twice
                    nq1 = nq
                    q = pairpos[a * DECK_SIZE + b]
                    if q != ABSENT:
                        q0[nq1] = q
                        nq1 += 1
                    for i in range(nf):
                        q = pairpos[a * DECK_SIZE + cards[i]]
                        if q != ABSENT:
                            q0[nq1] = q
                            nq1 += 1
                        q = pairpos[b * DECK_SIZE + cards[i]]
                        if q != ABSENT:
                            q0[nq1] = q
                            nq1 += 1
                    for t in range(nq1):
                        q = q0[t]
                        c_all += 1
                        if q < pl:
                            c_lo += 1
                        if q < pe:
                            c_le += 1
                    if weighted:
                        if s > best0:
                            gw_lo = 0.0
                            gw_le = 0.0
                            for i in range(nf):
                                gw_lo += cw[rl + cards[i]]
                                gw_le += cw[re + cards[i]]
                        else:
                            gw_lo = fw_lo
                            gw_le = fw_le
                        w_lo = tw[pl] - gw_lo - cw[rl + a] - cw[rl + b]
                        w_le = tw[pe] - gw_le - cw[re + a] - cw[re + b]
                        w_all = tw[nl] - fw_all - cw[end + a] - cw[end + b]
                        for t in range(nq1):
                            q = q0[t]
                            w_all += lw[q]
                            if q < pl:
                                w_lo += lw[q]
                            if q < pe:
                                w_le += lw[q]
                wo = wp[L - 1] * hand_w[k]
                tally(hb_i, hb_f, m, c_lo, c_le, c_all, weighted, wo, w_lo, w_le, w_all)
                if bd >= 0:
                    per_hand(hand_i, hand_f, ch, sel[bd] if bd < L - 1 else k, (m >> bd) & 1,
                             ctpop64(m), wb, c_lo, c_le, c_all, wb * wo, w_lo, w_le, w_all)
        for mm in range(n_masks):
            for j in range(3):
                hc_i[mm, j] += wb * hb_i[mm, j]
                hb_i[mm, j] = 0
                if weighted:
                    hc_f[mm, j] += wb * hb_f[mm, j]
                    hb_f[mm, j] = 0.0
    resolve(hc_i, hc_f, L, weighted, acc_i[ch], acc_f[ch], tot_i, tot_f, ch)


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
    """Estimated seconds of :func:`range_exact` on one core: boards x (scores, the walk's
    assignments of every seat but the last, and the last seat's hands visited per assignment
    or counted from its tables)."""
    every = math.comb(n_avail, r)
    boards = every / max(group_size, 1)
    off = seats.off.tolist()
    sizes = [hi - lo for lo, hi in zip(off, off[1:])]
    leaves = float(math.prod(sizes[:-1]))
    if sizes[-1] <= VISIT_MAX:
        per_board = NS_PER_VISIT * leaves * sizes[-1]
    else:
        per_board = NS_PER_COUNTED * sizes[-1] + NS_PER_LEAF * leaves
    orbit = every * NS_PER_ORBIT_TEST * group_size if group_size > 1 else 0.0
    return (orbit + boards * (NS_PER_BOARD + NS_PER_SCORE * sum(sizes) + per_board)) * 1e-9


def _run(seats: Seats, board0: np.ndarray, avail: np.ndarray, r: int, perms: np.ndarray,
         tables: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], split: int,
         known: tuple[bool, bool] | None = None
         ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool]:
    """The kernel's per-chunk sums, and whether they are weighted (else the float sums are
    left at zero). ``known``: (serial, weighted) as :func:`range_exact_flags` gives them, when
    the caller keeps them (a small spot asked again: each costs a microsecond or two)."""
    P = seats.off.shape[0] - 1
    small, weighted = known if known is not None else range_exact_flags(seats, avail.shape[0], r,
                                                                        perms.shape[0])
    n_chunks = 1 if small else N_CHUNKS
    acc_i = np.zeros((n_chunks, P, 4), np.int64)
    tot_i = np.zeros(n_chunks, np.int64)
    acc_f = np.zeros((n_chunks, P, 4), np.float64)
    tot_f = np.zeros(n_chunks, np.float64)
    hand_i, hand_f = _NO_ROWS
    if split >= 0:
        hand_i = np.zeros((n_chunks, seats.hand_a.shape[0], HAND_COLUMNS), np.int64)
        hand_f = np.zeros((n_chunks, seats.hand_a.shape[0], HAND_COLUMNS), np.float64)
    board = np.ascontiguousarray(board0, dtype=np.int64)
    cards = np.ascontiguousarray(avail, dtype=np.int64)
    args: tuple[Any, ...] = (r, perms, seats.off, seats.hand_a, seats.hand_b, seats.hand_w, seats.hand_m, *tables,
            BINOM, weighted, split, acc_i, tot_i, acc_f, tot_f, hand_i, hand_f)
    # each chunk first checks the caller's deadline (a server's answer), on whichever thread
    run_chunks(checked(lambda ch: _range_chunk(ch, n_chunks, board, cards, *args)), n_chunks,
               1 if small else get_num_threads())
    return acc_i, tot_i, acc_f, tot_f, hand_i, hand_f, weighted


def range_exact_flags(seats: Seats, n_avail: int, r: int, group_size: int) -> tuple[bool, bool]:
    """(whether the spot runs on the calling thread, whether any weight is not 1)."""
    return (range_exact_cost(seats, n_avail, r, group_size) < SERIAL_SECONDS,
            bool((seats.hand_w != 1.0).any()))


def range_exact(seats: Seats, board0: np.ndarray, avail: np.ndarray, r: int, perms: np.ndarray,
                keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
                known: tuple[bool, bool] | None = None) -> tuple[np.ndarray, int, np.ndarray, float]:
    """Exact per-seat sums: (int64[P, 4] win/tie/lose/share counts, assignments x boards,
    float64[P, 4] the same weighted, weighted total). ``known``: :func:`range_exact_flags` of
    the spot, if the caller keeps them."""
    acc_i, tot_i, acc_f, tot_f, _, _, weighted = _run(seats, board0, avail, r, perms,
                                                      (keys, offsets, ranks, flush), -1, known)
    a_i, t_i = acc_i.sum(axis=0) if len(acc_i) > 1 else acc_i[0], int(tot_i.sum())
    if not weighted:  # every weight 1: the weighted sums are the counts
        return a_i, t_i, a_i.astype(np.float64), float(t_i)
    return a_i, t_i, acc_f.sum(axis=0), float(tot_f.sum())


def range_exact_hands(seats: Seats, board0: np.ndarray, avail: np.ndarray, r: int,
                      perms: np.ndarray, keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray,
                      flush: np.ndarray, split: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact sums per hand of seat ``split`` (not the last seat), one row per hand of that seat
    in its order: (int64[n, 5] win/tie/lose/share counts and deals, float64[n, 5] the same
    weighted by the other seats' hands and this one's). Each row is that hand's own spot:
    the deals in which the seat holds it. Board orbits count a hand's images under ``perms``
    in its place, so the rows are averaged over the group (exact: they share their counts)."""
    if not 0 <= split < seats.off.shape[0] - 2:
        raise ValueError(f"seat {split} is counted, not walked: it has no rows")
    _, _, _, _, hand_i, hand_f, weighted = _run(seats, board0, avail, r, perms,
                                                (keys, offsets, ranks, flush), split)
    rows = slice(int(seats.off[split]), int(seats.off[split + 1]))
    h_i = hand_i.sum(axis=0)[rows]
    h_f = h_i.astype(np.float64) if not weighted else hand_f.sum(axis=0)[rows]
    if perms.shape[0] > 1:
        a, b = seats.hand_a[rows], seats.hand_b[rows]
        idx = np.minimum(a, b) + np.maximum(a, b) * (np.maximum(a, b) - 1) // 2
        at = np.full(N_HOLE_PAIRS, -1, np.int64)
        at[idx] = np.arange(idx.shape[0])
        images = at[hand_perm_table(perms)[:, idx]]  # [g, n]: row of each hand's image
        if (images < 0).any():
            raise AssertionError("the group does not map the range onto itself")  # cannot happen
        total = h_i[images].sum(axis=0)
        if (total % perms.shape[0]).any():
            raise AssertionError("suit symmetrisation left a remainder")  # cannot happen
        h_i = total // perms.shape[0]
        h_f = h_f[images].sum(axis=0) / perms.shape[0]
    return h_i, h_f


__all__ = ["range_exact", "range_exact_cost", "range_exact_flags", "range_exact_hands", "range_group"]
