"""Python's collector is paced while numba compiles (pipeline.core.compile_gc) and only then."""

from __future__ import annotations

import gc
from collections.abc import Callable

import numba as nb
import pytest
from fresh_python import after_pipeline
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


def _thresholds_while(call: Callable[[], object]) -> list[tuple[int, ...]]:
    """The collector's thresholds at the start of each compile ``call()`` runs."""
    seen = _Seen()
    event.register("numba:compile", seen)
    try:
        call()
    finally:
        event.unregister("numba:compile", seen)
    return seen.thresholds


def test_paced_while_compiling_and_restored_after() -> None:
    before = gc.get_threshold()
    assert before != compile_gc.COMPILE_THRESHOLDS
    got: list[int] = []
    # _outer, then _inner inside it
    assert _thresholds_while(lambda: got.append(_outer(4))) == [compile_gc.COMPILE_THRESHOLDS] * 2
    assert got == [12]
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

    got: list[int] = []
    assert _thresholds_while(lambda: got.append(_again(1))) == [compile_gc.COMPILE_THRESHOLDS]
    assert got == [3]
    assert gc.get_threshold() == before


def test_installed_when_numba_comes_later() -> None:
    """A process that imports pipeline before numba is paced once numba loads."""
    assert after_pipeline("import gc, numba; from pipeline.core import compile_gc; "
                          "print(compile_gc.installed(), gc.get_threshold() != compile_gc.COMPILE_THRESHOLDS)"
                          ) == "True True"
