"""Bit tricks for numba kernels: popcount, count-trailing-zeros, colex-ordered bitmap runs.

Used by the read side (:mod:`pipeline.query.lookup`) and by build stages; imports only other
``core`` modules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from pipeline.core.combos import colex_chunk
from pipeline.core.constants import DECK_SIZE
from pipeline.core.parallel import run_chunks


def _ctpop64(typingctx: Any, x: Any) -> tuple[Any, Callable[..., Any]]:
    sig = types.int64(types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, [args[0]])

    return sig, codegen


def _cttz64(typingctx: Any, x: Any) -> tuple[Any, Callable[..., Any]]:
    sig = types.int64(types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(1)])
        fn = builder.module.declare_intrinsic("llvm.cttz", [ir.IntType(64)], fnty)
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])

    return sig, codegen


# typed as Any: inside numba code they are called with one argument, which numba's own stubs
# for the intrinsic wrapper (typingctx first) do not describe
#: Population count of an int64 (LLVM ``ctpop``); usable only inside numba code.
ctpop64: Any = intrinsic(_ctpop64)
#: Trailing zero bits of an int64, 64 for 0 (LLVM ``cttz``); usable only inside numba code.
cttz64: Any = intrinsic(_cttz64)


#: Chunks :func:`colex_bitmaps` cuts its rows into (each unranks its first hand).
BITMAP_CHUNKS = 64


def colex_bitmaps(k: int, first: int, binom: np.ndarray, out: np.ndarray) -> None:
    """Fill ``out`` (int64 or uint64) with the bitmaps of the k-card hands of colex index
    ``first, first+1, ...``.

    Colex order of k-sets is the numeric order of their bitmaps, so each next hand is the next
    larger integer with k bits set (Gosper's hack); each chunk unranks its first hand. Python
    threads take the chunks (:func:`run_chunks`: no ``parallel=True`` wrapper to compile).
    """
    run_chunks(lambda ch: _bitmaps_chunk(ch, k, first, binom, out), BITMAP_CHUNKS,
               nb.get_num_threads())


@nb.njit(cache=True, nogil=True)
def _bitmaps_chunk(ch: int, k: int, first: int, binom: np.ndarray, out: np.ndarray) -> None:
    """Chunk ``ch`` of :func:`colex_bitmaps`."""
    lo, hi, cards = colex_chunk(out.shape[0], BITMAP_CHUNKS, ch, first, k, DECK_SIZE, binom)
    v = np.int64(0)
    for i in range(k):
        v |= np.int64(1) << cards[i]
    for j in range(lo - first, hi - first):
        out[j] = v
        t = v | (v - 1)
        v = (t + 1) | (((~t & -(~t)) - 1) >> (cttz64(v) + 1))
