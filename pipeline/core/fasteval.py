"""Cache-resident hand evaluator: per-card keys that add up, a perfect hash and two small tables.

The dense 7-card table answers one hand with one lookup, but each lookup misses every cache
(267 MB). This evaluator keeps its tables under 200 kB so they stay in L2, and it takes the
cards in any order, so a board is summed once and each player adds two cards on top.

Design (after OMPEval's hand evaluator; written up in ``docs/ALGORITHM.md``; the constants,
the table tuple and a numpy scorer live in :mod:`pipeline.core.evalkeys`, which loads no numba):

* Each card's 64-bit key is ``RANK_KEYS[rank] + (1 << (SUIT_SHIFT + 4 * suit))``. The rank
  keys are chosen so that the sum over any multiset of at most 7 ranks (at most 4 of one rank)
  is unique; above bit ``SUIT_SHIFT`` sit four 4-bit suit counters. A hand's key is the plain
  sum of its cards' keys, its mask the OR of ``1 << card``.
* A flush exists when some suit has 5+ cards: adding ``SUIT_BIAS`` (3 to each counter) sets bit
  3 of exactly that counter, so ``(key + SUIT_BIAS) & FLUSH_CHECK`` is one test. Then the flush
  suit's 13-bit rank mask (compressed out of ``mask``) indexes ``flush[8192]``.
* Otherwise the rank-key sum goes through a perfect hash, ``k + offsets[k >> HASH_SHIFT]``,
  into ``ranks``: first-fit row displacement (rows of ``2**HASH_SHIFT`` consecutive keys,
  densest first), which is collision-free by construction.

Scores are copied from :mod:`pipeline.core.evaluate` (``FLUSH`` and the non-flush multiset
tables), so this evaluator returns exactly the scores of the dense tables.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import TYPE_CHECKING

import numba as nb
import numpy as np

from pipeline.core.bits import ctpop64, cttz64
from pipeline.core.evalkeys import (
    FLUSH_CHECK,
    FLUSH_TABLE_SIZE,
    HASH_SHIFT,
    MAX_HAND_CARDS,
    MIN_HAND_CARDS,
    RANK_KEY_MASK,
    RANK_KEYS,
    SUIT_BIAS,
    SUIT_BITS,
    SUIT_LANE,
    SUIT_SHIFT,
    EvalTables,
    card_keys,
    read_only,
)

if TYPE_CHECKING:
    from pipeline.core.evaluate import RankTables

#: Batch scoring works in chunks of this many rows (one parallel task each) ...
CHUNK = 4096
#: ... and batches up to this size run on the calling thread: waking the pool costs more.
SERIAL_MAX = 8 * CHUNK


def _nonflush_entries(rt: RankTables) -> tuple[np.ndarray, np.ndarray]:
    """Rank-key sums and scores of every possible 5-, 6- and 7-rank multiset."""
    from pipeline.core.evaluate import MBINOM

    keys_out, vals_out = [], []
    rk = np.asarray(RANK_KEYS, np.int64)
    for k, table in ((5, rt.nonflush5), (6, rt.nonflush6), (7, rt.nonflush7)):
        ms = np.array(list(combinations_with_replacement(range(13), k)), dtype=np.int64)
        valid = np.ones(len(ms), bool)
        for i in range(k - 4):  # sorted, so five equal ranks would be five adjacent entries
            valid &= ms[:, i] != ms[:, i + 4]
        ms = ms[valid]
        idx = np.zeros(len(ms), np.int64)
        for i in range(k):
            idx += MBINOM[ms[:, i] + i, i + 1]
        keys_out.append(rk[ms].sum(axis=1))
        vals_out.append(table[idx])
    return np.concatenate(keys_out), np.concatenate(vals_out).astype(np.uint16)


def _displace(keys: np.ndarray, vals: np.ndarray, shift: int) -> tuple[np.ndarray, np.ndarray]:
    """First-fit row displacement: offsets per row and the packed table (0 = empty slot).

    Rows are placed densest first (a stable order: ties by row); a slot may be shared by two
    keys with the same value.
    """
    # the keys per row and their stable order in numpy: the kernel compiled neither numba's
    # mergesort nor its max (about 2 CPU s of the build's compiling), and numpy's stable sort
    # orders ties as numba's mergesort did, so the tables are the same bytes
    counts = np.bincount(keys >> shift).astype(np.int64)
    order = np.argsort(-counts, kind="stable").astype(np.int64)
    return _place(keys, vals, np.int64(shift), counts, order)


@nb.njit(cache=True)
def _place(keys: np.ndarray, vals: np.ndarray, shift: int, counts: np.ndarray,
           order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_displace`'s placement, given the keys per row and the rows' order."""
    nrows = counts.shape[0]
    width = 1 << shift
    colmask = width - 1
    start = np.zeros(nrows + 1, np.int64)
    for r in range(nrows):
        start[r + 1] = start[r] + counts[r]
    fill = start[:-1].copy()
    members = np.empty(len(keys), np.int64)
    for i in range(len(keys)):
        r = keys[i] >> shift
        members[fill[r]] = i
        fill[r] += 1
    table = np.zeros(4 * len(keys) + width, np.uint16)
    offsets = np.zeros(nrows, np.int32)
    top = 0
    free = 0  # every slot below ``free`` is taken: no row can start its lowest key there
    for r in order:
        if counts[r] == 0:
            break
        lowcol = width
        for j in range(start[r], start[r + 1]):
            lowcol = min(lowcol, keys[members[j]] & colmask)
        off = max(0, free - lowcol)
        while True:
            ok = True
            for j in range(start[r], start[r + 1]):
                i = members[j]
                t = table[(keys[i] & colmask) + off]
                if t != 0 and t != vals[i]:
                    ok = False
                    break
            if ok:
                break
            off += 1
            if off + width > len(table):
                raise ValueError("perfect hash table overflow")
        for j in range(start[r], start[r + 1]):
            i = members[j]
            pos = (keys[i] & colmask) + off
            table[pos] = vals[i]
            top = max(top, pos + 1)
        offsets[r] = off - (r << shift)
        while table[free] != 0:
            free += 1
    return offsets, table[:top].copy()


