"""Exact enumeration and Monte Carlo for every game, one pair of kernels.

A table is P seats; seat p holds one of the rows ``off[p]:off[p+1]`` of ``hands`` (its known
cards: a named hand is one row, an Omaha range many, a random seat one empty row) and is dealt
``fill[p]`` more cards; the board gets ``bneed`` more. A deal is an assignment of rows (no
shared card; its weight the product of the rows' weights) and then the cards still to come,
drawn from the live deck without the assigned rows' cards.

* :func:`exact_tasks` walks every assignment and every deal of the cards to come: the cards
  of each slot (board, then each seat with cards to come) are one k-subset of what the earlier
  slots left, so a deal index is a mixed-radix number of colex indices, unranked directly. The
  work splits into tasks (an assignment and a slice of its deals) run in parallel.
* :func:`mc_range` draws deals: rows by weight (rejection, redrawn whole when two rows share a
  card), then a partial Fisher-Yates shuffle of the live deck for the cards to come. Chunk
  ``k`` uses generator stream ``k`` as the hold'em kernels do.

Both are ``nogil`` kernels, one call per Python thread, each thread taking the next task or chunk
as it gets free (:func:`pipeline.core.parallel.claim`), each into its own slot: no
``parallel=True`` wrapper to compile; one compiled kernel serves every game (the other games'
tables are stand-ins of the same types), Omaha (hi-lo) Monte Carlo has its own (:mod:`.omaha_mc`).

Each deal is settled by :func:`settle`: the best high hand takes the pot, or half of it when a
low qualifies (hi-lo games), the best low the other half; ties split their part evenly. Pot
shares are integers in units of 1/POT of the pot (POT = 2 * 2520, so half a pot split up to
ten ways is whole).
"""

from __future__ import annotations

from collections.abc import Callable

import numba as nb
import numpy as np

from pipeline.core.constants import SHARE_SCALE
from pipeline.core.deal import partial_shuffle
from pipeline.core.parallel import claim
from pipeline.core.rng import below, bits32, seed_state
from pipeline.equity.games.evaluate import N_TRIPLES
from pipeline.equity.games.scoring import BOARD, score_deal, score_other

#: Units of a whole pot: half a pot split k ways (k <= 10) is a whole number of units.
POT = 2 * SHARE_SCALE
#: Accumulator columns per seat: scoops (whole pot alone), splits (part of it), losses (none),
#: pot-share sum, its square sum (Monte Carlo error), share won with the high hand, with the low.
WIN, TIE, LOSE, SHARE, SHARE2, HIGH, LOW = range(7)
N_COLS = 7
#: Monte Carlo chunks count outcomes in a histogram when codes take at most this many bits.
HIST_BITS = 12
#: Most cards a seat holds (seven-card stud).
MAX_SEAT = 7
#: bits32() draws are uniform below this.
TWO_32 = float(1 << 32)
#: A scorer of :func:`score_deal`'s arguments, as :func:`mc_chunk` takes it (a numba dispatcher).
ScoreFn = Callable[..., None]


@nb.njit(cache=True)
def outcome(hi: np.ndarray, lo: np.ndarray) -> int:
    """One deal's outcome as a code: bit p set when seat p has the best high hand, and bit
    P + p when seat p has the best qualifying low (no such bits when no low qualifies)."""
    P = hi.shape[0]
    best = hi[0]
    best_lo = lo[0]
    for p in range(1, P):
        best = max(best, hi[p])
        best_lo = max(best_lo, lo[p])
    code = 0
    for p in range(P):
        if hi[p] == best:
            code |= 1 << p
        if best_lo > 0 and lo[p] == best_lo:
            code |= 1 << (P + p)
    return code


