"""The C program of artifacts/README.md computes the same class index as the Python indexer
(from the documented algorithm alone, no table) and reads that class's row of a mapped file."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import h5py
import numpy as np
import pytest

from pipeline.abstraction import class_count, index_batch
from pipeline.query.artifacts import dataset_offset

ROOT = Path(__file__).resolve().parent.parent
CATALOG = (ROOT / "artifacts" / "README.md").read_text()
SITUATIONS = 150
#: Board sizes per street.
STREETS = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}


def _rows(idx: np.ndarray) -> np.ndarray:
    """The made-up uint16 row value of each class index (a multiplicative hash of the index)."""
    return ((np.asarray(idx).astype(np.uint32) * np.uint32(2654435761)) >> np.uint32(16)).astype(np.uint16)


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("cc") is None:
        pytest.skip("no C compiler")
    src = re.search(r"```c\n(/\* cc -O2 -o bucket .*?)```", CATALOG, re.S)
    assert src is not None, "the bucket example is missing from artifacts/README.md"
    folder = tmp_path_factory.mktemp("cbucket")
    (folder / "bucket.c").write_text(src.group(1))
    subprocess.run(["cc", "-O2", "-Wall", "-Werror", "-o", str(folder / "bucket"), str(folder / "bucket.c")],
                   check=True)
    return folder / "bucket"


@pytest.mark.parametrize("street", list(STREETS))
def test_c_index_and_row_equal_python(program: Path, tmp_path: Path, street: str) -> None:
    n = class_count(street)
    raw = tmp_path / f"{street}.u16"
    rng = np.random.default_rng(len(street))
    cards = np.argsort(rng.random((SITUATIONS, 52)), axis=1)[:, :2 + STREETS[street]]
    want = index_batch(cards)
    # a file of n rows (the program maps it whole) holding the made-up values at the rows
    # asked for, sparse elsewhere: the river's 123 M rows are not all written
    mapped = np.memmap(raw, np.uint16, "w+", shape=(n,))
    mapped[want] = _rows(want)
    mapped.flush()
    del mapped
    rows = dict(zip(want.tolist(), _rows(want).tolist()))
    for c, i in zip(cards, want):
        out = subprocess.run([str(program), str(raw), "0", *map(str, c)], capture_output=True,
                             text=True, check=True).stdout.split()
        assert (int(out[0]), int(out[1])) == (int(i), int(rows[i])), (street, c.tolist())


def test_c_reads_an_hdf5_dataset_at_its_offset(program: Path, tmp_path: Path) -> None:
    """As the catalog says: a contiguous HDF5 dataset is read at the offset the manifest records
    (here taken straight from the file)."""
    path = tmp_path / "flop_buckets.h5"
    with h5py.File(path, "w") as f:
        f.create_dataset("bucket", data=_rows(np.arange(class_count("flop"))))
    off, _, _ = dataset_offset(path, "bucket")
    out = subprocess.run([str(program), str(path), str(off), "50", "45", "42", "21", "0"],
                         capture_output=True, text=True, check=True).stdout.split()
    i = int(index_batch(np.array([[50, 45, 42, 21, 0]]))[0])
    assert (int(out[0]), int(out[1])) == (i, int(_rows(np.arange(class_count("flop")))[i]))


def test_c_rejects_a_bad_board_size(program: Path) -> None:
    r = subprocess.run([str(program), "x", "0", "1", "2", "3"], capture_output=True, text=True)
    assert r.returncode == 2 and "usage" in r.stderr
