"""Hand scores of every game the equity engine deals, as numba functions over card ids.

Every score is "higher is better" within its game; 0 means "no hand" (a low that does not
qualify).

* Omaha (4, 5 or 6 hole cards): exactly two hole cards and three board cards. Per board,
  what every seat shares is derived once: the board's rank multiset (:func:`board_id`), the
  3-card subsets of its flush suit when it has one (:func:`flush_triples`) and, in hi-lo, the
  low masks of its 3-card subsets (:func:`low_triples`). A table of our own
  (:func:`omaha_tables`, 1.1 MB, built in ~0.1 s from the small evaluator of
  :mod:`pipeline.core.fasteval`) holds, for every board rank multiset and every hole rank
  pair, the best non-flush two-plus-three score over the board's ten triples; so a seat's
  non-flush high is one load per hole pair. A hand is a flush only when the pair and a board
  triple share one suit: then the evaluator's flush table, by the 13-bit rank mask. No
  7-card table.
* 8-or-better low (Omaha hi-lo, stud hi-lo): five distinct ranks from A..8 (ace low), compared
  from the top card down, which is the order of their 8-bit rank masks: score = 256 - mask.
* Hold'em-style seven cards (stud): the small evaluator on all seven cards.
* Short deck: a seven-card score by rank multiset (an additive base-5 key over the 9 ranks)
  and by the flush suit's 9-bit rank mask, both built once from the short-deck rule set's
  5-card table (:func:`short_deck_tables`), so its ranking is the tables' own.
* Razz (ace-to-five low, pairs count, straights and flushes do not): the ace-to-five rule
  set's 5-card table (``artifacts/rules/ace-to-five/``) turned into a score per rank multiset
  of 5 to 7 cards (:func:`razz_tables`, 150 kB), looked up by multiset index
  (:func:`razz_score`): the ranking is the rule set's own, written nowhere else.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from math import comb
from typing import NamedTuple

import numba as nb
import numpy as np

from pipeline.core.bits import ctpop64
from pipeline.core.cards import BINOM
from pipeline.core.constants import DECK_SIZE, N_RANKS
from pipeline.core.evaluate import MBINOM, best_of_submultisets, multiset_size
from pipeline.core.fasteval import HASH_SHIFT, hand_score
from pipeline.equity.games.spec import (
    OMAHA,
    OMAHA_HILO,
    RAZZ,
    SHORT_DECK,
    SHORT_DECK_LOWEST,
    STUD,
    STUD_CARDS,
    STUD_HILO,
)

#: Eight-or-better: ace-to-five values 0..7 (A..8) qualify.
LOW_QUALIFY = 8
#: Low score of a 5-bit rank mask: LOW_BASE - mask (> 0 for every qualifying low).
LOW_BASE = 256
#: Ten 3-card subsets of a 5-card board.
N_TRIPLES = 10
#: Ranks of a short deck: 6..A are ranks SHORT_DECK_LOWEST..12.
SHORT_RANKS = N_RANKS - SHORT_DECK_LOWEST
#: Base of the short-deck rank-multiset key (at most 4 cards of a rank).
SHORT_BASE = 5
#: Cards of a razz low (the best five of the seven a stud hand ends with).
RAZZ_CARDS = 5
TRIPLES = np.array(list(combinations(range(5), 3)), np.int64)


class ShortDeckTables(NamedTuple):
    """Short-deck seven-card scoring: card keys, multiset scores, flush scores."""

    card_key: np.ndarray   # int64[52]: SHORT_BASE ** (rank - 6's rank), 0 below the deck
    nonflush: np.ndarray   # uint16[5 ** 9]: best non-flush score of a 5..7-card rank multiset
    flush: np.ndarray      # uint16[512]: best flush score of a suit's 9-bit rank mask (5+ bits)


def short_deck_tables(five: np.ndarray) -> ShortDeckTables:
    """Build the short-deck seven-card tables from the rule set's 5-card scores (by local colex).

    A 5-card multiset gets the score of one non-flush hand with those ranks; 6 and 7 cards the
    best over dropping one card; a flush mask the best of its 5-rank subsets in one suit."""
    n = SHORT_RANKS
    pw = SHORT_BASE ** np.arange(n, dtype=np.int64)

    def local_colex(cards: list[int]) -> int:
        return int(sum(BINOM[c, i + 1] for i, c in enumerate(sorted(cards))))

    nonflush = np.zeros(SHORT_BASE ** n, np.uint16)
    for five_ms in combinations_with_replacement(range(n), 5):
        counts = np.bincount(five_ms, minlength=n)
        if counts.max() > 4:
            continue
        cards, seen = [], [0] * n
        for i, r in enumerate(five_ms):
            # suits 0,1,0,0,0 by position: never five of one suit
            s = seen[r] if counts[r] > 1 else (1 if i == 1 else 0)
            seen[r] += 1
            cards.append(4 * r + s)
        nonflush[int((counts * pw).sum())] = five[local_colex(cards)]
    for k in (6, 7):
        for ms in combinations_with_replacement(range(n), k):
            counts = np.bincount(ms, minlength=n)
            if counts.max() > 4:
                continue
            key = int((counts * pw).sum())
            nonflush[key] = max(nonflush[key - int(pw[r])] for r in set(ms))
    flush = np.zeros(1 << n, np.uint16)
    for mask in range(1 << n):
        ranks = [r for r in range(n) if mask >> r & 1]
        if len(ranks) >= 5:
            flush[mask] = max(five[local_colex([4 * r for r in sub])] for sub in combinations(ranks, 5))
    card_key = np.zeros(DECK_SIZE, np.int64)
    for c in range(4 * SHORT_DECK_LOWEST, DECK_SIZE):
        card_key[c] = pw[(c >> 2) - SHORT_DECK_LOWEST]
    return ShortDeckTables(card_key, nonflush, flush)


@nb.njit(inline="always", cache=True)
def low_value(card: int) -> int:
    """Ace-to-five rank value of a card: ace 0, deuce 1, ..., king 12."""
    return ((card >> 2) + 1) % N_RANKS


@nb.njit(cache=True)
def low8_mask(cards: np.ndarray, p: int, n: int) -> int:
    """The best 8-or-better low of ``cards[p, :n]`` as its 5-bit rank mask, or 0 when none
    qualifies: the five lowest distinct ranks A..8."""
    m = np.int64(0)
    for i in range(n):
        v = low_value(cards[p, i])
        if v < LOW_QUALIFY:
            m |= np.int64(1) << v
    if ctpop64(m) < 5:
        return 0
    v = LOW_QUALIFY - 1
    while ctpop64(m) > 5:
        m &= ~(np.int64(1) << v)  # drop the highest ranks first
        v -= 1
    return m


def razz_tables(five: np.ndarray) -> np.ndarray:
    """The razz scorer's table (:func:`razz_score`) from the ace-to-five rule set's 5-card
    scores (``five``, by colex index; higher is the better low). Ace-to-five lows ignore suits,
    so a hand's score is its rank multiset's: a 5-card multiset takes the score of one hand
    with those ranks, 6 and 7 cards the best of their 5-card submultisets; the three sizes
    follow each other by multiset index from :data:`RAZZ_START`. Read-only, like the mapped
    tables the kernels take beside it."""
    ms = np.array(list(combinations_with_replacement(range(N_RANKS), RAZZ_CARDS)), np.int64)
    ms = ms[ms[:, 0] != ms[:, -1]]  # five of one rank cannot be dealt
    # one card per rank occurrence: the i-th card of a rank takes suit i (so all distinct)
    occurrence = np.zeros_like(ms)
    for i in range(1, RAZZ_CARDS):
        occurrence[:, i] = np.where(ms[:, i] == ms[:, i - 1], occurrence[:, i - 1] + 1, 0)
    cards = 4 * ms + occurrence  # ascending, as colex wants
    colex = sum(BINOM[cards[:, i], i + 1] for i in range(RAZZ_CARDS))
    by_size = [np.zeros(multiset_size(RAZZ_CARDS), np.uint16)]
    by_size[0][sum(MBINOM[ms[:, i] + i, i + 1] for i in range(RAZZ_CARDS))] = np.asarray(five)[colex]
    for k in range(RAZZ_CARDS + 1, STUD_CARDS + 1):
        by_size.append(best_of_submultisets(by_size[-1], k))
    out = np.concatenate(by_size)
    out.flags.writeable = False
    return out


#: Where the razz table's scores of k-card rank multisets start (k = 0..7; sizes 5, 6, 7 only).
RAZZ_START = np.array([0] * (RAZZ_CARDS + 1) + [sum(multiset_size(j) for j in range(RAZZ_CARDS, k))
                                               for k in range(RAZZ_CARDS + 1, STUD_CARDS + 1)], np.int64)
#: Rank counts of a razz hand, packed: 3 bits per rank (at most 4 cards of a rank).
COUNT_BITS = 3
COUNT_MASK = (1 << COUNT_BITS) - 1
#: ``RUN_TERM[r, i, c]``: what ``c`` cards of rank ``r`` add to a multiset index when ``i``
#: lower cards come before them (the terms ``C(r + j, j + 1)``, ``j = i .. i + c - 1``), so the
#: index is one lookup per rank.
RUN_TERM = np.array([[[sum(comb(r + j, j + 1) for j in range(i, min(i + c, STUD_CARDS)))
                       for c in range(5)] for i in range(STUD_CARDS + 1)] for r in range(N_RANKS)],
                    np.int64)


@nb.njit(cache=True)
def razz_score(cards: np.ndarray, p: int, n: int, razz: np.ndarray) -> int:
    """Best ace-to-five low of ``cards[p, :n]`` (n = 5..7), higher is better: the score of the
    cards' rank multiset in the razz table (:func:`razz_tables`; suits play no part). The rank
    counts are packed in one integer and walked upwards, which sorts the ranks for the
    multiset index without an array."""
    cnt = np.int64(0)
    for i in range(n):
        cnt += np.int64(1) << (COUNT_BITS * (cards[p, i] >> 2))
    idx = RAZZ_START[n]
    below = 0
    for r in range(N_RANKS):
        c = (cnt >> (COUNT_BITS * r)) & COUNT_MASK
        idx += RUN_TERM[r, below, c]
        below += c
    return np.int64(razz[idx])


@nb.njit(cache=True)
def seven_high(cards: np.ndarray, p: int, n: int, card_keys: np.ndarray, offsets: np.ndarray,
               ranks: np.ndarray, flush: np.ndarray) -> int:
    """Standard high score (1..7462) of ``cards[p, :n]`` (5..7 cards) by the small evaluator."""
    key = np.uint64(0)
    mask = np.uint64(0)
    for i in range(n):
        key += card_keys[cards[p, i]]
        mask |= np.uint64(1) << np.uint64(cards[p, i])
    return hand_score(key, mask, offsets, ranks, flush)


@nb.njit(cache=True)
def short_deck_score(cards: np.ndarray, n: int, sd_key: np.ndarray, sd_nonflush: np.ndarray,
                     sd_flush: np.ndarray) -> int:
    """Short-deck high score of ``cards[:n]`` (5..7 cards of ranks 6..A). Suit counts sit in
    four 4-bit counters and the suits' rank masks in four integers (no allocation per hand)."""
    key = np.int64(0)
    counts = np.int64(0)
    m0 = np.int64(0)
    m1 = np.int64(0)
    m2 = np.int64(0)
    m3 = np.int64(0)
    for i in range(n):
        c = cards[i]
        s = c & 3
        key += sd_key[c]
        counts += np.int64(1) << (4 * s)
        bit = np.int64(1) << ((c >> 2) - SHORT_DECK_LOWEST)
        m0 |= bit if s == 0 else 0
        m1 |= bit if s == 1 else 0
        m2 |= bit if s == 2 else 0
        m3 |= bit if s == 3 else 0
    best = np.int64(sd_nonflush[key])
    # a counter is 5+ when adding 3 sets its top bit; seven cards hold at most one such suit
    top = (counts + FIVE_PLUS_3) & SUIT_NIBBLE_TOPS
    if top:
        suit = np.int64(top > 0x8) + np.int64(top > 0x80) + np.int64(top > 0x800)
        fm = m0 if suit == 0 else (m1 if suit == 1 else (m2 if suit == 2 else m3))
        best = max(best, np.int64(sd_flush[fm]))
    return best


