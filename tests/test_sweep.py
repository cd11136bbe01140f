"""Paytable sweeps: >= 100 exact Jacks or Better variants; the shipped games are rows of it."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import shutil
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pyarrow.dataset as ds
import pytest
from cli_runner import as_a_process, one_error_line, run_main

from pipeline.build.locks import commit_lock
from pipeline.build.store import STAGING, TMP_PREFIX

ROOT = Path(__file__).resolve().parent.parent
PAYTABLES = ROOT / "pipeline" / "data" / "paytables"


def _run_here(*args: str) -> tuple[int, str, str]:
    """The command in this process, for a module fixture (no capsys there): (code, out, err)."""
    from pipeline.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with as_a_process(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory, artifacts: Path) -> tuple[dict, Path]:
    """The shipped jacks-or-better sweep, run through the command (in this process: what it
    writes is under test; the real-process runs are in the two-runs test) into a tmp folder."""
    art = tmp_path_factory.mktemp("sweep-art")
    # the deal classes of the suite's build (the command would derive the same ones)
    (art / "vp_classes.h5").symlink_to(artifacts / "vp_classes.h5")
    code, out, err = _run_here("--artifacts", str(art), "vp", "sweep", "jacks-or-better", "--json")
    assert code == 0, err
    return json.loads(out), art


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
    from pipeline.videopoker.paytables.paytable import load_paytable
    from pipeline.videopoker.solver.analysis import analyze

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


#: a two-variant sweep (seconds to solve; the deal classes are derived when none are built)
TINY = 'name = "tiny"\nbase = "jacks-or-better-9-6"\n[pays]\n"full house" = {values = [%s]}\n'


def _waiting_on_flock(pids: list[int]) -> set[int]:
    """The processes among ``pids`` blocked waiting for an flock (``->`` rows of /proc/locks)."""
    rows = [ln.split() for ln in Path("/proc/locks").read_text().splitlines() if "->" in ln]
    return {pid for pid in pids for r in rows if "FLOCK" in r and str(pid) in r}


def _sweep_files(art: Path) -> dict[str, bytes]:
    return {p.relative_to(art).as_posix(): p.read_bytes()
            for p in sorted((art / "sweeps").rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def tiny_result(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An artifacts folder holding one good run of the two-variant sweep (full house 8, 9),
    made once: each full-disk case starts from a copy of it."""
    folder = tmp_path_factory.mktemp("tiny")
    sweep = folder / "tiny.toml"
    sweep.write_text(TINY % "8, 9")
    code, _, err = _run_here("-a", str(folder / "art"), "vp", "sweep", str(sweep))
    assert code == 0, err
    return folder / "art"


