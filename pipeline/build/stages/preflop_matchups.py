"""Stage ``preflop_matchups``: exact heads-up counts of every pair of the 1,326 starting hands.

reads:   eval_tables.h5 (the cache-resident evaluator)
writes:  preflop_matchups.h5 (/win, /tie uint32[1326, 1326], /hands/cards uint8[1326, 2]),
         parquet/preflop_matchups.parquet (169 x 169 class matrix), preflop_matchups.png
config:  [preflop_matchups] enabled

One exact count per suit-isomorphism class of disjoint hand pairs (47,008 classes, all
1,712,304 boards each: a weighted pass over the boards' rank multisets plus exact corrections
on the boards where a flush is possible, :mod:`pipeline.equity.exact.headsup_preflop`), in parallel
over classes, expanded to all 812,175 pairs in both orientations.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import h5py
import numpy as np
import pyarrow as pa

from pipeline.build.config import BuildConfig
from pipeline.build.stages import Context, Stage
from pipeline.build.store import atomic_path, write_parquet_atomic
from pipeline.core.constants import N_HAND_CLASSES, N_HOLE_PAIRS
from pipeline.equity.exact.matchups import (
    MATCHUP_BOARDS,
    expand,
    hand_cards,
    matchup_classes,
    solve_classes,
)
from pipeline.equity.hands.starting_hands import hand_classes
from pipeline.query.artifacts import map_eval_tables

OUTPUTS = ("preflop_matchups.h5", "parquet/preflop_matchups.parquet", "preflop_matchups.png")
INDEX_FORMULA = "hand index = C(c1,1) + C(c2,2) = c1 + c2*(c2-1)/2 for its card ids c1 < c2 (colex)"


def stages(config: BuildConfig) -> list[Stage]:
    """The single ``preflop_matchups`` stage."""
    return [Stage("preflop_matchups", OUTPUTS, run, inputs=("eval_tables.h5",),
                  settings=config.section("preflop_matchups"))]


#: Integers up to this size are exact in float64, whatever order they are added in.
EXACT_FLOAT = 2**53


def _class_sums(onehot: np.ndarray, m: np.ndarray) -> np.ndarray:
    """int64[169, 169]: sums of ``m`` (1326 x 1326, non-negative integers) over class blocks.

    Computed as float64 matrix products (BLAS; numpy's int64 matmul has no fast path): every
    partial sum is an integer at most ``m.sum()``, exact in float64 below 2**53, so the result
    is the exact integer sum.
    """
    if float(m.sum(dtype=np.float64)) >= EXACT_FLOAT:
        raise AssertionError("class sums would exceed float64's exact integer range")
    return (onehot.T @ m.astype(np.float64) @ onehot).astype(np.int64)


def class_matrix(win: np.ndarray, tie: np.ndarray, cls: np.ndarray) -> dict[str, np.ndarray]:
    """169 x 169 sums over disjoint hand pairs: pairs, win, tie, lose (row class vs column class)."""
    cards = hand_cards().astype(np.int64)
    masks = (np.int64(1) << cards[:, 0]) | (np.int64(1) << cards[:, 1])
    disjoint = (masks[:, None] & masks[None, :]) == 0
    onehot = np.zeros((N_HOLE_PAIRS, N_HAND_CLASSES), np.float64)
    onehot[np.arange(N_HOLE_PAIRS), cls] = 1.0
    pairs = _class_sums(onehot, disjoint)
    w = _class_sums(onehot, win)
    t = _class_sums(onehot, tie)
    boards = pairs * MATCHUP_BOARDS
    return {"pairs": pairs, "win": w, "tie": t, "lose": boards - w - t, "boards": boards}


def heat_map(path: Path, equity: np.ndarray, names: list[str], order: np.ndarray) -> None:
    """Write a 169 x 169 PNG of class-vs-class equity (row hand's share of the pot)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    grid = equity[np.ix_(order, order)] * 100
    fig, ax = plt.subplots(figsize=(13, 12), dpi=100)
    im = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=100, interpolation="nearest")
    step = 6
    ticks = np.arange(0, len(order), step)
    ax.set_xticks(ticks, [names[order[i]] for i in ticks], rotation=90, fontsize=6)
    ax.set_yticks(ticks, [names[order[i]] for i in ticks], fontsize=6)
    ax.set_xlabel("villain class")
    ax.set_ylabel("hero class")
    ax.set_title("heads-up preflop equity of hero class vs villain class (exact, combo-weighted), %")
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.03)
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png")
    plt.close(fig)


