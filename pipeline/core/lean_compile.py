"""Work numba does for every compiled kernel that nothing in this package uses, left undone.

Two pieces of a compile's fixed cost (``py-spy`` over warm's kernels compiled in one process,
``bench/compile_times.py``, AMD EPYC: 2.7 % and 1.7 % of the process's CPU; 6.6 % and 3.4 % of
compiling 120 small kernels of three array arguments):

* **a C-callable wrapper** (``cfunc.<name>``) is lowered, optimised and turned into machine
  code beside every specialization, for callers that take a kernel's C address
  (``numba.cfunc``-style use, first-class function values). This package calls its kernels
  from Python (the CPython wrapper, kept) and from other kernels (directly), never by C
  address, so :func:`install` has numba's dispatchers compile without it unless a kernel asks
  (``no_cfunc_wrapper=False``); ``numba.cfunc`` itself compiles another way and keeps it.
* **timing events on the LLVM lock**: numba registers callbacks that broadcast a
  ``numba:llvm_lock`` event around every call into LLVM (120,000 calls for warm's kernels),
  only to add the lock's time to each compile's ``metadata["timers"]``, which nothing here
  reads. They are not registered (when numba was imported before ``pipeline``, they stay);
  the ``numba:compile`` events the package listens to (:mod:`pipeline.core.jit_clock`,
  :mod:`pipeline.core.compile_gc`) are another kind.

The compiled kernels are the same machine code (tests/test_lean_compile.py compares their
optimised LLVM IR with numba's own pipeline). Applied when numba's and llvmlite's modules are
imported (:func:`install_on_import`, from ``import pipeline``); a numba whose pieces do not look
as expected is left alone. Each replacement keeps the original as ``__wrapped__``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Protocol

from pipeline.core.import_hooks import after_import

#: the modules adjusted: numba's target options (whose ``finalize`` completes every dispatcher's
#: compile flags) and llvmlite's lock (where numba registers its event callbacks)
OPTIONS = "numba.core.cpu"
LOCK = "llvmlite.binding.ffi"
#: the compile flag that asks for the C-callable wrapper (when false)
NO_CFUNC_WRAPPER = "no_cfunc_wrapper"
#: the numba function whose local callbacks broadcast the LLVM lock events
LOCK_EVENT_SOURCE = "_initialize_llvm_lock_event"
#: the attribute our replacements carry, so installing twice patches once
_MARK = "_pokertables_lean"

#: a lock callback: llvmlite calls it with no arguments
Callback = Callable[[], object]


class _Flags(Protocol):
    """What the trim reads of numba's compile flags: whether an option was set explicitly."""

    def is_set(self, name: str) -> bool: ...


def _without_cfunc_wrapper(module: ModuleType) -> bool:
    options = getattr(module, "CPUTargetOptions", None)
    original = getattr(options, "finalize", None)
    if original is None:
        return False
    if getattr(original, _MARK, False):
        return True

    def finalize(self: object, flags: _Flags, given: Mapping[str, object]) -> None:
        original(self, flags, given)
        # after the kernel's own options: one that sets it keeps its value, and numba.cfunc's
        # compiler sets it back after this (it needs the wrapper)
        if not flags.is_set(NO_CFUNC_WRAPPER):
            setattr(flags, NO_CFUNC_WRAPPER, True)

    setattr(finalize, _MARK, True)
    finalize.__wrapped__ = original  # type: ignore[attr-defined]
    options.finalize = finalize  # type: ignore[union-attr]
    return True


def _without_lock_events(module: ModuleType) -> bool:
    register = getattr(module, "register_lock_callback", None)
    if register is None:
        return False
    if getattr(register, _MARK, False):
        return True

    def register_lock_callback(acquire: Callback, release: Callback) -> None:
        if getattr(acquire, "__qualname__", "").startswith(LOCK_EVENT_SOURCE + "."):
            return
        register(acquire, release)

    setattr(register_lock_callback, _MARK, True)
    register_lock_callback.__wrapped__ = register  # type: ignore[attr-defined]
    module.register_lock_callback = register_lock_callback  # type: ignore[attr-defined]
    return True


#: module -> the trim applied when it is imported
TRIMS = {
    OPTIONS: _without_cfunc_wrapper,
    LOCK: _without_lock_events,
}


def install(module: ModuleType) -> bool:
    """Apply the trim for ``module`` (one of :data:`TRIMS`); True when it is applied (now or
    already), False for a numba or llvmlite that does not look as expected."""
    trim = TRIMS.get(module.__name__)
    return trim is not None and trim(module)


def install_on_import() -> None:
    """:func:`install` on each module of :data:`TRIMS` now if loaded, else when imported."""
    for name in TRIMS:
        after_import(name, install)