def test_two_runs_of_one_sweep_the_later_says_it_replaced_the_other(tmp_path: Path, tiny_result: Path) -> None:
    """Item 7: two `vp sweep` runs of one name at once. Both solve while the folder's commit lock
    is held here, then commit one after the other: the second to write says, on its CLI line, that
    it replaced the result the other wrote; the first says nothing of the kind. The folder then
    holds one complete result, listed in the manifest.

    ``tiny_result`` (the same sweep, solved in this process) is asked for first so that the
    solver's kernels are in numba's cache: on a clean clone both runs compiled them at once
    otherwise (7 CPU s each)."""
    if not Path("/proc/locks").exists():
        pytest.skip("needs /proc/locks to see both runs wait for the lock")
    art = tmp_path / "art"
    art.mkdir()
    sweep = tmp_path / "tiny.toml"
    sweep.write_text(TINY % "8, 9")
    with commit_lock(art):
        runs = [subprocess.Popen([sys.executable, "-m", "pipeline", "-a", str(art), "vp", "sweep",
                                  str(sweep)], cwd=tmp_path, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for _ in range(2)]
        pids = [r.pid for r in runs]
        deadline = time.monotonic() + 240
        while _waiting_on_flock(pids) != set(pids) and time.monotonic() < deadline:
            assert all(r.poll() is None for r in runs), [r.communicate() for r in runs]
            time.sleep(0.2)
        assert _waiting_on_flock(pids) == set(pids), "both runs should wait for the lock"
    outs = [r.communicate(timeout=240) for r in runs]
    assert [r.returncode for r in runs] == [0, 0], outs
    last = sorted(out.strip().splitlines()[-1] for out, _ in outs)
    wrote = f"wrote {art / 'sweeps' / 'tiny.parquet'}/ and {art / 'sweeps' / 'tiny.png'}"
    assert last[0] == wrote, last
    assert last[1].startswith(wrote + "; replaced the result another run of this sweep wrote at "), last
    assert last[1].endswith("(both runs solved the same variants)"), last
    manifest = json.loads((art / "manifest.json").read_text())
    listed = sorted(rel for rel, info in manifest["files"].items() if info.get("stage") == "sweep:tiny")
    assert listed == sorted(_sweep_files(art)) == [
        "sweeps/tiny.parquet/full_house=8/part-0.parquet",
        "sweeps/tiny.parquet/full_house=9/part-0.parquet", "sweeps/tiny.png"]
    assert not (art / STAGING).exists()


@pytest.mark.parametrize("failing", ["plot", "data"])
def test_full_disk_mid_sweep_keeps_the_old_result_and_says_so(
        failing: str, tiny_result: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 7: the disk fills while a second sweep of one name writes its plot (or its data):
    one `error:` line saying the disk is full and the previous data and plot are unchanged,
    exit 2; and they are, byte for byte, with the manifest's entry; nothing staged is left."""
    import pipeline.build.sweeps as sweeps

    art = tmp_path / "art"
    shutil.copytree(tiny_result, art)  # a first good run of the sweep, as it wrote it
    sweep = tmp_path / "tiny.toml"
    before = _sweep_files(art)
    entry = json.loads((art / "manifest.json").read_text())["stages"]["sweep:tiny"]
    assert len(before) == 3

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    if failing == "plot":
        monkeypatch.setattr(sweeps, "plot_sweep", full)
    else:
        monkeypatch.setattr(sweeps.pq, "write_table", full)
    sweep.write_text(TINY % "7, 9")  # other variants: a mix would show a full_house=7 folder
    code, out, err = run_main(capsys, "-a", str(art), "vp", "sweep", str(sweep))
    assert code == 2 and not out
    line = one_error_line(err)
    assert line.startswith("error: disk full while writing sweep 'tiny' into "), line
    assert line.endswith("the previous data and plot of this sweep are unchanged"), line
    assert _sweep_files(art) == before
    assert json.loads((art / "manifest.json").read_text())["stages"]["sweep:tiny"] == entry
    assert not (art / STAGING).exists()
    # with no earlier result there is nothing to keep, and the message says that instead
    fresh = tmp_path / "fresh"
    code, _, err = run_main(capsys, "-a", str(fresh), "vp", "sweep", str(sweep))
    assert code == 2 and one_error_line(err).endswith(": nothing was written"), err
    assert not (fresh / "sweeps").exists()


def test_shared_solve_equals_one_analysis_per_variant_under_every_tie_break() -> None:
    """The sweep's many-variant kernel gives each variant's final-hand counts exactly as a full
    ``analyze`` of it: whole and fractional pays, every tie-break rule (the same ``_better``
    on the same exact EVs and second moments), a game paying only the royal."""
    from dataclasses import replace

    from pipeline.videopoker.paytables.paytable import load_paytable
    from pipeline.videopoker.solver.analysis import analyze, compute_counts
    from pipeline.videopoker.solver.deals import deal_classes
    from pipeline.videopoker.tools.sweep import solve_shared

    base = load_paytable(PAYTABLES / "jacks-or-better-9-6.toml")
    only_royal = tuple(replace(ln, pays=Fraction(800 if i == 0 else 0)) for i, ln in enumerate(base.lines))
    half = tuple(replace(ln, pays=ln.pays + Fraction(1, 2) if 0 < ln.pays < 10 else ln.pays)
                 for ln in base.lines)
    rules = ("fewest-cards", "low-variance", "lowest-mask")
    variants = [replace(base, lines=only_royal, tie_break=tb) for tb in rules]
    variants += [replace(base, lines=half, tie_break="low-variance"), base]
    cls = deal_classes(52)
    pay_cat, counts = compute_counts(base)
    got = solve_shared(variants, cls.hands, cls.weight, cls.index5, pay_cat, *counts)
    full = [analyze(pt, cls, (pay_cat, counts)) for pt in variants]
    assert got == [a.final_counts for a in full]
