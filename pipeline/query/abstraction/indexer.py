"""Suit-isomorphic hand indexers for hold'em streets with imperfect recall.

A situation is the hole (one group of 2 cards) and the board (one group of k = 0, 3, 4, 5 cards);
two situations are one class when a permutation of the four suits maps one onto the other. The
index is a dense bijection from classes onto ``0 .. class_count(street) - 1`` (169, 1,286,792,
13,960,050 and 123,156,254 classes), computed as in Waugh (2013), "A fast and optimal hand
isomorphism algorithm":

1. per suit ``s``: hole ranks ``H`` (``m1``), board ranks ``B`` (``m2``); shape ``(m1, m2)``;
   per-suit index ``colex(H) * C(13 - m1, m2) + colex(B renumbered among the 13 - m1 ranks
   not in H)`` (colex of a rank set: ``sum C(r_i, i)``, ranks ascending, i from 1);
2. the suits in canonical order: ascending (shape code, per-suit index), shape code
   ``m1 * 6 + m2``; the ascending tuple of the 4 shape codes is the *configuration*
   (:mod:`pipeline.query.abstraction.shapes` numbers them, lexicographically, and gives offsets);
3. each run of ``j`` suits of one shape with indices ``a_1 <= ... <= a_j`` encodes as a multiset,
   ``sum_i C(a_i + i - 1, i)``, out of ``multichoose(N, j)`` with ``N = C(13, m1) C(13 - m1, m2)``;
4. the runs combine by mixed radix, first run most significant; the class index is the
   configuration's offset plus that value.

:func:`unindex` inverts each step and returns the class's canonical situation: the suits in
canonical order get the suit ids 0, 1, 2, 3 (clubs first). docs/ALGORITHM.md has a worked example.

The batch kernels read only the small arrays of :data:`~pipeline.query.abstraction.shapes.TABLES` and
never check their rows: :func:`index_batch` and :func:`unindex_batch` validate first.
"""

from __future__ import annotations

from collections.abc import Iterable

import numba as nb
import numpy as np
from numpy.typing import ArrayLike

from pipeline.core.bits import ctpop64, cttz64
from pipeline.core.cards import card_text, format_cards, parse_cards
from pipeline.core.combos import sort_small, unrank_into
from pipeline.core.constants import BOARD_CARDS, DECK_SIZE, N_RANKS, N_SUITS
from pipeline.core.parallel import block, block_count
from pipeline.errors import InputError, clip
from pipeline.query.abstraction.shapes import (
    COUNTS_BY_BOARD,
    HOLE_SIZE,
    N_SHAPES,
    RANK_BITS,
    RANK_MASK,
    SHAPE_RADIX,
    STREETS,
    SUIT_INDEX_BITS,
    SUIT_INDEX_MASK,
    TABLES,
    IndexerTables,
)

#: Board sizes the API accepts, in street order.
BOARD_SIZES = tuple(STREETS.values())
#: Batch kernels work in parallel blocks of this many rows ...
CHUNK = 4096
#: ... and batches up to this size run on the calling thread (waking the pool costs more).
SERIAL_MAX = 8 * CHUNK
#: Rows per block of the vectorised input check (a block's temporaries stay in cache).
CHECK_BLOCK = 1 << 16
#: unindex scratch: the 4 per-suit indices, then an unrank buffer of up to BOARD_CARDS + sentinel.
SCRATCH = N_SUITS + BOARD_CARDS + 1

_STREET_LIST = ", ".join(STREETS)
_SIZE_LIST = ", ".join(str(k) for k in BOARD_SIZES[:-1]) + f" or {BOARD_SIZES[-1]}"


# ---------------------------------------------------------------------------------- kernels
@nb.njit(cache=True, nogil=True, inline="always")
def _suit_key(hole: int, board: int, s: int, t: IndexerTables) -> int:
    """Sort key of suit ``s``: ``shape code << SUIT_INDEX_BITS | per-suit index``."""
    h = (hole >> (RANK_BITS * s)) & RANK_MASK
    b = (board >> (RANK_BITS * s)) & RANK_MASK
    m1 = ctpop64(h)
    m2 = ctpop64(b)
    # renumber the board ranks among the ranks this suit's hole leaves free: drop each hole
    # rank's bit position (lowest first, so later positions move down by the ones removed)
    hh = h
    removed = 0
    while hh:
        r = cttz64(hh) - removed
        b = (b & ((np.int64(1) << r) - 1)) | ((b >> (r + 1)) << r)
        removed += 1
        hh &= hh - 1
    a = np.int64(t.colex13[h]) * t.binom[N_RANKS - m1, m2] + np.int64(t.colex13[b])
    return ((m1 * SHAPE_RADIX + m2) << SUIT_INDEX_BITS) | a


