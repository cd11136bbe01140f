"""Stage family ``casino:<slug>``: one stage per known casino game (:mod:`pipeline.casino`).

reads:   the game file (a source: editing it rebuilds)
writes:  casino/<slug>.h5 (figures, return table, decisions and exact EVs per state, the
         strategies a person can use with their exact costs; :mod:`pipeline.casino.artifact`),
         parquet/casino/return_tables/game=<slug>/part-0.parquet (the return table) and
         parquet/casino/strategy/game=<slug>/part-0.parquet (one row per decision state)
config:  [casino] enabled, slugs = [...] (default: every known game), on_request = [...]

Games named in ``on_request`` (the slow ones: minutes, not seconds) are left out of a plain
``pokertables build`` / ``make tables`` and built when named: ``pokertables build
casino:<slug>``. The key covers every family's code (the families registry imports them all).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa

from pipeline.build.config import BuildConfig
from pipeline.build.score_files import cards_text
from pipeline.build.stages import Context, Stage
from pipeline.build.store import atomic_path, write_parquet_atomic
from pipeline.casino.artifact import artifact_path, write_game_artifact
from pipeline.casino.catalog import game_files
from pipeline.casino.families import FAMILIES
from pipeline.casino.game import load_game_file
from pipeline.casino.play import analyze, strategy_costs
from pipeline.casino.result import CasinoAnalysis
from pipeline.errors import ConfigError

SECTION = "casino"
KEYS = ("slugs", "on_request")
#: (seconds, bytes) a game's stage takes on the 2-core reference machine, for ``--dry-run``,
#: by family (families not listed: not estimated)
ESTIMATES = {"three-card-poker": (1.0, 2_000_000), "hand-bonus": (3.0, 100_000),
             "let-it-ride": (2.0, 20_000_000), "mississippi-stud": (3.0, 40_000_000),
             "caribbean-stud": (45.0, 125_000_000), "ultimate-texas-holdem": (120.0, 150_000_000)}


def outputs_for(slug: str) -> tuple[str, str, str]:
    """Artifact paths (relative to artifacts/) written by ``casino:<slug>``."""
    return (artifact_path(slug), f"parquet/casino/return_tables/game={slug}/part-0.parquet",
            f"parquet/casino/strategy/game={slug}/part-0.parquet")


def stages(config: BuildConfig) -> list[Stage]:
    """One ``casino:<slug>`` stage per game file (files are listed here, parsed by their stage)."""
    section = config.section(SECTION)
    known = game_files()
    wanted = section.get("slugs", list(known))
    slow = set(section.get("on_request", []))
    for slug in [*wanted, *slow]:
        if slug not in known:
            raise ConfigError(f"{config.path or 'build config'}: [casino] unknown game {slug!r}; "
                              f"known: {', '.join(known)}")
    out = []
    for slug in sorted(set(wanted) | slow):
        path = known[slug]
        out.append(Stage(f"casino:{slug}", outputs_for(slug), _runner(path), settings={"file": path.name},
                         sources=(path,), on_request=slug in slow, estimate=_estimate(path)))
    return out


def _estimate(path: Path) -> tuple[float, int] | None:
    try:
        return ESTIMATES.get(load_game_file(path, FAMILIES).family)
    except ValueError:
        return None


def _runner(path: Path) -> Callable[[Context], None]:
    def run(ctx: Context) -> None:
        build_game(ctx, path)
    return run


def build_game(ctx: Context, path: Path) -> None:
    """Analyse one game exactly and write its HDF5 artifact and Parquet tables."""
    game = load_game_file(path, FAMILIES)
    h5_rel, rt_rel, st_rel = outputs_for(game.slug)
    ctx.progress(f"{game.family}: exact analysis", 0.05)
    a = analyze(game, executor=ctx.executor)
    ctx.progress(f"house edge {float(a.house_edge):.5%}; strategies a person can use", 0.5)
    costs = strategy_costs(game, a, ctx.executor)
    ctx.progress(f"writing {h5_rel}", 0.7)
    with atomic_path(ctx.path(h5_rel)) as tmp:
        write_game_artifact(a, game, costs, tmp)
    ctx.progress(f"writing {rt_rel}", 0.85)
    write_parquet_atomic(return_table(a), ctx.path(rt_rel), compression="zstd")
    write_parquet_atomic(strategy_table(a), ctx.path(st_rel), compression="zstd")
    ctx.progress("done", 1.0)


def return_table(a: CasinoAnalysis) -> pa.Table:
    """Arrow table: one row per outcome of the return table."""
    n = a.combinations
    tbl = pa.table({
        "row": pa.array(range(len(a.rows)), pa.int32()),
        "outcome": pa.array([r.outcome for r in a.rows]),
        "net_win": pa.array([float(r.net_win) for r in a.rows]),
        "net_win_exact": pa.array([f"{r.net_win.numerator}/{r.net_win.denominator}" for r in a.rows]),
        "total_bet": pa.array([float(r.total_bet) for r in a.rows]),
        "combinations": pa.array([r.combinations for r in a.rows], pa.int64()),
        "total_combinations": pa.array([n] * len(a.rows), pa.int64()),
        "probability": pa.array([r.combinations / n for r in a.rows]),
        "contribution": pa.array([float(r.net_win * r.combinations / n) for r in a.rows]),
    })
    meta = {"game": a.name, "slug": a.slug, "family": a.family, **{k: str(v) for k, v in a.summary().items()}}
    return tbl.replace_schema_metadata({k: str(v) for k, v in meta.items()})


STRATEGY_SCHEMA = pa.schema([
    ("point", pa.dictionary(pa.int8(), pa.string())), ("cards", pa.string()),
    ("context", pa.dictionary(pa.int8(), pa.string())), ("context_values", pa.list_(pa.int64())),
    ("weight", pa.int64()), ("best", pa.dictionary(pa.int8(), pa.string())), ("best_ev", pa.float64()),
    ("second", pa.dictionary(pa.int8(), pa.string())), ("second_ev", pa.float64()),
    ("error_cost", pa.float64())])


def _labels(index: np.ndarray, names: list[str]) -> pa.DictionaryArray:
    """Text by index (a dictionary column: no Python string per row)."""
    return pa.DictionaryArray.from_arrays(pa.array(index.astype(np.int8)), pa.array(names))


def strategy_table(a: CasinoAnalysis) -> pa.Table:
    """Arrow table: one row per decision state of every point (cards, context, best option, its
    EV, the second-best option, its EV and the cost of taking it)."""
    parts = []
    for p in a.points:
        ev = p.ev()
        n = len(p)
        rows = np.arange(n)
        best = p.best_option.astype(np.int64)
        masked = ev.copy()
        masked[rows, best] = -np.inf
        second = np.argmax(masked, axis=1) if ev.shape[1] > 1 else best
        values = np.stack(list(p.context.values()), axis=1) if p.context else np.zeros((n, 0), np.int64)
        flat = pa.array(values.astype(np.int64).ravel())
        offsets = pa.array(np.arange(0, n * values.shape[1] + 1, max(values.shape[1], 1))[:n + 1]
                           if values.shape[1] else np.zeros(n + 1, np.int32), pa.int32())
        parts.append(pa.table({
            "point": _labels(np.zeros(n, np.int64), [p.name]),
            "cards": cards_text(p.cards),
            "context": _labels(np.zeros(n, np.int64), ["; ".join(p.context)]),
            "context_values": pa.ListArray.from_arrays(offsets, flat),
            "weight": pa.array(p.weight, pa.int64()),
            "best": _labels(best, list(p.options)),
            "best_ev": pa.array(ev[rows, best]),
            "second": _labels(second, list(p.options)),
            "second_ev": pa.array(ev[rows, second]),
            "error_cost": pa.array(ev[rows, best] - ev[rows, second]),
        }, schema=STRATEGY_SCHEMA))
    if not parts:
        return STRATEGY_SCHEMA.empty_table()
    return pa.concat_tables(parts, promote_options="permissive").unify_dictionaries()
