"""Readers of the preflop artifacts: ``preflop_matchups.h5`` (exact heads-up counts of every
pair of hands, memory-mapped) and the small datasets of ``preflop.h5``.

:class:`pipeline.query.tables.Tables` opens the files through its integrity-checked path and
caches what these return (``Tables.preflop_matchups``, ``Tables.preflop_datasets``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from pipeline.errors import ArtifactError
from pipeline.query.artifacts import map_dataset, read_datasets

MATCHUPS_FILE = "preflop_matchups.h5"
PREFLOP_FILE = "preflop.h5"


class PreflopMatchups(NamedTuple):
    """Heads-up counts of row hand vs column hand over all 1,712,304 boards (uint32[1326, 1326])."""

    win: npt.NDArray[np.uint32]
    tie: npt.NDArray[np.uint32]


def map_matchups(path: Path) -> PreflopMatchups:
    """The (win, tie) arrays of a ``preflop_matchups.h5``, memory-mapped read-only."""
    try:
        return PreflopMatchups(map_dataset(path, "win"), map_dataset(path, "tie"))
    except (OSError, KeyError) as exc:
        raise ArtifactError(f"{path} cannot be read ({exc}); rebuild with "
                            "`pokertables build preflop_matchups --force`") from None


def read_preflop_datasets(path: Path, names: list[str]) -> dict[str, npt.NDArray[Any]]:
    """Datasets of a ``preflop.h5`` by name, read whole; :class:`ArtifactError` names a missing one."""
    try:
        return read_datasets(path, names)
    except KeyError as exc:
        raise ArtifactError(f"{path} has no {exc.args[0]}; rebuild with `pokertables build preflop`") from None


__all__ = ["MATCHUPS_FILE", "PREFLOP_FILE", "PreflopMatchups", "map_matchups", "read_preflop_datasets"]
