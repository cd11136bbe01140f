"""Numba kernels for the colex index over arrays of hands (rank, unrank, bitmaps).

These are plain functions over arrays: the Python layer validates and shapes input.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.cards import BINOM


@nb.njit(cache=True, nogil=True)
def unrank_into(index: int, k: int, n: int, binom: np.ndarray, cards: np.ndarray) -> None:
    """Fill cards[0..k-1] with the ascending k-subset of 0..n-1 whose colex index is ``index``,
    and cards[k] = n (the sentinel :func:`next_combination` relies on)."""
    rest = np.int64(index) + 0
    c = n - 1
    for i in range(k, 0, -1):
        while binom[c, i] > rest:
            c -= 1
        cards[i - 1] = c
        rest -= binom[c, i]
        c -= 1
    cards[k] = n


@nb.njit(cache=True, nogil=True)
def sort_small(x: np.ndarray, n: int) -> None:
    """Insertion sort of x[:n] in place (n <= 7: faster than a general sort)."""
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


@nb.njit(cache=True, parallel=True)
def _unrank_range(n: int, k: int, first: int, binom: np.ndarray, out: np.ndarray) -> None:
    total = out.shape[0]
    nchunks = 64
    for ch in nb.prange(nchunks):
        start = first + total * ch // nchunks
        stop = first + total * (ch + 1) // nchunks
        if start >= stop:
            continue
        cards = np.zeros(k + 1, np.int64)
        unrank_into(start, k, n, binom, cards)
        for idx in range(start, stop):
            for t in range(k):
                out[idx - first, t] = cards[t]
            if idx + 1 < stop:
                next_combination(cards)


def all_hands(k: int) -> np.ndarray:
    """Every k-card hand as uint8[C(52,k), k], row ``i`` = the ascending cards of colex index ``i``."""
    return hands_range(k, 0, int(BINOM[52, k]))


def hands_range(k: int, start: int, stop: int, n: int = 52) -> np.ndarray:
    """The k-subsets of 0..n-1 with colex index ``start <= i < stop`` as uint8[stop-start, k]."""
    out = np.empty((stop - start, k), np.uint8)
    _unrank_range(n, k, start, BINOM, out)
    return out


@nb.njit(cache=True, parallel=True)
def _rows_to_bitmaps(cards: np.ndarray, out: np.ndarray) -> None:
    for i in nb.prange(cards.shape[0]):
        b = np.uint64(0)
        for t in range(cards.shape[1]):
            b |= np.uint64(1) << np.uint64(cards[i, t])
        out[i] = b


def hand_bitmaps(cards: np.ndarray) -> np.ndarray:
    """uint64 bitmaps of an (N, k) array of card ids."""
    out = np.empty(cards.shape[0], np.uint64)
    _rows_to_bitmaps(np.ascontiguousarray(cards), out)
    return out
