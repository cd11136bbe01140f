"""Hand scores of every game the equity engine deals, as numba functions over card ids.

Every score is "higher is better" within its game; 0 means "no hand" (a low that does not
qualify). One deal is scored in two steps: :func:`prepare_board` derives what every seat
shares from the board (for Omaha the ten 3-card board subsets: rank-key sum, rank mask, suit,
8-or-better low mask), then :func:`seat_score` scores one seat's cards on top of it.

* Omaha (4, 5 or 6 hole cards): exactly two hole cards and three board cards. Each 3-card
  board subset is summed once per board; each of the seat's C(h, 2) hole pairs adds its rank
  key, and the non-flush score is one lookup in the small evaluator's rank table
  (:mod:`pipeline.core.fasteval`). A 5-card hand is a flush only when the pair and the triple
  are suited in one suit: then the flush table, by the 13-bit rank mask. No 7-card table.
* 8-or-better low (Omaha hi-lo, stud hi-lo): five distinct ranks from A..8 (ace low), compared
  from the top card down, which is the order of their 8-bit rank masks: score = 256 - mask.
* Hold'em-style seven cards (stud): the small evaluator on all seven cards.
* Short deck: a seven-card score by rank multiset (an additive base-5 key over the 9 ranks)
  and by the flush suit's 9-bit rank mask, both built once from the short-deck rule set's
  5-card table (:func:`short_deck_tables`), so its ranking is the tables' own.
* Razz (ace-to-five low, pairs count, straights and flushes do not): from the seven cards'
  rank counts directly (:func:`razz_score`).
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement, permutations
from typing import NamedTuple

import numba as nb
import numpy as np

from pipeline.core.bits import ctpop64
from pipeline.core.cards import BINOM
from pipeline.core.constants import DECK_SIZE
from pipeline.core.fasteval import HASH_SHIFT, hand_score

#: Game codes the kernels branch on.
OMAHA, OMAHA_HILO, STUD, STUD_HILO, RAZZ, SHORT_DECK = range(6)
#: Ranks in a suit; ace-to-five rank value of rank r is (r + 1) % 13 (ace lowest).
N_RANKS = 13
#: Eight-or-better: ace-to-five values 0..7 (A..8) qualify.
LOW_QUALIFY = 8
#: Low score of a 5-bit rank mask: LOW_BASE - mask (> 0 for every qualifying low).
LOW_BASE = 256
#: Ten 3-card subsets of a 5-card board.
N_TRIPLES = 10
#: Cards of a short-deck hand's ranks: 6..A are ranks 4..12.
SHORT_LOWEST_RANK = 4
SHORT_RANKS = N_RANKS - SHORT_LOWEST_RANK
#: Base of the short-deck rank-multiset key (at most 4 cards of a rank).
SHORT_BASE = 5
#: Razz categories (no pair < pair < two pair < trips < full house < quads) and the value
#: base: category, then up to five ace-to-five rank values by significance, 16 apart.
RAZZ_DIGITS = 5
RAZZ_BASE = 16
RAZZ_TOP = 6 * RAZZ_BASE ** RAZZ_DIGITS
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
    for c in range(4 * SHORT_LOWEST_RANK, DECK_SIZE):
        card_key[c] = pw[(c >> 2) - SHORT_LOWEST_RANK]
    return ShortDeckTables(card_key, nonflush, flush)


@nb.njit(inline="always", cache=True)
def low_value(card: int) -> int:
    """Ace-to-five rank value of a card: ace 0, deuce 1, ..., king 12."""
    return ((card >> 2) + 1) % N_RANKS


@nb.njit(cache=True)
def low8_mask(cards: np.ndarray, n: int) -> int:
    """The best 8-or-better low of ``cards[:n]`` as its 5-bit rank mask, or 0 when none
    qualifies: the five lowest distinct ranks A..8."""
    m = np.int64(0)
    for i in range(n):
        v = low_value(cards[i])
        if v < LOW_QUALIFY:
            m |= np.int64(1) << v
    if ctpop64(m) < 5:
        return 0
    v = LOW_QUALIFY - 1
    while ctpop64(m) > 5:
        m &= ~(np.int64(1) << v)  # drop the highest ranks first
        v -= 1
    return m


@nb.njit(cache=True)
def razz_score(cards: np.ndarray, n: int) -> int:
    """Best ace-to-five low of ``cards[:n]`` (n = 5..7; pairs count against, straights and
    flushes do not), higher is better: RAZZ_TOP minus (category, ranks by significance)."""
    cnt = np.zeros(N_RANKS, np.int64)
    for i in range(n):
        cnt[low_value(cards[i])] += 1
    distinct = 0
    for v in range(N_RANKS):
        if cnt[v] > 0:
            distinct += 1
    digits = np.zeros(RAZZ_DIGITS, np.int64)
    nd = 0
    if distinct >= 5:
        cat = 0
        low = np.zeros(5, np.int64)
        k = 0
        for v in range(N_RANKS):
            if cnt[v] > 0 and k < 5:
                low[k] = v
                k += 1
        for i in range(5):
            digits[i] = low[4 - i]
        nd = 5
    elif distinct == 4:
        cat = 1
        pair = -1
        for v in range(N_RANKS):
            if cnt[v] >= 2 and pair < 0:
                pair = v
        digits[0] = pair
        nd = 1
        for v in range(N_RANKS - 1, -1, -1):
            if cnt[v] > 0 and v != pair:
                digits[nd] = v
                nd += 1
    elif distinct == 3:
        cat = 2
        lo_pair = -1
        hi_pair = -1
        for v in range(N_RANKS):
            if cnt[v] >= 2:
                if lo_pair < 0:
                    lo_pair = v
                elif hi_pair < 0:
                    hi_pair = v
        kick = -1
        for v in range(N_RANKS):
            if cnt[v] > 0 and v != lo_pair and v != hi_pair:
                kick = v
        if n < 7 and hi_pair < 0:
            # fewer cards than seven may leave only trips (3 + 1 + 1)
            cat = 3
            digits[0] = lo_pair
            nd = 1
            for v in range(N_RANKS - 1, -1, -1):
                if cnt[v] > 0 and v != lo_pair:
                    digits[nd] = v
                    nd += 1
        else:
            digits[0] = hi_pair
            digits[1] = lo_pair
            digits[2] = kick
            nd = 3
    else:
        # two ranks: trips of the lower one and a pair of the other (4 + 3 or 3 + 2), or quads
        trips = -1
        for v in range(N_RANKS):
            if cnt[v] >= 3 and trips < 0:
                trips = v
        other = -1
        for v in range(N_RANKS):
            if cnt[v] > 0 and v != trips:
                other = v
        if other >= 0 and cnt[other] >= 2:
            cat = 4
            digits[0] = trips
            digits[1] = other
            nd = 2
        else:
            cat = 5
            digits[0] = trips
            digits[1] = other
            nd = 2
    v = np.int64(cat)
    for i in range(RAZZ_DIGITS):
        v = v * RAZZ_BASE + (digits[i] if i < nd else 0)
    return RAZZ_TOP - v


@nb.njit(cache=True)
def seven_high(cards: np.ndarray, n: int, card_keys: np.ndarray, offsets: np.ndarray,
               ranks: np.ndarray, flush: np.ndarray) -> int:
    """Standard high score (1..7462) of ``cards[:n]`` (5..7 cards) by the small evaluator."""
    key = np.uint64(0)
    mask = np.uint64(0)
    for i in range(n):
        key += card_keys[cards[i]]
        mask |= np.uint64(1) << np.uint64(cards[i])
    return hand_score(key, mask, offsets, ranks, flush)


@nb.njit(cache=True)
def short_deck_score(cards: np.ndarray, n: int, sd_key: np.ndarray, sd_nonflush: np.ndarray,
                     sd_flush: np.ndarray) -> int:
    """Short-deck high score of ``cards[:n]`` (5..7 cards of ranks 6..A)."""
    key = np.int64(0)
    suit_n = np.zeros(4, np.int64)
    suit_m = np.zeros(4, np.int64)
    for i in range(n):
        c = cards[i]
        key += sd_key[c]
        suit_n[c & 3] += 1
        suit_m[c & 3] |= np.int64(1) << ((c >> 2) - SHORT_LOWEST_RANK)
    best = np.int64(sd_nonflush[key])
    for s in range(4):
        if suit_n[s] >= 5:
            f = np.int64(sd_flush[suit_m[s]])
            if f > best:
                best = f
    return best


#: Rank pairs (pocket pairs included) and rank triples (repeats included) of 13 ranks; the
#: id arrays hold a pair's id at 13*a + b and a triple's at PAIR_SLOTS + 169*a + 13*b + c.
N_PAIR_IDS = 91
N_TRIPLE_IDS = 455
PAIR_SLOTS = N_RANKS * N_RANKS


class OmahaTables(NamedTuple):
    """Omaha's five-card non-flush scores by (rank pair, rank triple): one load, no hash."""

    ids: np.ndarray        # int64[169 + 2197]: pair ids, then triple ids, by ranks in any order
    nonflush: np.ndarray   # uint16[91 * 455]: score of pair id p with triple id t at 455*p + t


