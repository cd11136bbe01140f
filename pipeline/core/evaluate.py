"""Standard high-poker scoring: the ranking of 5-card hands and kernels that score every hand.

The method (written up in ``docs/ALGORITHM.md``):

1. Every 5-card hand is either a *flush* (five distinct ranks, one suit) or not. Its value
   depends only on its rank multiset and that flag. We give each of the 6,175 possible rank
   multisets and 1,287 flush rank sets a comparable key (category, then the ranks that break
   ties) and number the 7,462 distinct keys 1..7462: that number is the score.
2. For ``k > 5`` cards the best hand is either a flush (some suit holds 5+ cards; then no full
   house or quads is possible in 7 cards, so the flush or straight flush is best) or the best
   suit-free hand of the rank multiset. Both are precomputed: ``FLUSH[13-bit rank mask]`` and
   ``NONFLUSH_k[multiset index]``; the score is the larger of the two lookups.
3. Rank multisets are numbered like the card colex index but *with repetition*:
   for ranks ``r1 <= ... <= rk``, ``m = sum C(r_i + i - 1, i)``. Cards enumerated in colex
   order have non-decreasing ranks, so ``m`` is a sum of per-card terms and the kernels
   update it incrementally in nested loops.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from math import comb

import numba as nb
import numpy as np

from pipeline.core.cards import BINOM, RANK_NAMES, RANK_PLURALS, RANKS
from pipeline.core.category import Category
from pipeline.core.combos import colex_chunk, next_combination
from pipeline.core.constants import DECK_SIZE, N_SCORES  # noqa: E402  (N_SCORES re-exported)
from pipeline.core.parallel import run_chunks

WHEEL = (3, 2, 1, 0, 12)

#: ``MBINOM[n, k] = C(n, k)`` for the rank-multiset index (n < 20, k <= 7).
MBINOM = np.array([[comb(n, k) for k in range(8)] for n in range(20)], dtype=np.int64)


def multiset_size(k: int) -> int:
    """Number of rank multisets of size ``k`` over 13 ranks (table length), ``C(12+k, k)``."""
    return comb(12 + k, k)


def multiset_index(ranks: tuple[int, ...]) -> int:
    """Index of a rank multiset (any order): ``sum C(r_i + i - 1, i)`` over sorted ranks."""
    return sum(comb(r + i, i + 1) for i, r in enumerate(sorted(ranks)))


@dataclass(frozen=True)
class HandValue:
    """The comparable value of a 5-card hand: category and the tie-breaking rank order."""

    category: Category
    ranks: tuple[int, ...]  # the five ranks in significance order (e.g. J J A K 9)

    @property
    def key(self) -> int:
        """Integer that orders hands like poker does: category, then ranks in base 13."""
        if self.category.ranked_by_top_card:
            # straights compare by their top card only (the wheel's top card is the Five)
            return self.category * 13 ** 5 + self.ranks[0]
        k = int(self.category)
        for r in self.ranks:
            k = k * 13 + r
        return k


def hand_value(ranks: tuple[int, ...], flush: bool) -> HandValue:
    """Classify five ranks (with the flush flag) into a :class:`HandValue`.

    >>> hand_value((12, 11, 10, 9, 8), True).category
    <Category.STRAIGHT_FLUSH: 8>
    >>> hand_value((12, 0, 1, 2, 3), False).ranks
    (3, 2, 1, 0, 12)
    """
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (-rc[1], -rc[0]))
    ordered = tuple(r for r, n in groups for _ in range(n))
    pattern = tuple(n for _, n in groups)
    straight_top = -1
    if len(counts) == 5:
        hi, lo = max(ranks), min(ranks)
        if hi - lo == 4:
            straight_top = hi
        elif set(ranks) == {12, 0, 1, 2, 3}:
            straight_top = 3
            ordered = WHEEL
    if straight_top >= 0 and flush:
        return HandValue(Category.STRAIGHT_FLUSH, ordered)
    if pattern == (4, 1):
        return HandValue(Category.FOUR_OF_A_KIND, ordered)
    if pattern == (3, 2):
        return HandValue(Category.FULL_HOUSE, ordered)
    if flush:
        return HandValue(Category.FLUSH, ordered)
    if straight_top >= 0:
        return HandValue(Category.STRAIGHT, ordered)
    if pattern == (3, 1, 1):
        return HandValue(Category.THREE_OF_A_KIND, ordered)
    if pattern == (2, 2, 1):
        return HandValue(Category.TWO_PAIR, ordered)
    if pattern == (2, 1, 1, 1):
        return HandValue(Category.PAIR, ordered)
    return HandValue(Category.HIGH_CARD, ordered)


def hand_name(v: HandValue) -> str:
    """Readable name of a hand value, e.g. ``'Pair of Jacks, A-K-9 kickers'``."""
    r = v.ranks
    c = v.category
    short = lambda rs: "-".join(RANKS[x] for x in rs)  # noqa: E731
    if c == Category.STRAIGHT_FLUSH:
        return f"{RANK_NAMES[r[0]]}-high straight flush"
    if c == Category.FOUR_OF_A_KIND:
        return f"Four {RANK_PLURALS[r[0]]}, {RANKS[r[4]]} kicker"
    if c == Category.FULL_HOUSE:
        return f"{RANK_PLURALS[r[0]]} full of {RANK_PLURALS[r[3]]}"
    if c == Category.FLUSH:
        return f"{RANK_NAMES[r[0]]}-high flush, {short(r[1:])}"
    if c == Category.STRAIGHT:
        return f"{RANK_NAMES[r[0]]}-high straight"
    if c == Category.THREE_OF_A_KIND:
        return f"Three {RANK_PLURALS[r[0]]}, {short(r[3:])} kickers"
    if c == Category.TWO_PAIR:
        return f"{RANK_PLURALS[r[0]]} and {RANK_PLURALS[r[2]]}, {RANKS[r[4]]} kicker"
    if c == Category.PAIR:
        return f"Pair of {RANK_PLURALS[r[0]]}, {short(r[2:])} kickers"
    return f"{RANK_NAMES[r[0]]}-high, {short(r[1:])}"


@dataclass(frozen=True)
class RankTables:
    """Everything the kernels need: flush and non-flush lookups, and the class table."""

    flush: np.ndarray          # uint16[8192]: best flush/straight-flush score of a suit's rank mask (0 if < 5 bits)
    nonflush5: np.ndarray      # uint16[C(17,5)]: score of a 5-rank multiset (0 if impossible)
    nonflush6: np.ndarray      # uint16[C(18,6)]: best 5 of a 6-rank multiset, suits ignored
    nonflush7: np.ndarray      # uint16[C(19,7)]
    class_category: np.ndarray  # uint8[7463], index by score (row 0 unused)
    class_ranks: np.ndarray     # uint8[7463, 5]
    class_names: tuple[str, ...]  # len 7463, "" at 0


def build_rank_tables() -> RankTables:
    """Rank every 5-card hand value and derive the flush / non-flush lookup tables."""
    values: dict[int, HandValue] = {}
    nonflush_keys: dict[int, int] = {}
    for ms in combinations_with_replacement(range(13), 5):
        if max(Counter(ms).values()) > 4:
            continue
        v = hand_value(ms, False)
        values[v.key] = v
        nonflush_keys[multiset_index(ms)] = v.key
    flush_keys: dict[int, int] = {}
    for rs in combinations(range(13), 5):
        v = hand_value(rs, True)
        values[v.key] = v
        flush_keys[sum(1 << r for r in rs)] = v.key
    ordered = sorted(values)
    score_of = {k: i + 1 for i, k in enumerate(ordered)}

    cat = np.zeros(len(ordered) + 1, np.uint8)
    rk = np.zeros((len(ordered) + 1, 5), np.uint8)
    names = [""]
    for k in ordered:
        v = values[k]
        s = score_of[k]
        cat[s] = v.category
        rk[s] = v.ranks
        names.append(hand_name(v))

    nonflush5 = np.zeros(multiset_size(5), np.uint16)
    for m, k in nonflush_keys.items():
        nonflush5[m] = score_of[k]
    flush = np.zeros(1 << 13, np.uint16)
    for mask, k in flush_keys.items():
        flush[mask] = score_of[k]
    # masks of 6 or 7 ranks: best 5-subset; done by increasing popcount so subsets are ready
    masks = np.arange(1 << 13)
    pop = np.array([bin(m).count("1") for m in range(1 << 13)])
    for p in (6, 7):
        for mask in masks[pop == p]:
            best = 0
            for r in range(13):
                if mask >> r & 1:
                    best = max(best, int(flush[mask & ~(1 << r)]))
            flush[mask] = best
    nonflush6 = best_of_submultisets(nonflush5, 6)
    nonflush7 = best_of_submultisets(nonflush6, 7)
    return RankTables(flush, nonflush5, nonflush6, nonflush7, cat, rk, tuple(names))


def best_of_submultisets(prev: np.ndarray, k: int) -> np.ndarray:
    """For each k-multiset, the max of ``prev`` over its (k-1)-submultisets (impossible -> 0)."""
    ms = np.array(list(combinations_with_replacement(range(13), k)), dtype=np.int64)
    out = np.zeros(multiset_size(k), np.uint16)
    idx_full = np.zeros(len(ms), np.int64)
    for i in range(k):
        idx_full += MBINOM[ms[:, i] + i, i + 1]
    best = np.zeros(len(ms), np.uint16)
    for drop in range(k):
        sub = np.delete(ms, drop, axis=1)
        idx = np.zeros(len(ms), np.int64)
        for i in range(k - 1):
            idx += MBINOM[sub[:, i] + i, i + 1]
        best = np.maximum(best, prev[idx])
    # a multiset with five of one rank is impossible even if a submultiset is possible
    valid = np.ones(len(ms), bool)
    for i in range(k - 4):
        valid &= ~(ms[:, i] == ms[:, i + 4])
    out[idx_full] = np.where(valid, best, 0)
    return out


# --------------------------------------------------------------------------- kernels
@nb.njit(cache=True, nogil=True)
def _score_cards(cards: np.ndarray, k: int, flush: np.ndarray, nonflush: np.ndarray,
                 mbinom: np.ndarray) -> int:
    """Score k sorted card ids from scratch (used by the generic enumerations)."""
    m = 0
    masks = np.zeros(4, np.int64)
    for i in range(k):
        r = cards[i] >> 2
        m += mbinom[r + i, i + 1]
        masks[cards[i] & 3] |= 1 << r
    best = nonflush[m]
    for s in range(4):
        f = flush[masks[s]]
        if f > best:
            best = f
    return best


def score_all_hands(k: int, flush: np.ndarray, nonflush: np.ndarray, out: np.ndarray,
                    hist: np.ndarray, binom: np.ndarray, mbinom: np.ndarray) -> None:
    """Fill ``out[colex index]`` with the best-5 score of every k-card hand (k = 5..7).

    ``hist`` (int64[nchunks, 7463]) receives per-chunk counts of each score; pass an empty
    ``out`` to count only. The index range is cut into chunks; each chunk unranks its first
    hand and then walks the colex successor, so the work splits evenly across threads (Python
    threads, :func:`run_chunks`: no ``parallel=True`` wrapper to compile).
    """
    run_chunks(lambda ch: _score_chunk(ch, k, flush, nonflush, out, hist, binom, mbinom),
               hist.shape[0], nb.get_num_threads())


@nb.njit(cache=True, nogil=True)
def _score_chunk(ch: int, k: int, flush: np.ndarray, nonflush: np.ndarray, out: np.ndarray,
                 hist: np.ndarray, binom: np.ndarray, mbinom: np.ndarray) -> None:
    """Chunk ``ch`` of :func:`score_all_hands`."""
    total = binom[DECK_SIZE, k]
    nchunks = hist.shape[0]
    write = out.shape[0] > 0
    start, stop, cards = colex_chunk(total, nchunks, ch, 0, k, DECK_SIZE, binom)
    for idx in range(start, stop):
        if idx > start:
            next_combination(cards)
        sc = _score_cards(cards, k, flush, nonflush, mbinom)
        hist[ch, sc] += 1
        if write:
            out[idx] = sc


#: Bits per suit in a suit-major rank mask (bit ``SUIT_MASK_BITS * suit + rank``).
SUIT_MASK_BITS = 16
#: The 13 rank bits of one suit in a suit-major mask.
RANK_BITS = (1 << 13) - 1
#: Packed per-suit card counts are 4-bit counters; adding 4 to each sets bit 3 of exactly the
#: counters holding 4 or more cards (at most 6 cards are counted, so no counter overflows).
FOUR_BIAS = 0x4444
FOUR_CHECK = 0x8888


@nb.njit(inline="always")
def _card_bits(c: int) -> tuple[int, int]:
    """A card's suit-major rank bit and its packed suit-count increment."""
    return 1 << (SUIT_MASK_BITS * (c & 3) + (c >> 2)), 1 << (4 * (c & 3))


