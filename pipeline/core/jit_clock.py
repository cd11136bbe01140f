"""How long numba spent compiling in this process, per kernel (imports numba only when used).

:class:`CompileClock` listens to numba's ``numba:compile`` events, which fire only for a real
compile (a specialization loaded from the on-disk cache fires none). Compiling a kernel
compiles the kernels it calls first, inside its own event, so each kernel is charged its
*exclusive* time (its event minus the nested ones) and the clock's total counts only the
outermost events: the numbers add up to the wall time spent compiling.
"""

from __future__ import annotations

import time
from collections import defaultdict
from types import TracebackType
from typing import Any


class CompileClock:
    """A context manager: numba compile seconds and specializations compiled, per kernel
    (``module.qualname``), while it is open."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)   # exclusive compile time per kernel
        self.compiles: dict[str, int] = defaultdict(int)      # specializations compiled per kernel
        self.total = 0.0                                       # wall time of the outermost compiles
        self._stack: list[list[Any]] = []                      # [kernel, start, nested seconds]
        self._listener: Any = None

    def __enter__(self) -> CompileClock:
        from numba.core import event

        clock = self

        class _Listener(event.Listener):
            def on_start(self, ev: Any) -> None:
                clock._stack.append([_kernel_name(ev.data.get("dispatcher")), time.perf_counter(), 0.0])

            def on_end(self, ev: Any) -> None:
                name, start, nested = clock._stack.pop()
                took = time.perf_counter() - start
                clock.seconds[name] += took - nested
                clock.compiles[name] += 1
                if clock._stack:
                    clock._stack[-1][2] += took
                else:
                    clock.total += took

        self._listener = _Listener()
        event.register("numba:compile", self._listener)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        from numba.core import event

        event.unregister("numba:compile", self._listener)

    def merge(self, seconds: dict[str, float], compiles: dict[str, int], total: float) -> None:
        """Add another process's figures (a warm worker's) to this clock's."""
        for name, s in seconds.items():
            self.seconds[name] += s
        for name, n in compiles.items():
            self.compiles[name] += n
        self.total += total


def _kernel_name(dispatcher: Any) -> str:
    func = getattr(dispatcher, "py_func", None)
    if func is None:
        return repr(dispatcher)
    return f"{func.__module__}.{func.__qualname__}"
