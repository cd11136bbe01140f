"""Shared writing of a colex-indexed score table (used by the five, six and seven stages)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import h5py
import numpy as np

from pipeline.build.store import atomic_path, create_mapped_dataset, map_for_fill
from pipeline.core.cards import CARD_ID_FORMULA, COLEX_FORMULA, n_combinations
from pipeline.core.evaluate import RankTables, score_table

SCORE_MEANING = ("uint16 1..7462, higher is stronger; 7462 = royal flush, 1 = 7-5-4-3-2 offsuit; "
                 "best 5-card hand inside the k cards; Cactus Kev rank = 7463 - score")


def score_attrs(k: int) -> dict[str, Any]:
    """Attributes written on every ``/score`` dataset: how to index it and what it means."""
    return {"k": k, "rows": n_combinations(k), "index_scheme": "colex",
            "index_formula": COLEX_FORMULA, "card_ids": CARD_ID_FORMULA,
            "score_meaning": SCORE_MEANING, "rule_set": "standard"}


def write_score_file(path: Path, k: int, tables: RankTables,
                     extra: Any = None) -> np.ndarray:
    """Write ``path`` with ``/score`` for every k-card hand, filled in place through a memory map.

    ``extra(h5file, counts)`` may add more datasets once the table is filled, with the
    per-score hand counts (int64[7463]) the fill produced; the same counts are returned.
    The file appears only when complete (atomic rename).
    """
    n = n_combinations(k)
    with atomic_path(path) as tmp:
        with h5py.File(tmp, "w") as f:
            create_mapped_dataset(f, "score", (n,), np.uint16)
            f["score"].attrs.update(score_attrs(k))
            f.attrs["title"] = f"best-5 score of every {k}-card hand, by colex index"
        mm = map_for_fill(tmp, "score")
        counts = score_table(k, tables, mm)
        mm.flush()
        del mm
        with h5py.File(tmp, "r+") as f:
            f["score"].attrs["distinct_scores"] = int((counts > 0).sum())
            if extra is not None:
                extra(f, counts)
    return counts