@nb.njit(inline="always")
def _lowest_card(c2: int, m2: int, b2: int, suit_ranks: int, counts: int, flush: np.ndarray,
                 nonflush7: np.ndarray, out: np.ndarray, hist: np.ndarray, lane: int,
                 write: bool) -> None:
    """Score the hands ``c1 < c2`` completing six fixed cards (rank-multiset index ``m2``, colex
    index ``b2``, suit-major rank mask and packed suit counts of the six).

    Without a suit holding 4 of the six, no ``c1`` makes a flush: the four cards of a rank give
    the same hand, so one lookup and one histogram update serve them. Otherwise only ``c1`` of
    that suit can add a flush (with 5+ of the suit already, any ``c1`` keeps it), and with a
    flush in 7 cards no full house or quads is possible, so the larger lookup is the score.
    """
    r2 = c2 >> 2
    four = (counts + FOUR_BIAS) & FOUR_CHECK
    if four == 0:
        for r in range(r2):
            v = nonflush7[m2 + r]
            hist[lane, v] += 4
            if write:
                o = b2 + 4 * r
                out[o] = v
                out[o + 1] = v
                out[o + 2] = v
                out[o + 3] = v
        v = nonflush7[m2 + r2]
        hist[lane, v] += c2 & 3
        if write:
            for c in range(4 * r2, c2):
                out[b2 + c] = v
        return
    f = four >> 3
    fs = (f > 1) + (f > 16) + (f > 256)
    fm = (suit_ranks >> (SUIT_MASK_BITS * fs)) & RANK_BITS
    for c in range(c2):
        r = c >> 2
        v = nonflush7[m2 + r]
        fv = flush[fm | (((c & 3) == fs) << r)]
        if fv > v:
            v = fv
        hist[lane, v] += 1
        if write:
            out[b2 + c] = v


