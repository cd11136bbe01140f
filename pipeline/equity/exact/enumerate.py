"""Exact hold'em equity of fixed hands by rank-first board enumeration on the small evaluator.

Every completion of the board from the live deck is counted, but not every one is evaluated:

* The live deck is walked by rank, high to low (cards of a rank adjacent). A suit is
  *irrelevant* while no player could reach five cards of it even if every board card still to
  come had that suit: ``board_count[s] + max_hole_count[s] + cards_left < 5``. Cards of one
  rank in irrelevant suits are interchangeable (they can make no flush and differ only in
  suit), so choosing ``j`` of the ``m`` such cards is one evaluation weighted ``C(m, j)``.
  Heads-up AsKs vs QdQc preflop: far fewer evaluations than the 1,712,304 boards.
* Evaluation is incremental: the board's ``(key, mask)`` (:mod:`pipeline.core.fasteval`) is
  built card by card down the recursion; each player adds two precomputed cards on top.

Counts are exact integers: ``win`` (sole best hand), ``tie`` (shares the best hand),
``share`` (pot share numerator in ``SHARE_SCALE`` units: a k-way split pays
``SHARE_SCALE / k``), ``boards`` = number of completions. Equity = share / (SHARE_SCALE * boards).
"""

from __future__ import annotations

from math import comb
from typing import NamedTuple

import numba as nb
import numpy as np

from pipeline.core.cards import BINOM
from pipeline.core.constants import BOARD_CARDS, DECK_SIZE, FLUSH_CARDS, MAX_PLAYERS, SHARE_SCALE
from pipeline.core.fasteval import EvalTables, hand_score

#: Accumulator columns per seat.
WIN, TIE, SHARE = 0, 1, 2
#: Stats slots: boards counted, evaluations done.
BOARDS, EVALS = 0, 1


class ExactCounts(NamedTuple):
    """Exact per-seat counts over all ``boards`` completions (seat order as given)."""

    win: np.ndarray    # int64[n_seats]: boards where the seat alone holds the best hand
    tie: np.ndarray    # int64[n_seats]: boards where the seat shares the best hand
    share: np.ndarray  # int64[n_seats]: pot share numerator, SHARE_SCALE units per board
    boards: int        # completions of the board from the live deck
    evaluations: int   # boards actually evaluated (the rest counted by suit multiplicity)


@nb.njit(cache=True)
def _settle(buf_key: np.ndarray, buf_mask: np.ndarray, buf_w: np.ndarray, count: int,
            hkeys: np.ndarray, hmasks: np.ndarray, n: int, scores: np.ndarray, offsets: np.ndarray,
            ranks: np.ndarray, flush: np.ndarray, acc: np.ndarray, share_of: np.ndarray,
            stats: np.ndarray) -> None:
    """Score the ``count`` buffered boards for every seat, then credit the winners.

    Scoring a batch in a loop of independent lookups lets the CPU overlap their cache
    latencies; scoring inside the board walk exposed them (about 2x slower).
    """
    for e in range(count):
        key = buf_key[e]
        mask = buf_mask[e]
        for p in range(n):
            scores[e, p] = hand_score(key + hkeys[p], mask | hmasks[p], offsets, ranks, flush)
    stats[EVALS] += count
    for e in range(count):
        w = buf_w[e]
        stats[BOARDS] += w
        best = scores[e, 0]
        for p in range(1, n):
            best = max(best, scores[e, p])
        nbest = np.int64(0)
        for p in range(n):
            nbest += np.int64(scores[e, p] == best)
        if nbest == 1:
            for p in range(n):
                if scores[e, p] == best:
                    acc[p, WIN] += w
                    acc[p, SHARE] += w * SHARE_SCALE
        else:
            sh = w * share_of[nbest]
            for p in range(n):
                if scores[e, p] == best:
                    acc[p, TIE] += w
                    acc[p, SHARE] += sh


#: Boards buffered between scoring passes.
BUFFER = 256


_SCAN, _REPEAT, _CHILD = 0, 1, 2  # frame states of the board walk


