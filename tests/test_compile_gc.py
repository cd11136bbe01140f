"""Python's collector is paced while numba compiles (pipeline.core.compile_gc) and only then."""

from __future__ import annotations

import gc
import subprocess
import sys

import numba as nb
import pytest
from numba.core import event

import pipeline  # noqa: F401  (installs the pacing)
from pipeline.core import compile_gc


class _Seen(event.Listener):
    """Records the collector's thresholds at each compile's start (registered after the
    pacing, so it sees what the compile runs under)."""

    def __init__(self) -> None:
        self.thresholds: list[tuple[int, ...]] = []

    def on_start(self, ev: event.Event) -> None:
        self.thresholds.append(gc.get_threshold())

    def on_end(self, ev: event.Event) -> None:
        pass


@nb.njit
def _inner(x: int) -> int:
    return x * 3 + 1


@nb.njit
def _outer(x: int) -> int:
    """Compiling it compiles ``_inner`` inside its own compile (nested events)."""
    return _inner(x) - 1


@nb.njit
def _broken(x: int) -> int:
    return x.no_such_attribute  # type: ignore[attr-defined]  # fails to compile


def test_paced_while_compiling_and_restored_after() -> None:
    before = gc.get_threshold()
    assert before != compile_gc.COMPILE_THRESHOLDS
    seen = _Seen()
    event.register("numba:compile", seen)
    try:
        assert _outer(4) == 12
    finally:
        event.unregister("numba:compile", seen)
    assert seen.thresholds == [compile_gc.COMPILE_THRESHOLDS] * 2  # _outer, then _inner inside it
    assert gc.get_threshold() == before


def test_restored_after_a_failed_compile() -> None:
    before = gc.get_threshold()
    with pytest.raises(nb.core.errors.TypingError):
        _broken(1)
    assert gc.get_threshold() == before


def test_installed_once() -> None:
    """Installing again keeps the pacing as it was: paced while compiling, restored after."""
    from numba.core import event as module

    assert compile_gc.installed()
    assert compile_gc.install(module)
    before = gc.get_threshold()

    @nb.njit
    def _again(x: int) -> int:
        return x + 2

    seen = _Seen()
    event.register("numba:compile", seen)
    try:
        assert _again(1) == 3
    finally:
        event.unregister("numba:compile", seen)
    assert seen.thresholds == [compile_gc.COMPILE_THRESHOLDS]
    assert gc.get_threshold() == before


def test_installed_when_numba_comes_later() -> None:
    """A process that imports pipeline before numba is paced once numba loads."""
    code = ("import sys, gc, pipeline; assert 'numba' not in sys.modules; "
            "import numba; from pipeline.core import compile_gc; "
            "print(compile_gc.installed(), gc.get_threshold() != compile_gc.COMPILE_THRESHOLDS)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True True"
