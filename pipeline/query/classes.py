"""What a score means: the class table of ``five.h5`` (``/classes``), one row per score.

:func:`read_classes` reads it; :class:`ScoreClasses` answers category and name lookups on it
for :class:`pipeline.query.tables.Tables` (which provides :attr:`ScoreClasses.classes`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from pipeline.core.category import CATEGORY_NAMES
from pipeline.core.constants import N_SCORES
from pipeline.errors import InputError

#: the class table's columns a reader loads (the older ones may lack the counts)
CLASS_COLUMNS = ("category", "ranks", "name", "cactus_kev", "count5", "count6", "count7")


def read_classes(path: Path) -> dict[str, npt.NDArray[Any]]:
    """The ``classes`` group of a ``five.h5`` as arrays indexed by score (row 0 is a placeholder,
    so ``cols[name][score]`` needs no offset); names are decoded to ``str``."""
    from pipeline.query.artifacts import read_datasets

    found = read_datasets(path, [f"classes/{name}" for name in CLASS_COLUMNS], missing_ok=True)
    cols = {}
    for key, a in found.items():
        pad = np.zeros((1,) + a.shape[1:], a.dtype)
        cols[key.removeprefix("classes/")] = np.concatenate([pad, a])
    cols["name"] = np.array([b.decode() for b in cols["name"]], dtype=object)
    return cols


def count_classes(path: Path) -> int:
    """How many score classes a ``five.h5`` holds: its highest valid score."""
    from pipeline.query.artifacts import describe_dataset

    return describe_dataset(path, "classes/score")[1][0]


def check_score(s: int, top: int = N_SCORES) -> int:
    """``s`` as an int if it is a valid score 1..``top``; InputError otherwise."""
    if not 1 <= int(s) <= top:
        raise InputError(f"bad score {s}: scores are 1..{top}")
    return int(s)


def check_scores(a: npt.NDArray[np.integer[Any]], top: int = N_SCORES) -> None:
    """InputError unless every score of ``a`` is 1..``top``."""
    if a.size and (a.min() < 1 or a.max() > top):
        raise InputError(f"scores must be 1..{top}")


class ScoreClasses:
    """Category and name lookups of scores, on the class table a subclass provides."""

    @property
    def classes(self) -> dict[str, npt.NDArray[Any]]:
        """The class table as arrays indexed by ``score`` (row 0 is a placeholder)."""
        raise NotImplementedError

    @overload
    def category(self, score: int) -> int: ...
    @overload
    def category(self, score: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.uint8]: ...

    def category(self, score: int | npt.NDArray[np.integer[Any]]) -> int | npt.NDArray[np.uint8]:
        """Category number (0 high card .. 8 straight flush) of a score or array of scores."""
        cat: npt.NDArray[np.uint8] = self.classes["category"]
        if isinstance(score, np.ndarray):
            check_scores(score, len(cat) - 1)
            return np.asarray(cat[score], dtype=np.uint8)
        return int(cat[check_score(score, len(cat) - 1)])

    def category_name(self, score: int) -> str:
        """Category name of a score, e.g. ``'full house'``."""
        return CATEGORY_NAMES[self.category(score)]

    @overload
    def name(self, score: int) -> str: ...
    @overload
    def name(self, score: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.object_]: ...

    def name(self, score: int | npt.NDArray[np.integer[Any]]) -> str | npt.NDArray[np.object_]:
        """Readable class name of a score (e.g. ``'Pair of Jacks, A-K-9 kickers'``) or array of them."""
        names: npt.NDArray[np.object_] = self.classes["name"]
        if isinstance(score, np.ndarray):
            check_scores(score, len(names) - 1)
            return np.asarray(names[score], dtype=object)
        return str(names[check_score(score, len(names) - 1)])


__all__ = ["CLASS_COLUMNS", "ScoreClasses", "check_score", "check_scores", "count_classes", "read_classes"]
