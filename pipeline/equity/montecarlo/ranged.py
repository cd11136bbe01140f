"""Monte Carlo kernels for tables where some seats hold ranges (more than one hand each).

An assignment of hands to the ranged seats must be as likely as the product of its weights
among the assignments that share no card (the PokerStove/Equilab convention; weights are
scaled so each seat's largest is 1). Two ways to draw one, both exact:

* **joint table** (:func:`joint_chunk`, when the seats' sizes multiply to at most
  :data:`JOINT_MAX`): every compatible assignment is listed once with the product of its
  weights and the live deck without its cards. A deal draws a row (32-bit Lemire index from the
  top half of one word, kept when the low half is below the row's weight threshold; a rejected
  draw is redrawn from the chunk's second stream), copies the row's deck and shuffles it;
* **seat by seat** (:func:`range_chunk`): each seat draws a hand the same way from its own rows;
  if two hands share a card the whole assignment is thrown away. The first attempt of a deal
  reads one precomputed word per seat with no branch until the assignment is judged; any
  failure (rejected index or weight, shared card) starts a fresh rejection loop on the second
  stream. Each attempt is a complete independent draw, so the accepted assignment has the same
  distribution whichever attempt produced it. The deck holds every card a range may use, so the
  partial Fisher-Yates shuffle deals ``K = need + u`` positions (``u`` cards held by ranged
  seats) and keeps the first ``need`` cards no ranged seat holds, in order: in a uniform
  ordering the free cards stay uniformly ordered and the first K positions hold at least
  ``need`` of them.

The shuffles' swap positions come precomputed in batches as in :mod:`pipeline.equity.montecarlo.fixed`;
the board's key is summed once, each seat adds its two cards, and the deal's outcome (the set
of seats holding the best hand) is counted in ``hist``. A chunk depends only on its generator
state: the result is the same on any number of threads.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.constants import BOARD_CARDS
from pipeline.core.rng import (
    DRAWS_PER_WORD,
    shuffle_positions,
    splitmix_fill,
    step,
    step_below,
    step_uniform,
)
from pipeline.equity.montecarlo.fixed import REDRAW_SALT, batch_size, swap_in, winners

#: Low 32 bits of a word: the Lemire remainder and the weight test of one seat's first try.
LOW32 = 0xFFFFFFFF
#: A weight of 1 as a 32-bit acceptance threshold (every low half is below it).
WEIGHT_ONE = 1 << 32


@nb.njit(cache=True)
def prepare_seats(off: np.ndarray, hand_a: np.ndarray, hand_b: np.ndarray, hand_w: np.ndarray,
                  hand_m: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                 np.ndarray, np.ndarray,
                                                                 np.ndarray, np.ndarray,
                                                                 np.ndarray, np.ndarray]:
    """What :func:`range_chunk` reads about the ranged seats (seat p's hands are rows
    ``off[p]:off[p + 1]``): (hk, hm) with the one-hand seats filled in, the seats holding
    more than one hand (multi) with their first row and size, and per hand its key sum, mask
    and first-try threshold (kept when 32 random bits are below ``floor(w * 2**32)``)."""
    n_ranged = off.shape[0] - 1
    hk = np.zeros(n_ranged, np.uint64)
    hm = np.zeros(n_ranged, np.uint64)
    n_multi = 0
    for p in range(n_ranged):
        n_multi += off[p + 1] - off[p] > 1
    multi = np.empty(n_multi, np.int64)
    lo = np.empty(n_multi, np.int64)
    size = np.empty(n_multi, np.int64)
    j = 0
    for p in range(n_ranged):
        if off[p + 1] - off[p] > 1:
            multi[j] = p
            lo[j] = off[p]
            size[j] = off[p + 1] - off[p]
            j += 1
        else:
            hk[p] = keys[hand_a[off[p]]] + keys[hand_b[off[p]]]
            hm[p] = hand_m[off[p]]
    n_hands = hand_a.shape[0]
    ck = np.empty(n_hands, np.uint64)
    cm = np.empty(n_hands, np.uint64)
    thr = np.empty(n_hands, np.uint64)
    for k in range(n_hands):
        ck[k] = keys[hand_a[k]] + keys[hand_b[k]]
        cm[k] = hand_m[k]
        thr[k] = np.uint64(min(np.floor(hand_w[k] * WEIGHT_ONE), WEIGHT_ONE))
    return hk, hm, multi, lo, size, ck, cm, thr


@nb.njit(cache=True)
def _redraw(s: np.uint64, multi: np.ndarray, lo: np.ndarray, size: np.ndarray,
            hand_w: np.ndarray, ck: np.ndarray, cm: np.ndarray, hk: np.ndarray, hm: np.ndarray,
            max_tries: int) -> tuple[np.uint64, np.uint64, int]:
    """Rejection loop on stream ``s`` until the ranged seats ``multi`` hold hands without a
    shared card (written to ``hk``/``hm``); returns (state, their cards, attempts), attempts
    -1 after ``max_tries`` conflicting attempts."""
    tries = 0
    while True:
        tries += 1
        used = np.uint64(0)
        ok = True
        for j in range(multi.shape[0]):
            while True:
                s, u = step_below(s, size[j])
                k = lo[j] + u
                w = hand_w[k]
                if w >= 1.0:
                    break
                s, x = step_uniform(s)
                if x < w:
                    break
            m = cm[k]
            if m & used:
                ok = False
                break
            used |= m
            hk[multi[j]] = ck[k]
            hm[multi[j]] = m
        if ok:
            return s, used, tries
        if tries > max_tries:
            return s, used, -1


@nb.njit(inline="always", cache=True)
def _deals(count: int, seat_words: np.ndarray, pos: np.ndarray, deck: np.ndarray,
           dealt: np.ndarray, s_red: np.uint64, board0_key: np.uint64, board0_mask: np.uint64,
           hk: np.ndarray, hm: np.ndarray, multi: np.ndarray, lo: np.ndarray, size: np.ndarray,
           reject_below: np.ndarray, hand_w: np.ndarray, thr: np.ndarray, ck: np.ndarray,
           cm: np.ndarray, keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray,
           flush: np.ndarray, hist: np.ndarray, max_tries: int, r: int, n_ranged: int,
           n_multi: int, n_random: int) -> tuple[np.uint64, int]:
    """``count`` deals of a batch whose random words are made (see :func:`range_chunk`);
    returns (redraw state, assignment attempts or -1)."""
    n = deck.shape[0]
    K = r + 2 * n_random + 2 * n_multi
    one = np.uint64(1)
    low32 = np.uint64(LOW32)
    tries = 0
    for d in range(count):
        # first attempt at the assignment, judged once at the end
        used = np.uint64(0)
        bad = np.uint64(0)
        for j in range(n_multi):
            w = seat_words[j, d]
            m = (w >> np.uint64(32)) * np.uint64(size[j])
            k = lo[j] + np.int64(m >> np.uint64(32))
            c = cm[k]
            bad |= np.uint64((m & low32) < reject_below[j]) | np.uint64((w & low32) >= thr[k]) \
                | (c & used)
            used |= c
            hk[multi[j]] = ck[k]
            hm[multi[j]] = c
        tries += 1
        if bad:
            s_red, used, t = _redraw(s_red, multi, lo, size, hand_w, ck, cm, hk, hm, max_tries)
            if t < 0:
                return s_red, -1
            tries += t
        for i in range(K):
            s_red, _ = swap_in(deck, pos[i, d], i, n, s_red)
        # keep the first cards no ranged seat holds, in order (branch-free compaction)
        kept = 0
        for i in range(K):
            c8 = deck[i]
            dealt[kept] = c8
            kept += 1 - np.int64((used >> np.uint64(c8)) & one)
        code = winners(dealt, r, board0_key, board0_mask, hk, hm, n_ranged, n_random, keys, offsets,
                       ranks, flush)
        hist[np.uint64(code)] += 1
    return s_red, tries


@nb.njit(cache=True)
def range_chunk(deals: int, s: np.uint64, board0_key: np.uint64, board0_mask: np.uint64, r: int,
                deck: np.ndarray, hk: np.ndarray, hm: np.ndarray, multi: np.ndarray,
                lo: np.ndarray, size: np.ndarray, hand_w: np.ndarray, thr: np.ndarray,
                ck: np.ndarray, cm: np.ndarray, n_random: int, keys: np.ndarray,
                offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray, hist: np.ndarray,
                max_tries: int) -> int:
    """Play ``deals`` deals of one chunk whose generator state is ``s``; returns the assignment
    attempts made, or -1 when the ranges kept conflicting.

    Ranged seats are ``hk``/``hm`` (key and mask of each seat's two cards: set for the seats
    holding one hand, overwritten each deal for the seats listed in ``multi``, whose hands
    are rows ``lo[j]:lo[j] + size[j]`` of ``ck``/``cm``/``hand_w``/``thr``), followed by
    ``n_random`` random hands; ``deck`` (uint8, at most 64 live cards) holds every card a
    range may use and no fixed card. ``hist[code] += 1`` per deal whose best hand is held by
    exactly the seats in ``code`` (bit p = seat p).
    """
    n_ranged = hk.shape[0]
    n_multi = multi.shape[0]
    K = r + 2 * n_random + 2 * n_multi  # the ranged hands' cards are in the deck: deal past them
    batch = batch_size(deals, K + DRAWS_PER_WORD * n_multi)
    words = np.empty(((K + DRAWS_PER_WORD - 1) // DRAWS_PER_WORD, batch), np.uint64)
    pos = np.empty((K, batch), np.uint8)
    seat_words = np.empty((n_multi, batch), np.uint64)
    reject_below = np.empty(n_multi, np.uint64)  # Lemire: remainders below 2**32 mod size
    for j in range(n_multi):
        reject_below[j] = np.uint64(WEIGHT_ONE % size[j])
    dealt = np.empty(K, np.uint8)
    _, s_red = step(s ^ np.uint64(REDRAW_SALT))
    tries = 0
    done = 0
    while done < deals:
        count = min(batch, deals - done)
        s = splitmix_fill(s, seat_words)
        s = splitmix_fill(s, words)
        shuffle_positions(words, deck.shape[0], K, pos)
        # a call with constant counts is a separate inlined copy that LLVM unrolls: preflop's
        # commonest shape, two ranges and a random hand. (A third copy for the other preflop
        # shapes cost 3.4 s of compiling per kernel and was not measurably faster.)
        if r == BOARD_CARDS and n_ranged == 2 and n_multi == 2 and n_random == 1:
            s_red, t = _deals(count, seat_words, pos, deck, dealt, s_red, board0_key, board0_mask,
                              hk, hm, multi, lo, size, reject_below, hand_w, thr, ck, cm, keys,
                              offsets, ranks, flush, hist, max_tries, BOARD_CARDS, 2, 2, 1)
        else:
            s_red, t = _deals(count, seat_words, pos, deck, dealt, s_red, board0_key, board0_mask,
                              hk, hm, multi, lo, size, reject_below, hand_w, thr, ck, cm, keys,
                              offsets, ranks, flush, hist, max_tries, r, n_ranged, n_multi,
                              n_random)
        if t < 0:
            return -1
        tries += t
        done += count
    return tries


#: Build one table of every compatible assignment of the ranged seats when their combo counts
#: multiply to at most this: each deal then draws one row (no conflicting draws to throw away)
#: and copies that row's live deck (64 bytes), so the shuffle never deals past ranged cards.
#: About 100 bytes a row for two seats: the largest table (1.7 MB) still fits in L2.
JOINT_MAX = 16384
#: Bytes per live deck row of the joint table (a deck holds at most 64 live cards) ...
DECK_ROW = 64
#: ... copied as this many 64-bit words per deal (a loop of 64 byte copies cost a third of a deal)
ROW_WORDS = DECK_ROW // 8


@nb.njit(cache=True)
def prepare_joint(deck: np.ndarray, multi: np.ndarray, lo: np.ndarray, size: np.ndarray,
                  hand_w: np.ndarray, ck: np.ndarray, cm: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every assignment of hands to the ranged seats ``multi`` that shares no card, when the
    seats' sizes multiply to at most :data:`JOINT_MAX` (else empty tables): per row the seats'
    key sums and masks, the live deck without the row's cards (in ``deck`` order) and the
    first-try threshold of the product of the weights (scaled so the largest is 1)."""
    n_multi = multi.shape[0]
    total = 1
    for j in range(n_multi):
        total = min(total * size[j], JOINT_MAX + 1)
    if total > JOINT_MAX:
        total = 0
    tk = np.empty((total, n_multi), np.uint64)
    tm = np.empty((total, n_multi), np.uint64)
    tdeck = np.zeros((total, DECK_ROW), np.uint8)
    tw = np.empty(total, np.float64)
    idx = np.zeros(n_multi, np.int64)
    rows = 0
    for _ in range(total):
        used = np.uint64(0)
        w = 1.0
        ok = True
        for j in range(n_multi):
            m = cm[lo[j] + idx[j]]
            ok = ok and not (m & used)
            used |= m
            w *= hand_w[lo[j] + idx[j]]
        if ok:
            for j in range(n_multi):
                tk[rows, j] = ck[lo[j] + idx[j]]
                tm[rows, j] = cm[lo[j] + idx[j]]
            n = 0
            for c in deck:
                if not (used >> np.uint64(c)) & np.uint64(1):
                    tdeck[rows, n] = c
                    n += 1
            tw[rows] = w
            rows += 1
        for j in range(n_multi):  # odometer over the seats' hands
            idx[j] += 1
            if idx[j] < size[j]:
                break
            idx[j] = 0
    thr = np.empty(rows, np.uint64)
    top = tw[:rows].max() if rows else 1.0
    for t in range(rows):
        thr[t] = np.uint64(min(np.floor(tw[t] / top * WEIGHT_ONE), WEIGHT_ONE))
    return tk[:rows].copy(), tm[:rows].copy(), tdeck[:rows].copy(), thr


