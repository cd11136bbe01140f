"""Abstraction section (issue 18): exact per-street figures, buckets and batch lookup speed.

Targets on the 2-core machine: the exact river table for all 123,156,254 classes <= 2 min;
turn figures and histograms <= 5 min; flop <= 3 min; clustering with the defaults (flop and
turn EMD k-medians, river OCHS k-means) <= 10 min; batch ``index`` + lookup >= 10 M
situations/s. Also timed: the river's OCHS pass (every class against the 8 opponent clusters).
For comparison, the same river figures through the single-hand path (one situation's 990
opponents scored one by one, as the CLI's river check does), extrapolated from a sample.

Each pass is timed in this process after one small warm-up call (compilation excluded). The
river OCHS table and its equities hold ~6 GB at their peak; the section takes about as long as
the targets add up to.

Last, ``pokertables bucket --file`` on 20,000 random river lines (issue 29): <= 30 s in all and
the first answer printed within 1 s of the start, against the built river tables
(``artifacts/abstraction/river.h5`` and ``river_ochs.h5``, or a scratch build of the two, about
2 min, when they are not built there).
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TARGETS_S = {"river": 120.0, "turn": 300.0, "flop": 180.0, "clustering": 600.0}
LOOKUP_TARGET = 10e6
LOOKUP_ROWS = 4_000_000
SINGLE_SAMPLE = 200
#: ``bucket --file``: river lines, the whole run's and the first answer's targets (s).
BUCKET_FILE_LINES = 20_000
BUCKET_FILE_TARGET_S = 30.0
FIRST_ANSWER_TARGET_S = 1.0
#: What the river lines of ``bucket --file`` read besides seven.h5 and eval_tables.h5.
RIVER_FILES = ("abstraction/river.h5", "abstraction/river_ochs.h5")


def run(report) -> None:  # type: ignore[no-untyped-def]
    """Time the river, turn and flop passes, the default clustering and batch lookups."""
    from pipeline.abstraction import index_batch
    from pipeline.abstraction.buckets import kmedians_emd
    from pipeline.abstraction.kmeans import kmeans_l2
    from pipeline.abstraction.ochs import DEFAULT_CLUSTERS, ochs_features, opponent_clusters, river_ochs
    from pipeline.abstraction.strength import canonical_boards, future_figures, river_and_preflop
    from pipeline.build.stages.abstraction import DEFAULT_BINS, DEFAULT_BUCKETS, DEFAULT_RIVER_SAMPLE
    from pipeline.query.abstraction.clusters import hand_clusters
    from pipeline.query.abstraction.reader import river_counts
    from pipeline.query.tables import Tables

    report.head("abstraction: exact per-street figures and buckets (issue 18)")
    if (ROOT / "artifacts" / "seven.h5").is_file():
        table7 = np.asarray(Tables(ROOT / "artifacts").table(7))
    else:   # no built tables here: the same scores, computed in the process (what a Dask worker does)
        from pipeline.core.evaluate import seven_scores

        table7 = seven_scores()
    boards5, w5 = canonical_boards(5)
    river_and_preflop(table7, DEFAULT_BINS, boards=boards5[:10], board_w=w5[:10])   # compile
    t0 = time.perf_counter()
    river, pre = river_and_preflop(table7, DEFAULT_BINS)
    secs = time.perf_counter() - t0
    report.value("river_s", round(secs, 1), f"  river: {len(river.weight):,} classes in {secs:.1f} s")
    report.target("river table <= 2 min", secs <= TARGETS_S["river"], f"{secs:.1f} s")

    assert pre is not None and pre.hist is not None and river.value is not None
    groups = hand_clusters(opponent_clusters(pre.hist, pre.weight, DEFAULT_CLUSTERS, seed=1).labels)
    river_ochs(table7, groups, DEFAULT_CLUSTERS, boards=boards5[:10])   # compile
    t0 = time.perf_counter()
    ochs = river_ochs(table7, groups, DEFAULT_CLUSTERS)
    secs = time.perf_counter() - t0
    report.value("river_ochs_s", round(secs, 1),
                 f"  river OCHS (vs {DEFAULT_CLUSTERS} opponent clusters): {secs:.1f} s")

    rng = np.random.default_rng(0)
    sample = [rng.permutation(52)[:7].tolist() for _ in range(SINGLE_SAMPLE)]
    t0 = time.perf_counter()
    for c in sample:
        river_counts(table7, c[:2], c[2:])
    per = (time.perf_counter() - t0) / SINGLE_SAMPLE
    report.value("river_single_hand_s", round(per * len(river.weight), 0),
                 f"  same river table by the single-hand path: {per * 1e3:.2f} ms a class, "
                 f"{per * len(river.weight) / 3600:.1f} h for all")

    figs = {}
    for street in ("turn", "flop"):
        b, w = canonical_boards({"turn": 4, "flop": 3}[street])
        future_figures(street, table7, DEFAULT_BINS, boards=b[:2], board_w=w[:2])  # compile
        t0 = time.perf_counter()
        figs[street] = future_figures(street, table7, DEFAULT_BINS)
        secs = time.perf_counter() - t0
        report.value(f"{street}_s", round(secs, 1),
                     f"  {street}: {len(figs[street].weight):,} classes in {secs:.1f} s")
        report.target(f"{street} figures <= {TARGETS_S[street] / 60:g} min", secs <= TARGETS_S[street],
                      f"{secs:.1f} s")

    t0 = time.perf_counter()
    for street, fig in figs.items():
        assert fig.hist is not None
        c = kmedians_emd(fig.hist, fig.weight, DEFAULT_BUCKETS, seed=1)
        report.say(f"  {street} buckets: objective {c.objective:,} vs random assignment "
                   f"{c.random_objective:,} ({c.random_objective / max(c.objective, 1):.1f}x), "
                   f"{c.iterations} iterations")
    t1 = time.perf_counter()
    x = ochs_features(ochs, river.value, groups)
    del ochs
    c2 = kmeans_l2(x, river.weight, DEFAULT_BUCKETS, seed=1, sample=DEFAULT_RIVER_SAMPLE)
    del x
    report.say(f"  river buckets (OCHS k-means): objective {c2.objective:.4g} vs random assignment "
               f"{c2.random_objective:.4g} ({c2.random_objective / max(c2.objective, 1e-300):.1f}x), "
               f"{c2.iterations} iterations, {time.perf_counter() - t1:.1f} s")
    secs = time.perf_counter() - t0
    report.value("clustering_s", round(secs, 1), f"  clustering (flop + turn + river, defaults): {secs:.1f} s")
    report.target("clustering <= 10 min", secs <= TARGETS_S["clustering"], f"{secs:.1f} s")

    cards = np.empty((LOOKUP_ROWS, 7), np.int64)
    for i in range(LOOKUP_ROWS // 100_000):
        block = np.argsort(rng.random((100_000, 52)), axis=1)[:, :7]
        cards[i * 100_000:(i + 1) * 100_000] = block
    index_batch(cards[:1000])
    assert river.value is not None
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        idx = index_batch(cards)
        _ = river.value[idx]
        best = min(best, time.perf_counter() - t0)
    rate = LOOKUP_ROWS / best
    report.value("lookup_per_s", round(rate), f"  batch index + lookup: {rate / 1e6:.1f} M situations/s")
    report.target("batch lookup >= 10 M/s", rate >= LOOKUP_TARGET, f"{rate / 1e6:.1f} M/s")
    bucket_file(report)


def _river_folder(scratch: Path) -> Path:
    """An artifacts folder with the river tables: ``artifacts/`` if they are built there, else
    ``scratch`` with seven.h5 and eval_tables.h5 linked and the river tables built."""
    import json
    import os
    import subprocess
    import sys

    art = ROOT / "artifacts"
    if all((art / rel).is_file() for rel in RIVER_FILES):
        return art
    full = json.loads((art / "manifest.json").read_text())
    keep = {"seven.h5": "seven", "eval_tables.h5": "eval_tables"}
    for name in keep:
        os.link(art / name, scratch / name)
    (scratch / "manifest.json").write_text(json.dumps(
        {**full, "files": {n: full["files"][n] for n in keep},
         "stages": {s: full["stages"][s] for s in keep.values()}}))
    cfg = scratch / "build.toml"
    cfg.write_text(f'artifacts = "{scratch}"\n[abstraction]\nstreets = ["preflop", "river"]\n')
    subprocess.run([sys.executable, "-m", "pipeline", "build", "abstraction:preflop", "abstraction:river",
                    "abstraction:river-ochs", "--config", str(cfg)], check=True, cwd=ROOT)
    return scratch


def bucket_file(report) -> None:  # type: ignore[no-untyped-def]
    """``pokertables bucket --file`` on random river lines, as a user runs it: a fresh process
    (start-up and kernel loading included), its answers read from a pipe."""
    import subprocess
    import sys
    import tempfile

    from pipeline.core.cards import card_text

    rng = np.random.default_rng(2905)
    with tempfile.TemporaryDirectory(dir=ROOT / "bench") as tmp:
        folder = _river_folder(Path(tmp))
        spots = Path(tmp) / "river.txt"
        hands = np.argpartition(rng.random((BUCKET_FILE_LINES, 52)), 7, axis=1)[:, :7].tolist()
        spots.write_text("".join(f"{card_text(h[0])}{card_text(h[1])}|"
                                 f"{''.join(card_text(c) for c in h[2:])}\n" for h in hands))
        t0 = time.perf_counter()
        p = subprocess.Popen([sys.executable, "-m", "pipeline", "-a", str(folder), "bucket", "--file",
                              str(spots), "--json"], stdout=subprocess.PIPE, text=True, cwd=ROOT)
        assert p.stdout is not None
        first = p.stdout.readline()
        t_first = time.perf_counter() - t0
        answers = 1 + sum(1 for _ in p.stdout)
        code = p.wait()
        secs = time.perf_counter() - t0
    assert code == 0 and first.startswith("{") and answers == BUCKET_FILE_LINES, (code, answers)
    report.value("bucket_file_s", round(secs, 2),
                 f"  bucket --file, {BUCKET_FILE_LINES:,} river lines: {secs:.2f} s, first answer "
                 f"after {t_first:.2f} s")
    report.value("bucket_file_first_s", round(t_first, 2))
    report.target(f"bucket --file {BUCKET_FILE_LINES:,} river lines <= {BUCKET_FILE_TARGET_S:g} s",
                  secs <= BUCKET_FILE_TARGET_S, f"{secs:.2f} s")
    report.target(f"bucket --file first answer <= {FIRST_ANSWER_TARGET_S:g} s",
                  t_first <= FIRST_ANSWER_TARGET_S, f"{t_first:.2f} s")
