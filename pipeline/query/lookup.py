"""Read-side kernels: colex index + table gather for batches of hands.

Imported by :mod:`pipeline.query.tables`; compiles only what lookups use (no build kernels).

Each kernel works in chunks of :data:`CHUNK` hands (in parallel for batches above
:data:`SERIAL_MAX`, on the calling thread below): first it computes the chunk's colex
indices into a small buffer (pure arithmetic, stays in L1), then it gathers the scores.
Keeping the two passes apart lets the CPU keep many independent table reads in flight; a
fused loop (index then read, hand by hand) stalls on each cache/TLB miss and ran 5-8x slower
on 1M random 7-card hands.

The colex index of a hand with bitmap ``s`` is ``sum C(c, 1 + popcount(s & (2**c - 1)))``
over its cards ``c`` (the rank of ``c`` inside the hand), so no sort is needed.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.bits import ctpop64, cttz64
from pipeline.core.parallel import block, block_count

#: hands per chunk (index buffer of 32 KiB)
CHUNK = 4096
#: batches up to this size run on the calling thread: waking the thread pool costs more than
#: it saves, and on a busy machine a parallel region can wait a whole scheduler time slice
#: (~4 ms) for a descheduled worker
SERIAL_MAX = 8 * CHUNK
_LOW52 = (1 << 52) - 1


@nb.njit(cache=True, nogil=True)
def _gather(table: np.ndarray, idx: np.ndarray, lo: int, hi: int, out: np.ndarray) -> int:
    """Second pass of a chunk: out[lo:hi] = table[idx] (0 where idx is -1); returns the bad count."""
    bad = 0
    for i in range(lo, hi):
        x = idx[i - lo]
        if x >= 0:
            out[i] = table[x]
        else:
            out[i] = 0
            bad += 1
    return bad


@nb.njit(cache=True, nogil=True)
def _rows_chunk(cards: np.ndarray, lo: int, hi: int, binom: np.ndarray, table: np.ndarray,
                out: np.ndarray, idx: np.ndarray) -> int:
    """Score rows ``lo:hi`` of ``cards`` into ``out``; ``idx`` is scratch; returns the bad-row count."""
    k = cards.shape[1]
    for i in range(lo, hi):
        s = np.int64(0)
        outside = np.int64(0)
        for t in range(k):
            c = np.int64(cards[i, t])
            outside |= c | (51 - c)          # negative iff some c < 0 or c > 51
            s |= np.int64(1) << (c & 63)
        x = np.int64(0)
        for t in range(k):
            c = np.int64(cards[i, t])
            c = c if 0 <= c <= 51 else 0     # keep binom reads in bounds for bad rows
            x += binom[c, ctpop64(s & ((np.int64(1) << c) - 1)) + 1]
        idx[i - lo] = x if outside >= 0 and ctpop64(s) == k else -1
    return _gather(table, idx, lo, hi, out)


@nb.njit(cache=True, nogil=True)
def _bitmaps_chunk(bits: np.ndarray, lo: int, hi: int, k: int, binom: np.ndarray,
                   table: np.ndarray, out: np.ndarray, idx: np.ndarray) -> int:
    """Score bitmaps ``lo:hi`` into ``out``; ``idx`` is scratch; returns the bad-bitmap count."""
    for i in range(lo, hi):
        raw = np.int64(bits[i])
        s = raw & _LOW52
        x = np.int64(0)
        for j in range(1, k + 1):
            x += binom[cttz64(s) & 63, j]       # cttz(0) = 64 -> row 0 (bad bitmap anyway)
            s &= s - 1
        idx[i - lo] = x if (raw >> 52) == 0 and ctpop64(raw) == k else -1
    return _gather(table, idx, lo, hi, out)


@nb.njit(cache=True, parallel=True, nogil=True)
def _rows_parallel(cards: np.ndarray, binom: np.ndarray, table: np.ndarray, out: np.ndarray) -> int:
    n = cards.shape[0]
    nbad = 0
    for ch in nb.prange(block_count(n, CHUNK)):
        lo, hi = block(n, CHUNK, ch)
        nbad += _rows_chunk(cards, lo, hi, binom, table, out, np.empty(hi - lo, np.int64))
    return nbad


@nb.njit(cache=True, nogil=True)
def _rows_serial(cards: np.ndarray, binom: np.ndarray, table: np.ndarray, out: np.ndarray) -> int:
    n = cards.shape[0]
    idx = np.empty(min(n, CHUNK), np.int64)
    nbad = 0
    for lo in range(0, n, CHUNK):
        nbad += _rows_chunk(cards, lo, min(n, lo + CHUNK), binom, table, out, idx)
    return nbad


@nb.njit(cache=True, parallel=True, nogil=True)
def _bitmaps_parallel(bits: np.ndarray, k: int, binom: np.ndarray, table: np.ndarray,
                      out: np.ndarray) -> int:
    n = bits.shape[0]
    nbad = 0
    for ch in nb.prange(block_count(n, CHUNK)):
        lo, hi = block(n, CHUNK, ch)
        nbad += _bitmaps_chunk(bits, lo, hi, k, binom, table, out, np.empty(hi - lo, np.int64))
    return nbad


@nb.njit(cache=True, nogil=True)
def _bitmaps_serial(bits: np.ndarray, k: int, binom: np.ndarray, table: np.ndarray,
                    out: np.ndarray) -> int:
    n = bits.shape[0]
    idx = np.empty(min(n, CHUNK), np.int64)
    nbad = 0
    for lo in range(0, n, CHUNK):
        nbad += _bitmaps_chunk(bits, lo, min(n, lo + CHUNK), k, binom, table, out, idx)
    return nbad


def score_rows(cards: np.ndarray, binom: np.ndarray, table: np.ndarray, out: np.ndarray) -> int:
    """out[i] = table[colex(cards[i])] for a C-contiguous (N, k) id array; returns how many rows
    were bad (their out is 0). A row is bad unless it holds ``k`` distinct ids in ``0..51``."""
    kernel = _rows_serial if cards.shape[0] <= SERIAL_MAX else _rows_parallel
    return int(kernel(cards, binom, table, out))


def score_bitmaps(bits: np.ndarray, k: int, binom: np.ndarray, table: np.ndarray,
                  out: np.ndarray) -> int:
    """out[i] = table[colex(bits[i])] for uint64 bitmaps; returns how many were bad (their out is 0).
    A bitmap is bad unless exactly ``k`` of its bits are set, all of them below bit 52."""
    kernel = _bitmaps_serial if bits.shape[0] <= SERIAL_MAX else _bitmaps_parallel
    return int(kernel(bits, k, binom, table, out))
