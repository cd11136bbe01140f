"""Stages ``abstraction:<street>``: exact card-abstraction figures of every suit-isomorphic class.

reads:   seven.h5 (the 7-card scores)
writes:  abstraction/<street>.h5 and parquet/abstraction/<street>.parquet per street
         (preflop 169, flop 1,286,792, turn 13,960,050, river 123,156,254 classes)
config:  [abstraction] enabled (off by default: minutes of work), bins, streets

A class's index is :func:`pipeline.abstraction.index` (imperfect recall: the hole and the
board are one group each, up to suit permutation); row ``i`` of every dataset describes class
``i``. The river and preflop files come from one pass over the 134,459 canonical 5-card boards
(:func:`pipeline.abstraction.strength.river_and_preflop`); turn and flop each from one pass over
their canonical boards, one river showdown per completion.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import h5py
import numpy as np
import pyarrow as pa

from pipeline.abstraction.buckets import DEFAULT_ITERATIONS, kmedians_emd
from pipeline.abstraction.indexer import class_count, unindex_batch
from pipeline.abstraction.shapes import STREETS
from pipeline.abstraction.strength import (
    RIVER_OPPONENTS,
    RIVER_SCALE,
    Figures,
    future_block,
    future_figures,
    river_and_preflop,
)
from pipeline.build.config import BuildConfig
from pipeline.build.stages import Context, Stage
from pipeline.build.store import atomic_path
from pipeline.errors import ConfigError
from pipeline.query.artifacts import map_dataset

#: Off unless the config switches it on (`pokertables build abstraction` builds it regardless).
ENABLED_BY_DEFAULT = False
#: Keys the [abstraction] section takes.
KEYS = ("bins", "streets", "flop_buckets", "turn_buckets", "seed", "iterations")
#: Histogram bins over river equity 0..1 (width 0.02), as in the abstraction literature.
DEFAULT_BINS = 50
#: Buckets per street: 200, as in published blueprint abstractions (Pluribus-style), a size a
#: CFR solver still holds in memory with every flop and turn action abstraction.
DEFAULT_BUCKETS = 200
#: Streets whose classes are clustered by their equity histograms.
BUCKETED = ("flop", "turn")
DEFAULTS: dict[str, Any] = {"bins": DEFAULT_BINS, "streets": list(STREETS),
                            "flop_buckets": DEFAULT_BUCKETS, "turn_buckets": DEFAULT_BUCKETS,
                            "seed": 1, "iterations": DEFAULT_ITERATIONS}
#: Rows per Parquet row group (and per unindex batch): bounds the memory of the big streets.
PARQUET_BATCH = 1 << 22
#: Progress blocks of a pass (the result does not depend on them).
BLOCKS = 16
INDEX_DOC = ("row i = class i of pipeline.abstraction.index(hole, board): suit-isomorphism "
             "classes with the hole and the board as one group each (docs/ALGORITHM.md)")


def outputs(street: str) -> tuple[str, ...]:
    """The files stage ``abstraction:<street>`` writes."""
    return (f"abstraction/{street}.h5", f"parquet/abstraction/{street}.parquet")


def stages(config: BuildConfig) -> list[Stage]:
    """One figures stage per street named in the config (river and preflop share one pass: the
    preflop stage runs it too, rather than reading the river's output), then one buckets stage
    per bucketed street (``abstraction:<street>-buckets``, reading that street's figures)."""
    settings = {**DEFAULTS, **config.section("abstraction")}
    streets = [s for s in STREETS if s in settings["streets"]]
    out = [Stage(f"abstraction:{s}", outputs(s), _runner(s), inputs=("seven.h5",),
                 settings={"bins": settings["bins"], "street": s}) for s in streets]
    for s in BUCKETED:
        if s in streets:
            if settings[f"{s}_buckets"] > class_count(s):
                raise ConfigError(f"[abstraction] {s}_buckets = {settings[f'{s}_buckets']:,} is more "
                                  f"than the {class_count(s):,} {s} classes")
            keys = {"buckets": settings[f"{s}_buckets"], "seed": settings["seed"],
                    "iterations": settings["iterations"], "street": s}
            out.append(Stage(f"abstraction:{s}-buckets", (f"abstraction/{s}_buckets.h5",),
                             _bucket_runner(s, keys), inputs=(f"abstraction/{s}.h5",), settings=keys))
    return out


def _runner(street: str) -> Any:
    def run(ctx: Context) -> dict[str, Any]:
        return build_street(ctx, street)
    return run


def _bucket_runner(street: str, keys: dict[str, Any]) -> Any:
    def run(ctx: Context) -> dict[str, Any]:
        return build_buckets(ctx, street, int(keys["buckets"]), int(keys["seed"]),
                             int(keys["iterations"]))
    return run


def build_buckets(ctx: Context, street: str, k: int, seed: int, iterations: int) -> dict[str, Any]:
    """Cluster a street's classes by their equity histograms (EMD k-medians), weighted by the
    situations each class stands for, and write ``abstraction/<street>_buckets.h5``."""
    src = ctx.path(f"abstraction/{street}.h5")
    with h5py.File(src, "r") as f:
        hist = np.asarray(f["hist"][:])
        weight = np.asarray(f["weight"][:])
        completions = int(f.attrs["completions"])
    ctx.progress(f"clustering {len(hist):,} {street} classes into {k} buckets", 0.05)
    t0 = time.perf_counter()
    c = kmedians_emd(hist, weight, k, seed, iterations)
    seconds = time.perf_counter() - t0
    # objectives in equity units: weighted mean EMD between a class's histogram and its centre
    scale = float(weight.sum(dtype=np.int64)) * completions * hist.shape[1]
    with atomic_path(ctx.path(f"abstraction/{street}_buckets.h5")) as tmp, h5py.File(tmp, "w") as f:
        f.attrs["street"] = street
        f.attrs["buckets"] = k
        f.attrs["seed"] = seed
        f.attrs["iterations"] = c.iterations
        f.attrs["method"] = ("weighted k-medians of the classes' cumulative equity histograms "
                             "under L1 (= earth mover's distance between the histograms), "
                             "k-means++ seeding, weights = situations per class")
        f.attrs["objective_emd"] = c.objective / scale
        f.attrs["random_assignment_emd"] = c.random_objective / scale
        f.create_dataset("bucket", data=c.labels)
        f.create_dataset("centre_cdf", data=c.centres.astype(np.int32))
    return {"buckets": k, "iterations": c.iterations, "seconds": round(seconds, 1),
            "objective_emd": round(c.objective / scale, 6),
            "random_assignment_emd": round(c.random_objective / scale, 6)}


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
    """Count one street's figures, then write its HDF5 and Parquet files."""
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


def write_parquet(path: Any, fig: Figures) -> None:
    """One row per class: canonical cards, weight, EHS, EHS² (and the histogram off the river)."""
    import pyarrow.parquet as pq

    n = len(fig.weight)
    k = STREETS[fig.street]
    ehs = fig.ehs()
    ehs2 = fig.ehs2()
    schema_cols: dict[str, pa.DataType] = {"index": pa.int64(), "hole": pa.list_(pa.uint8(), 2),
                                           "board": pa.list_(pa.uint8(), k) if k else pa.list_(pa.uint8()),
                                           "weight": pa.uint8(), "ehs": pa.float64(), "ehs2": pa.float64()}
    if fig.hist is not None:
        schema_cols["histogram"] = pa.list_(pa.uint16(), fig.bins)
    schema = pa.schema(list(schema_cols.items()))
    with atomic_path(path) as tmp, pq.ParquetWriter(tmp, schema, compression="zstd") as w:
        for lo in range(0, n, PARQUET_BATCH):
            hi = min(n, lo + PARQUET_BATCH)
            idx = np.arange(lo, hi, dtype=np.int64)
            cards = unindex_batch(fig.street, idx, check=False)
            cols: dict[str, pa.Array] = {
                "index": pa.array(idx),
                "hole": pa.FixedSizeListArray.from_arrays(pa.array(cards[:, :2].ravel()), 2),
                "board": (pa.FixedSizeListArray.from_arrays(pa.array(cards[:, 2:].ravel()), k) if k
                          else pa.array([[]] * (hi - lo), pa.list_(pa.uint8()))),
                "weight": pa.array(fig.weight[lo:hi]),
                "ehs": pa.array(ehs[lo:hi]),
                "ehs2": pa.array(ehs2[lo:hi]),
            }
            if fig.hist is not None:
                h = fig.hist[lo:hi].astype(np.uint16)
                cols["histogram"] = pa.FixedSizeListArray.from_arrays(pa.array(h.ravel()), fig.bins)
            w.write_table(pa.table(cols, schema=schema))


__all__ = ["ENABLED_BY_DEFAULT", "KEYS", "DEFAULTS", "outputs", "stages", "build_street",
           "write_h5", "write_parquet"]
