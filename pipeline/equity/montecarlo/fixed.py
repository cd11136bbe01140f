"""Monte Carlo kernels for tables where every seat holds one known hand or a random hand.

This is the common case (a hand against random hands, or hand against hand) and the hot
path of ``pokertables equity``; seats holding ranges go through
:func:`pipeline.equity.montecarlo.driver._deal_chunk`. What makes it cheap per deal:

* the random numbers for a batch of deals are made in vectorized loops
  (:func:`pipeline.core.rng.splitmix_fill`, :func:`pipeline.core.rng.shuffle_positions`):
  every swap position of the partial Fisher-Yates shuffle comes from 16 fresh bits by
  Lemire's multiply-and-reject, so the deal loop only reads a byte per card. A draw the rule
  rejects (chance below 52 / 65,536) is redrawn from a second stream of the same chunk, so
  every position is exactly uniform and the result still depends only on (seed, chunk);
* the deck is a uint8 array that is never re-initialised: a partial Fisher-Yates shuffle of
  any arrangement of the live cards is uniform, so each deal starts from the last one's order;
* the board's key and mask are summed once; each seat adds its two cards' keys
  (:func:`pipeline.core.fasteval.hand_score`, one mask test for flushes);
* the outcome of a deal is one integer, the set of seats holding the best hand, counted in
  ``hist``; win/tie/share sums per seat follow from ``hist`` after the chunk (exact integers);
* heads-up has its own loop without per-seat loops, and its commonest shape (one known hand
  against one random hand preflop) is compiled with constant counts, so LLVM unrolls it
  (each such copy costs compile time once; more copies measured no faster).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.constants import BOARD_CARDS, SHARE_SCALE
from pipeline.core.fasteval import hand_score
from pipeline.core.rng import (
    DRAWS_PER_WORD,
    REJECTED,
    shuffle_positions,
    splitmix_fill,
    step,
    step_below,
)

#: Draws per batch of random numbers: words and positions of a batch stay in L1.
BATCH_DRAWS = 8192
#: Odd constant that starts a chunk's redraw stream (for rejected draws) away from its main one.
REDRAW_SALT = 0x5851F42D4C957F2D
#: Board cards still to come preflop: the case compiled with a constant card count.
PREFLOP_TO_COME = 5
#: Per-seat sum columns (as in :mod:`pipeline.equity.montecarlo.driver`): win, tie, lose, share, share².
WIN, TIE, LOSE, SHARE, SHARE2 = range(5)


@nb.njit(cache=True)
def batch_size(deals: int, need: int) -> int:
    """Deals per batch: about BATCH_DRAWS draws, the chunk split into equal batches (no
    random numbers made for deals that are not played), a multiple of 8."""
    most = max(8, BATCH_DRAWS // max(need, 1))
    parts = max(1, (deals + most - 1) // most)
    per = (deals + parts - 1) // parts
    return (per + 7) // 8 * 8


@nb.njit(inline="always", cache=True)
def board_key(cards: np.ndarray, r: int, keys: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """``(key, mask)`` of the first ``r`` (at most BOARD_CARDS) cards: a loop of constant
    length, so LLVM unrolls it even when ``r`` is only known at run time (a loop of ``r``
    steps was vectorized into slow gathers)."""
    key = np.uint64(0)
    mask = np.uint64(0)
    for i in range(BOARD_CARDS):
        if i < r:
            c = cards[i]
            key += keys[c]
            mask |= np.uint64(1) << np.uint64(c)
    return key, mask


@nb.njit(inline="always", cache=True)
def winners(dealt: np.ndarray, r: int, board0_key: np.uint64, board0_mask: np.uint64, hk: np.ndarray,
            hm: np.ndarray, n_seats: int, n_random: int, keys: np.ndarray, offsets: np.ndarray,
            ranks: np.ndarray, flush: np.ndarray) -> int:
    """The set of seats holding the best hand on one deal, as bits: seats ``0..n_seats-1`` hold
    ``hk``/``hm``, then ``n_random`` random seats take ``dealt[r:]`` two cards each; the board
    is ``dealt[:r]`` on top of ``board0``. Shared by every Monte Carlo kernel."""
    one = np.uint64(1)
    dealt_key, dealt_mask = board_key(dealt, r, keys)
    bkey = board0_key + dealt_key
    bmask = board0_mask | dealt_mask
    # running best and the set of seats holding it, without branches
    best = 0
    code = 0
    for q in range(n_seats):
        v = hand_score(bkey + hk[q], bmask | hm[q], offsets, ranks, flush)
        bit = 1 << q
        code = bit if v > best else (code | bit if v == best else code)
        best = max(best, v)
    for t in range(n_random):
        a = dealt[r + 2 * t]
        b = dealt[r + 2 * t + 1]
        v = hand_score(bkey + keys[a] + keys[b],
                       bmask | (one << np.uint64(a)) | (one << np.uint64(b)),
                       offsets, ranks, flush)
        bit = 1 << (n_seats + t)
        code = bit if v > best else (code | bit if v == best else code)
        best = max(best, v)
    return code


@nb.njit(inline="always", cache=True)
def swap_in(deck: np.ndarray, pos: np.uint8, i: int, n: int,
             s_red: np.uint64) -> tuple[np.uint64, np.uint8]:
    """Fisher-Yates step ``i``: move the card at ``pos`` (a rejected draw is redrawn from
    ``s_red``) to ``deck[i]``; returns (redraw state, card)."""
    j = pos
    if j == REJECTED:
        s_red, u = step_below(s_red, n - i)
        j = np.uint8(i + u)
    c = deck[j]
    deck[j] = deck[i]
    deck[i] = c
    return s_red, c


@nb.njit(inline="always", cache=True)
def _heads_up(count: int, pos: np.ndarray, deck: np.ndarray, r: int, n_fixed: int,
              s_red: np.uint64, board0_key: np.uint64, board0_mask: np.uint64, hk: np.ndarray,
              hm: np.ndarray, keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray,
              flush: np.ndarray, hist: np.ndarray) -> np.uint64:
    """``count`` heads-up deals; seat 0 and 1 are fixed while ``n_fixed`` says so, else random
    (cards ``deck[r:r + 2]``, then ``deck[r + 2:r + 4]``)."""
    n = deck.shape[0]
    need = r + 2 * (2 - n_fixed)
    one = np.uint64(1)
    for d in range(count):
        for i in range(need):
            s_red, _ = swap_in(deck, pos[i, d], i, n, s_red)
        dealt_key, dealt_mask = board_key(deck, r, keys)
        bkey = board0_key + dealt_key
        bmask = board0_mask | dealt_mask
        if n_fixed >= 1:
            key0 = bkey + hk[0]
            mask0 = bmask | hm[0]
        else:
            a = deck[r]
            b = deck[r + 1]
            key0 = bkey + keys[a] + keys[b]
            mask0 = bmask | (one << np.uint64(a)) | (one << np.uint64(b))
        if n_fixed == 2:
            key1 = bkey + hk[1]
            mask1 = bmask | hm[1]
        else:
            a = deck[need - 2]
            b = deck[need - 1]
            key1 = bkey + keys[a] + keys[b]
            mask1 = bmask | (one << np.uint64(a)) | (one << np.uint64(b))
        v0 = hand_score(key0, mask0, offsets, ranks, flush)
        v1 = hand_score(key1, mask1, offsets, ranks, flush)
        hist[np.uint64(v0 >= v1) | (np.uint64(v1 >= v0) << one)] += 1
    return s_red


@nb.njit(inline="always", cache=True)
def _multiway(count: int, pos: np.ndarray, deck: np.ndarray, r: int, n_random: int,
              s_red: np.uint64, board0_key: np.uint64, board0_mask: np.uint64, hk: np.ndarray,
              hm: np.ndarray, keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray,
              flush: np.ndarray, hist: np.ndarray) -> np.uint64:
    """``count`` deals for the fixed seats ``hk``/``hm`` and ``n_random`` random seats."""
    n = deck.shape[0]
    n_fixed = hk.shape[0]
    need = r + 2 * n_random
    for d in range(count):
        for i in range(need):
            s_red, _ = swap_in(deck, pos[i, d], i, n, s_red)
        code = winners(deck, r, board0_key, board0_mask, hk, hm, n_fixed, n_random, keys, offsets,
                       ranks, flush)
        hist[np.uint64(code)] += 1
    return s_red


@nb.njit(cache=True)
def fixed_chunk(deals: int, s: np.uint64, board0_key: np.uint64, board0_mask: np.uint64, r: int,
                deck: np.ndarray, hk: np.ndarray, hm: np.ndarray, n_random: int,
                keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
                hist: np.ndarray) -> None:
    """Play ``deals`` deals of one chunk whose generator state is ``s``.

    Seats are the fixed hands (``hk``/``hm``: key and mask of each seat's two cards) followed
    by ``n_random`` random hands; ``r`` board cards are to come, ``deck`` (uint8, at most 64
    live cards, not holding any fixed card) is shuffled in place. ``hist[code] += 1`` for each
    deal whose best hand is held by exactly the seats in ``code`` (bit p = seat p).
    """
    n_fixed = hk.shape[0]
    need = r + 2 * n_random
    batch = batch_size(deals, need)
    words = np.empty(((need + DRAWS_PER_WORD - 1) // DRAWS_PER_WORD, batch), np.uint64)
    pos = np.empty((need, batch), np.uint8)
    _, s_red = step(s ^ np.uint64(REDRAW_SALT))
    heads_up = n_fixed + n_random == 2
    done = 0
    while done < deals:
        count = min(batch, deals - done)
        s = splitmix_fill(s, words)
        shuffle_positions(words, deck.shape[0], need, pos)
        # a call with constant arguments is a separate inlined copy that LLVM unrolls
        if heads_up and r == PREFLOP_TO_COME and n_fixed == 1:
            s_red = _heads_up(count, pos, deck, PREFLOP_TO_COME, 1, s_red, board0_key,
                              board0_mask, hk, hm, keys, offsets, ranks, flush, hist)
        elif heads_up:
            s_red = _heads_up(count, pos, deck, r, n_fixed, s_red, board0_key, board0_mask,
                              hk, hm, keys, offsets, ranks, flush, hist)
        else:
            s_red = _multiway(count, pos, deck, r, n_random, s_red, board0_key, board0_mask,
                              hk, hm, keys, offsets, ranks, flush, hist)
        done += count


@nb.njit(cache=True)
def deal_cards(deals: int, s: np.uint64, deck: np.ndarray, need: int) -> np.ndarray:
    """The first ``need`` cards of each of ``deals`` shuffles, drawn exactly as
    :func:`fixed_chunk` draws them (same batches, redraw stream and swaps); uint8[deals, need].
    For tests of the sampling and for tools."""
    out = np.empty((deals, need), np.uint8)
    batch = batch_size(deals, need)
    words = np.empty(((need + DRAWS_PER_WORD - 1) // DRAWS_PER_WORD, batch), np.uint64)
    pos = np.empty((need, batch), np.uint8)
    _, s_red = step(s ^ np.uint64(REDRAW_SALT))
    n = deck.shape[0]
    done = 0
    while done < deals:
        count = min(batch, deals - done)
        s = splitmix_fill(s, words)
        shuffle_positions(words, n, need, pos)
        for d in range(count):
            for i in range(need):
                s_red, c = swap_in(deck, pos[i, d], i, n, s_red)
                out[done + d, i] = c
        done += count
    return out


@nb.njit(cache=True)
def hist_to_sums(hist: np.ndarray, deals: int, acc: np.ndarray) -> None:
    """Add per-seat win/tie/lose counts and exact share sums (units of 1/SHARE_SCALE) and
    squared shares to ``acc[P, 5]``, from the outcome counts of :func:`fixed_chunk`."""
    P = acc.shape[0]
    wins = np.zeros(P, np.int64)
    ties = np.zeros(P, np.int64)
    for code in range(1, hist.shape[0]):
        h = hist[code]
        if h == 0:
            continue
        k = 0
        for p in range(P):
            k += (code >> p) & 1
        share = SHARE_SCALE // k
        for p in range(P):
            if (code >> p) & 1:
                if k == 1:
                    wins[p] += h
                else:
                    ties[p] += h
                acc[p, SHARE] += h * share
                acc[p, SHARE2] += h * share * share
    for p in range(P):
        acc[p, WIN] += wins[p]
        acc[p, TIE] += ties[p]
        acc[p, LOSE] += deals - wins[p] - ties[p]


__all__ = ["BATCH_DRAWS", "REDRAW_SALT", "batch_size", "board_key", "deal_cards", "fixed_chunk", "hist_to_sums",
           "swap_in"]
