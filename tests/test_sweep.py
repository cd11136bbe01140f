"""Paytable sweeps: >= 100 exact Jacks or Better variants; the shipped games are rows of it."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pyarrow.dataset as ds
import pytest
from cli_runner import run_cli, run_main

from pipeline.build.store import TMP_PREFIX

ROOT = Path(__file__).resolve().parent.parent
PAYTABLES = ROOT / "pipeline" / "data" / "paytables"


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    """The shipped jacks-or-better sweep, run through the CLI into a tmp artifacts folder."""

    art = tmp_path_factory.mktemp("sweep-art")
    # the deal classes from the default artifacts when built, else derived: the same classes
    src = ROOT / "artifacts" / "vp_classes.h5"
    if src.exists():
        (art / "vp_classes.h5").symlink_to(src)
    out = run_cli("--artifacts", str(art), "vp", "sweep", "jacks-or-better", "--json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout), art


def test_sweep_has_at_least_100_variants_and_writes_dataset_and_plot(swept: tuple[dict, Path]) -> None:
    info, art = swept
    assert info["variants"] >= 100
    data = art / "sweeps" / "jacks-or-better.parquet"
    table = ds.dataset(data, format="parquet", partitioning="hive").to_table()
    assert table.num_rows == info["variants"]
    # Hive partitions by the first swept line (full house pays 5..9), one folder each
    assert sorted(p.name for p in data.iterdir()) == [f"full_house={v}" for v in range(5, 10)]
    png = (art / "sweeps" / "jacks-or-better.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list(art.rglob(TMP_PREFIX + "*"))
    # every combination of the swept pays appears once
    combos = set(zip(*(table.column(c).to_pylist() for c in
                       ("pays_full_house", "pays_flush", "pays_straight", "pays_three_of_a_kind",
                        "pays_two_pair"))))
    assert len(combos) == table.num_rows == 5 * 3 * 3 * 2 * 2


@pytest.mark.parametrize("slug,fh,fl", [("jacks-or-better-9-6", 9, 6), ("jacks-or-better-9-5", 9, 5),
                                        ("jacks-or-better-8-5", 8, 5)])
def test_shipped_games_equal_their_single_analysis_exactly(swept: tuple[dict, Path], slug: str,
                                                           fh: int, fl: int) -> None:
    from pipeline.videopoker.analysis import analyze
    from pipeline.videopoker.paytable import load_paytable

    _, art = swept
    t = ds.dataset(art / "sweeps" / "jacks-or-better.parquet", format="parquet",
                   partitioning="hive").to_table().to_pylist()
    rows = [r for r in t if (r["pays_full_house"], r["pays_flush"], r["pays_straight"],
                             r["pays_three_of_a_kind"], r["pays_two_pair"]) == (fh, fl, 4, 3, 2)]
    assert len(rows) == 1
    row = rows[0]
    a = analyze(load_paytable(PAYTABLES / f"{slug}.toml"))
    assert Fraction(row["return_numerator"], row["return_denominator"]) == a.return_exact
    assert Fraction(row["return_exact"]) == a.return_exact
    assert Fraction(row["variance_exact"]) == a.variance
    hit = Fraction(sum(c for c, p in zip(a.final_counts, a.paytable.pays) if p > 0), a.denominator)
    assert Fraction(row["hit_frequency_exact"]) == hit
    assert row["total_combinations"] == a.denominator == 19_933_230_517_200


def test_bad_sweep_files_fail_cleanly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "configs" / "sweeps"
    bad.mkdir(parents=True)
    (bad / "x.toml").write_text('base = "../../nope"\n[pays]\n"flush" = { from = 4, to = 6 }\n')
    code, out, err = run_main(capsys, "--artifacts", str(tmp_path / "art"), "vp", "sweep", str(bad / "x.toml"))
    assert code == 2 and "base paytable '../../nope' not found" in err and not out
    (bad / "y.toml").write_text(f'base = "{PAYTABLES / "jacks-or-better-9-6.toml"}"\n'
                                '[pays]\n"fluhs" = { from = 4, to = 6 }\n')
    code, _, err = run_main(capsys, "vp", "sweep", str(bad / "y.toml"))
    assert code == 2 and "'fluhs' is not a line of Jacks or Better 9/6" in err
    code, _, err = run_main(capsys, "vp", "sweep", "no-such-sweep")
    assert code == 2 and "unknown sweep 'no-such-sweep'" in err and "jacks-or-better" in err
    code, _, err = run_main(capsys, "vp", "sweep", "jacks-or-better", "--workers", "2")
    assert code == 2 and "--scheduler and --workers need --executor dask" in err
    assert not (tmp_path / "art").exists()