@nb.njit(cache=True)
def _walk(deck: np.ndarray, nd: int, left0: int, key0: np.int64, mask0: np.int64,
          suits: np.ndarray, hkeys: np.ndarray, hmasks: np.ndarray, n: int,
          card_keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
          binom: np.ndarray, acc: np.ndarray, stats: np.ndarray, scores: np.ndarray,
          share_of: np.ndarray) -> None:
    """Add ``left0`` board cards from ``deck[:nd]`` (ranks descending) in every way, and score.

    A depth-first walk with an explicit stack (one frame per card or group of cards added).
    ``suits[s]`` = board cards of suit ``s`` so far + the most hole cards any seat holds in it.
    A frame at deck position ``i`` either adds the one card ``deck[i]`` (its suit can still
    make a flush) or, if the suit is irrelevant, gathers the ``m`` irrelevant cards of that
    rank at positions ``i..i+m-1`` (moving them there: a reorder within a rank's run, at
    positions no active frame has passed) and adds ``rep = 1..m`` of them, weight ``C(m, rep)``.
    """
    depth = BOARD_CARDS + 1
    f_i = np.zeros(depth, np.int64)
    f_left = np.zeros(depth, np.int64)
    f_key = np.zeros(depth, np.int64)
    f_mask = np.zeros(depth, np.int64)
    f_w = np.zeros(depth, np.int64)
    f_state = np.zeros(depth, np.int64)
    f_m = np.zeros(depth, np.int64)
    f_rep = np.zeros(depth, np.int64)
    f_k = np.zeros(depth, np.int64)
    f_b = np.zeros(depth, np.int64)
    buf_key = np.empty(BUFFER, np.int64)
    buf_mask = np.empty(BUFFER, np.int64)
    buf_w = np.empty(BUFFER, np.int64)
    nb_ = 0
    f_left[0] = left0
    f_key[0] = key0
    f_mask[0] = mask0
    f_w[0] = 1
    d = 0
    while d >= 0:
        st = f_state[d]
        i = f_i[d]
        left = f_left[d]
        if st == _SCAN:
            if i >= nd:
                d -= 1
                continue
            if left == 1:
                # the last card: one pass over the rest of the deck, rank run by rank run; the
                # run's irrelevant-suit cards are one evaluation weighted by how many they are
                w0 = f_w[d]
                key = f_key[d]
                mask = f_mask[d]
                while i < nd:
                    r = deck[i] >> 2
                    first = -1
                    m = 0
                    while i < nd and (deck[i] >> 2) == r:
                        c = deck[i]
                        if suits[c & 3] + 1 < FLUSH_CARDS:
                            if first < 0:
                                first = c
                            m += 1
                        else:
                            buf_key[nb_] = key + np.int64(card_keys[c])
                            buf_mask[nb_] = mask | (np.int64(1) << c)
                            buf_w[nb_] = w0
                            nb_ += 1
                            if nb_ == BUFFER:
                                _settle(buf_key, buf_mask, buf_w, nb_, hkeys, hmasks, n, scores,
                                        offsets, ranks, flush, acc, share_of, stats)
                                nb_ = 0
                        i += 1
                    if m > 0:
                        buf_key[nb_] = key + np.int64(card_keys[first])
                        buf_mask[nb_] = mask | (np.int64(1) << first)
                        buf_w[nb_] = w0 * m
                        nb_ += 1
                        if nb_ == BUFFER:
                            _settle(buf_key, buf_mask, buf_w, nb_, hkeys, hmasks, n, scores,
                                    offsets, ranks, flush, acc, share_of, stats)
                            nb_ = 0
                d -= 1
                continue
            c = deck[i]
            s = c & 3
            if suits[s] + left < FLUSH_CARDS:
                r = c >> 2
                m = 1
                j = i + 1
                while j < nd and (deck[j] >> 2) == r:
                    if suits[deck[j] & 3] + left < FLUSH_CARDS:
                        if j != i + m:
                            t = deck[j]
                            deck[j] = deck[i + m]
                            deck[i + m] = t
                        m += 1
                    j += 1
                f_m[d] = m
                f_rep[d] = 0
                f_k[d] = f_key[d]
                f_b[d] = f_mask[d]
                f_state[d] = _REPEAT
            else:  # a card whose suit can still flush: add it alone (left >= 2 here)
                suits[s] += 1
                f_state[d] = _CHILD
                d += 1
                f_i[d] = i + 1
                f_left[d] = left - 1
                f_key[d] = f_key[d - 1] + np.int64(card_keys[c])
                f_mask[d] = f_mask[d - 1] | (np.int64(1) << c)
                f_w[d] = f_w[d - 1]
                f_state[d] = _SCAN
        elif st == _REPEAT:
            m = f_m[d]
            rep = f_rep[d] + 1
            if rep > min(m, left):
                f_i[d] = i + m
                f_state[d] = _SCAN
                continue
            f_rep[d] = rep
            cc = deck[i + rep - 1]
            f_k[d] += np.int64(card_keys[cc])
            f_b[d] |= np.int64(1) << cc
            w = f_w[d] * binom[m, rep]
            if rep == left:
                buf_key[nb_] = f_k[d]
                buf_mask[nb_] = f_b[d]
                buf_w[nb_] = w
                nb_ += 1
                if nb_ == BUFFER:
                    _settle(buf_key, buf_mask, buf_w, nb_, hkeys, hmasks, n, scores, offsets, ranks,
                            flush, acc, share_of, stats)
                    nb_ = 0
            else:
                d += 1
                f_i[d] = i + m
                f_left[d] = left - rep
                f_key[d] = f_k[d - 1]
                f_mask[d] = f_b[d - 1]
                f_w[d] = w
                f_state[d] = _SCAN
        else:  # _CHILD: the single card deck[i] was added and its subtree is done
            suits[deck[i] & 3] -= 1
            f_i[d] = i + 1
            f_state[d] = _SCAN
    _settle(buf_key, buf_mask, buf_w, nb_, hkeys, hmasks, n, scores, offsets, ranks, flush, acc,
            share_of, stats)


