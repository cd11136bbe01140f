"""The catalog (artifacts/README.md) is true: its dataset table, SQL results and C program."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import h5py
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
CATALOG = (ROOT / "artifacts" / "README.md").read_text()


def _dataset_rows() -> list[list[str]]:
    rows = []
    for line in CATALOG.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0].endswith(".h5") and cells[1].startswith("/"):
            rows.append(cells)
    return rows


def test_catalog_lists_every_dataset_with_its_shape(artifacts: Path) -> None:
    rows = _dataset_rows()
    assert len(rows) >= 11
    listed = {(r[0], r[1]) for r in rows}
    for fname in {r[0] for r in rows}:
        found = []
        with h5py.File(artifacts / fname, "r") as f:
            f.visititems(lambda n, o: found.append("/" + n) if isinstance(o, h5py.Dataset) else None)
        assert {(fname, d) for d in found} == {x for x in listed if x[0] == fname}, fname
    for fname, ds, dtype, shape, _, _ in rows:
        with h5py.File(artifacts / fname, "r") as f:
            d = f[ds]
            assert "x".join(str(s) for s in d.shape) == shape, (fname, ds)
            kind = "bytes" if d.dtype.kind == "S" else str(d.dtype)
            assert kind == dtype, (fname, ds, d.dtype)
            if ds == "/score":
                assert d.id.get_offset() is not None and d.chunks is None and d.compression is None
                assert "C(c1,1)" in d.attrs["index_formula"]


def _sql_examples() -> list[tuple[str, list[str]]]:
    pairs = re.findall(r"```sql\n(.*?)```\s*```text\n(.*?)```", CATALOG, re.S)
    return [(q, [ln for ln in out.strip().splitlines()]) for q, out in pairs]


def test_catalog_sql_returns_documented_numbers(artifacts: Path, monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    import duckdb

    # the SQL reads artifacts/...: run it in a folder whose artifacts is the suite's build
    (tmp_path / "artifacts").symlink_to(artifacts)
    monkeypatch.chdir(tmp_path)
    examples = _sql_examples()
    assert len(examples) >= 4
    for query, expected in examples:
        rows = duckdb.sql(query).fetchall()
        got = [" | ".join(str(v) for v in row) for row in rows]
        assert got == expected, query


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_catalog_c_program_reads_seven_h5_with_plain_mmap(artifacts: Path, tmp_path: Path,
                                                          tables) -> None:
    src = re.search(r"```c\n(.*?)```", CATALOG, re.S).group(1)
    (tmp_path / "score7.c").write_text(src)
    subprocess.run(["cc", "-O2", "-o", str(tmp_path / "score7"), str(tmp_path / "score7.c")], check=True)
    with h5py.File(artifacts / "seven.h5", "r") as f:
        offset = f["score"].id.get_offset()
    rng = np.random.default_rng(7)
    for _ in range(20):
        hand = rng.choice(52, 7, replace=False)
        out = subprocess.run([str(tmp_path / "score7"), str(artifacts / "seven.h5"), str(offset),
                              *map(str, hand)], capture_output=True, text=True, check=True)
        assert int(out.stdout) == tables.score7([int(c) for c in hand])