def build_eval_tables(rank_tables: RankTables | None = None) -> EvalTables:
    """Compute the evaluator's tables in memory from the rank-multiset evaluator (~2 s).

    Build side only (the read side memory-maps them: ``Tables.eval_tables()``); the scores are
    copied from :mod:`pipeline.core.evaluate`, imported here so lookups never load it.
    """
    from pipeline.core.evaluate import build_rank_tables

    rt = build_rank_tables() if rank_tables is None else rank_tables
    keys, vals = _nonflush_entries(rt)
    offsets, ranks = _displace(keys, vals, HASH_SHIFT)
    return read_only(EvalTables(card_keys(), offsets, ranks, rt.flush.astype(np.uint16)))


@nb.njit(inline="always", cache=True)
def rank_score(rank_key: np.uint64 | np.int64 | int, offsets: np.ndarray, ranks: np.ndarray) -> int:
    """Score of the best non-flush hand of a rank-key sum (``key & RANK_KEY_MASK``): the hand's
    score whenever it holds no flush."""
    rk = np.int64(rank_key)
    # unsigned indices: numba then skips its negative-index wraparound code
    return int(ranks[np.uint64(rk + offsets[rk >> HASH_SHIFT])])


@nb.njit(inline="always", cache=True)
def hand_score(key: np.uint64 | np.int64 | int, mask: np.uint64 | np.int64 | int, offsets: np.ndarray,
               ranks: np.ndarray,
               flush: np.ndarray) -> int:
    """Score 1..7462 (higher is stronger) of a 5-, 6- or 7-card hand, cards in any order.

    ``key`` is the sum of ``card_keys[c]`` over the hand's cards and ``mask`` the OR of
    ``1 << c``; both may be built up incrementally (board once, each player's cards on top).
    All values stay below 2**48, so uint64 and int64 arithmetic give the same keys.
    """
    k = np.int64(key)
    fl = (k + SUIT_BIAS) & FLUSH_CHECK
    if fl == 0:
        v = rank_score(k & RANK_KEY_MASK, offsets, ranks)
    else:
        f = fl >> (SUIT_SHIFT + 3)  # 1, 16, 256 or 4096: the flush suit's counter
        suit = np.int64(f > 1) + np.int64(f > 16) + np.int64(f > 256)
        # gather the suit's bits (every fourth bit of the mask) into 13 contiguous bits
        x = (np.int64(mask) >> suit) & SUIT_LANE
        x = (x | (x >> 3)) & 0x0303030303030303
        x = (x | (x >> 6)) & 0x000F000F000F000F
        x = (x | (x >> 12)) & 0x000000FF000000FF
        x = (x | (x >> 24)) & 0x1FFF
        v = int(flush[np.uint64(x)])
    # One exit that still uses all three tables (LLVM folds the zero away). Numba drops its
    # reference to an array where the array dies; with a return in each branch, each branch
    # dropped different tables, LLVM merged those calls into one decref of a phi, and numba's
    # refcount pruning (which runs after that) could then remove none of them: every inlined
    # call kept an atomic incref/decref per table, 2.2x (AMD EPYC) to 6.7x (Intel Xeon) the
    # time of a Monte Carlo deal. tests/test_codegen.py keeps them out of the loops.
    return v + 0 * (offsets.shape[0] + ranks.shape[0] + flush.shape[0])