#: Adding 3 to each 4-bit suit counter sets its top bit exactly when the counter is 5+.
FIVE_PLUS_3 = 0x3333


#: Rank pairs (pocket pairs included) and rank triples (repeats included) of 13 ranks; the
#: id arrays hold a pair's id at 13*a + b and a triple's at PAIR_SLOTS + 169*a + 13*b + c.
N_PAIR_IDS = 91
N_TRIPLE_IDS = 455
PAIR_SLOTS = N_RANKS * N_RANKS


#: Rank multisets of a 5-card board (13 ranks, repeats allowed): C(17, 5).
N_BOARD_IDS = 6188


class OmahaTables(NamedTuple):
    """Omaha's non-flush high hand in one load per hole pair, by the board's rank multiset."""

    ids: np.ndarray     # int64[169]: the id 0..90 of a rank pair, at 13*a + b (either order)
    best: np.ndarray    # uint16[6188 * 91]: best two-plus-three non-flush score of rank pair p
    #                     on a board of rank multiset b, at 91*b + p


def _pair_triple_scores(offsets: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """uint16[91, 455]: non-flush score of every rank pair with every rank triple (0 for the
    five of a kind no deck deals), from the small evaluator's rank-key hash."""
    from pipeline.core.fasteval import RANK_KEYS

    pairs = np.array(list(combinations_with_replacement(range(N_RANKS), 2)))
    triples = np.array(list(combinations_with_replacement(range(N_RANKS), 3)))
    rk = np.asarray(RANK_KEYS, np.int64)
    key = rk[pairs].sum(axis=1)[:, None] + rk[triples].sum(axis=1)[None, :]
    five_of_a_kind = (pairs[:, 0] == pairs[:, 1])[:, None] & \
        (triples[:, 0] == triples[:, 2])[None, :] & (pairs[:, :1] == triples[:, 0][None, :])
    k = np.where(five_of_a_kind, 0, key)
    score = np.asarray(ranks)[k + np.asarray(offsets, np.int64)[k >> HASH_SHIFT]]
    return np.where(five_of_a_kind, 0, score).astype(np.uint16)


def omaha_tables(offsets: np.ndarray, ranks: np.ndarray) -> OmahaTables:
    """Build :class:`OmahaTables`: every board rank multiset's ten 3-card subsets against every
    rank pair, the best kept (91 x 455 hash lookups, then 6188 x 10 x 91 loads; ~10 ms)."""
    pairs = np.array(list(combinations_with_replacement(range(N_RANKS), 2)), np.int64)
    triples = np.array(list(combinations_with_replacement(range(N_RANKS), 3)), np.int64)
    ids = np.zeros(N_RANKS * N_RANKS, np.int64)
    ids[N_RANKS * pairs[:, 0] + pairs[:, 1]] = ids[N_RANKS * pairs[:, 1] + pairs[:, 0]] = np.arange(len(pairs))
    # a sorted rank triple's id, by its ranks in base 13
    triple_id = np.zeros(N_RANKS ** 3, np.int64)
    triple_id[(triples[:, 0] * N_RANKS + triples[:, 1]) * N_RANKS + triples[:, 2]] = np.arange(len(triples))
    boards = np.array(list(combinations_with_replacement(range(N_RANKS), 5)), np.int64)
    sub = boards[:, TRIPLES]                               # [board, triple, 3], ascending
    tids = triple_id[(sub[..., 0] * N_RANKS + sub[..., 1]) * N_RANKS + sub[..., 2]]
    scores = _pair_triple_scores(offsets, ranks)          # [pair, triple]
    best = scores[:, tids].max(axis=2).T                   # [board, pair]
    # board_id_of every board at once: colex of r_i + i
    k = boards.shape[1]
    order = BINOM[boards + np.arange(k), np.arange(1, k + 1)].sum(axis=1)
    table = np.zeros((N_BOARD_IDS, N_PAIR_IDS), np.uint16)
    table[order] = best
    return OmahaTables(ids, table.ravel())


def board_id_of(sorted_ranks: np.ndarray) -> int:
    """Index of a 5-rank multiset (ascending ranks): colex of r_i + i, as :func:`board_id`."""
    return int(sum(BINOM[int(r) + i, i + 1] for i, r in enumerate(sorted_ranks)))


@nb.njit(cache=True, inline="always")
def board_id(board: np.ndarray) -> int:
    """Index 0..6187 of the board's rank multiset: its ranks ascending (a sorting network on
    registers: no allocation, no branch), r_i + i is a set, and that set's colex index."""
    a = board[0] >> 2
    b = board[1] >> 2
    c = board[2] >> 2
    d = board[3] >> 2
    e = board[4] >> 2
    a, b = min(a, b), max(a, b)
    d, e = min(d, e), max(d, e)
    c, e = min(c, e), max(c, e)
    c, d = min(c, d), max(c, d)
    a, d = min(a, d), max(a, d)
    a, c = min(a, c), max(a, c)
    b, e = min(b, e), max(b, e)
    b, d = min(b, d), max(b, d)
    b, c = min(b, c), max(b, c)
    return (BINOM_FLAT[a] + BINOM_FLAT[BINOM_COLS + b + 1] + BINOM_FLAT[2 * BINOM_COLS + c + 2]
            + BINOM_FLAT[3 * BINOM_COLS + d + 3] + BINOM_FLAT[4 * BINOM_COLS + e + 4])


#: BINOM[n, k + 1] at k * BINOM_COLS + n: the five columns board_id reads.
BINOM_COLS = BINOM.shape[0]
BINOM_FLAT = np.ascontiguousarray(BINOM[:, 1:6].T).ravel()


@nb.njit(cache=True, inline="always")
def low_triples(board: np.ndarray, tlow: np.ndarray) -> None:
    """Per 3-card subset t of a 5-card board its 8-or-better low mask tlow[t] (0 unless three
    distinct ranks A..8)."""
    for t in range(N_TRIPLES):
        va = low_value(board[TRIPLES[t, 0]])
        vb = low_value(board[TRIPLES[t, 1]])
        vc = low_value(board[TRIPLES[t, 2]])
        ok = va < LOW_QUALIFY and vb < LOW_QUALIFY and vc < LOW_QUALIFY and va != vb \
            and vb != vc and va != vc
        tlow[t] = ((np.int64(1) << va) | (np.int64(1) << vb) | (np.int64(1) << vc)) if ok else 0


#: Four 4-bit suit counters: adding 5 to each sets a counter's top bit exactly when it is 3+.
SUIT_NIBBLES_PLUS_5 = 0x5555
SUIT_NIBBLE_TOPS = 0x8888


@nb.njit(cache=True, inline="always")
def flush_triples(board: np.ndarray, tmask: np.ndarray) -> tuple[int, int]:
    """(suit, n): the one suit holding three or more board cards and, in tmask[:n], the 13-bit
    rank masks of its 3-card subsets; n = 0 when no Omaha hand can be a flush. Branch-free:
    always the ten subsets of up to five cards, those short of a card holding fewer than
    three bits (the flush table scores fewer than five cards 0)."""
    n = np.int64(0)
    m0 = np.int64(0)
    m1 = np.int64(0)
    m2 = np.int64(0)
    m3 = np.int64(0)
    for i in range(5):
        c = board[i]
        s = c & 3
        bit = np.int64(1) << (c >> 2)
        n += np.int64(1) << (4 * s)
        m0 |= bit if s == 0 else 0
        m1 |= bit if s == 1 else 0
        m2 |= bit if s == 2 else 0
        m3 |= bit if s == 3 else 0
    top = (n + SUIT_NIBBLES_PLUS_5) & SUIT_NIBBLE_TOPS
    if top == 0:
        return -1, 0
    suit = np.int64(top > 0x8) + np.int64(top > 0x80) + np.int64(top > 0x800)
    bm = m0 if suit == 0 else (m1 if suit == 1 else (m2 if suit == 2 else m3))
    r0 = bm & -bm
    bm ^= r0
    r1 = bm & -bm
    bm ^= r1
    r2 = bm & -bm
    bm ^= r2
    r3 = bm & -bm
    r4 = bm ^ r3
    tmask[0] = r0 | r1 | r2
    tmask[1] = r0 | r1 | r3
    tmask[2] = r0 | r2 | r3
    tmask[3] = r1 | r2 | r3
    tmask[4] = r0 | r1 | r4
    tmask[5] = r0 | r2 | r4
    tmask[6] = r1 | r2 | r4
    tmask[7] = r0 | r3 | r4
    tmask[8] = r1 | r3 | r4
    tmask[9] = r2 | r3 | r4
    return suit, N_TRIPLES


@nb.njit(cache=True, inline="always")
def omaha_score(cards: np.ndarray, p: int, nh: int, want_low: bool, ids: np.ndarray,
                best_by_pair: np.ndarray, bid: int, fsuit: int, nflush: int, tmask: np.ndarray,
                tlow: np.ndarray, flush: np.ndarray) -> tuple[int, int]:
    """(high score 1..7462, low score or 0) of the Omaha hand ``cards[p, :nh]`` (read in place:
    a row view per seat and deal would cost reference counting): two hole cards plus
    three board cards, best of each. The non-flush high is one load per hole pair (the board's
    best for that rank pair, ``bid`` its rank multiset); a pair of suit ``fsuit`` makes a flush
    with each of the ``nflush`` board triples of that suit (:func:`flush_triples`), read by
    rank mask; lows combine the pair's and the board triples' low masks (:func:`low_triples`)."""
    best = np.int64(0)
    best_low = np.int64(0)
    base = bid * N_PAIR_IDS
    for i in range(nh):
        a = cards[p, i]
        ra = a >> 2
        for j in range(i + 1, nh):
            b = cards[p, j]
            best = max(best, np.int64(best_by_pair[base + ids[N_RANKS * ra + (b >> 2)]]))
            if nflush and (a & 3) == fsuit and (b & 3) == fsuit:
                pm = (np.int64(1) << ra) | (np.int64(1) << (b >> 2))
                for t in range(nflush):
                    best = max(best, np.int64(flush[pm | tmask[t]]))
            if want_low:
                va = low_value(a)
                vb = low_value(b)
                if va < LOW_QUALIFY and vb < LOW_QUALIFY and va != vb:
                    pl = (np.int64(1) << va) | (np.int64(1) << vb)
                    for t in range(N_TRIPLES):
                        if tlow[t] != 0 and (tlow[t] & pl) == 0:
                            best_low = max(best_low, LOW_BASE - (tlow[t] | pl))
    return best, best_low


__all__ = ["OMAHA", "OMAHA_HILO", "STUD", "STUD_HILO", "RAZZ", "SHORT_DECK", "ShortDeckTables",
           "short_deck_tables", "low8_mask", "razz_score", "seven_high", "short_deck_score",
           "low_triples", "flush_triples", "omaha_score", "OmahaTables", "omaha_tables",
           "board_id", "LOW_BASE"]
