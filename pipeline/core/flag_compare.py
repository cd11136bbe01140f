"""numba's compile flags hashed and compared without rebuilding their values each time.

numba keys the cache of every ``@overload`` template's implementations by the compile flags in
force (``numba.core.targetconfig.TargetConfig``), and a flags object hashes and compares by
building a dict of all its ~20 options through their properties, 7-11 microseconds each time:
compiling warm's kernels hashed 84,000 and compared 103,000 flags (about 1.7 CPU s; 0.4 s with
this module). The same
answers, cheaper:

* the hash is that of the sorted option names (numba hashes ``sorted(self.values())``, the
  dict's keys), so it is computed from the class's option names without the values;
* two flags of one class whose explicitly set values are equal are equal (an option not set
  reads its default on both sides), 61 % of the comparisons; any other pair is compared as
  numba compares it.

Applied when ``numba.core.targetconfig`` is imported (:func:`install_on_import`, from ``import
pipeline``); a numba whose ``TargetConfig`` does not look as expected is left alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any, Protocol

from pipeline.core.import_hooks import after_import

#: numba's module holding ``TargetConfig``
MODULE = "numba.core.targetconfig"
#: the attribute our comparison carries, so installing twice patches once
_MARK = "_pokertables_fast"


class _Config(Protocol):
    """What the comparison reads of a numba ``TargetConfig``: the values set explicitly and
    (on its class) the options."""

    _values: dict[str, Any]
    options: Mapping[str, Any]


def install(module: ModuleType) -> bool:
    """Give ``module.TargetConfig`` (numba's) the cheaper hash and equality; True when it has
    them (now or already)."""
    config = getattr(module, "TargetConfig", None)
    original_eq = getattr(config, "__eq__", None)
    if config is None or original_eq is None or not hasattr(config, "options"):
        return False
    if getattr(original_eq, _MARK, False):
        return True

    def explicit_values(self: _Config) -> dict[str, Any]:
        """The options set explicitly, by name (the one place that reads numba's store)."""
        return self._values

    def __eq__(self: _Config, other: object) -> bool:
        if type(self) is type(other) and explicit_values(self) == explicit_values(other):
            return True
        return original_eq(self, other)

    def __hash__(self: _Config) -> int:
        return hash(tuple(sorted(self.options)))

    setattr(__eq__, _MARK, True)
    config.__eq__ = __eq__
    config.__hash__ = __hash__
    return True


def install_on_import() -> None:
    """:func:`install` now if numba's target-config module is loaded, else when it is imported."""
    after_import(MODULE, install)
