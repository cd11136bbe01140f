"""Shared numba helpers for splitting an index range across ``prange`` chunks.

Two ways to cut ``0 .. total-1``: into ``nchunks`` nearly equal parts (:func:`even_chunk`; each
chunk then unranks its first item and walks on, as the colex kernels do), or into fixed-size
blocks (:func:`block_count`, :func:`block`; the lookup kernels, whose scratch has one size).
Or let threads take chunk numbers as they get free (:func:`claim`): one ``prange`` iteration per
thread, each claiming the next unplayed chunk, so a thread the machine slows down holds up no
other (a static split waits for the slowest thread's share at the join). :func:`run_chunks` does
the same from Python threads for a ``nogil`` chunk kernel, with no ``parallel=True`` wrapper;
:func:`run_rows` cuts rows ``0 .. n-1`` into such chunks for a ``nogil`` kernel of ``(lo, hi)``.

>>> [even_chunk(10, 4, ch) for ch in range(4)]
[(0, 2), (2, 5), (5, 7), (7, 10)]
>>> block_count(10, 4), [block(10, 4, ch) for ch in range(3)]
(3, [(0, 4), (4, 8), (8, 10)])
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numba as nb
from numba import get_num_threads, types
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


#: The helper threads of :func:`run_chunks` and how many (made on first use, grown when more are
#: asked for, then reused; idle ones sleep).
_POOL: list[tuple[int, ThreadPoolExecutor]] = []


def run_chunks(kernel: Callable[[int], object], n_chunks: int, threads: int) -> None:
    """Run ``kernel(ch)`` for every chunk ``ch`` in ``0 .. n_chunks - 1`` on ``threads`` threads
    (this one included), each taking the next chunk number as it gets free.

    For a chunk kernel compiled with ``nogil=True``: the threads run it side by side, and no
    ``parallel=True`` wrapper has to be compiled (a second optimisation of the whole chunk
    kernel, seconds of compiling) or loaded. A chunk's results go to its own slots, so they do
    not depend on which thread ran it."""
    numbers = itertools.count()

    def work() -> None:
        while (ch := next(numbers)) < n_chunks:  # next() on a count is atomic under the GIL
            kernel(ch)

    helpers = min(threads, n_chunks) - 1
    if helpers <= 0:
        work()
        return
    if not _POOL or _POOL[0][0] < helpers:
        _POOL[:] = [(helpers, ThreadPoolExecutor(helpers, thread_name_prefix="chunks"))]
    running = [_POOL[0][1].submit(work) for _ in range(helpers)]
    work()
    for f in running:
        f.result()  # re-raises a helper's exception here


#: Chunks per thread of :func:`run_rows`: a thread the machine slows down takes fewer of them.
ROW_CHUNKS_PER_THREAD = 4


def run_rows(kernel: Callable[..., object], n: int, *args: object, threads: int | None = None) -> None:
    """Run ``kernel(lo, hi, *args)`` over rows ``0 .. n-1`` cut into near-equal chunks, on
    ``threads`` threads (default: numba's thread count), each taking the next chunk as it gets
    free.

    What a ``parallel=True`` kernel looping ``prange(n)`` did, for a ``nogil`` kernel looping
    ``range(lo, hi)``: its compile is one optimisation of the loop instead of two (the
    ``parallel=True`` wrapper re-optimises the whole body and every inlined callee; for the
    build's kernels about a third of their compile seconds), and each row writes its own
    slots, so the result does not depend on the cut."""
    threads = threads or get_num_threads()
    n_chunks = max(1, min(n, threads * ROW_CHUNKS_PER_THREAD))
    run_chunks(lambda ch: kernel(n * ch // n_chunks, n * (ch + 1) // n_chunks, *args), n_chunks,
               threads)
