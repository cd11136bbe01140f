"""Codegen of the hot loops: no reference counting of the evaluator tables per hand.

Numba drops its reference to an array where the array dies; a helper inlined with
``inline="always"`` binds its array arguments to new names, so each call increfs them and
decrefs them again. Numba's refcount pruning removes those pairs only when LLVM has not merged
decrefs of different arrays first, which it does when the helper's branches drop different
tables. The shipped ``hand_score`` had a return in each branch: every hand then cost an atomic
incref and decref of each table (called through the NRT, not inlined), and a Monte Carlo deal
took 2.2x (AMD EPYC) to 6.7x (Intel Xeon) the time of the same loop with the tables as
compile-time constants. These tests compile small loops over the hot helpers, with the tables
as read-only arrays (as ``Tables.eval_tables()`` gives them), and read the optimised LLVM IR:
no ``NRT_incref``/``NRT_decref`` call may sit in a block on a cycle of the control flow graph.
"""

from __future__ import annotations

import re
from types import FunctionType

import numba as nb
import numpy as np
import pytest
from numba.core import config

from pipeline.core.constants import BOARD_CARDS
from pipeline.core.fasteval import (
    FLUSH_CHECK,
    FLUSH_TABLE_SIZE,
    RANK_KEY_MASK,
    SUIT_BIAS,
    SUIT_SHIFT,
    hand_score,
    rank_score,
)
from pipeline.equity.montecarlo.fixed import fixed_chunk, winners
from pipeline.equity.montecarlo.ranged import DECK_ROW, joint_chunk

# bounds checks add exception exits to every loop; the claim is about the code that ships
pytestmark = pytest.mark.skipif(bool(getattr(config, "BOUNDSCHECK", 0)), reason="codegen of unchecked kernels only")

_LABEL = re.compile(r"^([A-Za-z0-9_.$\-]+):")
#: any 13-bit index into the flush table
FLUSH_MASK = FLUSH_TABLE_SIZE - 1
_TARGET = re.compile(r"label %([A-Za-z0-9_.$\-]+)")


def _functions(ir: str) -> dict[str, list[str]]:
    """Body lines of every function defined in a module's IR text, by name."""
    out: dict[str, list[str]] = {}
    name: str | None = None
    body: list[str] = []
    for line in ir.splitlines():
        if line.startswith("define "):
            m = re.search(r"@([^\s(]+)\(", line)
            name, body = (m.group(1) if m else "?"), []
        elif line.startswith("}") and name is not None:
            out[name] = body
            name = None
        elif name is not None:
            body.append(line)
    return out


