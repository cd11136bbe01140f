"""Python's garbage collector paced for numba's compiler while a compile is under way.

Compiling allocates millions of short-lived objects (numba IR, types, llvmlite IR) on top of a
large long-lived graph (type caches, compiled libraries, the inliner's memo). CPython 3.11
collects the young generation every 700 net allocations and the whole heap whenever the
long-lived part has grown by a quarter since the last full collection, which compiling does again
and again: warm's kernels compiled in one process ran 26 full collections, 7.1 of 61.5 CPU s
(``bench/compile_times.py`` under gc callbacks, AMD EPYC, load ~5). While the outermost compile
runs, :data:`COMPILE_THRESHOLDS` apply instead (4 full collections, GC 2.8 s in all); the usual
thresholds return when it ends, so a long-lived process (the server) collects as before between
compiles. The compiled code is the same: only when memory is reclaimed changes.
"""

from __future__ import annotations

import gc
import threading
from types import ModuleType
from typing import TYPE_CHECKING

from pipeline.core.import_hooks import after_import

if TYPE_CHECKING:
    from numba.core.event import Event

#: numba's module that broadcasts the ``numba:compile`` events
MODULE = "numba.core.event"
#: young-generation allocations between collections, and how many collections of each
#: generation before the next older one is collected, while compiling (CPython's: 700, 10, 10)
COMPILE_THRESHOLDS = (10_000, 10, 1_000)

_state = threading.local()
_installed: list[object] = []  # the listener, once registered


def _outermost_started() -> None:
    depth = getattr(_state, "depth", 0)
    if depth == 0:
        _state.saved = gc.get_threshold()
        gc.set_threshold(*COMPILE_THRESHOLDS)
    _state.depth = depth + 1


def _outermost_ended() -> None:
    _state.depth -= 1
    if _state.depth == 0:
        gc.set_threshold(*_state.saved)


def install(module: ModuleType) -> bool:
    """Register the pacing with numba's event module ``module`` (``numba.core.event``); once per
    process. True when it is (now or already) registered; a numba without the events is left
    alone (False)."""
    if _installed:
        return True
    listener_class = getattr(module, "Listener", None)
    register = getattr(module, "register", None)
    if listener_class is None or register is None:
        return False

    class _Pacing(listener_class):  # type: ignore[misc, valid-type]
        def on_start(self, ev: Event) -> None:
            _outermost_started()

        def on_end(self, ev: Event) -> None:
            _outermost_ended()

    listener = _Pacing()
    register("numba:compile", listener)
    _installed.append(listener)
    return True


def install_on_import() -> None:
    """:func:`install` now if numba's event module is loaded, else when it is imported."""
    after_import(MODULE, install)


def installed() -> bool:
    """Whether this process paces its collections while compiling."""
    return bool(_installed)
