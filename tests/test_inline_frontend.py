"""numba's frontend of an inlined kernel runs once per process (pipeline.core.inline_frontend),
and the inlined copies still compute what the callee computes, each call site on its own."""

from __future__ import annotations

import numba as nb
import numpy as np
from fresh_python import after_pipeline

import pipeline  # noqa: F401  (installs the memo)
from pipeline.core import inline_frontend


@nb.njit(inline="always")
def _clip_add(x: int, lo: int, hi: int) -> int:
    """A branchy callee with locals of its own (inlined as several blocks)."""
    y = x + lo
    if y > hi:
        y = hi
    elif y < lo:
        y = lo
    return y


@nb.njit(inline="always")
def _twice(x: int, lo: int, hi: int) -> int:
    """Inlines ``_clip_add`` twice itself: nested inlining reuses the memo too."""
    return _clip_add(x, lo, hi) + _clip_add(-x, lo, hi)


@nb.njit
def _kernel(a: np.ndarray) -> np.ndarray:
    """Four inlined sites of ``_twice`` (eight of ``_clip_add``), each with other arguments."""
    out = np.empty((a.shape[0], 4), np.int64)
    for i in range(a.shape[0]):
        out[i, 0] = _twice(a[i], 0, 5)
        out[i, 1] = _twice(a[i], -3, 3)
        out[i, 2] = _clip_add(a[i], 1, 2) * _twice(a[i], 2, 9)
        out[i, 3] = _twice(a[i] * 2, -100, 100)
    return out


def _clip_add_py(x: int, lo: int, hi: int) -> int:
    return min(max(x + lo, lo), hi)


def _twice_py(x: int, lo: int, hi: int) -> int:
    return _clip_add_py(x, lo, hi) + _clip_add_py(-x, lo, hi)


def test_inlined_sites_compute_the_callee() -> None:
    """Every inlined copy (the memo hands one IR to all of them) keeps its own arguments."""
    before = inline_frontend.memo_size()
    a = np.arange(-12, 13, dtype=np.int64)
    got = _kernel(a)
    want = np.array([[_twice_py(x, 0, 5), _twice_py(x, -3, 3), _clip_add_py(x, 1, 2) * _twice_py(x, 2, 9),
                      _twice_py(2 * x, -100, 100)] for x in a.tolist()])
    assert got.tolist() == want.tolist()
    # two frontends (one per function) for eight inlined sites of _clip_add and four of _twice
    assert inline_frontend.memo_size() - before == 2


def test_installed_once() -> None:
    """``import pipeline`` wraps numba's inliner; installing again wraps nothing more."""
    from numba.core import inline_closurecall

    wrapped = inline_closurecall.InlineWorker.run_untyped_passes
    assert inline_frontend.install(inline_closurecall)
    assert inline_closurecall.InlineWorker.run_untyped_passes is wrapped
    assert isinstance(inline_closurecall.copy, inline_frontend._BlockCopier)  # type: ignore[attr-defined]


def test_installed_when_numba_comes_later() -> None:
    """A process that imports pipeline before numba gets the memo when numba loads."""
    assert after_pipeline("from numba.core import inline_closurecall as m; "
                          "print(hasattr(m.InlineWorker.run_untyped_passes, '_pokertables_memo'))") == "True"


def _halve(x: int) -> int:
    """Python stand-in for the overload below."""
    return x // 2


@nb.extending.overload(_halve, inline="always")
def _halve_overload(x):  # type: ignore[no-untyped-def]  # numba compares its signature with impl's
    def impl(x):  # type: ignore[no-untyped-def]
        y = x // 2
        return y
    return impl


@nb.njit
def _halves(a: np.ndarray, b: np.ndarray) -> tuple[int, float]:
    """The typed inliner (``@overload(inline="always")``) at two sites of two types: its IR is
    rewritten in place after the frontend, so it is never shared (the memo leaves it alone)."""
    s = 0
    f = 0.0
    for i in range(a.shape[0]):
        s += _halve(a[i]) + _halve(a[i] + 1)
        f += _halve(b[i])
    return s, f


def test_typed_inliner_is_left_alone() -> None:
    a = np.arange(7, dtype=np.int64)
    b = np.arange(7, dtype=np.float64) + 0.5
    assert _halves(a, b) == (sum(x // 2 + (x + 1) // 2 for x in range(7)), sum((x + 0.5) // 2 for x in range(7)))


def test_copies_share_locations() -> None:
    """A deep copy of numba IR keeps its source locations (values), everything else is new."""
    import copy

    from numba.core import ir

    loc = ir.Loc("f.py", 3, 4)
    scope = ir.Scope(None, loc)
    block = ir.Block(scope, loc)
    block.append(ir.Assign(ir.Global("g", 1, loc), scope.redefine("x", loc), loc))
    twin = copy.deepcopy(block)
    assert twin is not block and twin.body[0] is not block.body[0]
    assert twin.body[0].loc is loc and twin.body[0].value.loc is loc  # type: ignore[attr-defined]
    assert str(twin.body[0]) == str(block.body[0])
