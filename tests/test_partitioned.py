"""The large Parquet outputs are Hive-partitioned datasets that engines read by partition."""

from __future__ import annotations

import json
import re
from pathlib import Path

import h5py
import numpy as np
import pytest

from pipeline.core.bits import colex_bitmaps
from pipeline.core.cards import BINOM

SEVEN = "artifacts/parquet/seven_card_hands/*/*.parquet"
# published counts of 7-card hands per category (0 = high card .. 8 = straight flush)
SEVEN_COUNTS = [23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184,
                224_848, 41_584]


@pytest.fixture()
def duck(artifacts: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path):  # type: ignore[no-untyped-def]
    """A DuckDB connection in a folder whose ``artifacts`` is the built one (the SQL names it so)."""
    import duckdb

    (tmp_path / "artifacts").symlink_to(artifacts)
    monkeypatch.chdir(tmp_path)
    return duckdb.connect()


def test_duckdb_reads_one_category_from_one_partition(duck, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    src = f"read_parquet('{SEVEN}', hive_partitioning = true)"
    plan = duck.execute(f"EXPLAIN ANALYZE SELECT count(*) FROM {src} WHERE category = 8").fetchall()[0][1]
    assert re.search(r"Scanning Files: 1/9\b", plan), plan
    assert re.search(r"Total Files Read: 1\b", plan), plan
    assert "category=8/part-0.parquet" in plan
    assert duck.execute(f"SELECT count(*) FROM {src} WHERE category = 8").fetchone() == (41_584,)
    # the file names DuckDB reads for the query are that partition's only
    files = duck.execute(f"SELECT DISTINCT filename FROM read_parquet('{SEVEN}', hive_partitioning = true,"
                     " filename = true) WHERE category = 7").fetchall()
    assert [Path(f).parent.name for (f,) in files] == ["category=7"]


def test_partitioned_counts_equal_the_hdf5_tables(duck, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    rows = duck.execute(f"SELECT category, count(*) FROM read_parquet('{SEVEN}', hive_partitioning = true) "
                    "GROUP BY category ORDER BY category").fetchall()
    assert [c for _, c in rows] == SEVEN_COUNTS
    assert [k for k, _ in rows] == list(range(9))
    # the same counts from the HDF5 side: per-score 7-card counts (from the seven.h5 fill)
    with h5py.File(artifacts / "five.h5", "r") as f:
        cat = f["classes/category"][:]
        count7 = f["classes/count7"][:]
    assert np.bincount(cat, weights=count7, minlength=9).astype(np.int64).tolist() == SEVEN_COUNTS


def test_partition_rows_are_the_seven_table(duck, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    from pipeline.query.artifacts import map_dataset

    score = map_dataset(artifacts / "seven.h5", "score")
    rows = duck.execute(f"SELECT \"index\", bitmap, score FROM read_parquet('{SEVEN}', hive_partitioning = true)"
                    " WHERE category = 6 USING SAMPLE 2000 ROWS").fetchnumpy()
    idx = rows["index"].astype(np.int64)
    assert np.array_equal(rows["score"], np.asarray(score)[idx])
    for i, b in zip(idx[:200], rows["bitmap"][:200]):
        one = np.empty(1, np.uint64)
        colex_bitmaps(7, int(i), BINOM, one)
        assert one[0] == b


def test_manifest_lists_every_partition_file(artifacts: Path) -> None:
    import pyarrow.parquet as pq

    manifest = json.loads((artifacts / "manifest.json").read_text())
    files = manifest["files"]
    current = {o for st in manifest["stages"].values() for o in st["outputs"]}
    parts = sorted(k for k in current if k.startswith("parquet/seven_card_hands/"))
    assert parts == [f"parquet/seven_card_hands/category={c}/part-0.parquet" for c in range(9)]
    assert sum(files[p]["rows"] for p in parts) == 133_784_560
    for c in (0, 8):
        md = pq.read_metadata(artifacts / f"parquet/seven_card_hands/category={c}/part-0.parquet")
        stats = md.row_group(0).column(0).statistics
        assert stats.has_min_max and md.row_group(0).num_rows == min(SEVEN_COUNTS[c], 1 << 20)
    strategies = sorted(k for k in current if k.startswith("parquet/paytables/"))
    assert "parquet/paytables/paytable=jacks-or-better-9-6/part-0.parquet" in strategies
    assert all(re.fullmatch(r"parquet/paytables/paytable=[a-z0-9-]+/part-0\.parquet", k) for k in strategies)


def test_strategies_dataset_prunes_by_paytable(duck, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    src = "read_parquet('artifacts/parquet/paytables/*/*.parquet', hive_partitioning = true)"
    plan = duck.execute(f"EXPLAIN ANALYZE SELECT count(*) FROM {src} "
                    "WHERE paytable = 'jacks-or-better-9-6'").fetchall()[0][1]
    n = len(list((artifacts / "parquet" / "paytables").glob("paytable=*")))
    assert re.search(rf"Scanning Files: 1/{n}\b", plan), plan
    assert duck.execute(f"SELECT count(*), sum(weight) FROM {src} WHERE paytable = 'jacks-or-better-9-6'"
                    ).fetchone() == (134_459, 2_598_960)
