"""A memo cache bounded by the bytes of what it keeps, not by its number of entries.

``functools.lru_cache(maxsize=64)`` of objects that can each hold 50 MB of arrays (an Omaha range
split into its double-suited hands) lets one long-lived process grow by gigabytes. :func:`bytes_cache`
keeps the most recently used results while their arrays total at most ``max_bytes``; a result
larger than that alone is returned and not kept. Exceptions are never cached.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, ParamSpec, TypeVar

import numpy as np

P = ParamSpec("P")
R = TypeVar("R")


def nbytes_of(value: object) -> int:
    """Bytes a value holds: its numpy arrays' buffers (through tuples, lists, dicts and dataclass
    fields), or ``sys.getsizeof`` of anything else."""
    if isinstance(value, np.ndarray):
        return int(value.nbytes)
    if isinstance(value, (tuple, list)):
        return sum(nbytes_of(v) for v in value)
    if isinstance(value, dict):
        return sum(nbytes_of(v) for v in value.values())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return sum(nbytes_of(getattr(value, f.name)) for f in dataclasses.fields(value))
    return sys.getsizeof(value)


class BytesCache(Generic[P, R]):
    """``fn`` memoised by its (hashable) arguments, least recently used results dropped first
    while the kept ones hold more than ``max_bytes``. Thread-safe; the work runs unlocked."""

    def __init__(self, fn: Callable[P, R], max_bytes: int) -> None:
        self.fn = fn
        self.max_bytes = max_bytes
        self.bytes = 0
        self._kept: OrderedDict[Hashable, tuple[R, int]] = OrderedDict()
        self._lock = threading.Lock()
        functools.update_wrapper(self, fn)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """The kept result of these arguments, or ``fn``'s (kept if it fits)."""
        key = _key(args, kwargs)
        hit = self._hit(key)
        return hit[0] if hit is not None else self._keep(key, self.fn(*args, **kwargs))

    def kept(self, *args: P.args, **kwargs: P.kwargs) -> R | None:
        """The kept result of these arguments, or None (nothing is computed)."""
        hit = self._hit(_key(args, kwargs))
        return None if hit is None else hit[0]

    def keep(self, value: R, *args: P.args, **kwargs: P.kwargs) -> R:
        """Keep ``value`` as ``fn``'s result for these arguments (if it fits), and return it: a
        caller that made it from inputs shared with other work spares ``fn`` making them again."""
        return self._keep(_key(args, kwargs), value)

    def _hit(self, key: Hashable) -> tuple[R, int] | None:
        with self._lock:
            hit = self._kept.get(key)
            if hit is not None:
                self._kept.move_to_end(key)
            return hit

    def _keep(self, key: Hashable, value: R) -> R:
        size = nbytes_of(value)
        if size <= self.max_bytes:
            with self._lock:
                if key not in self._kept:
                    self._kept[key] = (value, size)
                    self.bytes += size
                while self.bytes > self.max_bytes:
                    _, (_, dropped) = self._kept.popitem(last=False)
                    self.bytes -= dropped
        return value

    def cache_clear(self) -> None:
        """Forget every kept result."""
        with self._lock:
            self._kept.clear()
            self.bytes = 0


def _key(args: tuple[object, ...], kwargs: dict[str, object]) -> Hashable:
    """One call's arguments as a cache key."""
    return (args, tuple(sorted(kwargs.items())))


def bytes_cache(max_bytes: int) -> Callable[[Callable[P, R]], BytesCache[P, R]]:
    """Decorator: :class:`BytesCache` of at most ``max_bytes``."""
    def wrap(fn: Callable[P, R]) -> BytesCache[P, R]:
        return BytesCache(fn, max_bytes)
    return wrap


__all__ = ["BytesCache", "bytes_cache", "nbytes_of"]
