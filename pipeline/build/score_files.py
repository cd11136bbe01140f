"""Shared writing of hand tables: the colex-indexed score file (the five, six and seven stages)
and the card-text column of hand tables in Parquet (five, vp_classes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import h5py
import numpy as np
import pyarrow as pa

from pipeline.build.store import atomic_path, create_mapped_dataset, map_for_fill
from pipeline.core.cards import CARD_ID_FORMULA, COLEX_FORMULA, RANKS, n_combinations
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


def cards_text(hands: np.ndarray) -> pa.Array:
    """Arrow string array of card text for an (N, k) uint8 card array (columns in the given order),
    built without a Python object per hand."""
    lut = np.array([(RANKS[c >> 2] + "cdhs"[c & 3]).encode() for c in range(52)], dtype="S2")
    n, k = hands.shape
    buf = np.full((n, 3 * k - 1), ord(" "), np.uint8)
    chars = lut.view(np.uint8).reshape(52, 2)
    for t in range(k):
        buf[:, 3 * t:3 * t + 2] = chars[hands[:, t]]
    strs = buf.view(f"S{3 * k - 1}").ravel()
    offsets = np.arange(0, (n + 1) * (3 * k - 1), 3 * k - 1, dtype=np.int32)
    return pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(strs.tobytes()))