def run(ctx: Context) -> dict[str, Any]:
    """Enumerate every class, expand, check, write the three outputs."""
    tables = map_eval_tables(ctx.path("eval_tables.h5"))
    ctx.progress("grouping 812,175 hand pairs into suit classes", 0.01)
    classes = matchup_classes()
    t0 = time.perf_counter()
    label = f"counting {len(classes.reps):,} classes x {MATCHUP_BOARDS:,} boards"
    solved = solve_classes(classes.reps, tables, progress=lambda f: ctx.progress(label, 0.02 + 0.9 * f))
    solve_s = time.perf_counter() - t0
    if not np.all(solved[:, :3].sum(axis=1) == MATCHUP_BOARDS):
        raise AssertionError("a class's win/win/tie counts do not cover every board")
    win, tie = expand(classes, solved)
    both = win[classes.first, classes.second].astype(np.int64) + win[classes.second, classes.first]
    if not np.all(both + tie[classes.first, classes.second] == MATCHUP_BOARDS):
        raise AssertionError("win[a,b] + tie[a,b] + win[b,a] must be every board")

    ctx.progress("writing preflop_matchups.h5", 0.93)
    cards = hand_cards()
    with atomic_path(ctx.path("preflop_matchups.h5")) as tmp, h5py.File(tmp, "w", track_order=True) as f:
        f.attrs["title"] = "exact heads-up preflop counts of every pair of starting hands"
        f.attrs["index_formula"] = INDEX_FORMULA
        f.attrs["boards"] = MATCHUP_BOARDS
        f.attrs["classes"] = len(classes.reps)
        f.attrs["pairs"] = len(classes.first)
        # boards looked at one by one (rank multisets and flush-capable boards); the rest by weight
        f.attrs["evaluations"] = int(solved[:, 3].sum())
        f.attrs["definitions"] = ("win[a, b] = boards where hand a (row) beats hand b (column); "
                                  "tie[a, b] = boards where they tie; lose[a, b] = win[b, a]; "
                                  "all 0 when a and b share a card")
        f.attrs["method"] = ("one exact count per suit-isomorphism class (rank multisets weighted "
                             "by their deals, plus corrections on flush-capable boards), "
                             "expanded by the 24 suit permutations")
        for name, arr in (("win", win), ("tie", tie)):
            f.create_dataset(name, data=arr)
            f[name].attrs["index_formula"] = INDEX_FORMULA
        g = f.create_group("hands")
        g["cards"] = cards
        g["cards"].attrs["index_formula"] = INDEX_FORMULA

    ctx.progress("class matrix, Parquet and heat map", 0.96)
    cls, names, _rows, _cols, _combos = hand_classes()
    m = class_matrix(win, tie, cls)
    equity = (m["win"] + m["tie"] / 2) / np.maximum(m["boards"], 1)
    grid_h, grid_v = np.meshgrid(np.arange(N_HAND_CLASSES), np.arange(N_HAND_CLASSES), indexing="ij")
    hero, vill = grid_h.ravel(), grid_v.ravel()
    name_arr = np.array(names, dtype=object)
    table = pa.table({
        "hero": pa.array(name_arr[hero].tolist(), pa.string()),
        "villain": pa.array(name_arr[vill].tolist(), pa.string()),
        "pairs": pa.array(m["pairs"].ravel(), pa.int64()),
        "boards": pa.array(m["boards"].ravel(), pa.int64()),
        "win": pa.array(m["win"].ravel(), pa.int64()),
        "tie": pa.array(m["tie"].ravel(), pa.int64()),
        "lose": pa.array(m["lose"].ravel(), pa.int64()),
        "equity": pa.array(equity.ravel(), pa.float64()),
    })
    write_parquet_atomic(table, ctx.path("parquet/preflop_matchups.parquet"), compression="zstd")
    heat_map(ctx.path("preflop_matchups.png"), equity, names, np.arange(N_HAND_CLASSES))
    return {"classes": len(classes.reps), "enumerate_seconds": round(solve_s, 1),
            "evaluations": int(solved[:, 3].sum())}
