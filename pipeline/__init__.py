"""pokertables: precomputed poker lookup tables as HDF5/Parquet artifacts, and tools on them.

The supported names load lazily, so ``import pipeline`` (and the command line) stays fast:

* :class:`Tables` — read-only lookups in built artifacts (:mod:`pipeline.query.tables`);
* :class:`SevenCards` — a batch of 7-card hands checked once (:mod:`pipeline.query.seven_cards`);
* :func:`hand_equity` — hold'em win/tie/lose and equity (:func:`pipeline.equity.equity`; the
  name ``pipeline.equity`` is the equity sub-package itself);
* :func:`analyze`, :func:`load_paytable` — exact video-poker analysis of a paytable;
* :func:`load_rules` — a rule set by name or path;
* the error classes of :mod:`pipeline.errors`.

>>> import pipeline
>>> issubclass(pipeline.InputError, ValueError)
True
>>> pipeline.load_rules("short-deck").deck_size
36
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

# Numba's OpenMP threads sleep when a parallel region ends instead of spinning for the next
# one: on a shared machine a spinning waiter takes a core from the threads still working (two
# threads of heads-up Monte Carlo on a busy 2-core machine: 1.3x OMPEval spinning, 1.6x
# passive). Set before numba loads its threading layer; a value the user set wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from pipeline.core.compile_gc import install_on_import as _pace_gc_while_compiling
from pipeline.core.flag_compare import install_on_import as _compare_flags_cheaply
from pipeline.core.inline_frontend import install_on_import as _memo_inline_frontend
from pipeline.core.kernel_cache import configure as _configure_kernel_cache
from pipeline.core.lazy import lazy_exports
from pipeline.core.lean_compile import install_on_import as _skip_unused_compile_work
from pipeline.errors import ArtifactError, BuildError, ConfigError, InputError, PokertablesError
from pipeline.version import __version__

# numba's cache checks only a kernel's own file, not the modules it inlines: the cache folder
# is named by a digest of the sources instead, so a cached kernel is never stale. numba reads
# NUMBA_CACHE_DIR when it is imported, hence here, before any module can import it (the
# imports above do not).
_configure_kernel_cache()
# numba re-runs an inlined kernel's frontend at every call site; once per process is enough
_memo_inline_frontend()
# and collects garbage a few dozen times per compile, most of it re-walking the whole heap
_pace_gc_while_compiling()
# and hashes its compile flags (a dict of every option) at every overload lookup
_compare_flags_cheaply()
# and builds C wrappers and lock-timing events nothing here uses
_skip_unused_compile_work()

if TYPE_CHECKING:
    from pipeline.equity.hand_api import equity as hand_equity
    from pipeline.query.seven_cards import SevenCards
    from pipeline.query.tables import Tables
    from pipeline.rules import load_rules
    from pipeline.videopoker.paytables.paytable import load_paytable
    from pipeline.videopoker.solver.analysis import analyze

#: public name -> "module:attribute" it is loaded from on first use (read by the stage-key walk)
_EXPORTS = {
    "Tables": "pipeline.query.tables:Tables",
    "SevenCards": "pipeline.query.seven_cards:SevenCards",
    "hand_equity": "pipeline.equity.hand_api:equity",
    "analyze": "pipeline.videopoker.solver.analysis:analyze",
    "load_paytable": "pipeline.videopoker.paytables.paytable:load_paytable",
    "load_rules": "pipeline.rules:load_rules",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())


__all__ = ["Tables", "SevenCards", "hand_equity", "analyze", "load_paytable", "load_rules", "PokertablesError",
           "InputError", "ConfigError", "ArtifactError", "BuildError", "__version__"]
