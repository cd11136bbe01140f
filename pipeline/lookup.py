"""Read-side kernels: colex index + table gather in one pass, for batches of hands.

Imported by :mod:`pipeline.query`; compiles only what lookups use (no build kernels).
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, parallel=True, nogil=True)
def score_rows(cards: np.ndarray, binom: np.ndarray, table: np.ndarray, out: np.ndarray) -> int:
    """out[i] = table[colex(cards[i])] for an (N, k) id array; returns how many rows were bad (their out is 0)."""
    n, k = cards.shape
    nbad = 0
    for i in nb.prange(n):
        seen = np.int64(0)
        for t in range(k):
            c = np.int64(cards[i, t])
            if c < 0 or c > 51:
                seen = -1
                break
            bit = np.int64(1) << c
            if seen & bit:
                seen = -1
                break
            seen |= bit
        if seen < 0:
            out[i] = 0
            nbad += 1
            continue
        idx = np.int64(0)
        j = 1
        c = 0
        while seen:
            if seen & 1:
                idx += binom[c, j]
                j += 1
            seen >>= 1
            c += 1
        out[i] = table[idx]
    return nbad


@nb.njit(cache=True, parallel=True, nogil=True)
def score_bitmaps(bits: np.ndarray, k: int, binom: np.ndarray, table: np.ndarray,
                  out: np.ndarray) -> int:
    """out[i] = table[colex(bits[i])] for uint64 bitmaps; returns how many were bad (their out is 0)."""
    n = bits.shape[0]
    nbad = 0
    for i in nb.prange(n):
        b = bits[i]
        if b >> np.uint64(52):
            out[i] = 0
            nbad += 1
            continue
        s = np.int64(b)
        idx = np.int64(0)
        j = 0
        c = 0
        while s and j <= k:
            if s & 1:
                j += 1
                if j <= k:
                    idx += binom[c, j]
            s >>= 1
            c += 1
        if j != k:
            out[i] = 0
            nbad += 1
            continue
        out[i] = table[idx]
    return nbad


@nb.njit(cache=True, parallel=True, nogil=True)
def gather(table: np.ndarray, idx: np.ndarray, out: np.ndarray) -> None:
    """out[i] = table[idx[i]] in parallel (idx already validated)."""
    for i in nb.prange(idx.shape[0]):
        out[i] = table[idx[i]]
