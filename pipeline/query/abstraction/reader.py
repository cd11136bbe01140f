"""Read the abstraction tables: ``abstraction/<street>.h5``, memory-mapped, one row per class,
with the street's buckets (``<street>_buckets.h5``) and the river's counts against the opponent
clusters (``river_ochs.h5``) when they are built.

A lookup touches only the rows it asks for: :func:`open_street` proves each file against the
manifest once (:func:`pipeline.query.artifacts.open_checked`) and maps each dataset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import h5py
import numpy as np

from pipeline.core.cards import colex_index
from pipeline.core.constants import DECK_SIZE
from pipeline.errors import ArtifactError, InputError
from pipeline.query.abstraction.clusters import cluster_opponents, hand_clusters
from pipeline.query.abstraction.indexer import board_size, class_count, index_batch, unindex_batch
from pipeline.query.abstraction.shapes import STREETS
from pipeline.query.artifacts import map_dataset, open_checked, read_manifest

#: Datasets a street file may hold, each one row per class.
DATASETS = ("weight", "value", "s1", "s2", "hist")
#: The river's ``2*wins + ties`` against each opponent cluster, and the clusters.
OCHS_FILE = "abstraction/river_ochs.h5"


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
    #: cluster of each preflop class (river with OCHS figures only)
    class_cluster: np.ndarray | None = None

    def index(self, cards: np.ndarray) -> np.ndarray:
        """Class indices of rows of (2 hole + board) card ids, checked (see :func:`index_batch`)."""
        cards = np.asarray(cards)
        if cards.ndim != 2 or cards.shape[1] != 2 + STREETS[self.street]:
            raise InputError(f"{self.street} situations are rows of {2 + STREETS[self.street]} "
                             f"cards, got shape {cards.shape}")
        return index_batch(cards)

    def lookup(self, idx: np.ndarray) -> dict[str, np.ndarray]:
        """The figures of classes ``idx``: ``ehs``, ``ehs2`` (float64), ``weight``, and each
        stored dataset's rows (``value`` and ``ochs`` on the river; ``hist`` elsewhere;
        ``bucket`` if built)."""
        idx = self._checked(idx)
        out = {name: np.asarray(arr[idx]) for name, arr in self.arrays.items()}
        if "value" in out:
            e = out["value"].astype(np.float64) / self.river_scale
            out["ehs"], out["ehs2"] = e, e * e
        else:
            scale = float(self.completions * self.river_scale)
            out["ehs"] = out["s1"] / scale
            out["ehs2"] = out["s2"] / (scale * self.river_scale)
        return out

    def ochs_opponents(self, idx: np.ndarray) -> np.ndarray:
        """River: the opponent hands of each cluster each class leaves (int64[n, K]); the
        equity against cluster g is ``lookup(idx)["ochs"][:, g] / (2 * n_g)``."""
        if self.class_cluster is None:
            raise ArtifactError(f"no OCHS figures for the {self.street} (river only: "
                                f"`pokertables build abstraction:river-ochs`)")
        idx = self._checked(idx)
        k = int(self.arrays["ochs"].shape[1])
        return cluster_opponents(unindex_batch(self.street, idx, check=False),
                                 hand_clusters(self.class_cluster), k)

    def _checked(self, idx: np.ndarray) -> np.ndarray:
        idx = np.asarray(idx)
        if idx.dtype.kind not in "iu":
            raise InputError(f"class indices must be integers, got {idx.dtype}")
        idx = idx.astype(np.int64, copy=False)
        if idx.size and (idx.min() < 0 or idx.max() >= self.classes):
            bad = int(idx[(idx < 0) | (idx >= self.classes)][0])
            raise InputError(f"class index {bad} out of range for the {self.street}: "
                             f"must be 0..{self.classes - 1}")
        return idx


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
    built = read_manifest(Path(artifacts)).get("files", {})
    buckets_rel = f"abstraction/{street}_buckets.h5"
    if buckets_rel in built:
        arrays["bucket"] = map_dataset(open_checked(artifacts, buckets_rel), "bucket")
    class_cluster = None
    if street == "river" and OCHS_FILE in built:
        ochs_path = open_checked(artifacts, OCHS_FILE)
        arrays["ochs"] = map_dataset(ochs_path, "ochs")
        with h5py.File(ochs_path, "r") as f:
            class_cluster = np.asarray(f["class_cluster"][:])
    return StreetTable(street, path, int(attrs["classes"]), int(attrs["bins"]),
                       int(attrs["completions"]), int(attrs["river_scale"]),
                       int(attrs["opponents_per_river"]), arrays, class_cluster)




def river_counts(table7: np.ndarray, hole: list[int], board: list[int],
                 hand_cluster: np.ndarray | None = None, clusters: int = 1
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Wins, ties and opponent hands of ``hole`` on a complete ``board``, counted one opponent
    hand at a time from the 7-card scores (the tables store only ``2*wins + ties``): int64
    arrays of one entry (all 990 hands), or of ``clusters`` entries given ``hand_cluster`` (the
    cluster of each two-card hand, by colex index)."""
    gone = set(hole) | set(board)
    rest = [c for c in range(DECK_SIZE) if c not in gone]
    pairs = np.array(list(combinations(rest, 2)), np.int64)
    mine = int(table7[colex_index(sorted(hole + board))])
    theirs = np.array([int(table7[colex_index(sorted([int(a), int(b), *board]))]) for a, b in pairs])
    group = (np.zeros(len(pairs), np.int64) if hand_cluster is None
             else np.asarray(hand_cluster)[pairs[:, 0] + pairs[:, 1] * (pairs[:, 1] - 1) // 2])
    k = 1 if hand_cluster is None else clusters
    return (np.bincount(group, weights=mine > theirs, minlength=k).astype(np.int64),
            np.bincount(group, weights=mine == theirs, minlength=k).astype(np.int64),
            np.bincount(group, minlength=k).astype(np.int64))


__all__ = ["DATASETS", "OCHS_FILE", "StreetTable", "open_street", "river_counts"]
