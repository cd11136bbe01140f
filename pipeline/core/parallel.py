"""Shared numba helpers for splitting an index range across ``prange`` chunks.

Two ways to cut ``0 .. total-1``: into ``nchunks`` nearly equal parts (:func:`even_chunk`; each
chunk then unranks its first item and walks on, as the colex kernels do), or into fixed-size
blocks (:func:`block_count`, :func:`block`; the lookup kernels, whose scratch has one size).

>>> [even_chunk(10, 4, ch) for ch in range(4)]
[(0, 2), (2, 5), (5, 7), (7, 10)]
>>> block_count(10, 4), [block(10, 4, ch) for ch in range(3)]
(3, [(0, 4), (4, 8), (8, 10)])
"""

from __future__ import annotations

import numba as nb


@nb.njit(cache=True, inline="always")
def even_chunk(total: int, nchunks: int, ch: int) -> tuple[int, int]:
    """``(lo, hi)`` of chunk ``ch`` when ``total`` items are cut into ``nchunks`` near-equal chunks."""
    return total * ch // nchunks, total * (ch + 1) // nchunks


@nb.njit(cache=True, inline="always")
def block_count(total: int, size: int) -> int:
    """How many blocks of ``size`` items cover ``total`` items."""
    return (total + size - 1) // size


@nb.njit(cache=True, inline="always")
def block(total: int, size: int, ch: int) -> tuple[int, int]:
    """``(lo, hi)`` of block ``ch`` of ``size`` items (the last one may be short)."""
    lo = ch * size
    return lo, min(total, lo + size)
