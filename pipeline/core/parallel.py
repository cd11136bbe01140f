"""Shared numba helpers for splitting an index range across ``prange`` chunks.

Two ways to cut ``0 .. total-1``: into ``nchunks`` nearly equal parts (:func:`even_chunk`; each
chunk then unranks its first item and walks on, as the colex kernels do), or into fixed-size
blocks (:func:`block_count`, :func:`block`; the lookup kernels, whose scratch has one size).
Or let threads take chunk numbers as they get free (:func:`claim`): one ``prange`` iteration per
thread, each claiming the next unplayed chunk, so a thread the machine slows down holds up no
other (a static split waits for the slowest thread's share at the join).

>>> [even_chunk(10, 4, ch) for ch in range(4)]
[(0, 2), (2, 5), (5, 7), (7, 10)]
>>> block_count(10, 4), [block(10, 4, ch) for ch in range(3)]
(3, [(0, 4), (4, 8), (8, 10)])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba as nb
from numba import types
from numba.extending import intrinsic


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


def _claim(typingctx: Any, counter: Any, step: Any) -> tuple[Any, Callable[..., Any]] | None:
    if not (isinstance(counter, types.Array) and counter.dtype == types.int64 and counter.ndim == 1):
        return None
    sig = types.int64(counter, types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        # the counter only hands out numbers; what a chunk writes is published by the join
        return builder.atomic_rmw("add", ary.data, args[1], "monotonic")

    return sig, codegen


#: ``claim(counter, k)``: atomically add ``k`` to ``counter[0]`` (int64[1]) and return the value
#: before; usable only inside numba code. Threads share one counter and each takes the numbers
#: it gets, every number exactly once.
claim: Any = intrinsic(_claim)
