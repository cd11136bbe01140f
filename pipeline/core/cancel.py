"""One deadline and cancel flag for a piece of work, checked where the work runs.

A long-lived caller (the server) gives each answer a :class:`WorkToken` and runs it under
:func:`running`; the heavy solvers call :func:`checkpoint` between chunks (numba kernels stay plain
array functions: the Python layer loops over chunks and checks in between), which raises
:class:`Stopped` once the token's deadline has passed or it was cancelled (a client answered 503,
Ctrl-C). A checkpoint may also report progress (a fraction of the work done), mapped into the
caller's share with :func:`share`. With no token (the command line) a checkpoint costs one
thread-local read and does nothing.

Work a solver hands to its own threads carries the caller's token with :func:`checked`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

#: a progress callback: (fraction done 0..1, what is being done)
Progress = Callable[[float, str], None]


class Stopped(Exception):
    """Work stopped at a checkpoint: its deadline passed or it was cancelled (the message says
    which, for the client)."""


class WorkToken:
    """The deadline (``seconds`` from now, None: none), cancel flag and progress sink of one
    piece of work. Thread-safe: any thread may cancel it; every thread of the work checks it."""

    def __init__(self, seconds: float | None = None, progress: Progress | None = None) -> None:
        self.seconds = seconds
        self.end = None if seconds is None else time.monotonic() + seconds
        self.progress = progress
        self.reason: str | None = None
        #: the share [lo, hi) of the whole work the current checkpoints report into
        self.span = (0.0, 1.0)

    def cancel(self, reason: str) -> None:
        """Stop the work at its next checkpoint, with ``reason`` as the message."""
        if self.reason is None:
            self.reason = reason

    def check(self) -> None:
        """:class:`Stopped` if the work was cancelled or its deadline has passed."""
        if self.reason is None and self.end is not None and time.monotonic() > self.end:
            self.reason = (f"time cap: the answer was stopped after {self.seconds:g} s; ask a "
                           "smaller question")
        if self.reason is not None:
            raise Stopped(self.reason)

    def report(self, fraction: float, text: str = "") -> None:
        """Check, then pass ``fraction`` of the current share (and ``text``) to the progress sink."""
        self.check()
        if self.progress is not None:
            lo, hi = self.span
            self.progress(lo + (hi - lo) * min(max(fraction, 0.0), 1.0), text)


_local = threading.local()


def current() -> WorkToken | None:
    """The token of the work this thread is running (None outside :func:`running`)."""
    return getattr(_local, "token", None)


@contextmanager
def running(token: WorkToken | None) -> Iterator[WorkToken | None]:
    """Run the block as ``token``'s work: its checkpoints check ``token``."""
    before = current()
    _local.token = token
    try:
        yield token
    finally:
        _local.token = before


def checkpoint(fraction: float | None = None, text: str = "") -> None:
    """Between two chunks of heavy work: :class:`Stopped` if the current work must stop, and
    ``fraction`` (of the current share) done, when given, reported."""
    token = current()
    if token is None:
        return
    if fraction is None:
        token.check()
    else:
        token.report(fraction, text)


@contextmanager
def share(lo: float, hi: float) -> Iterator[None]:
    """Checkpoints in the block report into ``[lo, hi)`` of the current share (a table's row
    ``i`` of ``n`` is ``share(i / n, (i + 1) / n)``)."""
    token = current()
    if token is None:
        yield
        return
    outer = token.span
    width = outer[1] - outer[0]
    token.span = (outer[0] + width * lo, outer[0] + width * hi)
    try:
        yield
    finally:
        token.span = outer


def checked(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn``, checking the calling thread's token before each call, on whatever thread it runs
    (a solver's chunk function handed to its own threads)."""
    token = current()
    if token is None:
        return fn

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        token.check()
        return fn(*args, **kwargs)
    return run


__all__ = ["Progress", "Stopped", "WorkToken", "checked", "checkpoint", "current", "running", "share"]
