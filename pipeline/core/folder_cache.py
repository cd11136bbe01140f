"""A per-process cache of what is read or built from a folder, keyed by the folder itself.

``functools.lru_cache`` keys by the argument as given: ``"artifacts"`` read in one working
directory would answer for ``"artifacts"`` in the next, another folder. :func:`folder_cache`
resolves the path (absolute, symbolic links followed) before the lookup, so each folder has its
own entry and two names of one folder share it.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class FolderCache(Generic[T]):
    """``fn`` of a folder, computed once per resolved folder (``maxsize`` folders kept, least
    recently used dropped first); ``cache_clear`` as ``lru_cache``'s."""

    def __init__(self, fn: Callable[[str], T], maxsize: int) -> None:
        self.cached = functools.lru_cache(maxsize=maxsize)(fn)
        functools.update_wrapper(self, fn)

    def __call__(self, folder: str | os.PathLike[str]) -> T:
        """``fn`` of ``folder`` resolved (computed on the first call for that folder)."""
        return self.cached(os.path.realpath(folder))

    def cache_clear(self) -> None:
        """Forget every folder's result."""
        self.cached.cache_clear()


def folder_cache(maxsize: int) -> Callable[[Callable[[str], T]], FolderCache[T]]:
    """Decorator: a :class:`FolderCache` of ``maxsize`` folders around a function of one folder
    (given to it as its resolved path)."""
    return lambda fn: FolderCache(fn, maxsize)
