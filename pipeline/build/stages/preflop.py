"""Stage ``preflop``: every starting hand's win probability before the flop.

reads:   seven.h5 (memory-mapped 7-card scores: the exact heads-up pass),
         eval_tables.h5 (the cache-resident evaluator: the Monte Carlo rounds)
writes:  preflop.h5, parquet/preflop.parquet, preflop_equity.png
config:  [preflop] enabled, heads_up (bool), opponents (list, e.g. 2..9), stderr_target,
         seed, first_round, max_samples

* heads-up, exact: win/tie/lose counts of all 1,326 hands (and the 169 classes) against one
  random hand over all 2,097,572,400 deals each, by the board-major pass over the 134,459
  suit-canonical boards in :func:`pipeline.equity.exact.allhands.heads_up_all_hands` (one task);
* 2..9 random opponents, Monte Carlo: every sampled deal (board + opponents) serves every
  hero hand it leaves room for; rounds are added until each class's standard error (batch
  means over 64 independent streams) is at most ``stderr_target``. A round is 64 chunks of
  equal size, each a pure function of (seed, chunk id, samples), run as tasks of 8 chunks on
  the build's executor, so any number of Dask workers gives the same bytes;
* a 13x13 heat map of the heads-up equities (pairs on the diagonal, suited above, offsuit
  below), for people to look at.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import h5py
import numpy as np
import pyarrow as pa

from pipeline.build.config import BuildConfig
from pipeline.build.stages import Context, Stage
from pipeline.build.store import atomic_path, map_dataset, write_parquet_atomic
from pipeline.core.cards import RANKS, format_cards
from pipeline.core.constants import SHARE_SCALE
from pipeline.core.evaluate import seven_scores
from pipeline.core.fasteval import EvalTables, read_only
from pipeline.equity.exact.allhands import N_CHUNKS, heads_up_all_hands, mc_all_hands
from pipeline.equity.hands.starting_hands import hand_classes
from pipeline.query.artifacts import map_eval_tables

OUTPUTS = ("preflop.h5", "parquet/preflop.parquet", "preflop_equity.png")
DEFAULTS: dict[str, Any] = {"heads_up": True, "opponents": list(range(2, 10)),
                            "stderr_target": 0.001, "seed": 20240601, "first_round": 40_000,
                            "max_samples": 2_000_000}
KEYS = tuple(DEFAULTS)
#: Monte Carlo chunks per task (a round has N_CHUNKS chunks, so N_CHUNKS / this tasks)
CHUNKS_PER_TASK = 8


def stages(config: BuildConfig) -> list[Stage]:
    """The single ``preflop`` stage."""
    settings = {**DEFAULTS, **config.section("preflop")}
    return [Stage("preflop", OUTPUTS, run, inputs=("seven.h5", "eval_tables.h5"),
                  settings=settings)]


def _class_stats(acc: np.ndarray, cls: np.ndarray) -> dict[str, np.ndarray]:
    """Pool per-hand Monte Carlo counts by class; standard error by batch means over chunks."""
    nb = acc.shape[0]
    per = np.zeros((nb, 169, 4), np.int64)
    for k in range(4):
        for b in range(nb):
            per[b, :, k] = np.bincount(cls, weights=acc[b, :, k], minlength=169).astype(np.int64)
    tot = per.sum(axis=0)
    obs = tot[:, 0].astype(np.float64)
    eq = tot[:, 3] / (SHARE_SCALE * obs)
    batch = per[:, :, 3] / (SHARE_SCALE * np.maximum(per[:, :, 0], 1))
    se = batch.std(axis=0, ddof=1) / math.sqrt(nb)
    return {"equity": eq, "stderr": se, "win": tot[:, 1] / obs, "tie": tot[:, 2] / obs,
            "observations": tot[:, 0]}


def heads_up_task(table7: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """Pure task: exact heads-up counts of all 1,326 hands (int64[1326, 3]) and the worker pid."""
    return heads_up_all_hands(seven_scores() if table7 is None else table7), os.getpid()


def mc_task(opponents: int, per_chunk: int, seed: int, stream0: int, n_chunks: int,
            tables: EvalTables) -> tuple[np.ndarray, int]:
    """Pure task: Monte Carlo chunks ``stream0 .. stream0 + n_chunks - 1`` of one round.

    Chunk ``c`` deals ``per_chunk`` samples from its own stream ``(seed, c)``, so the counts
    (int64[n_chunks, 1326, 4]) depend only on the chunk ids, never on which worker or how
    many workers ran them. The evaluator's tables (190 kB) travel with the task. Also returns
    the worker pid (evidence for the scale-out tests).
    """
    acc = mc_all_hands(opponents, per_chunk * n_chunks, seed, stream0, n_chunks, *tables)
    return acc, os.getpid()


def _submit_round(ctx: Context, n: int, seed: int, stream0: int, per_chunk: int,
                  tables: EvalTables) -> list[Any]:
    return [ctx.executor.submit(mc_task, n, per_chunk, seed, stream0 + c, CHUNKS_PER_TASK, tables)
            for c in range(0, N_CHUNKS, CHUNKS_PER_TASK)]


def _multiway_all(ctx: Context, opps: list[int], settings: dict[str, Any], cls: np.ndarray,
                  tables: EvalTables, pids: set[int]
                  ) -> tuple[dict[int, dict[str, np.ndarray]], dict[int, int]]:
    """Monte Carlo for every opponent count, adding rounds until every class meets the target.

    A round is ``N_CHUNKS`` chunks of equal size (a multiple of N_CHUNKS samples), split into
    tasks of CHUNKS_PER_TASK chunks; the rounds of all opponent counts are in flight together.
    """
    target = float(settings["stderr_target"])
    cap = int(settings["max_samples"])
    first = max(int(settings["first_round"]) // N_CHUNKS, 1)
    pending = {n: _submit_round(ctx, n, int(settings["seed"]) + 1000 * n, 0, first, tables)
               for n in opps}
    acc: dict[int, np.ndarray] = {}
    done = {n: first * N_CHUNKS for n in opps}
    rounds = {n: 1 for n in opps}
    out: dict[int, dict[str, np.ndarray]] = {}
    while pending:
        for n in [m for m in opps if m in pending]:
            parts = [h.result() for h in pending.pop(n)]
            pids.update(p for _, p in parts)
            chunk = np.concatenate([a for a, _ in parts], axis=0)
            acc[n] = chunk if n not in acc else acc[n] + chunk
            stats = _class_stats(acc[n], cls)
            worst = float(stats["stderr"].max())
            # stderr falls like 1/sqrt(samples): aim 15% past the estimate, at least 20% more
            want = int(done[n] * (worst / (0.9 * target)) ** 2) - done[n]
            more = min(max(want, done[n] // 5, 10_000), cap - done[n]) // N_CHUNKS
            if worst <= 0.95 * target or more <= 0:
                out[n] = stats
                continue
            ctx.progress(f"{n} opponents: Monte Carlo round {rounds[n] + 1}",
                         0.2 + 0.7 * len(out) / max(len(opps), 1))
            pending[n] = _submit_round(ctx, n, int(settings["seed"]) + 1000 * n,
                                       rounds[n] * N_CHUNKS, more, tables)
            done[n] += more * N_CHUNKS
            rounds[n] += 1
    return out, done


def heat_map(path: Path, equity: np.ndarray, names: list[str], rows: np.ndarray,
             cols: np.ndarray, title: str) -> None:
    """Write a 13x13 PNG chart of per-class equities (percent in each cell)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    grid = np.zeros((13, 13))
    grid[rows, cols] = equity
    fig, ax = plt.subplots(figsize=(10, 9.4), dpi=110)
    im = ax.imshow(grid * 100, cmap="RdYlGn", vmin=30, vmax=86)
    for k, name in enumerate(names):
        v = equity[k] * 100
        ax.text(cols[k], rows[k] - 0.15, name, ha="center", va="center", fontsize=8.5,
                fontweight="bold")
        ax.text(cols[k], rows[k] + 0.22, f"{v:.1f}", ha="center", va="center", fontsize=7.5)
    ax.set_xticks(range(13), list(RANKS[::-1]))
    ax.set_yticks(range(13), list(RANKS[::-1]))
    ax.tick_params(length=0)
    ax.set_title(title, fontsize=11)
    cb = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.03)
    cb.set_label("equity, % of the pot")
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png")
    plt.close(fig)