@nb.njit(inline="always", cache=True)
def hand_key(cards: np.ndarray, n: int, card_keys: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """``(key, mask)`` of the first ``n`` card ids of ``cards``."""
    key = np.uint64(0)
    mask = np.uint64(0)
    for i in range(n):
        c = cards[i]
        key += card_keys[c]
        mask |= np.uint64(1) << np.uint64(c)
    return key, mask


@nb.njit(cache=True, nogil=True)
def _rows_chunk(cards: np.ndarray, lo: int, hi: int, card_keys: np.ndarray, offsets: np.ndarray,
                ranks: np.ndarray, flush: np.ndarray, out: np.ndarray) -> int:
    """Score rows ``lo:hi``; a row that is not ``k`` distinct ids 0..51 gets 0 and is counted."""
    k = cards.shape[1]
    bad = 0
    for i in range(lo, hi):
        key = np.int64(0)
        mask = np.int64(0)
        outside = np.int64(0)
        for j in range(k):
            c = np.int64(cards[i, j])
            outside |= c | (51 - c)         # negative iff some id is outside 0..51
            key += np.int64(card_keys[c if 0 <= c < 52 else 0])  # stay in bounds on bad rows
            mask |= np.int64(1) << (c & 63)
        if outside < 0 or ctpop64(mask) != k:
            out[i] = 0
            bad += 1
        else:
            out[i] = hand_score(key, mask, offsets, ranks, flush)
    return bad


@nb.njit(cache=True, nogil=True)
def _bitmaps_chunk(bits: np.ndarray, lo: int, hi: int, k: int, card_keys: np.ndarray,
                   offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray, out: np.ndarray) -> int:
    """Score bitmaps ``lo:hi``; one that is not ``k`` cards below bit 52 gets 0 and is counted."""
    bad = 0
    for i in range(lo, hi):
        mask = np.int64(bits[i])
        if (mask >> 52) != 0 or ctpop64(mask) != k:
            out[i] = 0
            bad += 1
            continue
        key = np.int64(0)
        s = mask
        while s:
            key += np.int64(card_keys[cttz64(s)])
            s &= s - 1
        out[i] = hand_score(key, mask, offsets, ranks, flush)
    return bad


@nb.njit(cache=True, parallel=True, nogil=True)
def _rows_parallel(cards: np.ndarray, card_keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray,
                   flush: np.ndarray, out: np.ndarray) -> int:
    n = cards.shape[0]
    bad = 0
    for ch in nb.prange((n + CHUNK - 1) // CHUNK):
        lo = ch * CHUNK
        bad += _rows_chunk(cards, lo, min(n, lo + CHUNK), card_keys, offsets, ranks, flush, out)
    return bad


@nb.njit(cache=True, parallel=True, nogil=True)
def _bitmaps_parallel(bits: np.ndarray, k: int, card_keys: np.ndarray, offsets: np.ndarray,
                      ranks: np.ndarray, flush: np.ndarray, out: np.ndarray) -> int:
    n = bits.shape[0]
    bad = 0
    for ch in nb.prange((n + CHUNK - 1) // CHUNK):
        lo = ch * CHUNK
        bad += _bitmaps_chunk(bits, lo, min(n, lo + CHUNK), k, card_keys, offsets, ranks, flush, out)
    return bad


def score_rows(cards: np.ndarray, tables: EvalTables, out: np.ndarray) -> int:
    """``out[i]`` = score of row ``i`` of a C-contiguous integer (N, k) id array, k = 5..7, cards
    in any order; returns how many rows were bad (not ``k`` distinct ids 0..51; their out is 0).

    Batches above :data:`SERIAL_MAX` rows run in parallel chunks of :data:`CHUNK` rows.
    """
    if cards.shape[0] <= SERIAL_MAX:
        return int(_rows_chunk(cards, 0, cards.shape[0], *tables, out))
    return int(_rows_parallel(cards, *tables, out))


def score_bitmaps(bits: np.ndarray, k: int, tables: EvalTables, out: np.ndarray) -> int:
    """``out[i]`` = score of the k-card hand with bitmap ``bits[i]`` (uint64/int64); returns how
    many bitmaps were bad (not exactly ``k`` bits, all below bit 52; their out is 0)."""
    if bits.shape[0] <= SERIAL_MAX:
        return int(_bitmaps_chunk(bits, 0, bits.shape[0], k, *tables, out))
    return int(_bitmaps_parallel(bits, k, *tables, out))


def score_hands_fast(cards: np.ndarray, tables: EvalTables) -> np.ndarray:
    """Scores (uint16[N]) of hands given as card ids, int[N, 5..7], cards in any order.

    Raises ``ValueError`` naming the first row that is not 5..7 distinct ids 0..51.
    """
    arr = np.ascontiguousarray(cards)
    if arr.ndim != 2 or not MIN_HAND_CARDS <= arr.shape[1] <= MAX_HAND_CARDS or arr.dtype.kind not in "iu":
        raise ValueError(f"expected an integer (N, 5..7) card array, got shape {arr.shape} {arr.dtype}")
    out = np.empty(arr.shape[0], np.uint16)
    if score_rows(arr, tables, out):
        i = int(np.flatnonzero(out == 0)[0])
        raise ValueError(f"row {i} is not {arr.shape[1]} distinct card ids 0..51: {arr[i].tolist()}")
    return out


__all__ = [
    "FLUSH_CHECK",
    "FLUSH_TABLE_SIZE",
    "HASH_SHIFT",
    "MAX_HAND_CARDS",
    "MIN_HAND_CARDS",
    "SUIT_LANE",
    "RANK_KEYS",
    "RANK_KEY_MASK",
    "SUIT_BIAS",
    "SUIT_BITS",
    "SUIT_SHIFT",
    "EvalTables",
    "build_eval_tables",
    "card_keys",
    "read_only",
    "hand_key",
    "hand_score",
    "rank_score",
    "score_bitmaps",
    "score_hands_fast",
    "score_rows",
]
