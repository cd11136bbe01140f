"""How long numba spent compiling in this process, per kernel (imports numba only when used).

:class:`CompileClock` listens to numba's ``numba:compile`` events, which fire only for a real
compile (a specialization loaded from the on-disk cache fires none). Compiling a kernel
compiles the kernels it calls first, inside its own event, so each kernel is charged its
*exclusive* time (its event minus the nested ones) and the clock's total counts only the
outermost events: the numbers add up to the time spent compiling. The time is the compiling
thread's CPU time (a compile runs on the thread that asked for it, under numba's compile
lock), so a loaded machine does not inflate it; on an idle one it is the wall time.
"""

from __future__ import annotations

import time
from collections import defaultdict
from types import TracebackType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numba loads when the clock opens
    from numba.core.event import Event, Listener


class CompileClock:
    """A context manager: numba compile seconds and specializations compiled, per kernel
    (``module.qualname``), while it is open."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)   # exclusive compile CPU s per kernel
        self.compiles: dict[str, int] = defaultdict(int)      # specializations compiled per kernel
        self.total = 0.0                                       # CPU s of the outermost compiles
        self._stack: list[list[Any]] = []                      # [kernel, start, nested seconds]
        self._listener: Listener | None = None

    def __enter__(self) -> CompileClock:
        from numba.core import event

        clock = self

        class _Listener(event.Listener):
            def on_start(self, ev: Event) -> None:
                clock.started(_kernel_name(ev.data.get("dispatcher")))

            def on_end(self, ev: Event) -> None:
                clock.ended()

        self._listener = _Listener()
        event.register("numba:compile", self._listener)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        from numba.core import event

        event.unregister("numba:compile", self._listener)

    def add(self, total: float, compiles: dict[str, int], seconds: dict[str, float]) -> None:
        """Add compiling done elsewhere (another process's clock: its total, specializations
        and seconds per kernel) to this clock's figures."""
        self.total += total
        for k, n in compiles.items():
            self.compiles[k] += n
        for k, t in seconds.items():
            self.seconds[k] += t

    def started(self, kernel: str) -> None:
        """A compile of ``kernel`` began (inside the one under way, if any)."""
        self._stack.append([kernel, time.thread_time(), 0.0])

    def ended(self) -> None:
        """The innermost compile under way finished: charge it its time minus its nested ones."""
        name, start, nested = self._stack.pop()
        took = time.thread_time() - start
        self.seconds[name] += took - nested
        self.compiles[name] += 1
        if self._stack:
            self._stack[-1][2] += took
        else:
            self.total += took


def _kernel_name(dispatcher: object) -> str:
    func = getattr(dispatcher, "py_func", None)
    if func is None:
        return repr(dispatcher)
    return f"{func.__module__}.{func.__qualname__}"