def score_all_seven(flush: np.ndarray, nonflush7: np.ndarray, out: np.ndarray,
                    hist: np.ndarray, binom: np.ndarray, mbinom: np.ndarray) -> None:
    """Fill ``out`` (uint16[133,784,560]) with every 7-card score in colex order.

    ``hist`` (int64[nlanes, 7463]) receives per-lane score counts; an empty ``out`` counts only.

    Nested loops, highest card outermost, so the hands come in colex order and the writes are
    sequential. Each level adds its card to partial sums (rank-multiset index, colex index,
    suit-major rank mask, packed suit counts), so a hand costs one add and one lookup in the
    50,388-entry non-flush table (see :func:`_lowest_card` for flushes). Work is split by the
    top card into interleaved lanes (heavy and light alternate) for balance, taken by Python
    threads (:func:`run_chunks`: no ``parallel=True`` wrapper to compile).
    """
    run_chunks(lambda lane: _seven_lane(lane, flush, nonflush7, out, hist, binom, mbinom),
               hist.shape[0], nb.get_num_threads())


@nb.njit(cache=True, nogil=True)
def _seven_lane(lane: int, flush: np.ndarray, nonflush7: np.ndarray, out: np.ndarray,
                hist: np.ndarray, binom: np.ndarray, mbinom: np.ndarray) -> None:
    """Lane ``lane`` of :func:`score_all_seven`: top cards ``51 - lane``, then every
    ``nlanes``-th below."""
    nlanes = hist.shape[0]
    write = out.shape[0] > 0
    c7 = DECK_SIZE - 1 - lane
    while c7 >= 6:
        m7 = mbinom[(c7 >> 2) + 6, 7]
        b7 = binom[c7, 7]
        s7, n7 = _card_bits(c7)
        for c6 in range(5, c7):
            m6 = m7 + mbinom[(c6 >> 2) + 5, 6]
            b6 = b7 + binom[c6, 6]
            s, n = _card_bits(c6)
            s6, n6 = s7 | s, n7 + n
            for c5 in range(4, c6):
                m5 = m6 + mbinom[(c5 >> 2) + 4, 5]
                b5 = b6 + binom[c5, 5]
                s, n = _card_bits(c5)
                s5, n5 = s6 | s, n6 + n
                for c4 in range(3, c5):
                    m4 = m5 + mbinom[(c4 >> 2) + 3, 4]
                    b4 = b5 + binom[c4, 4]
                    s, n = _card_bits(c4)
                    s4, n4 = s5 | s, n5 + n
                    for c3 in range(2, c4):
                        m3 = m4 + mbinom[(c3 >> 2) + 2, 3]
                        b3 = b4 + binom[c3, 3]
                        s, n = _card_bits(c3)
                        s3, n3 = s4 | s, n4 + n
                        for c2 in range(1, c3):
                            s, n = _card_bits(c2)
                            _lowest_card(c2, m3 + mbinom[(c2 >> 2) + 1, 2], b3 + binom[c2, 2],
                                         s3 | s, n3 + n, flush, nonflush7, out, hist, lane, write)
        c7 -= nlanes