def refcounts_in_loops(ir: str) -> list[str]:
    """The refcount calls of the compiled functions in ``ir`` that lie on a CFG cycle."""
    hits = []
    for fname, body in _functions(ir).items():
        if fname.startswith(("cpython.", "cfunc.", "NRT_")):
            continue  # the Python wrappers and the NRT's own helpers
        blocks: dict[str, list[str]] = {"entry": []}
        cur = "entry"
        for line in body:
            m = _LABEL.match(line)
            if m:
                cur = m.group(1)
                blocks[cur] = []
            else:
                blocks[cur].append(line)
        succ = {b: {t for line in lines for t in _TARGET.findall(line)} for b, lines in blocks.items()}

        def on_cycle(b: str) -> bool:
            seen: set[str] = set()
            stack = list(succ[b])
            while stack:
                x = stack.pop()
                if x == b:
                    return True
                if x in seen or x not in succ:
                    continue
                seen.add(x)
                stack.extend(succ[x])
            return False

        for b, lines in blocks.items():
            ops = [f"{b}: {line.strip()}" for line in lines if "@NRT_incref" in line or "@NRT_decref" in line]
            if ops and on_cycle(b):
                hits += ops
    return hits


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Arrays typed like the memory-mapped evaluator tables (read-only); values unused."""
    arrays = (np.zeros(52, np.uint64), np.zeros(8, np.int32), np.zeros(8, np.uint16),
              np.zeros(8192, np.uint16))
    for a in arrays:
        a.flags.writeable = False
    return arrays


def _ir(kernel: object) -> str:
    return "\n".join(kernel.inspect_llvm().values())  # type: ignore[attr-defined]


def test_hand_score_loop_keeps_no_refcounts() -> None:
    @nb.njit
    def loop(keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
             out: np.ndarray) -> None:
        for i in range(out.shape[0]):
            c = i % 52
            out[i] = hand_score(keys[c] * np.uint64(7), np.uint64(i), offsets, ranks, flush) \
                + rank_score(np.uint64(i), offsets, ranks)

    loop(*_tables(), np.zeros(0, np.int64))
    assert refcounts_in_loops(_ir(loop)) == []


def test_winners_loop_keeps_no_refcounts() -> None:
    @nb.njit
    def loop(dealt: np.ndarray, hk: np.ndarray, hm: np.ndarray, keys: np.ndarray,
             offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray, hist: np.ndarray) -> None:
        for _ in range(hist.shape[0]):
            code = winners(dealt, 5, np.uint64(0), np.uint64(0), hk, hm, 2, 1, keys, offsets,
                           ranks, flush)
            hist[np.uint64(code)] += 1

    hk = np.zeros(2, np.uint64)
    loop(np.zeros(9, np.uint8), hk, hk.copy(), *_tables(), np.zeros(0, np.int64))
    assert refcounts_in_loops(_ir(loop)) == []


def test_monte_carlo_chunk_kernels_keep_no_refcounts_in_loops() -> None:
    """Fresh (uncached) copies of the fixed-seat and joint-table chunk kernels, compiled for
    the shapes they run (preflop heads-up; two ranged seats and a random one)."""
    tables = _tables()
    fixed = nb.njit(fixed_chunk.py_func)
    one = np.zeros(1, np.uint64)
    fixed(0, np.uint64(1), np.uint64(0), np.uint64(0), BOARD_CARDS, np.arange(50, dtype=np.uint8), one,
          one.copy(), 1, *tables, np.zeros(4, np.int64))
    assert refcounts_in_loops(_ir(fixed)) == []
    joint = nb.njit(joint_chunk.py_func)
    two = np.zeros(2, np.uint64)
    rows = np.zeros((3, 2), np.uint64)
    joint(0, np.uint64(1), np.uint64(0), np.uint64(0), BOARD_CARDS, 48, two, two.copy(),
          np.arange(2, dtype=np.int64), rows, rows.copy(), np.zeros((3, DECK_ROW), np.uint8),
          np.ones(3, np.uint64), 1, *tables, np.zeros(8, np.int64))
    assert refcounts_in_loops(_ir(joint)) == []


def test_the_check_sees_a_refcount_in_a_loop() -> None:
    """``winners`` over the old ``hand_score`` shape (a return in each branch, each dropping
    other tables) keeps refcount calls in the loop, and the check finds them."""

    @nb.njit(inline="always")
    def two_returns(key: np.uint64, mask: np.uint64, offsets: np.ndarray, ranks: np.ndarray,
                    flush: np.ndarray) -> int:
        k = np.int64(key)
        fl = (k + SUIT_BIAS) & FLUSH_CHECK
        if fl == 0:
            return rank_score(k & RANK_KEY_MASK, offsets, ranks)
        return int(flush[np.uint64((np.int64(mask) >> (fl >> SUIT_SHIFT)) & FLUSH_MASK)])

    py = winners.py_func
    old_winners = nb.njit(inline="always")(FunctionType(py.__code__, {**py.__globals__, "hand_score": two_returns},
                                                        py.__name__))

    @nb.njit
    def loop(dealt: np.ndarray, hk: np.ndarray, hm: np.ndarray, keys: np.ndarray,
             offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray, hist: np.ndarray) -> None:
        for _ in range(hist.shape[0]):
            code = old_winners(dealt, 5, np.uint64(0), np.uint64(0), hk, hm, 2, 1, keys, offsets,
                               ranks, flush)
            hist[np.uint64(code)] += 1

    hk = np.zeros(2, np.uint64)
    loop(np.zeros(9, np.uint8), hk, hk.copy(), *_tables(), np.zeros(0, np.int64))
    assert refcounts_in_loops(_ir(loop))


def test_exact_range_chunk_keeps_no_refcounts_in_loops() -> None:
    """A fresh copy of the exact range kernel's chunk (three seats, unit weights): its
    assignment loops, where the last seat is counted or visited, hold no refcount call (an
    inlined helper taking the counted seat's tables cost 4x there). The board loop's orbit
    step may keep one, once per board."""
    from pipeline.core.cards import BINOM
    from pipeline.equity.exact.ranges import _range_chunk

    chunk = nb.njit(_range_chunk.py_func)
    off = np.arange(4, dtype=np.int64)
    rows = np.zeros(3, np.int64)
    chunk(0, 1, np.arange(4, 7, dtype=np.int64), np.arange(3, dtype=np.int64), 0, np.zeros((1, 4), np.int64),
          off, rows, rows.copy(), np.ones(3), np.zeros(3, np.uint64), *_tables(), BINOM, False, -1,
          np.zeros((1, 3, 4), np.int64), np.zeros(1, np.int64), np.zeros((1, 3, 4)), np.zeros(1),
          np.zeros((1, 0, 5), np.int64), np.zeros((1, 0, 5)))
    hits = refcounts_in_loops(_ir(chunk))
    assert [h for h in hits if "arg.work" not in h] == []
