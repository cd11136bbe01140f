"""numba's frontend of an ``inline="always"`` kernel run once per process, not once per call site.

To inline a call at the IR level, numba runs the callee's whole untyped frontend (bytecode to
IR, rewrites, and the inlining of *its* callees, recursively) at every call site, then copies
the resulting IR into the caller. ``hand_score`` is inlined 14 times in warm's ranged Monte
Carlo kernels, ``step`` 22 times, each time from the bytecode up (4.4 of the 48.8 compile
seconds of warm's games and ranged groups). The frontend's result depends only on the
function and the compile flags, and numba copies it before changing anything, so
:func:`install` keeps the first result per (function, flags) and hands the same IR to every
later call site. numba's copy itself was slower still (:class:`_BlockCopier`). The machine
code is the same: the disassembly of every object warm caches compared equal with and without
this module; it is only compiled sooner (docs/building.md, "The inliner's frontend once").

The patch is applied when numba's ``numba.core.inline_closurecall`` is imported (or at once if
it already is): ``import pipeline`` registers :func:`install_on_import`, so the command line,
the build, warm and the tests all get it without importing numba early. A numba whose
``InlineWorker.run_untyped_passes`` does not look as expected is left alone.
"""

from __future__ import annotations

import copy as copy_module
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any, Protocol

from pipeline.core.import_hooks import after_import

#: numba's module holding ``InlineWorker``
MODULE = "numba.core.inline_closurecall"
#: the attribute our wrapper carries, so installing twice wraps once
_MARK = "_pokertables_memo"


class _Flags(Protocol):
    """What the wrapper reads and sets of numba's compile flags."""

    enable_ssa: bool

    def summary(self) -> str: ...


class _Worker(Protocol):
    """What the wrapper reads of numba's ``InlineWorker``."""

    flags: _Flags | None
    _compiler_pipeline: object


def install(module: ModuleType | None = None) -> bool:
    """Wrap ``InlineWorker.run_untyped_passes`` of ``module`` (default: numba's, imported now)
    with a per-process memo; True when it is (now or already) wrapped."""
    if module is None:
        import importlib

        module = importlib.import_module(MODULE)
    worker = getattr(module, "InlineWorker", None)
    original = getattr(worker, "run_untyped_passes", None)
    if worker is None or original is None:
        return False
    if getattr(original, _MARK, None) is not None:
        return True
    code = original.__code__
    if code.co_varnames[:code.co_argcount] != ("self", "func", "enable_ssa"):
        return False  # another numba: leave its frontend alone
    memo: dict[tuple[object, ...], Any] = {}

    def run_untyped_passes(self: _Worker, func: Callable[..., object], enable_ssa: bool = False) -> Any:
        flags = self.flags
        if flags is None or enable_ssa:
            # the typed inliner of @overload(inline="always") asks for SSA form and then
            # rewrites the IR it gets in place: not shareable
            return original(self, func, enable_ssa)
        # numba sets this on the caller's flags before it runs the passes: do the same on a hit
        flags.enable_ssa = enable_ssa
        key = (func, enable_ssa, flags.summary(), self._compiler_pipeline)
        ir = memo.get(key)
        if ir is None:
            ir = memo[key] = original(self, func, enable_ssa)
        return ir

    setattr(run_untyped_passes, _MARK, memo)
    run_untyped_passes.__doc__ = original.__doc__
    worker.run_untyped_passes = run_untyped_passes
    copier = getattr(module, "copy", None)
    if copier is copy_module:
        module.copy = _BlockCopier()  # type: ignore[attr-defined]
    _share_locations()
    return True


def _share_locations() -> None:
    """Let deep copies of numba IR share its source locations (``numba.core.ir.Loc``): a
    location is a value (file, line, column; numba makes a new one rather than change one) whose
    only later write fills a cache of the file's lines, so a copy of it is the same value.
    ``Global`` copies its location without the memo, one new location per global per copy: a
    third of the inliner's copying time (2.1 -> 1.4 CPU s compiling warm's kernels)."""
    from numba.core import ir

    loc = getattr(ir, "Loc", None)
    if loc is not None and "__deepcopy__" not in vars(loc):
        loc.__deepcopy__ = _same_location


def _same_location(self: object, memo: dict[int, Any]) -> object:
    return self


class _BlockCopier:
    """Stands for the ``copy`` module inside numba's inlining module, whose one use is
    ``copy.deepcopy(block)`` for each block of the callee's IR, twice per inlined call. Copied
    one at a time, every block drags along a copy of the function's whole scope (every
    variable, each with its location): blocks x variables, most of the inliner's time. Here
    the blocks of one IR copy share one memo, so the scope is copied once per IR copy, as a
    deep copy of the whole IR would do. A block met again starts a new memo: it is the next
    copy of that IR (numba copies each block once per copy, one copy after the other)."""

    def __init__(self) -> None:
        self._memo: dict[int, Any] = {}
        self._seen: set[int] = set()
        self._scope: object = None

    def deepcopy(self, x: object, memo: dict[int, Any] | None = None) -> Any:
        scope = getattr(x, "scope", None)
        if memo is not None or scope is None:
            return copy_module.deepcopy(x, memo)
        if scope is not self._scope or id(x) in self._seen:
            self._memo, self._seen, self._scope = {}, set(), scope
        self._seen.add(id(x))
        return copy_module.deepcopy(x, self._memo)


def memo_size() -> int:
    """How many (function, flags) frontends the wrapper holds (0 when not installed)."""
    module = sys.modules.get(MODULE)
    memo = getattr(getattr(getattr(module, "InlineWorker", None), "run_untyped_passes", None), _MARK, None)
    return len(memo) if memo is not None else 0


def install_on_import() -> None:
    """:func:`install` now if numba's inlining module is loaded, else when it is imported."""
    after_import(MODULE, install)