def _lanes() -> int:
    return nb.get_num_threads() * 4


def score_table(k: int, tables: RankTables, out: np.ndarray | None = None) -> np.ndarray:
    """Score every k-card hand (k = 5, 6, 7) into ``out`` (colex order); return score counts.

    ``out`` may be a memory map of the artifact being built; ``None`` only counts.
    Returns int64[7463]: how many k-card hands have each score (index 0 unused).
    """
    target = np.zeros(0, np.uint16) if out is None else np.asarray(out)
    nonflush = {5: tables.nonflush5, 6: tables.nonflush6, 7: tables.nonflush7}[k]
    if k == 7:
        hist = np.zeros((_lanes(), N_SCORES + 1), np.int64)
        score_all_seven(tables.flush, nonflush, target, hist, BINOM, MBINOM)
    else:
        hist = np.zeros((256, N_SCORES + 1), np.int64)
        score_all_hands(k, tables.flush, nonflush, target, hist, BINOM, MBINOM)
    return hist.sum(axis=0)


@functools.lru_cache(maxsize=1)
def seven_scores() -> np.ndarray:
    """All 7-card scores computed in this process, once (the 267 MB ``seven.h5`` by construction).

    A Dask worker calls this instead of receiving the artifact: the fill takes a few seconds.
    Read-only, as the memory-mapped artifact is: shared by every caller in the process, and the
    kernels that read it then run the specializations the local build compiled (a writable
    table is another numba type: each worker compiled its own copies, about 5 CPU s a kernel).
    """
    from pipeline.core.cards import n_combinations

    table = np.empty(n_combinations(7), np.uint16)
    score_table(7, build_rank_tables(), table)
    table.flags.writeable = False
    return table