@nb.njit(inline="always", cache=True)
def _joint_deals(count: int, row_words: np.ndarray, pos: np.ndarray, dk: np.ndarray,
                 dk64: np.ndarray, deck64: np.ndarray, s_red: np.uint64, board0_key: np.uint64,
                 board0_mask: np.uint64, hk: np.ndarray, hm: np.ndarray, multi: np.ndarray,
                 tk: np.ndarray, tm: np.ndarray, thr: np.ndarray, reject_below: np.uint64,
                 n_live: int, keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
                 hist: np.ndarray, r: int, n_ranged: int, n_multi: int, n_random: int
                 ) -> tuple[np.uint64, int]:
    """``count`` deals drawing whole assignments from the joint table; returns (redraw state,
    assignment attempts)."""
    need = r + 2 * n_random
    n_rows = np.uint64(thr.shape[0])
    low32 = np.uint64(LOW32)
    tries = 0
    for d in range(count):
        w = row_words[d]
        m = (w >> np.uint64(32)) * n_rows
        t = np.int64(m >> np.uint64(32))
        tries += 1
        if (m & low32) < reject_below or (w & low32) >= thr[t]:
            while True:  # rare: a rejected index or weight; redraw from the second stream
                tries += 1
                s_red, w = step(s_red)
                m = (w >> np.uint64(32)) * n_rows
                t = np.int64(m >> np.uint64(32))
                if (m & low32) >= reject_below and (w & low32) < thr[t]:
                    break
        for i in range(ROW_WORDS):  # dk is a byte view of dk64
            dk64[i] = deck64[t, i]
        for j in range(n_multi):
            hk[multi[j]] = tk[t, j]
            hm[multi[j]] = tm[t, j]
        for i in range(need):
            s_red, _ = swap_in(dk, pos[i, d], i, n_live, s_red)
        code = winners(dk, r, board0_key, board0_mask, hk, hm, n_ranged, n_random, keys, offsets,
                       ranks, flush)
        hist[np.uint64(code)] += 1
    return s_red, tries