def omaha_tables(offsets: np.ndarray, ranks: np.ndarray) -> OmahaTables:
    """Build :class:`OmahaTables` from the small evaluator's rank tables (91 x 455 lookups)."""
    from pipeline.core.fasteval import RANK_KEYS

    pairs = list(combinations_with_replacement(range(N_RANKS), 2))
    triples = list(combinations_with_replacement(range(N_RANKS), 3))
    ids = np.zeros(PAIR_SLOTS + N_RANKS ** 3, np.int64)
    for i, (a, b) in enumerate(pairs):
        ids[N_RANKS * a + b] = ids[N_RANKS * b + a] = i
    for j, t in enumerate(triples):
        for a, b, c in set(permutations(t)):
            ids[PAIR_SLOTS + N_RANKS * N_RANKS * a + N_RANKS * b + c] = j
    rk = np.asarray(RANK_KEYS, np.int64)
    pk = rk[np.array(pairs)].sum(axis=1)
    tk = rk[np.array(triples)].sum(axis=1)
    key = pk[:, None] + tk[None, :]
    # five cards of one rank cannot be dealt: leave those slots 0 (and unhashed)
    five_of_a_kind = np.array([a == b for a, b in pairs])[:, None] & \
        np.array([a == b == c for a, b, c in triples])[None, :] & \
        (np.array([a for a, _ in pairs])[:, None] == np.array([a for a, _, _ in triples])[None, :])
    k = np.where(five_of_a_kind, 0, key)
    score = np.asarray(ranks)[k + np.asarray(offsets, np.int64)[k >> HASH_SHIFT]]
    nonflush = np.where(five_of_a_kind, 0, score).astype(np.uint16).ravel()
    return OmahaTables(ids, nonflush)