def run(ctx: Context) -> dict[str, Any]:
    """Compute and write the preflop tables and the chart."""
    settings = {**DEFAULTS, **ctx.config.section("preflop")}
    table7 = np.asarray(map_dataset(ctx.path("seven.h5"), "score"))
    # in-memory copies (190 kB), so the Monte Carlo tasks carry plain arrays to any worker
    tables = read_only(EvalTables(*map(np.array, map_eval_tables(ctx.path("eval_tables.h5")))))
    cls, names, rows, cols, combos = hand_classes()
    hands = np.array([(a, b) for b in range(52) for a in range(b)], dtype=np.uint8)
    hand_text = np.array([format_cards([b, a]) for a, b in hands], dtype="S5")

    # workers compute their own 7-card table; in this process the artifact is memory-mapped
    shared: dict[str, Any] = {} if ctx.executor.distributed else {"table7": table7}
    pids: set[int] = set()
    opps = [int(n) for n in settings["opponents"]]
    ctx.progress("heads-up: exact over 134,459 canonical boards", 0.02)
    hu_handle = ctx.executor.submit(heads_up_task, **shared)
    if not ctx.executor.distributed:
        hu, pid = hu_handle.result()  # local: heads-up first, then the Monte Carlo rounds
        pids.add(pid)
    mw, mw_samples = _multiway_all(ctx, opps, settings, cls, tables, pids)
    if ctx.executor.distributed:
        hu, pid = hu_handle.result()
        pids.add(pid)
    deals = int(hu[0].sum())
    if not np.all(hu.sum(axis=1) == deals):
        raise AssertionError("every hand must see the same number of deals")
    hu_eq = (hu[:, 0] + hu[:, 1] / 2) / deals
    cwin = np.bincount(cls, weights=hu[:, 0], minlength=169).astype(np.int64)
    ctie = np.bincount(cls, weights=hu[:, 1], minlength=169).astype(np.int64)
    close = np.bincount(cls, weights=hu[:, 2], minlength=169).astype(np.int64)
    cdeals = combos * deals
    c_eq = (cwin + ctie / 2) / cdeals


    ctx.progress("writing preflop.h5", 0.92)
    with atomic_path(ctx.path("preflop.h5")) as tmp:
        with h5py.File(tmp, "w") as f:
            f.attrs["title"] = "preflop win probability of every starting hand"
            f.attrs["definitions"] = ("win = strictly best hand; tie = shares the best hand; "
                                      "lose = someone strictly better; equity = expected pot "
                                      "share, a k-way tie paying 1/k")
            g = f.create_group("hands")
            g["cards"] = hands
            g["cards"].attrs["index_scheme"] = "row i = the two cards with colex index i"
            g["text"] = hand_text
            g["class"] = cls.astype(np.uint8)
            h = f.create_group("heads_up")
            h.attrs["method"] = "exact enumeration (board-major, suit-symmetric)"
            h.attrs["deals_per_hand"] = deals
            for k, name in enumerate(("win", "tie", "lose")):
                h[name] = hu[:, k]
            h["equity"] = hu_eq
            c = f.create_group("classes")
            c["name"] = np.array(names, dtype="S3")
            c["row"] = rows.astype(np.uint8)
            c["col"] = cols.astype(np.uint8)
            c["combos"] = combos
            c["hu_win"] = cwin
            c["hu_tie"] = ctie
            c["hu_lose"] = close
            c["hu_deals"] = cdeals
            c["hu_equity"] = c_eq
            if opps:
                m = f.create_group("multiway")
                m.attrs["method"] = ("Monte Carlo; each deal serves every hand it leaves room "
                                     "for; stderr by batch means over 64 independent streams")
                m.attrs["stderr_target"] = float(settings["stderr_target"])
                m.attrs["seed"] = int(settings["seed"])
                m["opponents"] = np.array(opps, dtype=np.int64)
                m["samples"] = np.array([mw_samples[n] for n in opps], dtype=np.int64)
                for key in ("equity", "stderr", "win", "tie"):
                    m[key] = np.stack([mw[n][key] for n in opps], axis=1)
                m["observations"] = np.stack([mw[n]["observations"] for n in opps], axis=1)

    ctx.progress("writing preflop.parquet", 0.95)
    cols_pa: dict[str, Any] = {
        "class": pa.array(names), "row": pa.array(rows.astype(np.uint8)),
        "col": pa.array(cols.astype(np.uint8)),
        "kind": pa.array(["pair" if n[0] == n[1] else ("suited" if n.endswith("s") else "offsuit")
                          for n in names]),
        "combos": pa.array(combos), "hu_win": pa.array(cwin), "hu_tie": pa.array(ctie),
        "hu_lose": pa.array(close), "hu_deals": pa.array(cdeals), "hu_equity": pa.array(c_eq),
    }
    for n in opps:
        cols_pa[f"equity_vs{n}"] = pa.array(mw[n]["equity"])
        cols_pa[f"stderr_vs{n}"] = pa.array(mw[n]["stderr"])
        cols_pa[f"win_vs{n}"] = pa.array(mw[n]["win"])
        cols_pa[f"tie_vs{n}"] = pa.array(mw[n]["tie"])
    write_parquet_atomic(pa.table(cols_pa), ctx.path("parquet/preflop.parquet"),
                         compression="zstd")

    ctx.progress("drawing preflop_equity.png", 0.97)
    heat_map(ctx.path("preflop_equity.png"), c_eq, names, rows, cols,
             "Heads-up preflop equity vs one random hand (exact, % of pot)\n"
             "pairs on the diagonal, suited above, offsuit below")
    ctx.progress("done", 1.0)
    worst = {n: float(mw[n]["stderr"].max()) for n in opps}
    return {"deals_per_hand": deals, "multiway_samples": mw_samples, "max_stderr": worst,
            "task_pids": sorted(pids)}