@nb.njit(cache=True)
def exact_kernel(hands: np.ndarray, board: np.ndarray, dead: np.int64, card_keys: np.ndarray,
                 offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray, binom: np.ndarray,
                 acc: np.ndarray, stats: np.ndarray) -> None:
    """Accumulate win/tie/share (``acc``: int64[n, 3]) and boards/evaluations (``stats``) of
    fixed two-card ``hands`` (uint8[n, 2]) over every completion of ``board``; cards valid."""
    n = hands.shape[0]
    used = dead
    key = np.int64(0)
    mask = np.int64(0)
    suits = np.zeros(4, np.int64)
    for c in board:
        cc = np.int64(c)
        key += np.int64(card_keys[cc])
        mask |= np.int64(1) << cc
        suits[cc & 3] += 1
    used |= mask
    hkeys = np.empty(n, np.int64)
    hmasks = np.empty(n, np.int64)
    most = np.zeros(4, np.int64)
    for p in range(n):
        a = np.int64(hands[p, 0])
        b = np.int64(hands[p, 1])
        hkeys[p] = np.int64(card_keys[a]) + np.int64(card_keys[b])
        hmasks[p] = (np.int64(1) << a) | (np.int64(1) << b)
        used |= hmasks[p]
        per = np.zeros(4, np.int64)
        per[a & 3] += 1
        per[b & 3] += 1
        for s in range(4):
            most[s] = max(most[s], per[s])
    suits += most
    deck = np.empty(DECK_SIZE, np.int64)
    nd = 0
    for c in range(DECK_SIZE - 1, -1, -1):  # ranks descending, a rank's cards adjacent
        if not (used >> c) & 1:
            deck[nd] = c
            nd += 1
    share_of = np.zeros(MAX_PLAYERS + 1, np.int64)
    for k in range(1, MAX_PLAYERS + 1):
        share_of[k] = SHARE_SCALE // k
    scores = np.empty((BUFFER, n), np.int64)
    left = BOARD_CARDS - board.shape[0]
    if left == 0:
        one = np.ones(1, np.int64)
        _settle(np.full(1, key), np.full(1, mask), one, np.int64(1), hkeys, hmasks, n, scores, offsets, ranks,
                flush, acc, share_of, stats)
    else:
        # np.int64: nd starts as a literal 0 (a second specialization otherwise)
        _walk(deck, np.int64(nd), left, key, mask, suits, hkeys, hmasks, n, card_keys, offsets, ranks, flush,
              binom, acc, stats, scores, share_of)


def count_fixed(hands: np.ndarray, board: np.ndarray, dead_mask: int, tables: EvalTables) -> ExactCounts:
    """Exact win/tie/share counts of fixed hold'em hands over every completion of ``board``,
    for cards already checked (uint8 arrays, distinct, off ``dead_mask``): the equity engine's
    path, which validated the question once when it parsed it
    (:func:`pipeline.equity.hand_api.exact_fixed` checks raw arrays the same way)."""
    acc = np.zeros((hands.shape[0], 3), np.int64)
    stats = np.zeros(2, np.int64)
    exact_kernel(hands, board, np.int64(dead_mask), tables.card_keys, tables.offsets, tables.ranks,
                 tables.flush, BINOM, acc, stats)
    live = DECK_SIZE - 2 * hands.shape[0] - board.shape[0] - int(dead_mask).bit_count()
    boards = int(stats[BOARDS])
    if boards != comb(live, BOARD_CARDS - board.shape[0]):
        raise AssertionError(f"enumeration counted {boards} boards, expected C({live}, {5 - board.shape[0]})")
    return ExactCounts(acc[:, WIN], acc[:, TIE], acc[:, SHARE], boards, int(stats[EVALS]))


__all__ = ["ExactCounts", "count_fixed", "exact_kernel"]
