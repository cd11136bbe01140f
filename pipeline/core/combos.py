"""Numba kernels for the colex index over arrays of hands (rank, unrank, bitmaps).

These are plain functions over arrays: the Python layer validates and shapes input.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.cards import BINOM
from pipeline.core.parallel import even_chunk, run_chunks, run_rows

# The small helpers below are called from many kernels with literal constants, prange indices
# (typed int64 and, in a parallel body, uint64) and plain integers: numba compiled one
# specialization per mix (colex_chunk had twelve). Each public name is an inlined shim that
# passes int64 to the one compiled worker.


@nb.njit(cache=True, nogil=True, inline="always")
def unrank_into(index: int, k: int, n: int, binom: np.ndarray, cards: np.ndarray) -> None:
    """Fill cards[0..k-1] with the ascending k-subset of 0..n-1 whose colex index is ``index``,
    and cards[k] = n (the sentinel :func:`next_combination` relies on)."""
    _unrank_into(np.int64(index), np.int64(k), np.int64(n), binom, cards)


@nb.njit(cache=True, nogil=True)
def _unrank_into(index: int, k: int, n: int, binom: np.ndarray, cards: np.ndarray) -> None:
    rest = np.int64(index) + 0
    c = n - 1
    for i in range(k, 0, -1):
        while binom[c, i] > rest:
            c -= 1
        cards[i - 1] = c
        rest -= binom[c, i]
        c -= 1
    cards[k] = n


@nb.njit(cache=True, nogil=True, inline="always")
def sort_small(x: np.ndarray, n: int) -> None:
    """Insertion sort of x[:n] in place (n <= 7: faster than a general sort)."""
    _sort_small(x, np.int64(n))


@nb.njit(cache=True, nogil=True)
def _sort_small(x: np.ndarray, n: int) -> None:
    for i in range(1, n):
        v = x[i]
        j = i - 1
        while j >= 0 and x[j] > v:
            x[j + 1] = x[j]
            j -= 1
        x[j + 1] = v


@nb.njit(cache=True, nogil=True)
def next_combination(cards: np.ndarray) -> None:
    """Step ``cards`` (ascending, with sentinel) to its colex successor in place.

    Bump the lowest card that has room below its neighbour and reset the ones under it;
    the caller must not step past the last combination.
    """
    j = 0
    while cards[j] + 1 == cards[j + 1]:
        j += 1
    cards[j] += 1
    for t in range(j):
        cards[t] = t


@nb.njit(cache=True, nogil=True, inline="always")
def colex_chunk(total: int, nchunks: int, ch: int, first: int, k: int, n: int,
                binom: np.ndarray) -> tuple[int, int, np.ndarray]:
    """Chunk ``ch`` of ``nchunks`` near-equal chunks of the k-subsets of 0..n-1 with colex index
    ``first .. first + total - 1``: ``(lo, hi, cards)``, the chunk's indices ``lo <= i < hi``
    and its first subset in ``cards`` (ascending, k + 1 long with the sentinel).

    Every parallel colex kernel starts a chunk this way (unrank once, then
    :func:`next_combination` per step), so the work splits evenly whatever the threads.
    """
    return _colex_chunk(np.int64(total), np.int64(nchunks), np.int64(ch), np.int64(first),
                        np.int64(k), np.int64(n), binom)


@nb.njit(cache=True, nogil=True)
def _colex_chunk(total: int, nchunks: int, ch: int, first: int, k: int, n: int,
                 binom: np.ndarray) -> tuple[int, int, np.ndarray]:
    lo, hi = even_chunk(total, nchunks, ch)
    cards = np.empty(k + 1, np.int64)
    cards[k] = n
    if lo < hi:
        unrank_into(first + lo, k, n, binom, cards)
    return first + lo, first + hi, cards


#: Chunks :func:`hands_range` cuts its index range into (each unranks its first hand).
UNRANK_CHUNKS = 64


@nb.njit(cache=True, nogil=True)
def _unrank_range(ch: int, n: int, k: int, first: int, binom: np.ndarray, out: np.ndarray) -> None:
    """Chunk ``ch`` of :data:`UNRANK_CHUNKS` of :func:`hands_range`."""
    start, stop, cards = colex_chunk(out.shape[0], UNRANK_CHUNKS, ch, first, k, n, binom)
    for idx in range(start, stop):
        if idx > start:
            next_combination(cards)
        for t in range(k):
            out[idx - first, t] = cards[t]


@nb.njit(cache=True, nogil=True)
def _unrank_each(lo: int, hi: int, idx: np.ndarray, k: int, n: int, binom: np.ndarray,
                 out: np.ndarray) -> None:
    for i in range(lo, hi):
        cards = np.empty(k + 1, np.int64)
        unrank_into(idx[i], k, n, binom, cards)
        for t in range(k):
            out[i, t] = cards[t]


def all_hands(k: int) -> np.ndarray:
    """Every k-card hand as uint8[C(52,k), k], row ``i`` = the ascending cards of colex index ``i``."""
    return hands_range(k, 0, int(BINOM[52, k]))


def hands_range(k: int, start: int, stop: int, n: int = 52) -> np.ndarray:
    """The k-subsets of 0..n-1 with colex index ``start <= i < stop`` as uint8[stop-start, k]."""
    out = np.empty((stop - start, k), np.uint8)
    # Python threads take the chunks (run_chunks: no parallel=True wrapper to compile)
    run_chunks(lambda ch: _unrank_range(ch, n, k, start, BINOM, out), UNRANK_CHUNKS,
               nb.get_num_threads())
    return out


def unrank_many(idx: np.ndarray, k: int, n: int) -> np.ndarray:
    """The k-subsets of 0..n-1 with the given colex indices (any order) as int64[len(idx), k]."""
    out = np.empty((idx.shape[0], k), np.int64)
    run_rows(_unrank_each, idx.shape[0], np.ascontiguousarray(idx, dtype=np.int64), k, n, BINOM, out)
    return out


@nb.njit(cache=True, nogil=True)
def _rows_to_bitmaps(lo: int, hi: int, cards: np.ndarray, out: np.ndarray) -> None:
    for i in range(lo, hi):
        b = np.uint64(0)
        for t in range(cards.shape[1]):
            b |= np.uint64(1) << np.uint64(cards[i, t])
        out[i] = b


def hand_bitmaps(cards: np.ndarray) -> np.ndarray:
    """uint64 bitmaps of an (N, k) array of card ids."""
    out = np.empty(cards.shape[0], np.uint64)
    run_rows(_rows_to_bitmaps, cards.shape[0], np.ascontiguousarray(cards), out)
    return out
