"""Video poker stages of the suite's build: classes, a paytable, the summary.

Kept apart from ``test_videopoker.py`` (which needs no build) so that a test worker can run
that file while another worker holds the build lock.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cli_runner import run_here
from vp_reference import JOB96, JOB96_FINAL, PAYTABLES


def test_built_artifacts(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import h5py
    import pyarrow.parquet as pq

    with h5py.File(artifacts / "vp_classes.h5", "r") as f:
        assert f["hands"].shape == (134_459, 5) and f["hands"].dtype == np.uint8
        assert int(f["weight"][:].astype(np.int64).sum()) == 2_598_960
        assert f["deck53/hands"].shape == (150_891, 5)
    with h5py.File(artifacts / "paytables" / "jacks-or-better-9-6.h5", "r") as f:
        assert f.attrs["return_exact"] == "1653526326983/1661102543100"
        assert f["final_counts"][:].tolist() == JOB96_FINAL
        for k, n in enumerate((1, 52, 1326, 22100, 270725)):
            assert f[f"counts/held{k}"].shape == (n, 10) and f[f"counts/held{k}"].dtype == np.uint32
    t = pq.read_table(artifacts / "parquet" / "vp_deal_classes.parquet")
    assert t.num_rows == 134_459
    s = pq.read_table(artifacts / "parquet" / "paytable_summary.parquet")
    assert set(s.column("slug").to_pylist()) == {f.stem for f in PAYTABLES.glob("*.toml")}
    r = run_here(capsys, "--artifacts", str(artifacts), "vp", "analyze", str(JOB96))
    assert r.returncode == 0 and "artifact" in r.stdout.splitlines()[-1]
