"""A batch of 7-card hands checked once, so that scoring it needs no check per row.

``Tables.score7`` on a plain array must check every row (a bad id or a repeated card would
otherwise index the evaluator's tables out of bounds); that check, inside the scoring loop,
costs about a quarter of its speed. A :class:`SevenCards` batch is checked when it is made and
holds its ids in an immutable buffer (:class:`CheckedRows`, a ``bytes`` whose constructor runs
the check), so no one can change a row after the check; ``score7`` then scores it with the
unchecked kernel (:func:`pipeline.core.sevens.score_sevens`). Make one when the same hands are
scored more than once, or draw one with :meth:`SevenCards.random`.

The unchecked kernel is used only for a batch :func:`trusted_rows` proves unchanged: a
``SevenCards`` (not a subclass) whose ``ids`` is a plain uint8 ``(N, 7)`` C-contiguous view of
exactly the whole of one :class:`CheckedRows`. A copy, a deep copy and an unpickled batch are
made by the constructor again (checked, immutable); anything else (``ids`` replaced with
``object.__setattr__``, a subclass that skips the check) is scored by the checking path.

>>> import numpy as np
>>> batch = SevenCards(np.array([[48, 44, 40, 36, 32, 0, 5]]))   # As Ks Qs Js Ts 2c 3d
>>> batch.ids.shape, batch.ids.dtype.name, batch.ids.flags.writeable
((1, 7), 'uint8', False)
>>> SevenCards(np.array([[0, 0, 1, 2, 3, 4, 5]]))
Traceback (most recent call last):
  ...
pipeline.errors.InputError: row 0 is not 7 distinct card ids 0..51: [0, 0, 1, 2, 3, 4, 5]
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from pipeline.core.constants import DECK_SIZE, SEVEN
from pipeline.errors import InputError

#: Rows drawn per block by :meth:`SevenCards.random` (27 MB of random keys at a time).
RANDOM_BLOCK = 1 << 16
#: Most hands :meth:`SevenCards.random` draws: 700 MB of ids (and as much again while the batch
#: is made); a bigger job draws several batches.
MAX_RANDOM = 100_000_000


def _bad_row_message(row: int, values: list[int]) -> str:
    return f"row {row} is not {SEVEN} distinct card ids 0..{DECK_SIZE - 1}: {values}"


class CheckedRows(bytes):
    """Immutable rows of 7 distinct card ids 0..51, one byte each: constructing one runs the
    check (:class:`InputError` naming the first bad row), so every instance holds checked rows
    (unpickling one constructs it too)."""

    def __new__(cls, data: bytes = b"") -> CheckedRows:
        # numba: loaded on first use, not on import
        from pipeline.core.sevens import first_bad_seven

        self = super().__new__(cls, data)
        flat = np.frombuffer(self, np.uint8)
        if flat.size % SEVEN:
            raise InputError(f"{flat.size} card ids do not make rows of {SEVEN}")
        bad = int(first_bad_seven(flat))
        if bad >= 0:
            raise InputError(_bad_row_message(bad, flat[SEVEN * bad:SEVEN * bad + SEVEN].tolist()))
        return self

    def __reduce__(self) -> tuple[Any, tuple[bytes]]:
        # every pickle protocol rebuilds through __new__, so through the check (protocols 0
        # and 1 would otherwise call bytes.__new__ directly)
        return (CheckedRows, (bytes(self),))


def plain_ids(rows: npt.ArrayLike) -> npt.NDArray[Any]:
    """``rows`` as an ndarray of card ids, refusing what would be scored as something else (a
    masked array's hidden entries)."""
    if np.ma.isMaskedArray(rows):
        masked = np.ma.getmaskarray(rows)
        if masked.any():
            where = np.argwhere(masked)[0].tolist()
            raise InputError(f"card ids at {where} are masked; a masked id is not a card: "
                             f"pass the rows to score without a mask (e.g. drop those rows)")
        rows = np.ma.getdata(rows)
    return np.asarray(rows)


def _checked_ids(rows: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """A read-only uint8 (N, 7) view of a :class:`CheckedRows` copy of ``rows``, or
    :class:`InputError` naming the first bad row."""
    arr = plain_ids(rows)
    if arr.ndim != 2 or arr.shape[1] != SEVEN:
        raise InputError(f"expected an (N, {SEVEN}) array of card ids, got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise InputError(f"card ids must be integers, got dtype {arr.dtype}")
    # numba: loaded on first use, not on import
    from pipeline.core.sevens import card_bytes

    narrow, bad = card_bytes(arr)
    if bad >= 0:
        raise InputError(_bad_row_message(bad, arr[bad].tolist()))
    # a copy no one can reach or change: the check runs on the immutable bytes themselves
    held = CheckedRows(np.ascontiguousarray(narrow).tobytes())
    return np.frombuffer(held, np.uint8).reshape(arr.shape[0], SEVEN)


@dataclass(frozen=True, eq=False)
class SevenCards:
    """Rows of 7 distinct card ids 0..51, checked when made; ``ids`` is a read-only uint8
    ``(N, 7)`` view of an immutable copy. Pass it to ``Tables.score7``, which then skips its
    per-row check."""

    ids: npt.NDArray[np.uint8]

    def __post_init__(self) -> None:
        object.__setattr__(self, "ids", _checked_ids(self.ids))

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # copy, deepcopy and pickle (multiprocessing, joblib, Dask) make the batch again through
        # the constructor: checked and immutable, never a writeable array set in place
        return (type(self), (np.array(self.ids),))

    @classmethod
    def random(cls, n: int, seed: int | None = None) -> SevenCards:
        """``n`` hands of 7 distinct cards drawn uniformly (each row in random card order);
        at most :data:`MAX_RANDOM`.

        >>> len(SevenCards.random(1000, seed=1))
        1000
        """
        n = _count(n, "n")
        if n > MAX_RANDOM:
            raise InputError(f"a random batch holds at most {MAX_RANDOM:,} hands, got n = {n:,}; "
                             "draw several batches")
        if seed is not None:
            seed = _count(seed, "seed")
        rng = np.random.default_rng(seed)
        ids = np.empty((n, SEVEN), np.uint8)
        for lo in range(0, n, RANDOM_BLOCK):
            hi = min(n, lo + RANDOM_BLOCK)
            # the 7 smallest of 52 uniform keys per row: a uniform 7-subset, in random order
            keys = rng.random((hi - lo, DECK_SIZE))
            ids[lo:hi] = np.argpartition(keys, SEVEN, axis=1)[:, :SEVEN]
        return cls(ids)


def _count(value: Any, name: str) -> int:
    """``value`` as a non-negative int (an int or numpy integer, not a bool), or InputError."""
    if isinstance(value, (bool, np.bool_)):
        raise InputError(f"{name} must be a whole number >= 0, got the bool {value}")
    try:
        v = operator.index(value)
    except TypeError:
        raise InputError(f"{name} must be a whole number >= 0, got {value!r}") from None
    if v < 0:
        raise InputError(f"{name} must be a whole number >= 0, got {v}")
    return v


def trusted_rows(batch: object) -> npt.NDArray[np.uint8] | None:
    """The flat uint8 ids of a batch that provably holds the rows its constructor checked, or
    None: ``batch`` is a :class:`SevenCards` (exact type) whose ``ids`` is a plain C-contiguous
    uint8 ``(N, 7)`` array spanning exactly one :class:`CheckedRows` (immutable, so its rows are
    the ones checked). The unchecked kernel may read only such rows."""
    if type(batch) is not SevenCards:
        return None
    ids = batch.ids
    if (type(ids) is not np.ndarray or ids.dtype != np.uint8 or ids.ndim != 2
            or ids.shape[1] != SEVEN or not ids.flags.c_contiguous):
        return None
    owner: object = ids
    while isinstance(owner, np.ndarray):
        owner = owner.base
    if type(owner) is not CheckedRows or ids.nbytes != len(owner):
        return None
    if ids.size and ids.ctypes.data != np.frombuffer(owner, np.uint8).ctypes.data:
        return None
    return ids.reshape(-1)


__all__ = ["MAX_RANDOM", "CheckedRows", "SevenCards", "plain_ids", "trusted_rows"]
