"""Lazy package attributes: a public name is imported from its module on first use.

``import pipeline`` (and the command line) then stays fast: the numba kernels behind a name
load only when someone asks for it. A package lists its names in a module-level ``_EXPORTS``
dict literal (``"Name": "module:attribute"``), which the stage-key walk of
:mod:`pipeline.build.keys` reads from the source, and hands it to :func:`lazy_exports`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(package: str, exports: dict[str, str], namespace: dict[str, Any]
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` for its lazy ``exports``; a loaded
    name is stored in ``namespace`` (the package's globals), so it is imported only once."""

    def getattr_(name: str) -> Any:
        target = exports.get(name)
        if target is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attr = target.partition(":")
        value = getattr(importlib.import_module(module), attr)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted(set(namespace) | set(exports))

    return getattr_, dir_


__all__ = ["lazy_exports"]
