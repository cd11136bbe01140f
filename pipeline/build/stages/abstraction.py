"""Stages ``abstraction:<street>``: exact card-abstraction figures of every suit-isomorphic class.

reads:   seven.h5 (the 7-card scores)
writes:  abstraction/<street>.h5 per street (preflop 169, flop 1,286,792, turn 13,960,050,
         river 123,156,254 classes); abstraction/river_ochs.h5 (the river against K opponent
         clusters); abstraction/<street>_buckets.h5 and parquet/abstraction/<street>.parquet
         (one row per class, with its bucket) per bucketed street; preflop.parquet
config:  [abstraction] enabled (off by default: minutes of work), bins, streets, *_buckets,
         ochs_clusters, river_sample, seed, iterations

A class's index is :func:`pipeline.abstraction.index` (imperfect recall: the hole and the
board are one group each, up to suit permutation); row ``i`` of every dataset describes class
``i``. The river and preflop files come from one pass over the 134,459 canonical 5-card boards
(:func:`pipeline.abstraction.strength.river_and_preflop`); turn and flop each from one pass over
their canonical boards, one river showdown per completion. The river's OCHS figures need the
preflop classes' histograms (to make the opponent clusters) and come from a second pass over
the river boards (:mod:`pipeline.abstraction.ochs`). The flop and turn are bucketed by EMD
k-medians of their histograms, the river by L2 k-means of its OCHS equities.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import h5py
import numpy as np
import pyarrow as pa

from pipeline.abstraction.buckets import DEFAULT_ITERATIONS, kmedians_emd
from pipeline.abstraction.kmeans import kmeans_l2
from pipeline.abstraction.ochs import DEFAULT_CLUSTERS, ochs_block, ochs_features, opponent_clusters, river_ochs
from pipeline.abstraction.strength import (
    RIVER_OPPONENTS,
    RIVER_SCALE,
    UNSET,
    Figures,
    future_block,
    future_figures,
    river_and_preflop,
)
from pipeline.build.config import BuildConfig
from pipeline.build.stages import Context, Stage
from pipeline.build.store import atomic_path
from pipeline.core.cards import format_cards
from pipeline.core.constants import DECK_SIZE
from pipeline.equity.hands.starting_hands import hand_classes
from pipeline.errors import ConfigError
from pipeline.query.abstraction.clusters import hand_clusters
from pipeline.query.abstraction.indexer import class_count, unindex_batch
from pipeline.query.abstraction.reader import OCHS_FILE
from pipeline.query.abstraction.shapes import STREETS
from pipeline.query.artifacts import map_dataset

#: Off unless the config switches it on (`pokertables build abstraction` builds it regardless).
ENABLED_BY_DEFAULT = False
#: Keys the [abstraction] section takes.
KEYS = ("bins", "streets", "flop_buckets", "turn_buckets", "river_buckets", "ochs_clusters",
        "river_sample", "seed", "iterations")
#: Histogram bins over river equity 0..1 (width 0.02), as in the abstraction literature.
DEFAULT_BINS = 50
#: Buckets per street: 200, as in published blueprint abstractions (Pluribus-style), a size a
#: CFR solver still holds in memory with every flop and turn action abstraction.
DEFAULT_BUCKETS = 200
#: River classes the OCHS k-means iterates on (a seeded uniform sample, 5,000 per default
#: bucket; every class then takes its nearest centre): on 2 M classes a sample of 10% ended
#: within 2% of the full iterations' objective in a sixth of the time.
DEFAULT_RIVER_SAMPLE = 1_000_000
#: Streets with buckets (flop and turn: EMD k-medians of histograms; river: OCHS k-means).
BUCKETED = ("flop", "turn", "river")
DEFAULTS: dict[str, Any] = {"bins": DEFAULT_BINS, "streets": list(STREETS),
                            "flop_buckets": DEFAULT_BUCKETS, "turn_buckets": DEFAULT_BUCKETS,
                            "river_buckets": DEFAULT_BUCKETS, "ochs_clusters": DEFAULT_CLUSTERS,
                            "river_sample": DEFAULT_RIVER_SAMPLE,
                            "seed": 1, "iterations": DEFAULT_ITERATIONS}
#: (seconds, bytes written) of each stage on the 2-core reference machine, for ``build
#: --dry-run`` before a first build (docs/ALGORITHM.md, "Card-abstraction figures and buckets",
#: has the measurements; file sizes as in artifacts/README.md). The figures stages take 4 min
#: 20 s; in all about 11 min and 5.1 GB: 3.6 GB of HDF5 and 1.5 GB of Parquet, most of it the
#: river's OCHS counts (2.0 GB) and its 123 M-row Parquet (1.2 GB).
ESTIMATES: dict[str, tuple[float, int]] = {
    "abstraction:preflop": (60.0, 30_000),            # one river pass (shared with the river's)
    "abstraction:flop": (100.0, 145_000_000),
    "abstraction:turn": (60.0, 880_000_000),
    "abstraction:river": (40.0, 370_000_000),
    "abstraction:river-ochs": (60.0, 1_970_000_000),
    "abstraction:flop-buckets": (60.0, 50_000_000),
    "abstraction:turn-buckets": (80.0, 250_000_000),
    "abstraction:river-buckets": (200.0, 1_450_000_000),  # 0.25 GB of buckets, 1.2 GB Parquet
}
#: Rows per Parquet row group (and per unindex batch): bounds the memory of the big streets.
PARQUET_BATCH = 1 << 22
#: Progress blocks of a pass (the result does not depend on them).
BLOCKS = 16
INDEX_DOC = ("row i = class i of pipeline.abstraction.index(hole, board): suit-isomorphism "
             "classes with the hole and the board as one group each (docs/ALGORITHM.md)")


def outputs(street: str) -> tuple[str, ...]:
    """The files stage ``abstraction:<street>`` writes (a bucketed street's Parquet, which has
    the bucket column, comes from its buckets stage)."""
    if street in BUCKETED:
        return (f"abstraction/{street}.h5",)
    return (f"abstraction/{street}.h5", f"parquet/abstraction/{street}.parquet")


def stages(config: BuildConfig) -> list[Stage]:
    """One figures stage per street named in the config (river and preflop share one pass: the
    preflop stage runs it too, rather than reading the river's output), then one buckets stage
    per bucketed street (``abstraction:<street>-buckets``, reading that street's figures)."""
    settings = {**DEFAULTS, **config.section("abstraction")}
    streets = [s for s in STREETS if s in settings["streets"]]
    out = [Stage(f"abstraction:{s}", outputs(s), _runner(s), inputs=("seven.h5",),
                 settings={"bins": settings["bins"], "street": s},
                 estimate=ESTIMATES.get(f"abstraction:{s}")) for s in streets]
    if "river" in streets and "preflop" not in streets:
        raise ConfigError("[abstraction] streets: the river's OCHS clusters are made from the "
                          "preflop figures; add \"preflop\" to the streets")
    for s in BUCKETED:
        if s not in streets:
            continue
        if settings[f"{s}_buckets"] > class_count(s):
            raise ConfigError(f"[abstraction] {s}_buckets = {settings[f'{s}_buckets']:,} is more "
                              f"than the {class_count(s):,} {s} classes")
        keys = {"buckets": settings[f"{s}_buckets"], "seed": settings["seed"],
                "iterations": settings["iterations"], "street": s, "bins": settings["bins"]}
        inputs: tuple[str, ...] = (f"abstraction/{s}.h5",)
        if s == "river":
            ochs_keys = {"clusters": settings["ochs_clusters"], "seed": settings["seed"]}
            out.append(Stage("abstraction:river-ochs", (OCHS_FILE,), _ochs_runner(ochs_keys),
                             inputs=("seven.h5", "abstraction/preflop.h5"), settings=ochs_keys,
                             estimate=ESTIMATES["abstraction:river-ochs"]))
            keys["sample"] = settings["river_sample"]
            inputs += (OCHS_FILE,)
        out.append(Stage(f"abstraction:{s}-buckets",
                         (f"abstraction/{s}_buckets.h5", f"parquet/abstraction/{s}.parquet"),
                         _bucket_runner(s, keys), inputs=inputs, settings=keys,
                         estimate=ESTIMATES.get(f"abstraction:{s}-buckets")))
    return out


def _runner(street: str) -> Any:
    def run(ctx: Context) -> dict[str, Any]:
        return build_street(ctx, street)
    return run


def _bucket_runner(street: str, keys: dict[str, Any]) -> Any:
    def run(ctx: Context) -> dict[str, Any]:
        if street == "river":
            return build_river_buckets(ctx, int(keys["buckets"]), int(keys["seed"]),
                                       int(keys["iterations"]), int(keys["sample"]))
        return build_buckets(ctx, street, int(keys["buckets"]), int(keys["seed"]),
                             int(keys["iterations"]))
    return run


def _ochs_runner(keys: dict[str, Any]) -> Any:
    def run(ctx: Context) -> dict[str, Any]:
        return build_river_ochs(ctx, int(keys["clusters"]), int(keys["seed"]))
    return run


def read_figures(path: Any) -> Figures:
    """A street's :class:`Figures` back from its ``abstraction/<street>.h5`` (memory-mapped)."""
    with h5py.File(path, "r") as f:
        street = str(f.attrs["street"])
        bins = int(f.attrs["bins"])
        completions = int(f.attrs["completions"])
        names = [n for n in ("value", "s1", "s2", "hist") if n in f]
    arrays = {n: map_dataset(path, n) for n in ["weight", *names]}
    return Figures(street, bins, completions, **arrays)


def _bucket_file(ctx: Context, street: str, k: int, seed: int, iterations: int, method: str,
                 datasets: dict[str, np.ndarray], objectives: dict[str, float]) -> None:
    with atomic_path(ctx.path(f"abstraction/{street}_buckets.h5")) as tmp, h5py.File(tmp, "w") as f:
        f.attrs["street"] = street
        f.attrs["buckets"] = k
        f.attrs["seed"] = seed
        f.attrs["iterations"] = iterations
        f.attrs["method"] = method
        for name, v in objectives.items():
            f.attrs[name] = v
        for name, arr in datasets.items():
            f.create_dataset(name, data=arr)


def build_buckets(ctx: Context, street: str, k: int, seed: int, iterations: int) -> dict[str, Any]:
    """Cluster a street's classes by their equity histograms (EMD k-medians), weighted by the
    situations each class stands for; write ``abstraction/<street>_buckets.h5`` and the
    street's Parquet rows with their buckets."""
    fig = read_figures(ctx.path(f"abstraction/{street}.h5"))
    assert fig.hist is not None
    hist = np.asarray(fig.hist)
    weight = np.asarray(fig.weight)
    ctx.progress(f"clustering {len(hist):,} {street} classes into {k} buckets", 0.05)
    t0 = time.perf_counter()
    c = kmedians_emd(hist, weight, k, seed, iterations)
    seconds = time.perf_counter() - t0
    # objectives in equity units: weighted mean EMD between a class's histogram and its centre
    scale = float(weight.sum(dtype=np.int64)) * fig.completions * hist.shape[1]
    objectives = {"objective_emd": c.objective / scale, "random_assignment_emd": c.random_objective / scale}
    _bucket_file(ctx, street, k, seed, c.iterations,
                 "weighted k-medians of the classes' cumulative equity histograms under L1 (= earth "
                 "mover's distance between the histograms), k-means++ seeding, weights = "
                 "situations per class", {"bucket": c.labels, "centre_cdf": c.centres.astype(np.int32)},
                 objectives)
    ctx.progress(f"writing parquet/abstraction/{street}.parquet", 0.8)
    write_parquet(ctx.path(f"parquet/abstraction/{street}.parquet"), fig, c.labels)
    return {"buckets": k, "iterations": c.iterations, "seconds": round(seconds, 1),
            **{name: round(v, 6) for name, v in objectives.items()}}


def build_river_ochs(ctx: Context, k: int, seed: int) -> dict[str, Any]:
    """Cluster the 169 preflop classes into ``k`` opponent clusters, then count every river
    class's ``2*wins + ties`` against each cluster; write ``abstraction/river_ochs.h5``."""
    pre = read_figures(ctx.path("abstraction/preflop.h5"))
    assert pre.hist is not None
    clusters = opponent_clusters(np.asarray(pre.hist), np.asarray(pre.weight), k, seed)
    table7 = np.asarray(map_dataset(ctx.path("seven.h5"), "score"))
    t0 = time.perf_counter()
    label = f"counting river figures against {k} opponent clusters"
    groups = hand_clusters(clusters.labels)
    shared: dict[str, Any] = {} if ctx.executor.distributed else {"table7": table7}

    def on_executor(parts: list[np.ndarray]) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        handles = [ctx.executor.submit(ochs_block, p, groups, k, **shared) for p in parts]
        return (h.result() for h in handles)
    ochs = river_ochs(table7, groups, k, blocks=BLOCKS, run_blocks=on_executor,
                      progress=lambda f: ctx.progress(label, 0.02 + 0.78 * f))
    seconds = time.perf_counter() - t0
    if np.any(ochs == UNSET):
        raise AssertionError("river OCHS: a class was reached by no board")
    ctx.progress(f"writing {OCHS_FILE}", 0.85)
    scale = float(pre.weight.sum(dtype=np.int64)) * pre.completions * pre.bins
    with atomic_path(ctx.path(OCHS_FILE)) as tmp, h5py.File(tmp, "w", track_order=True) as f:
        f.attrs["street"] = "river"
        f.attrs["classes"] = len(ochs)
        f.attrs["index"] = INDEX_DOC
        f.attrs["clusters"] = k
        f.attrs["seed"] = seed
        f.attrs["definitions"] = (
            "ochs[i, g] = 2*wins + ties of river class i against the live opponent hands of "
            "cluster g; equity against the cluster = ochs / (2*n_g), n_g = hands of cluster g "
            "disjoint from the 7 cards (pipeline.query.abstraction.clusters.cluster_opponents); "
            "class_cluster[c] = cluster of preflop class c (weighted EMD k-medians of the preflop "
            "classes' river-equity histograms, seed `seed`, weights = hands per class)")
        f.attrs["cluster_objective_emd"] = clusters.objective / scale
        f.attrs["cluster_random_assignment_emd"] = clusters.random_objective / scale
        f.create_dataset("ochs", data=ochs)
        f.create_dataset("class_cluster", data=clusters.labels.astype(np.uint8))
        f.create_dataset("cluster_centre_cdf", data=clusters.centres.astype(np.int64))
    return {"clusters": k, "count_seconds": round(seconds, 1),
            "cluster_sizes": np.bincount(clusters.labels, minlength=k).tolist()}


def build_river_buckets(ctx: Context, k: int, seed: int, iterations: int, sample: int) -> dict[str, Any]:
    """Cluster the river classes by their equities against the opponent clusters (L2 k-means,
    weighted by situations per class); write ``abstraction/river_buckets.h5`` and the river's
    Parquet rows with their OCHS figures and buckets."""
    fig = read_figures(ctx.path("abstraction/river.h5"))
    assert fig.value is not None
    ochs = map_dataset(ctx.path(OCHS_FILE), "ochs")
    with h5py.File(ctx.path(OCHS_FILE), "r") as f:
        class_cluster = np.asarray(f["class_cluster"][:])
    t0 = time.perf_counter()
    ctx.progress("equities against the opponent clusters", 0.02)
    x = ochs_features(ochs, fig.value, hand_clusters(class_cluster))
    ctx.progress(f"clustering {len(x):,} river classes into {k} buckets", 0.2)
    c = kmeans_l2(x, fig.weight, k, seed, iterations, sample=sample)
    del x
    seconds = time.perf_counter() - t0
    total = float(np.asarray(fig.weight).sum(dtype=np.int64))
    objectives = {"objective_l2": c.objective / total, "random_assignment_l2": c.random_objective / total}
    _bucket_file(ctx, "river", k, seed, c.iterations,
                 "weighted k-means (squared L2) of the classes' equities against the opponent "
                 f"clusters (OCHS), Lloyd on a seeded sample of {sample:,} classes, then every "
                 "class to its nearest centre; k-means++ seeding, weights = situations per class",
                 {"bucket": c.labels, "centre": c.centres}, objectives)
    ctx.progress("writing parquet/abstraction/river.parquet", 0.7)
    write_parquet(ctx.path("parquet/abstraction/river.parquet"), fig, c.labels, ochs)
    return {"buckets": k, "iterations": c.iterations, "seconds": round(seconds, 1),
            **{name: round(v, 8) for name, v in objectives.items()}}


def _on_executor(ctx: Context, street: str, bins: int, table7: np.ndarray
                 ) -> Callable[[list[np.ndarray]], Iterator[tuple[np.ndarray, ...]]]:
    """Run the board blocks as tasks on the build's executor (Dask workers compute their own
    7-card scores rather than receive 267 MB); results come back in block order."""
    shared: dict[str, Any] = {} if ctx.executor.distributed else {"table7": table7}

    def run(parts: list[np.ndarray]) -> Iterator[tuple[np.ndarray, ...]]:
        handles = [ctx.executor.submit(future_block, street, bins, p, **shared) for p in parts]
        return (h.result() for h in handles)
    return run


def build_street(ctx: Context, street: str) -> dict[str, Any]:
    """Count one street's figures, then write its HDF5 file (and preflop's Parquet)."""
    bins = int({**DEFAULTS, **ctx.config.section("abstraction")}["bins"])
    table7 = np.asarray(map_dataset(ctx.path("seven.h5"), "score"))
    t0 = time.perf_counter()
    label = f"counting {street} figures"
    prog = lambda f: ctx.progress(label, 0.02 + 0.78 * f)  # noqa: E731
    if street in ("river", "preflop"):
        river, pre = river_and_preflop(table7, bins, progress=prog, blocks=BLOCKS)
        assert pre is not None  # every board was counted
        fig = river if street == "river" else pre
    else:
        fig = future_figures(street, table7, bins, progress=prog, blocks=BLOCKS,
                             run_blocks=_on_executor(ctx, street, bins, table7))
    seconds = time.perf_counter() - t0
    if not np.all(fig.weight > 0):
        raise AssertionError(f"{street}: a class was reached by no board")
    ctx.progress(f"writing abstraction/{street}.h5", 0.82)
    write_h5(ctx.path(f"abstraction/{street}.h5"), fig)
    if street not in BUCKETED:
        ctx.progress(f"writing parquet/abstraction/{street}.parquet", 0.9)
        write_parquet(ctx.path(f"parquet/abstraction/{street}.parquet"), fig)
    return {"classes": int(len(fig.weight)), "count_seconds": round(seconds, 1),
            "situations": int(fig.weight.sum(dtype=np.int64))}


def write_h5(path: Any, fig: Figures) -> None:
    """``abstraction/<street>.h5``: one row per class (see the attributes for the meaning)."""
    with atomic_path(path) as tmp, h5py.File(tmp, "w", track_order=True) as f:
        f.attrs["street"] = fig.street
        f.attrs["classes"] = len(fig.weight)
        f.attrs["index"] = INDEX_DOC
        f.attrs["opponents_per_river"] = RIVER_OPPONENTS
        f.attrs["river_scale"] = RIVER_SCALE
        f.attrs["completions"] = fig.completions
        f.attrs["bins"] = fig.bins
        f.attrs["definitions"] = (
            "e = 2*wins + ties of the hand against the 990 opponent hands on one complete board "
            "(0..1980); river: value = e; other streets: s1 = sum of e, s2 = sum of e**2, "
            "hist[b] = rivers with min(e*bins // 1980, bins-1) == b, over the `completions` "
            "rivers; EHS = s1 / (completions*1980), EHS2 = s2 / (completions*1980**2); "
            "weight = card situations (hole set, board set) in the class")
        f.create_dataset("weight", data=fig.weight)
        for name in ("value", "s1", "s2", "hist"):
            arr = getattr(fig, name)
            if arr is not None:
                f.create_dataset(name, data=arr)  # contiguous: readers memory-map it


def cards_text(cards: np.ndarray) -> pa.Array:
    """Each row of card ids as text, highest card first (``As Kh``), as ``five_card_hands.cards``
    shows hands; ``""`` for a row of no cards. Vectorized: a 52-entry lookup, then one join."""
    import pyarrow.compute as pc

    n, k = cards.shape
    if k == 0:
        return pa.array([""] * n, pa.string())
    names = pa.array([format_cards([c]) for c in range(DECK_SIZE)], pa.string())
    desc = np.sort(cards, axis=1)[:, ::-1].astype(np.int64)
    return pc.binary_join_element_wise(*(pc.take(names, pa.array(desc[:, j])) for j in range(k)), " ")


def write_parquet(path: Any, fig: Figures, bucket: np.ndarray | None = None,
                  ochs: np.ndarray | None = None) -> None:
    """One row per class: canonical cards as text, weight, EHS, EHS², the histogram (off the
    river), the river's ``2*wins + ties`` against each opponent cluster and the bucket, when
    given; the preflop file also names the starting-hand class (``AKs``)."""
    import pyarrow.parquet as pq

    n = len(fig.weight)
    k = STREETS[fig.street]
    cols_t: dict[str, pa.DataType] = {"index": pa.int64(), "hole": pa.string(), "board": pa.string()}
    if k == 0:
        cols_t["class"] = pa.string()
    cols_t.update({"weight": pa.uint8(), "ehs": pa.float64(), "ehs2": pa.float64()})
    if fig.hist is not None:
        cols_t["histogram"] = pa.list_(pa.uint16(), fig.bins)
    if ochs is not None:
        cols_t["ochs"] = pa.list_(pa.uint16(), ochs.shape[1])
    if bucket is not None:
        cols_t["bucket"] = pa.uint16()
    schema = pa.schema(list(cols_t.items()))
    with atomic_path(path) as tmp, pq.ParquetWriter(tmp, schema, compression="zstd") as w:
        for lo in range(0, n, PARQUET_BATCH):
            hi = min(n, lo + PARQUET_BATCH)
            idx = np.arange(lo, hi, dtype=np.int64)
            cards = unindex_batch(fig.street, idx, check=False)
            part = Figures(fig.street, fig.bins, fig.completions, np.asarray(fig.weight[lo:hi]),
                           *(None if a is None else np.asarray(a[lo:hi])
                             for a in (fig.value, fig.s1, fig.s2, fig.hist)))
            cols: dict[str, pa.Array] = {"index": pa.array(idx), "hole": cards_text(cards[:, :2]),
                                         "board": cards_text(cards[:, 2:])}
            if k == 0:
                cls, names, *_ = hand_classes()
                a, b = cards[:, :2].min(axis=1).astype(np.int64), cards[:, :2].max(axis=1).astype(np.int64)
                cols["class"] = pa.array([names[c] for c in cls[a + b * (b - 1) // 2]], pa.string())
            cols.update({"weight": pa.array(part.weight), "ehs": pa.array(part.ehs()),
                         "ehs2": pa.array(part.ehs2())})
            if part.hist is not None:
                h = part.hist.astype(np.uint16)
                cols["histogram"] = pa.FixedSizeListArray.from_arrays(pa.array(h.ravel()), fig.bins)
            if ochs is not None:
                o = np.asarray(ochs[lo:hi])
                cols["ochs"] = pa.FixedSizeListArray.from_arrays(pa.array(o.ravel()), o.shape[1])
            if bucket is not None:
                cols["bucket"] = pa.array(np.asarray(bucket[lo:hi], np.uint16))
            w.write_table(pa.table(cols, schema=schema))


__all__ = ["ENABLED_BY_DEFAULT", "KEYS", "DEFAULTS", "OCHS_FILE", "outputs", "stages", "build_street",
           "build_buckets", "build_river_ochs", "build_river_buckets", "read_figures", "write_h5",
           "write_parquet", "cards_text"]
