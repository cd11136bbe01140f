"""A batch of 7-card hands checked once, so that scoring it needs no check per row.

``Tables.score7`` on a plain array must check every row (a bad id or a repeated card would
otherwise index the evaluator's tables out of bounds); that check, inside the scoring loop,
costs about a quarter of its speed. A :class:`SevenCards` batch is checked when it is made and
holds a read-only copy of the ids, so no one can change a row after the check; ``score7`` then
scores it with the unchecked kernel (:func:`pipeline.core.sevens.score_sevens`). Make one when
the same hands are scored more than once, or draw one with :meth:`SevenCards.random`, which
is valid by construction.

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

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from pipeline.core.constants import DECK_SIZE, SEVEN
from pipeline.errors import InputError

#: Rows drawn per block by :meth:`SevenCards.random` (27 MB of random keys at a time).
RANDOM_BLOCK = 1 << 16


def _checked_ids(rows: Any) -> npt.NDArray[np.uint8]:
    """A read-only uint8 (N, 7) copy of ``rows``, or :class:`InputError` naming the first bad row."""
    arr = np.asarray(rows)
    if arr.ndim != 2 or arr.shape[1] != SEVEN:
        raise InputError(f"expected an (N, {SEVEN}) array of card ids, got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise InputError(f"card ids must be integers, got dtype {arr.dtype}")
    # numba: loaded on first use, not on import
    from pipeline.core.sevens import card_bytes, first_bad_seven

    narrow, bad = card_bytes(arr)
    if bad < 0:
        # a copy the caller cannot reach (card_bytes returns uint8 input itself)
        base = np.array(narrow, order="C", copy=True if narrow is arr else None)
        bad = int(first_bad_seven(base.reshape(-1)))
    if bad >= 0:
        raise InputError(f"row {bad} is not {SEVEN} distinct card ids 0..{DECK_SIZE - 1}: "
                         f"{arr[bad].tolist()}")
    base.flags.writeable = False
    ids = base.view()  # a view of a read-only base cannot be made writeable again
    return ids


@dataclass(frozen=True, eq=False)
class SevenCards:
    """Rows of 7 distinct card ids 0..51, checked when made; ``ids`` is a read-only uint8
    ``(N, 7)`` copy. Pass it to ``Tables.score7``, which then skips its per-row check."""

    ids: npt.NDArray[np.uint8]

    def __post_init__(self) -> None:
        object.__setattr__(self, "ids", _checked_ids(self.ids))

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    @classmethod
    def random(cls, n: int, seed: int | None = None) -> SevenCards:
        """``n`` hands of 7 distinct cards drawn uniformly (each row in random card order).

        >>> len(SevenCards.random(1000, seed=1))
        1000
        """
        if n < 0:
            raise InputError(f"a batch needs n >= 0 hands, got {n}")
        rng = np.random.default_rng(seed)
        ids = np.empty((n, SEVEN), np.uint8)
        for lo in range(0, n, RANDOM_BLOCK):
            hi = min(n, lo + RANDOM_BLOCK)
            # the 7 smallest of 52 uniform keys per row: a uniform 7-subset, in random order
            keys = rng.random((hi - lo, DECK_SIZE))
            ids[lo:hi] = np.argpartition(keys, SEVEN, axis=1)[:, :SEVEN]
        return cls(ids)


__all__ = ["SevenCards"]
