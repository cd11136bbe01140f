"""What long computations below the build (a casino game's solve, a video-poker sweep) need of
the build's executor (:mod:`pipeline.build.executor`, which sits above them and satisfies these
protocols): submit pure tasks and wait for their results. Typed here so that a lower layer can
name it without importing the build."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Handle(Protocol):
    """A pending task result."""

    def result(self) -> Any:
        """Block until the task finished; return its value (re-raise its error)."""


class Tasks(Protocol):
    """Runs pure tasks in this process or on workers (``distributed``: tasks leave the process,
    so fewer and larger ones pay)."""

    kind: str
    distributed: bool

    def submit(self, fn: Callable[..., object], *args: object, **shared: object) -> Handle:
        """Start ``fn(*args, **shared)``; return a handle to its result."""

    def map(self, fn: Callable[..., T], items: Sequence[object], **shared: object) -> list[T]:
        """``[fn(item, **shared) for item in items]``, in item order."""

    def workers(self) -> int:
        """How many worker processes tasks may run in."""


__all__ = ["Handle", "Tasks"]
