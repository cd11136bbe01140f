"""Abstraction buckets (EMD k-medians), the abstraction config and the ``bucket`` command's errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipeline.abstraction.buckets import cdf_rows, kmedians_emd
from pipeline.abstraction.kmeans import kmeans_l2
from pipeline.errors import InputError
from tests.cli_runner import one_error_line, run_here, run_main

BINS = 50
COMPLETIONS = 46


PLANTED = 12


def _planted(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Histograms of 46 draws from one of 12 made-up equity distributions each, weights, and
    which distribution each row came from."""
    rng = np.random.default_rng(seed)
    shapes = rng.dirichlet(np.full(BINS, 0.3), size=PLANTED)
    pick = rng.integers(0, len(shapes), n)
    hist = np.array([rng.multinomial(COMPLETIONS, shapes[p]) for p in pick], np.uint8)
    return hist, rng.integers(1, 25, n).astype(np.uint8), pick


def _histograms(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    hist, w, _ = _planted(n, seed)
    return hist, w


def _median_centres(hist: np.ndarray, w: np.ndarray, labels: np.ndarray, k: int) -> np.ndarray:
    """Each group's coordinate-wise weighted median CDF (the best L1 centre), by sorting."""
    cdf = np.cumsum(hist.astype(np.int64), axis=1)[:, :-1]
    out = np.zeros((k, cdf.shape[1]), np.int64)
    for j in range(k):
        m = labels == j
        for q in range(cdf.shape[1]):
            order = np.argsort(cdf[m, q], kind="stable")
            cum = np.cumsum(w[m][order].astype(np.int64))
            out[j, q] = cdf[m, q][order][np.searchsorted(2 * cum, cum[-1])]
    return out


def _emd_cost(hist: np.ndarray, w: np.ndarray, labels: np.ndarray, centres: np.ndarray) -> int:
    """Weighted L1 between each row's CDF and its bucket's centre, from first principles."""
    cdf = np.cumsum(hist.astype(np.int64), axis=1)[:, :-1]
    return int((np.abs(cdf - centres[labels]).sum(axis=1) * w.astype(np.int64)).sum())


def test_buckets_are_deterministic_and_beat_random_and_the_planted_groups() -> None:
    """Same seed, same bytes; the objective (checked from first principles) is at most that of
    the 12 groups the data was drawn from, and far below a random assignment's."""
    hist, w, pick = _planted(20_000, 1)
    a = kmedians_emd(hist, w, PLANTED, seed=7)
    b = kmedians_emd(hist, w, PLANTED, seed=7)
    assert a.labels.tobytes() == b.labels.tobytes() and a.objective == b.objective
    assert a.labels.dtype == np.uint16 and len(a.labels) == len(hist) and a.labels.max() < 12
    assert a.objective == _emd_cost(hist, w, a.labels.astype(np.int64), a.centres)
    planted = _emd_cost(hist, w, pick, _median_centres(hist, w, pick, PLANTED))
    print(f"objective {a.objective:,}, planted groups {planted:,}, random {a.random_objective:,}")
    assert a.objective <= planted and 2 * a.objective < a.random_objective


def test_centres_are_cdfs_and_medians_do_not_raise_the_objective() -> None:
    hist, w = _histograms(5_000, 2)
    c = kmedians_emd(hist, w, 8, seed=3)
    assert np.all(np.diff(c.centres, axis=1) >= 0)
    assert c.centres.min() >= 0 and c.centres.max() <= COMPLETIONS
    one = kmedians_emd(hist, w, 8, seed=3, iterations=1)
    assert c.objective <= one.objective


def test_cdf_rows_drop_the_constant_column() -> None:
    h = np.array([[1, 0, 2], [0, 3, 0]], np.uint8)
    assert cdf_rows(h).tolist() == [[1, 1], [0, 3]]


@pytest.mark.parametrize("k", [0, -1, 5_001])
def test_bad_bucket_counts_name_the_value(k: int) -> None:
    hist, w = _histograms(5_000, 4)
    with pytest.raises(InputError, match=str(k)):
        kmedians_emd(hist, w, k, seed=1)
    with pytest.raises(InputError, match=str(k)):
        kmeans_l2(hist.astype(np.float32), w, k, seed=1)


def _planted_points(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """8-dimensional points (OCHS-like equities) around 12 made-up centres, weights, and which
    centre each point came from."""
    rng = np.random.default_rng(seed)
    centres = rng.random((PLANTED, 8))
    pick = rng.integers(0, PLANTED, n)
    x = np.clip(centres[pick] + rng.normal(0, 0.03, (n, 8)), 0, 1).astype(np.float32)
    return x, rng.integers(1, 25, n).astype(np.uint8), pick


def _sq_cost(x: np.ndarray, w: np.ndarray, labels: np.ndarray, k: int) -> float:
    """Weighted squared L2 to each group's weighted mean, from first principles."""
    total = 0.0
    for j in range(k):
        m = labels == j
        if m.any():
            xs, ws = x[m].astype(np.float64), w[m].astype(np.float64)
            mean = (xs * ws[:, None]).sum(axis=0) / ws.sum()
            total += float((((xs - mean) ** 2).sum(axis=1) * ws).sum())
    return total


def test_kmeans_is_deterministic_and_a_fixed_point_of_lloyd() -> None:
    """Same seed, same bytes; the objective (checked from first principles) is that of the
    labels; run to convergence, every point sits at its nearest centre and every centre is its
    members' weighted mean; the planted groups' cost is the scale it reaches and a random
    assignment is far above it. (k-means++ may still merge two planted groups: a local
    optimum, which is why the bound below is loose.)"""
    x, w, pick = _planted_points(30_000, 11)
    a = kmeans_l2(x, w, PLANTED, seed=7, iterations=1000)
    b = kmeans_l2(x, w, PLANTED, seed=7, iterations=1000)
    assert a.labels.tobytes() == b.labels.tobytes() and a.centres.tobytes() == b.centres.tobytes()
    assert a.labels.dtype == np.uint16 and len(a.labels) == len(x) and a.labels.max() < PLANTED
    assert a.objective == pytest.approx(_sq_cost(x, w, a.labels, PLANTED), rel=1e-9)
    d = ((x[:, None, :].astype(np.float64) - a.centres[None]) ** 2).sum(axis=2)
    assert np.array_equal(a.labels, d.argmin(axis=1))
    for j in range(PLANTED):
        m = a.labels == j
        mean = (x[m].astype(np.float64) * w[m, None]).sum(axis=0) / w[m].sum()
        assert np.allclose(a.centres[j], mean, atol=1e-6)
    planted = _sq_cost(x, w, pick, PLANTED)
    print(f"objective {a.objective:.2f}, planted {planted:.2f}, random {a.random_objective:.2f}")
    assert a.objective <= 10 * planted and 10 * a.objective < a.random_objective


def test_kmeans_on_a_sample_labels_every_point_by_its_nearest_centre() -> None:
    x, w, pick = _planted_points(30_000, 12)
    part = kmeans_l2(x, w, PLANTED, seed=3, sample=3_000)
    assert len(part.labels) == len(x)
    d = ((x[:, None, :].astype(np.float64) - part.centres[None]) ** 2).sum(axis=2)
    assert np.array_equal(part.labels, d.argmin(axis=1))
    planted = _sq_cost(x, w, pick, PLANTED)
    assert part.objective <= 10 * planted and 10 * part.objective < part.random_objective


@pytest.mark.parametrize("body,needle", [
    ("bins = 0", "bins"),
    ("flop_buckets = 0", "flop_buckets"),
    ("river_buckets = 0", "river_buckets"),
    ("ochs_clusters = 0", "ochs_clusters"),
    ("ochs_clusters = 170", "ochs_clusters"),
    ("river_sample = 0", "river_sample"),
    ('streets = ["river"]', "preflop"),
    ("turn_buckets = 20000000", "turn_buckets"),
    ('streets = ["pre"]', "streets"),
    ("seed = -1", "seed"),
])
def test_bad_abstraction_config_is_one_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str,
                                            needle: str) -> None:
    """In this process (the exit code and the one stderr line are the CLI's own; a real
    process's are checked by :func:`test_more_buckets_than_ids_refused`)."""
    cfg = tmp_path / "build.toml"
    cfg.write_text(f'artifacts = "{tmp_path / "art"}"\n[abstraction]\n{body}\n')
    code, _, err = run_main(capsys, "build", "abstraction", "--config", str(cfg), "--dry-run")
    assert code == 2 and needle in one_error_line(err), err
    assert not (tmp_path / "art").exists()


def test_more_buckets_than_ids_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bucket ids are uint16: 65,536 buckets cannot be stored (both bucketed streets have more
    classes than that, so this is the bound a config meets first)."""
    cfg = tmp_path / "build.toml"
    cfg.write_text(f'artifacts = "{tmp_path / "art"}"\n[abstraction]\nflop_buckets = 65536\n')
    r = run_here(capsys, "build", "abstraction", "--config", str(cfg), "--dry-run")
    assert r.returncode == 2 and "65535" in one_error_line(r.stderr), r.stderr
    assert not (tmp_path / "art").exists()


@pytest.mark.parametrize("args,needle", [
    (["bucket", "AhKd", "--board", "Qh 7d"], "board"),
    (["bucket", "Ah", "--board", "Qh 7d 2c"], "hole"),
    (["bucket", "AhKd", "--board", "Qh 7d Ah"], "Ah"),
    (["bucket", "AhXx"], "Xx"),
    (["bucket"], "HOLE"),
    (["bucket", "AhKd", "--file", "-"], "either"),
])
def test_bucket_bad_input_is_one_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                      needle: str) -> None:
    """In this process; :func:`test_bucket_file_names_the_bad_line` runs a real one."""
    code, _, err = run_main(capsys, "--artifacts", str(tmp_path / "none"), *args)
    assert code == 2 and needle in one_error_line(err), err
    assert not (tmp_path / "none").exists()


def test_bucket_file_names_the_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "spots.txt"
    f.write_text("AhKd|Qh7d\n\nAhKd Qh7d2c\n")
    r = run_here(capsys, "--artifacts", str(tmp_path / "none"), "bucket", "--file", str(f))
    assert r.returncode == 2 and r.stdout == "", r.stdout
    assert r.stderr.splitlines() == [
        f"error: {f}:1: board: expected 0 or 3 or 4 or 5 cards, got 2: Qh 7d",
        f"error: {f}:3: expected HOLE|BOARD, got 'AhKd Qh7d2c'"], r.stderr


def test_bucket_without_the_tables_says_how_to_build(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run_here(capsys, "--artifacts", str(tmp_path), "bucket", "AhKd", "--board", "Qh7d2c")
    assert r.returncode != 0 and "pokertables build abstraction" in r.stderr, r.stderr


def test_the_river_brings_its_ochs_and_bucket_stages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every bucketed street gets a buckets stage (which writes its Parquet); the river's reads
    the OCHS stage's file, made from the preflop figures."""
    cfg = tmp_path / "build.toml"
    cfg.write_text(f'artifacts = "{tmp_path / "art"}"\n[abstraction]\nstreets = ["preflop", "river"]\n')
    r = run_here(capsys, "build", "abstraction", "--config", str(cfg), "--dry-run")
    assert r.returncode == 0, r.stderr
    names = [ln.split()[0] for ln in r.stdout.splitlines() if ln.startswith("abstraction:")]
    assert names == ["abstraction:preflop", "abstraction:river", "abstraction:river-ochs",
                     "abstraction:river-buckets"]
    from pipeline.build.config import load_config
    from pipeline.build.stages.abstraction import stages

    by_name = {s.name: s for s in stages(load_config(cfg))}
    assert by_name["abstraction:river-ochs"].inputs == ("seven.h5", "abstraction/preflop.h5")
    assert by_name["abstraction:river-buckets"].outputs == ("abstraction/river_buckets.h5",
                                                            "parquet/abstraction/river.parquet")
    assert by_name["abstraction:river"].outputs == ("abstraction/river.h5",)
    assert by_name["abstraction:preflop"].outputs == ("abstraction/preflop.h5",
                                                      "parquet/abstraction/preflop.parquet")
