"""Run a function on a third-party module the moment it is imported, without importing it early.

``import pipeline`` must stay fast (the command line imports it for every command), so it cannot
import numba just to adjust it; :func:`after_import` waits for the module instead: a finder at
the head of ``sys.meta_path`` finds the module the normal way and wraps its loader, so the
action runs once the module has executed, before the code that imported it sees it.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Callable, Sequence
from types import ModuleType

#: what runs on a module once it is imported
Action = Callable[[ModuleType], object]


class _AfterImport(importlib.abc.MetaPathFinder):
    """Finds one module the normal way and wraps its loader so that the actions run as soon as
    the module has executed; then leaves ``sys.meta_path``."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.actions: list[Action] = []

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        loader = spec.loader if spec is not None else None
        execute = getattr(loader, "exec_module", None)
        if spec is None or loader is None or execute is None:
            return spec
        actions = self.actions

        def exec_module(module: ModuleType) -> None:
            execute(module)
            for action in actions:
                action(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def after_import(name: str, action: Action) -> None:
    """Run ``action(module)`` on module ``name`` now if it is imported, else right after its
    import; an action already waiting for ``name`` is not added twice."""
    module = sys.modules.get(name)
    if module is not None:
        action(module)
        return
    finder = next((f for f in sys.meta_path if isinstance(f, _AfterImport) and f.name == name), None)
    if finder is None:
        finder = _AfterImport(name)
        sys.meta_path.insert(0, finder)
    if action not in finder.actions:
        finder.actions.append(action)
