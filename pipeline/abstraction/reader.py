"""Read the abstraction tables: ``abstraction/<street>.h5``, memory-mapped, one row per class.

A lookup touches only the rows it asks for: :func:`open_street` proves the file against the
manifest once (:func:`pipeline.query.artifacts.open_checked`) and maps each dataset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import h5py
import numpy as np

from pipeline.abstraction.indexer import board_size, class_count, index_batch
from pipeline.abstraction.shapes import STREETS
from pipeline.errors import ArtifactError, InputError
from pipeline.query.artifacts import map_dataset, open_checked, read_manifest

#: Datasets a street file may hold, each one row per class.
DATASETS = ("weight", "value", "s1", "s2", "hist")


@dataclass(frozen=True)
class StreetTable:
    """One street's figures, memory-mapped (absent datasets are None)."""

    street: str
    path: Path
    classes: int
    bins: int
    completions: int
    river_scale: int
    opponents_per_river: int
    arrays: Mapping[str, np.ndarray]

    def index(self, cards: np.ndarray) -> np.ndarray:
        """Class indices of rows of (2 hole + board) card ids, checked (see :func:`index_batch`)."""
        cards = np.asarray(cards)
        if cards.ndim != 2 or cards.shape[1] != 2 + STREETS[self.street]:
            raise InputError(f"{self.street} situations are rows of {2 + STREETS[self.street]} "
                             f"cards, got shape {cards.shape}")
        return index_batch(cards)

    def lookup(self, idx: np.ndarray) -> dict[str, np.ndarray]:
        """The figures of classes ``idx``: ``ehs``, ``ehs2`` (float64), ``weight``, and each
        stored dataset's rows (``value`` on the river; ``hist`` elsewhere; ``bucket`` if built)."""
        idx = np.asarray(idx, np.int64)
        if idx.size and (idx.min() < 0 or idx.max() >= self.classes):
            raise InputError(f"class index out of range 0..{self.classes - 1}")
        out = {name: np.asarray(arr[idx]) for name, arr in self.arrays.items()}
        if "value" in out:
            e = out["value"].astype(np.float64) / self.river_scale
            out["ehs"], out["ehs2"] = e, e * e
        else:
            scale = float(self.completions * self.river_scale)
            out["ehs"] = out["s1"] / scale
            out["ehs2"] = out["s2"] / (scale * self.river_scale)
        return out


def open_street(artifacts: Path | str, street: str) -> StreetTable:
    """Map ``abstraction/<street>.h5`` of ``artifacts`` after proving it against the manifest."""
    board_size(street)  # names the bad street
    rel = f"abstraction/{street}.h5"
    try:
        path = open_checked(artifacts, rel)
    except ArtifactError as exc:
        raise ArtifactError(f"{exc} (the abstraction tables are off by default: "
                            f"`pokertables build abstraction`)") from None
    with h5py.File(path, "r") as f:
        attrs: dict[str, Any] = dict(f.attrs)
        names = [n for n in DATASETS if n in f]
    if int(attrs["classes"]) != class_count(street):
        raise ArtifactError(f"{path} holds {attrs['classes']} classes, the {street} has "
                            f"{class_count(street)}; rebuild it")
    arrays: dict[str, np.ndarray] = {n: map_dataset(path, n) for n in names}
    buckets_rel = f"abstraction/{street}_buckets.h5"
    if buckets_rel in read_manifest(Path(artifacts)).get("files", {}):
        arrays["bucket"] = map_dataset(open_checked(artifacts, buckets_rel), "bucket")
    return StreetTable(street, path, int(attrs["classes"]), int(attrs["bins"]),
                       int(attrs["completions"]), int(attrs["river_scale"]),
                       int(attrs["opponents_per_river"]), arrays)




def river_counts(table7: np.ndarray, hole: list[int], board: list[int]) -> tuple[int, int]:
    """Wins and ties of ``hole`` on a complete ``board`` against each of the 990 opponent
    hands, counted one by one from the 7-card scores (the table stores only ``2*wins + ties``)."""
    from itertools import combinations

    from pipeline.core.cards import colex_index

    gone = set(hole) | set(board)
    rest = [c for c in range(52) if c not in gone]
    mine = int(table7[colex_index(sorted(hole + board))])
    theirs = np.array([int(table7[colex_index(sorted([a, b, *board]))])
                       for a, b in combinations(rest, 2)])
    return int(np.count_nonzero(mine > theirs)), int(np.count_nonzero(mine == theirs))


__all__ = ["DATASETS", "StreetTable", "open_street", "river_counts"]
