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