@nb.njit(cache=True)
def settle_code(code: int, P: int, acc: np.ndarray, times: int) -> None:
    """Add an outcome (:func:`outcome`) ``times`` times to acc[P, N_COLS]: the best high hand
    takes the pot, or half of it when a low qualifies; ties split their part evenly."""
    hi_mask = code & ((1 << P) - 1)
    lo_mask = code >> P
    nb_hi = 0
    nb_lo = 0
    for p in range(P):
        nb_hi += (hi_mask >> p) & 1
        nb_lo += (lo_mask >> p) & 1
    hi_part = (POT // 2 if nb_lo else POT) // nb_hi
    lo_part = POT // 2 // nb_lo if nb_lo else 0
    for p in range(P):
        h = hi_part if (hi_mask >> p) & 1 else 0
        low = lo_part if (lo_mask >> p) & 1 else 0
        s = h + low
        if s == POT:
            acc[p, WIN] += times
        elif s > 0:
            acc[p, TIE] += times
        else:
            acc[p, LOSE] += times
        acc[p, SHARE] += times * s
        acc[p, SHARE2] += times * s * s
        acc[p, HIGH] += times * h
        acc[p, LOW] += times * low


@nb.njit(cache=True)
def settle(hi: np.ndarray, lo: np.ndarray, acc: np.ndarray, times: int) -> None:
    """Add one deal (``times`` times) to acc[P, N_COLS]: see :func:`settle_code`."""
    settle_code(outcome(hi, lo), hi.shape[0], acc, times)


@nb.njit(cache=True)
def settle_counts(counts: np.ndarray, P: int, acc: np.ndarray) -> None:
    """Add every outcome code's count (a histogram of :func:`outcome`) to acc."""
    for code in range(counts.shape[0]):
        if counts[code]:
            settle_code(code, P, acc, counts[code])


@nb.njit(cache=True)
def _take(rem: np.ndarray, mm: int, k: int, r: int, binom: np.ndarray, out: np.ndarray, row: int,
          at: int) -> int:
    """Move the colex-``r`` k-subset of ``rem[:mm]`` to ``out[row, at:at+k]`` and close the
    gaps in ``rem``; returns the new length. (A 2-D ``out`` and a row: no row view per deal.)"""
    c = mm - 1
    rest = r
    for i in range(k, 0, -1):
        while binom[c, i] > rest:
            c -= 1
        out[row, at + i - 1] = rem[c]
        rest -= binom[c, i]
        # remove position c: positions are taken from the top down, so later ones are lower
        for j in range(c, mm - 1):
            rem[j] = rem[j + 1]
        mm -= 1
        c -= 1
    return mm


@nb.njit(cache=True)
def _assignment(a: int, off: np.ndarray, hmask: np.ndarray, rows: np.ndarray) -> int:
    """Rows of assignment ``a`` (seat 0's row index varies slowest) into ``rows``; the union of
    their card masks, or -1 when two rows share a card."""
    P = off.shape[0] - 1
    used = np.int64(0)
    rest = a
    for p in range(P - 1, -1, -1):
        n = off[p + 1] - off[p]
        rows[p] = off[p] + rest % n
        rest //= n
    for p in range(P):
        m = hmask[rows[p]]
        if used & m:
            return -1
        used |= m
    return used


@nb.njit(cache=True)
def _seat_cards(rows: np.ndarray, hands: np.ndarray, hlen: np.ndarray,
                fill: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(cards[P, MAX_SEAT], ncards[P]): seat p's known cards (row ``rows[p]`` of ``hands``)
    first, its count of known plus ``fill[p]`` cards to come."""
    P = rows.shape[0]
    cards = np.empty((P, MAX_SEAT), np.int64)
    ncards = np.empty(P, np.int64)
    for p in range(P):
        ncards[p] = hlen[rows[p]] + fill[p]
        for i in range(hlen[rows[p]]):
            cards[p, i] = hands[rows[p], i]
    return cards, ncards


@nb.njit(cache=True)
def _scratch(P: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                              np.ndarray, bool]:
    """Per-task scratch of :func:`score_deal` and the tally: hi[P], lo[P], tm, tl, seven, the
    outcome histogram and whether it is used."""
    # few seats: count each outcome and settle the counts once (the outcome codes of a low
    # game take 2P bits)
    use_hist = 2 * P <= HIST_BITS
    hist = np.zeros(1 << (2 * P) if use_hist else 1, np.int64)
    return (np.empty(P, np.int64), np.empty(P, np.int64), np.empty(N_TRIPLES, np.int64),
            np.empty(N_TRIPLES, np.int64), np.empty(MAX_SEAT, np.int64), hist, use_hist)


@nb.njit(cache=True, inline="always")
def _assignment_deals(a: int, part: int, parts: int, game: int, board0: np.ndarray, bneed: int,
                      deck: np.ndarray, hands: np.ndarray, hlen: np.ndarray, hmask: np.ndarray,
                      hw: np.ndarray, off: np.ndarray, fill: np.ndarray, binom: np.ndarray,
                      card_keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray,
                      flush: np.ndarray, om_ids: np.ndarray, om_best: np.ndarray,
                      sd_key: np.ndarray, sd_nonflush: np.ndarray, sd_flush: np.ndarray,
                      razz: np.ndarray, out: np.ndarray) -> float:
    """Slice ``part`` of ``parts`` of assignment ``a``'s deals counted into out[P, N_COLS]
    (zeroed first); returns the assignment's weight, or -1 when two of its rows share a card.
    Inlined into :func:`exact_tasks`: compiled on its own, :func:`score_deal` was optimised and
    turned into machine code again in its library as well as in exact_tasks' (1.7 s)."""
    P = off.shape[0] - 1
    out[:, :] = 0
    rows = np.empty(P, np.int64)
    used = _assignment(a, off, hmask, rows)
    if used < 0:
        return -1.0
    w = 1.0
    for p in range(P):
        w *= hw[rows[p]]
    live = np.empty(deck.shape[0], np.int64)
    m = 0
    for c in deck:
        if not (used >> c) & 1:
            live[m] = c
            m += 1
    total = np.int64(1)
    mm = m
    total *= binom[mm, bneed]
    mm -= bneed
    for p in range(P):
        total *= binom[mm, fill[p]]
        mm -= fill[p]
    board2 = np.empty((1, BOARD), np.int64)
    board = board2[0]  # one view, made once: _take fills board2's row
    for i in range(board0.shape[0]):
        board[i] = board0[i]
    cards, ncards = _seat_cards(rows, hands, hlen, fill)
    rem = np.empty(m, np.int64)
    hi, lo, tm, tl, seven, hist, use_hist = _scratch(P)
    for f in range(total * part // parts, total * (part + 1) // parts):
        for i in range(m):
            rem[i] = live[i]
        mm = m
        rest = f
        c = binom[mm, bneed]
        # int64 casts: numba typed the constant row and ``mm`` (which starts as ``m = 0``) as
        # literals, two more specializations of _take than the seats' call
        mm = _take(rem, np.int64(mm), bneed, rest % c, binom, board2, np.int64(0),
                   board0.shape[0])
        rest //= c
        for p in range(P):
            k = fill[p]
            if k:
                c = binom[mm, k]
                mm = _take(rem, mm, k, rest % c, binom, cards, p, hlen[rows[p]])
                rest //= c
        score_deal(game, board, cards, ncards, hi, lo, card_keys, offsets, ranks, flush,
                   om_ids, om_best, sd_key, sd_nonflush, sd_flush, razz, tm, tl, seven)
        if use_hist:
            hist[outcome(hi, lo)] += 1
        else:
            settle(hi, lo, out, np.int64(1))  # not a literal: one settle_code
    if use_hist:
        settle_counts(hist, P, out)
    return w


@nb.njit(cache=True, nogil=True)
def exact_tasks(counter: np.ndarray, n_tasks: int, game: int, board0: np.ndarray, bneed: int,
                deck: np.ndarray, hands: np.ndarray, hlen: np.ndarray, hmask: np.ndarray,
                hw: np.ndarray, off: np.ndarray, fill: np.ndarray, n_assign: int,
                binom: np.ndarray, card_keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray,
                flush: np.ndarray, om_ids: np.ndarray, om_best: np.ndarray, sd_key: np.ndarray,
                sd_nonflush: np.ndarray, sd_flush: np.ndarray, razz: np.ndarray,
                acc_i: np.ndarray, acc_f: np.ndarray) -> None:
    """Tasks of the exact count, each taken by number from ``counter`` (:func:`claim`) until
    ``n_tasks`` are taken; task t into acc_i[t] (int64
    counts) and acc_f[t] (the same weighted by the product of the rows' weights), both
    [n_tasks, P, N_COLS] and zero. With fewer assignments than tasks each assignment's deals
    are sliced among several tasks, otherwise each task takes a block of assignments. Deals of
    an assignment that shares a card are not counted. ``nogil`` on threads, not a parfor: its
    wrapper cost seconds of compiling (it re-optimises every inlined callee)."""
    P = off.shape[0] - 1
    splits = max(1, n_tasks // n_assign)
    per = -(-n_assign // n_tasks)
    one = np.zeros((P, N_COLS), np.int64)
    while True:
        task = claim(counter, 1)
        if task >= n_tasks:
            break
        if splits > 1:
            a0 = task // splits
            a1 = min(a0 + 1, n_assign)
            part = task % splits
        else:
            a0 = min(task * per, n_assign)
            a1 = min(a0 + per, n_assign)
            part = 0
        for a in range(a0, a1):
            w = _assignment_deals(a, part, splits, game, board0, bneed, deck, hands, hlen, hmask,
                                  hw, off, fill, binom, card_keys, offsets, ranks, flush, om_ids,
                                  om_best, sd_key, sd_nonflush, sd_flush, razz, one)
            if w < 0:
                continue
            for p in range(P):
                for col in range(N_COLS):
                    acc_i[task, p, col] += one[p, col]
                    acc_f[task, p, col] += w * one[p, col]


@nb.njit(cache=True, inline="always")
def mc_chunk(score: ScoreFn, deals: int, seed: int, stream: int, game: int, board0: np.ndarray, bneed: int,
              deck: np.ndarray, hands: np.ndarray, hlen: np.ndarray, hmask: np.ndarray,
              thr: np.ndarray, off: np.ndarray, fill: np.ndarray, max_tries: int,
              card_keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
              om_ids: np.ndarray, om_best: np.ndarray, sd_key: np.ndarray, sd_nonflush: np.ndarray,
              sd_flush: np.ndarray, razz: np.ndarray, acc: np.ndarray) -> int:
    """``deals`` deals on stream ``stream`` into acc[P, N_COLS], each scored by ``score`` (a
    scorer of :func:`score_deal`'s arguments, resolved when compiling, so each game family's
    kernel holds its own scorer and no other); returns the assignment draws (-1 when one deal
    needed more than ``max_tries``). Inlined into each caller: a scorer passed to a kernel
    compiled on its own would be a run-time value, an address numba cannot cache."""
    P = off.shape[0] - 1
    st = seed_state(seed, stream)
    multi = False
    for p in range(P):
        if off[p + 1] - off[p] > 1:
            multi = True
    need = bneed
    for p in range(P):
        need += fill[p]
    dk = deck.copy()
    n = dk.shape[0]
    rows = np.empty(P, np.int64)
    for p in range(P):
        rows[p] = off[p]
    board = np.empty(BOARD, np.int64)
    nb0 = board0.shape[0]
    for i in range(nb0):
        board[i] = board0[i]
    cards, ncards = _seat_cards(rows, hands, hlen, fill)
    hi, lo, tm, tl, seven, hist, use_hist = _scratch(P)
    tries = 0
    for _ in range(deals):
        if multi:
            t = 0
            while True:
                t += 1
                if t > max_tries:
                    return -1
                used = np.int64(0)
                ok = True
                for p in range(P):
                    size = off[p + 1] - off[p]
                    if size == 1:
                        r = off[p]
                    else:
                        while True:
                            r = off[p] + below(st, size)
                            # accept with probability weight / largest weight
                            if thr[r] >= 1.0 or bits32(st) < thr[r] * TWO_32:
                                break
                    rows[p] = r
                    if used & hmask[r]:
                        ok = False
                        break
                    used |= hmask[r]
                if ok:
                    break
            tries += t
            n = 0
            for c in deck:
                if not (used >> c) & 1:
                    dk[n] = c
                    n += 1
            for p in range(P):
                for i in range(hlen[rows[p]]):
                    cards[p, i] = hands[rows[p], i]
        else:
            tries += 1
        partial_shuffle(st, dk, n, need)
        k = 0
        for i in range(bneed):
            board[nb0 + i] = dk[k]
            k += 1
        for p in range(P):
            h0 = hlen[rows[p]]
            for i in range(fill[p]):
                cards[p, h0 + i] = dk[k]
                k += 1
        score(game, board, cards, ncards, hi, lo, card_keys, offsets, ranks, flush,
              om_ids, om_best, sd_key, sd_nonflush, sd_flush, razz, tm, tl, seven)
        if use_hist:
            hist[outcome(hi, lo)] += 1
        else:
            settle(hi, lo, acc, np.int64(1))
    if use_hist:
        settle_counts(hist, P, acc)
    return tries


@nb.njit(cache=True, nogil=True)
def mc_range(counter: np.ndarray, sizes: np.ndarray, seed: int, stream0: int, game: int,
             board0: np.ndarray, bneed: int, deck: np.ndarray, hands: np.ndarray,
             hlen: np.ndarray, hmask: np.ndarray, thr: np.ndarray, off: np.ndarray,
             fill: np.ndarray, max_tries: int, card_keys: np.ndarray, offsets: np.ndarray,
             ranks: np.ndarray, flush: np.ndarray, om_ids: np.ndarray, om_best: np.ndarray,
             sd_key: np.ndarray, sd_nonflush: np.ndarray, sd_flush: np.ndarray,
             razz: np.ndarray, acc: np.ndarray, tries: np.ndarray) -> None:
    """Chunks taken by number from ``counter`` until all are (chunk ch: sizes[ch] deals on
    stream ``stream0 + ch``) into acc[ch] (int64[chunks, P, N_COLS], zero) and tries[ch].
    ``nogil``, one call per thread (see :func:`exact_tasks`). The games other than Omaha
    (:func:`score_other`); Omaha's are in :mod:`.omaha_mc`."""
    for _ in range(sizes.shape[0]):  # at most every chunk
        ch = claim(counter, 1)
        if ch >= sizes.shape[0]:
            break
        tries[ch] = mc_chunk(score_other, sizes[ch], seed, stream0 + ch, game, board0, bneed, deck, hands,
                              hlen, hmask, thr, off, fill, max_tries, card_keys, offsets, ranks,
                              flush, om_ids, om_best, sd_key, sd_nonflush, sd_flush, razz, acc[ch])


__all__ = ["POT", "N_COLS", "WIN", "TIE", "LOSE", "SHARE", "SHARE2", "HIGH", "LOW", "MAX_SEAT",
           "exact_tasks", "mc_range",
           "score_deal", "settle", "outcome"]