@nb.njit(cache=True, inline="always")
def prepare_board(board: np.ndarray, ids: np.ndarray, tid: np.ndarray, tmask: np.ndarray,
                  tsuit: np.ndarray, tlow: np.ndarray, want_low: bool) -> int:
    """Per 3-card subset t of a 5-card board: rank-triple id tid[t], 13-bit rank mask tmask[t],
    suit tsuit[t] (-1 unless all three share one) and, when ``want_low``, the 8-or-better low
    mask tlow[t] (0 unless three distinct ranks A..8). Returns how many subsets are suited."""
    suited = 0
    for t in range(N_TRIPLES):
        a = board[TRIPLES[t, 0]]
        b = board[TRIPLES[t, 1]]
        c = board[TRIPLES[t, 2]]
        ra = a >> 2
        rb = b >> 2
        rc = c >> 2
        tid[t] = ids[PAIR_SLOTS + N_RANKS * N_RANKS * ra + N_RANKS * rb + rc]
        tmask[t] = (np.int64(1) << ra) | (np.int64(1) << rb) | (np.int64(1) << rc)
        if (a & 3) == (b & 3) and (b & 3) == (c & 3):
            tsuit[t] = a & 3
            suited += 1
        else:
            tsuit[t] = -1
        if want_low:
            va = (ra + 1) % N_RANKS
            vb = (rb + 1) % N_RANKS
            vc = (rc + 1) % N_RANKS
            ok = va < LOW_QUALIFY and vb < LOW_QUALIFY and vc < LOW_QUALIFY and va != vb \
                and vb != vc and va != vc
            tlow[t] = ((np.int64(1) << va) | (np.int64(1) << vb) | (np.int64(1) << vc)) if ok else 0
    return suited


@nb.njit(cache=True, inline="always")
def omaha_score(hole: np.ndarray, nh: int, want_low: bool, ids: np.ndarray, nonflush: np.ndarray,
                tid: np.ndarray, tmask: np.ndarray, tsuit: np.ndarray, tlow: np.ndarray,
                suited: int, flush: np.ndarray) -> tuple[int, int]:
    """(high score 1..7462, low score or 0) of an Omaha hand ``hole[:nh]`` on the board that
    :func:`prepare_board` described (``suited`` = its suited triples): two hole cards plus three
    board cards, best of each. A non-flush five is one load by (pair id, triple id); a suited
    pair on a suited triple of its suit is a flush, above any non-flush, read by rank mask."""
    best = np.int64(0)
    best_low = np.int64(0)
    for i in range(nh):
        a = hole[i]
        ra = a >> 2
        for j in range(i + 1, nh):
            b = hole[j]
            base = ids[N_RANKS * ra + (b >> 2)] * N_TRIPLE_IDS
            for t in range(N_TRIPLES):
                best = max(best, np.int64(nonflush[base + tid[t]]))
            if suited and (a & 3) == (b & 3):
                pm = (np.int64(1) << ra) | (np.int64(1) << (b >> 2))
                for t in range(N_TRIPLES):
                    if tsuit[t] == (a & 3):
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
           "prepare_board", "omaha_score", "OmahaTables", "omaha_tables", "LOW_BASE"]