@nb.njit(cache=True, nogil=True)
def index_row(cards: np.ndarray, i: int, t: IndexerTables) -> int:
    """Class index of row ``i`` of an (n, 2 + k) card array: 2 hole cards, then k board cards
    (any order within each group). The row must hold distinct ids 0..51: nothing is checked."""
    hole = np.int64(0)
    board = np.int64(0)
    for j in range(HOLE_SIZE):
        c = np.int64(cards[i, j])
        hole |= np.int64(1) << (RANK_BITS * (c % N_SUITS) + c // N_SUITS)
    for j in range(HOLE_SIZE, cards.shape[1]):
        c = np.int64(cards[i, j])
        board |= np.int64(1) << (RANK_BITS * (c % N_SUITS) + c // N_SUITS)
    k0 = _suit_key(hole, board, 0, t)
    k1 = _suit_key(hole, board, 1, t)
    k2 = _suit_key(hole, board, 2, t)
    k3 = _suit_key(hole, board, 3, t)
    # optimal 5-comparator sorting network for 4 keys (no loop, no array)
    if k0 > k1:
        k0, k1 = k1, k0
    if k2 > k3:
        k2, k3 = k3, k2
    if k0 > k2:
        k0, k2 = k2, k0
    if k1 > k3:
        k1, k3 = k3, k1
    if k1 > k2:
        k1, k2 = k2, k1
    key = (((k0 >> SUIT_INDEX_BITS) * N_SHAPES + (k1 >> SUIT_INDEX_BITS)) * N_SHAPES
           + (k2 >> SUIT_INDEX_BITS)) * N_SHAPES + (k3 >> SUIT_INDEX_BITS)
    config = t.config_of_key[key]
    value = np.int64(0)
    prev = np.int64(-1)
    run = 0
    acc = np.int64(0)
    for k in (k0, k1, k2, k3):
        s = k >> SUIT_INDEX_BITS
        a = k & SUIT_INDEX_MASK
        if s == prev:
            run += 1
            acc += t.ms_binom[a + run - 1, run]
        else:
            if run:
                value = value * t.ms_count[prev, run] + acc
            prev = s
            run = 1
            acc = a
    value = value * t.ms_count[prev, run] + acc
    return t.config_offset[config] + value


@nb.njit(cache=True, nogil=True)
def unindex_row(idx: int, k: int, t: IndexerTables, out: np.ndarray, i: int, scratch: np.ndarray) -> None:
    """Write the canonical situation of class ``idx`` (board size ``k``) into ``out[i]``: sorted
    hole, then sorted board. ``scratch`` is int64[SCRATCH]; ``idx`` must be in range."""
    first = t.street_config[k]
    stop = t.street_config[k + 1]
    c = first + np.searchsorted(t.config_offset[first:stop], idx, side="right") - 1
    value = idx - t.config_offset[c]
    suit = scratch[:N_SUITS]
    buf = scratch[N_SUITS:]
    # runs of equal shapes from the last (least significant digit) to the first
    p = N_SUITS
    while p > 0:
        s = t.config_shapes[c, p - 1]
        q = p - 1
        while q > 0 and t.config_shapes[c, q - 1] == s:
            q -= 1
        j = p - q
        count = t.ms_count[s, j]
        rest = value % count
        value //= count
        for r in range(j, 1, -1):
            # largest a with C(a + r - 1, r) <= rest (binary search; the terms grow with a)
            lo = 0
            hi = t.shape_size[s] - 1
            while lo < hi:
                mid = (lo + hi + 1) >> 1
                if t.ms_binom[mid + r - 1, r] <= rest:
                    lo = mid
                else:
                    hi = mid - 1
            suit[q + r - 1] = lo
            rest -= t.ms_binom[lo + r - 1, r]
        suit[q] = rest
        p = q
    nh = 0
    nbd = HOLE_SIZE
    for p in range(N_SUITS):
        m1 = t.config_shapes[c, p] // SHAPE_RADIX
        m2 = t.config_shapes[c, p] % SHAPE_RADIX
        ways = t.binom[N_RANKS - m1, m2]
        unrank_into(suit[p] // ways, m1, N_RANKS, t.binom, buf)
        hmask = np.int64(0)
        for j in range(m1):
            hmask |= np.int64(1) << buf[j]
            out[i, nh] = N_SUITS * buf[j] + p
            nh += 1
        unrank_into(suit[p] % ways, m2, N_RANKS - m1, t.binom, buf)
        for j in range(m2):
            # back from "j-th free rank" to the rank: step over the hole ranks at or below it
            r = buf[j]
            hh = hmask
            while hh:
                if cttz64(hh) <= r:
                    r += 1
                hh &= hh - 1
            out[i, nbd] = N_SUITS * r + p
            nbd += 1
    sort_small(out[i], HOLE_SIZE)
    sort_small(out[i, HOLE_SIZE:], k)


@nb.njit(cache=True, nogil=True)
def _index_block(cards: np.ndarray, lo: int, hi: int, t: IndexerTables, out: np.ndarray) -> None:
    for i in range(lo, hi):
        out[i] = index_row(cards, i, t)


@nb.njit(cache=True, parallel=True, nogil=True)
def _index_parallel(cards: np.ndarray, t: IndexerTables, out: np.ndarray) -> None:
    n = cards.shape[0]
    for ch in nb.prange(block_count(n, CHUNK)):
        lo, hi = block(n, CHUNK, ch)
        _index_block(cards, lo, hi, t, out)


@nb.njit(cache=True, nogil=True)
def _unindex_block(idx: np.ndarray, lo: int, hi: int, k: int, t: IndexerTables, out: np.ndarray) -> None:
    scratch = np.empty(SCRATCH, np.int64)
    for i in range(lo, hi):
        unindex_row(idx[i], k, t, out, i, scratch)


@nb.njit(cache=True, parallel=True, nogil=True)
def _unindex_parallel(idx: np.ndarray, k: int, t: IndexerTables, out: np.ndarray) -> None:
    n = idx.shape[0]
    for ch in nb.prange(block_count(n, CHUNK)):
        lo, hi = block(n, CHUNK, ch)
        _unindex_block(idx, lo, hi, k, t, out)


def index_rows(cards: np.ndarray, out: np.ndarray) -> None:
    """``out[i]`` = class index of row ``i`` of a C-contiguous uint8 or int64 (n, 2 + k) array.

    No checks at all (see :func:`index_batch`); blocks of :data:`CHUNK` rows run in parallel
    above :data:`SERIAL_MAX` rows.
    """
    if cards.shape[0] <= SERIAL_MAX:
        _index_block(cards, 0, cards.shape[0], TABLES, out)
    else:
        _index_parallel(cards, TABLES, out)


def unindex_rows(idx: np.ndarray, k: int, out: np.ndarray) -> None:
    """``out[i]`` = canonical situation of class ``idx[i]`` (int64, in range; board size ``k``);
    ``out`` is uint8 or int64 (n, 2 + k). No checks (see :func:`unindex_batch`)."""
    if idx.shape[0] <= SERIAL_MAX:
        _unindex_block(idx, 0, idx.shape[0], k, TABLES, out)
    else:
        _unindex_parallel(idx, k, TABLES, out)


# ------------------------------------------------------------------------------- Python API
def board_size(street: str) -> int:
    """Board size of a street name (``preflop`` 0, ``flop`` 3, ``turn`` 4, ``river`` 5)."""
    k = STREETS.get(street) if isinstance(street, str) else None
    if k is None:
        raise InputError(f"unknown street {clip(street)}: expected one of {_STREET_LIST}")
    return k


def class_count(street: str) -> int:
    """Number of suit-isomorphism classes of a street (169, 1,286,792, 13,960,050, 123,156,254)."""
    return COUNTS_BY_BOARD[board_size(street)]


def index(hole: Iterable[int] | str, board: Iterable[int] | str) -> int:
    """Class index of a situation: 2 hole cards and 0, 3, 4 or 5 board cards (ids or text).

    Raises :class:`~pipeline.errors.InputError` naming a bad card, a duplicate or a wrong count.
    """
    h = parse_cards(hole)
    b = parse_cards(board)
    if len(h) != HOLE_SIZE:
        raise InputError(f"hole must have {HOLE_SIZE} cards, got {len(h)}: {format_cards(h) or '(none)'}")
    if len(b) not in BOARD_SIZES:
        raise InputError(f"board must have {_SIZE_LIST} cards ({_STREET_LIST}), got {len(b)}: "
                         f"{format_cards(b) or '(none)'}")
    both = set(h) & set(b)
    if both:
        raise InputError(f"duplicate card {card_text(min(both))}: in the hole and on the board")
    return int(index_row(np.array([h + b], np.int64), 0, TABLES))


def unindex(street: str, i: int) -> tuple[tuple[int, int], tuple[int, ...]]:
    """Canonical situation of class ``i`` of a street: (sorted hole ids, sorted board ids)."""
    k = board_size(street)
    if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
        raise InputError(f"bad class index {clip(i)}: expected an integer")
    n = COUNTS_BY_BOARD[k]
    if not 0 <= i < n:
        raise InputError(f"class index {i} out of range for the {street}: must be 0..{n - 1}")
    out = np.empty((1, HOLE_SIZE + k), np.uint8)  # the batch kernels' variant: no extra compile
    unindex_row(int(i), k, TABLES, out, 0, np.empty(SCRATCH, np.int64))
    row = [int(c) for c in out[0]]
    return (row[0], row[1]), tuple(row[HOLE_SIZE:])


def _first_bad_row(bad: ArrayLike) -> int:
    return int(np.flatnonzero(bad)[0])


def check_situations(cards: np.ndarray) -> None:
    """Raise :class:`~pipeline.errors.InputError` naming the first row of an integer (n, 2 + k)
    array with an id outside 0..51 or a repeated card (vectorised, block by block)."""
    if cards.size == 0:
        return
    if cards.min() < 0 or cards.max() >= DECK_SIZE:
        bad = (cards < 0) | (cards >= DECK_SIZE)
        row = _first_bad_row(bad.any(axis=1))
        value = int(cards[row][bad[row]][0])
        raise InputError(f"bad card id {value} in row {row}: must be 0..{DECK_SIZE - 1} ({cards[row].tolist()})")
    for start in range(0, cards.shape[0], CHECK_BLOCK):
        # one contiguous copy per column, then every pair compared: ~7 ns a 7-card row
        cols = [np.ascontiguousarray(cards[start:start + CHECK_BLOCK, j]) for j in range(cards.shape[1])]
        dup = np.zeros(cols[0].shape[0], bool)
        for a in range(len(cols)):
            for b in range(a):
                dup |= cols[a] == cols[b]
        if dup.any():
            row = start + _first_bad_row(dup)
            ids = [int(c) for c in cards[row]]
            card = next(c for c in ids if ids.count(c) > 1)
            raise InputError(f"duplicate card {card_text(card)} in row {row}: {format_cards(ids)}")


def index_batch(cards: np.ndarray, check: bool = True) -> np.ndarray:
    """Class indices (int64[n]) of an integer (n, 2 + k) card array, k = 0, 3, 4, 5: each row is
    2 hole cards then k board cards, in any order within each group.

    ``check=False`` skips the per-row check (ids 0..51, no repeats) for trusted arrays.
    """
    arr = np.asarray(cards)
    if arr.ndim != 2 or arr.dtype.kind not in "iu":
        raise InputError(f"expected an integer (n, 2 + k) card array, got shape {arr.shape} of {arr.dtype}")
    k = arr.shape[1] - HOLE_SIZE
    if k not in BOARD_SIZES:
        raise InputError(f"board size {k} ({arr.shape[1]} columns, {HOLE_SIZE} of them hole cards): "
                         f"must be {_SIZE_LIST}")
    if check:
        check_situations(arr)
    if arr.dtype != np.uint8 and arr.dtype != np.int64:
        # two compiled variants only: checked ids fit uint8 (compact), unchecked ones go to int64
        arr = arr.astype(np.uint8 if check else np.int64)
    arr = np.ascontiguousarray(arr)
    out = np.empty(arr.shape[0], np.int64)
    index_rows(arr, out)
    return out


def unindex_batch(street: str, idx: np.ndarray, check: bool = True) -> np.ndarray:
    """Canonical situations (uint8[n, 2 + k]: sorted hole, sorted board) of class indices of a
    street; ``check=False`` skips the range check of the indices."""
    k = board_size(street)
    arr = np.asarray(idx)
    if arr.ndim != 1 or arr.dtype.kind not in "iu":
        raise InputError(f"expected a 1-d integer index array, got shape {arr.shape} of {arr.dtype}")
    n = COUNTS_BY_BOARD[k]
    if check and arr.size and (arr.min() < 0 or arr.max() >= n):
        value = int(arr[_first_bad_row((arr < 0) | (arr >= n))])
        raise InputError(f"class index {value} out of range for the {street}: must be 0..{n - 1}")
    out = np.empty((arr.shape[0], HOLE_SIZE + k), np.uint8)
    unindex_rows(np.ascontiguousarray(arr, np.int64), k, out)
    return out


__all__ = ["BOARD_SIZES", "CHUNK", "SERIAL_MAX", "SCRATCH", "board_size", "class_count", "index", "unindex",
           "index_batch", "unindex_batch", "index_row", "unindex_row", "index_rows", "unindex_rows",
           "check_situations"]
