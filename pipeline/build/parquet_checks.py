"""Content invariants of the Parquet copies and the preflop tables (used by ``verify`` only).

A Parquet file is an analytics copy of an HDF5 table, so its row count and its score histogram
must equal what the HDF5 side says (``five.h5:/classes/count5..7``); preflop answers must be
numbers (no NaN) backed by deals (samples > 0).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pipeline.build import invariants as inv
from pipeline.build.digests import BIG_COLUMN, stream_big_parquet
from pipeline.core.constants import N_SCORES

if TYPE_CHECKING:
    import pyarrow as pa

#: Parquet copy -> (rows it must have, five.h5 count dataset its score histogram must equal)
SCORE_COPIES = {
    "parquet/five_card_hands.parquet": (inv.ROWS[5], "classes/count5"),
}
#: Hive partition of a hand-category-partitioned copy -> five.h5 count dataset: the partition's
#: score histogram must equal those counts on the scores of its category (and zero elsewhere)
PARTITIONED_SCORE_COPIES = {
    re.compile(r"parquet/seven_card_hands/category=(\d+)/part-0\.parquet"): "classes/count7",
}
CLASS_TABLE = "parquet/hand_classes.parquet"
#: a street's abstraction copy -> board cards dealt: its class weights count every (hole, board)
#: deal once, C(52, 2) * C(50, board) in all
ABSTRACTION_COPY = re.compile(r"parquet/abstraction/(preflop|flop|turn|river)\.parquet")
STREET_BOARD = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}
PREFLOP = "parquet/preflop.parquet"


def _five_counts(folder: Path, *names: str) -> list[np.ndarray | None]:
    """The named ``five.h5`` datasets as int64, read in one open (None where absent)."""
    from pipeline.query.artifacts import read_datasets

    five = folder / "five.h5"
    if not five.is_file():
        return [None] * len(names)
    found = read_datasets(five, names, missing_ok=True)
    return [found[name].astype(np.int64) if name in found else None for name in names]


def _no_nan(table: pa.Table) -> list[str]:
    out = []
    for name in table.column_names:
        col = table.column(name).to_numpy(zero_copy_only=False)
        if col.dtype.kind == "f" and np.isnan(col).any():
            out.append(f"column {name} holds {int(np.isnan(col).sum())} NaN value(s)")
    return out


def parquet_invariants(folder: Path, rel: str, path: Path, digest: bool = True
                       ) -> tuple[Any, dict[str, np.ndarray], list[str], dict[str, Any] | None]:
    """(the table read or None, column histograms, problems, content digests if a big file was
    streamed) for one Parquet artifact. Files of more than ``BIG_COLUMN`` rows are streamed in
    batches, never decoded whole; without ``digest`` (the file's bytes are already proven) a
    hand table decodes only its score column."""
    import pyarrow.parquet as pq

    digests = None
    hists: dict[str, np.ndarray] = {}
    table: Any = None  # pa.Table once read whole (the last branch); used only then
    nrows = pq.read_metadata(path).num_rows
    scored = rel in SCORE_COPIES or _partition(rel) is not None
    if not digest and scored:  # proven bytes: the invariants need the score column only
        hists["score"] = _score_histogram(path)
    elif nrows > BIG_COLUMN:  # streamed: the big file is never read whole
        digests, hists = stream_big_parquet(path)
        nrows = next(iter(digests.values()))["rows"] if digests else 0
    else:
        table = pq.read_table(path)
        nrows = table.num_rows
    out: list[str] = []
    if rel in SCORE_COPIES:
        rows, counts = SCORE_COPIES[rel]
        if nrows != rows:
            out.append(f"{nrows} rows, expected {rows}")
        if "score" not in hists:
            hists["score"] = np.bincount(table.column("score").to_numpy(), minlength=N_SCORES + 1)
        (ref,) = _five_counts(folder, counts)
        if hists["score"][N_SCORES + 1:].any() or hists["score"][0]:
            out.append(f"scores outside 1..{N_SCORES}")
        elif ref is not None and not np.array_equal(hists["score"][1:N_SCORES + 1], ref):
            out.append(f"score histogram differs from five.h5:/{counts}")
    elif (part := _partition(rel)) is not None:
        category, counts = part
        if "score" not in hists:
            hists["score"] = np.bincount(table.column("score").to_numpy(), minlength=N_SCORES + 1)
        ref, cats = _five_counts(folder, counts, "classes/category")
        h = hists["score"]
        if h[N_SCORES + 1:].any() or h[0]:
            out.append(f"scores outside 1..{N_SCORES}")
        elif ref is not None and cats is not None:
            want = np.where(cats == category, ref, 0)
            if not np.array_equal(h[1:N_SCORES + 1], want):
                out.append(f"score histogram differs from five.h5:/{counts} on category {category} "
                           f"({int(h.sum())} rows, expected {int(want.sum())})")
    elif rel == CLASS_TABLE:
        if table.num_rows != N_SCORES:
            out.append(f"{table.num_rows} rows, expected {N_SCORES}")
        sizes = (5, 6, 7)
        refs = _five_counts(folder, *(f"classes/count{k}" for k in sizes))
        for k, ref in zip(sizes, refs, strict=True):
            name = f"count{k}"
            if ref is not None and name in table.column_names and \
                    not np.array_equal(table.column(name).to_numpy(), ref):
                out.append(f"column {name} differs from five.h5:/classes/{name}")
    elif (m := ABSTRACTION_COPY.fullmatch(rel)) is not None:
        out.extend(_abstraction_weights(m.group(1), table, hists))
    elif rel == PREFLOP:
        out.extend(_no_nan(table))
        if "hu_deals" in table.column_names and (table.column("hu_deals").to_numpy() <= 0).any():
            out.append("a class has hu_deals <= 0 (no deals behind its heads-up numbers)")
    return table, hists, out, digests


def _abstraction_weights(street: str, table: pa.Table, hists: dict[str, np.ndarray]) -> list[str]:
    """A street's class weights must add up to its number of (hole, board) deals."""
    from math import comb

    if table is not None and "weight" in table.column_names:
        total = int(np.asarray(table.column("weight").to_numpy(), np.int64).sum())
    elif "weight" in hists:
        total = int((hists["weight"] * np.arange(len(hists["weight"]), dtype=np.int64)).sum())
    else:
        return ["no weight column"]
    want = comb(52, 2) * comb(50, STREET_BOARD[street])
    return [] if total == want else [f"class weights add up to {total:,}, expected {want:,} deals"]


def _score_histogram(path: Path, batch: int = 1 << 22) -> np.ndarray:
    """Histogram of a Parquet file's ``score`` column, decoded batch by batch."""
    import pyarrow.parquet as pq

    hist = np.zeros(1 << 16, np.int64)
    for rb in pq.ParquetFile(path).iter_batches(batch_size=batch, columns=["score"]):
        hist += np.bincount(rb.column(0).to_numpy(), minlength=1 << 16)
    return hist


def _partition(rel: str) -> tuple[int, str] | None:
    """(category, five.h5 count dataset) when ``rel`` is one partition of a partitioned copy."""
    for pattern, counts in PARTITIONED_SCORE_COPIES.items():
        m = pattern.fullmatch(rel)
        if m:
            return int(m.group(1)), counts
    return None


def check_preflop_h5(path: Path) -> list[str]:
    """preflop.h5: no NaN anywhere, every Monte Carlo column backed by samples > 0."""
    from pipeline.query.artifacts import dataset_names, open_h5

    out = []
    with open_h5(path) as f:
        for n in dataset_names(f):
            a = f[n][()]
            if isinstance(a, np.ndarray) and a.dtype.kind == "f" and np.isnan(a).any():
                out.append(f"/{n} holds NaN")
        if "multiway/samples" in f and (f["multiway/samples"][:] <= 0).any():
            out.append("/multiway/samples has a column with samples <= 0")
        if "classes/hu_deals" in f and (f["classes/hu_deals"][:] <= 0).any():
            out.append("/classes/hu_deals has a class with no deals")
    return out