@nb.njit(cache=True)
def joint_chunk(deals: int, s: np.uint64, board0_key: np.uint64, board0_mask: np.uint64, r: int,
                n_live: int, hk: np.ndarray, hm: np.ndarray, multi: np.ndarray, tk: np.ndarray,
                tm: np.ndarray, tdeck: np.ndarray, thr: np.ndarray, n_random: int,
                keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
                hist: np.ndarray) -> int:
    """Like :func:`range_chunk`, with the ranged seats' assignments drawn as rows of the joint
    table of :func:`prepare_joint`: one 32-bit Lemire index per deal (the low half tests the
    row's weight), and the row's live deck (``n_live`` cards) is copied and shuffled for the
    board and the random hands, so every row is as likely as the product of its weights."""
    n_ranged = hk.shape[0]
    n_multi = multi.shape[0]
    need = r + 2 * n_random
    batch = batch_size(deals, need + DRAWS_PER_WORD)
    words = np.empty(((need + DRAWS_PER_WORD - 1) // DRAWS_PER_WORD, batch), np.uint64)
    pos = np.empty((need, batch), np.uint8)
    row_words = np.empty(batch, np.uint64)
    reject_below = np.uint64(WEIGHT_ONE % thr.shape[0])
    dk64 = np.empty(ROW_WORDS, np.uint64)
    dk = dk64.view(np.uint8)
    deck64 = tdeck.view(np.uint64)
    _, s_red = step(s ^ np.uint64(REDRAW_SALT))
    tries = 0
    done = 0
    while done < deals:
        count = min(batch, deals - done)
        s = splitmix_fill(s, row_words)
        s = splitmix_fill(s, words)
        shuffle_positions(words, n_live, need, pos)
        # constant counts: a separate inlined copy that LLVM unrolls (as in range_chunk)
        if r == BOARD_CARDS and n_ranged == 2 and n_multi == 2 and n_random == 1:
            s_red, t = _joint_deals(count, row_words, pos, dk, dk64, deck64, s_red, board0_key,
                                    board0_mask, hk, hm, multi, tk, tm, thr, reject_below, n_live,
                                    keys, offsets, ranks, flush, hist, BOARD_CARDS, 2, 2, 1)
        else:
            s_red, t = _joint_deals(count, row_words, pos, dk, dk64, deck64, s_red, board0_key,
                                    board0_mask, hk, hm, multi, tk, tm, thr, reject_below, n_live,
                                    keys, offsets, ranks, flush, hist, r, n_ranged, n_multi,
                                    n_random)
        tries += t
        done += count
    return tries


__all__ = ["JOINT_MAX", "joint_chunk", "prepare_joint", "prepare_seats", "range_chunk"]
