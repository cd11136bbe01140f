"""Stage family ``paytable:<slug>``: one stage per known paytable (:mod:`pipeline.registry`).

reads:   vp_classes.h5 (the deal classes), the paytable TOML (a source: editing it rebuilds)
writes:  paytables/<slug>.h5 (/pay_category, /counts/held0..held4, /strategy/*,
         /final_counts, /breakeven, return attributes),
         parquet/paytables/paytable=<slug>/part-0.parquet
         (one Hive partition of the strategies dataset ``parquet/paytables/``)
config:  [paytables] enabled, slugs = [...] (default: every known paytable)

Dropping a new TOML into ``pipeline/data/paytables/`` or a user config folder
(``--config-dir``/``POKERTABLES_CONFIG``) is all it takes to add a game. Files are only listed
here, not parsed, so a broken file fails its own stage (with the file and line) and no other.

The solve is one pure task (:func:`solve_task`: paytable and deal-class arrays in, analysis
arrays out) run on the build's executor. On a Dask executor the first paytable stage also
starts the tasks of the sibling paytables whose artifact is not current, so the cluster
solves them side by side while the client writes one artifact after the other.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from pipeline.build.config import BuildConfig
from pipeline.build.paytable_set import outputs_for, paytable_files
from pipeline.build.stages import Context, Stage
from pipeline.build.store import atomic_path, write_parquet_atomic
from pipeline.videopoker.catalog.paytable_file import (
    HOLD_BITS,
    SECOND_HOLD_TEXT,
    TIE_BREAKS_TEXT,
    current_artifact,
    write_paytable_file,
)
from pipeline.videopoker.paytables.hold_text import deal_texts
from pipeline.videopoker.paytables.paytable import Paytable, load_paytable
from pipeline.videopoker.solver.analysis import Analysis, analyze
from pipeline.videopoker.solver.bankroll import bankroll_figures
from pipeline.videopoker.solver.deals import DealClasses, read_classes
from pipeline.videopoker.solver.solve import NO_HOLD
from pipeline.videopoker.tools.breakeven_answer import stored_break_evens
from pipeline.videopoker.tools.strategy_io import default_chart, strategy_data_of

#: this stage family's config section and its settings besides ``enabled``
SECTION = "paytables"
KEYS = ("slugs",)


def stages(config: BuildConfig) -> list[Stage]:
    """One ``paytable:<slug>`` stage per paytable file."""
    out = []
    for slug, path in paytable_files(config):
        out.append(Stage(f"paytable:{slug}", outputs_for(slug), _runner(path),
                         inputs=("vp_classes.h5",), settings={"file": path.name},
                         sources=(path,)))
    return out


def _runner(path: Path) -> Callable[[Context], None]:
    def run(ctx: Context) -> None:
        build_paytable(ctx, path)
    return run


def solve_task(pt: Paytable, hands: np.ndarray, weight: np.ndarray, index5: np.ndarray) -> Analysis:
    """The pure task: a paytable's full analysis from the deal-class arrays (no files)."""
    return analyze(pt, DealClasses(pt.deck_size, hands, weight, index5))


def _submit(ctx: Context, pt: Paytable, classes: dict[int, DealClasses], prefetch: bool) -> Any:
    if pt.deck_size not in classes:
        classes[pt.deck_size] = read_classes(ctx.path("vp_classes.h5"), pt.deck_size)
    c = classes[pt.deck_size]
    call = ctx.executor.prefetch if prefetch else ctx.executor.take
    return call(f"paytable:{pt.digest}", solve_task, pt, hands=c.hands, weight=c.weight,
                index5=c.index5)


def build_paytable(ctx: Context, path: Path) -> None:
    """Analyse one paytable file and write its HDF5 artifact and strategy Parquet."""
    pt = load_paytable(path)
    h5_rel, pq_rel = outputs_for(pt.slug)
    ctx.progress(f"loading classes ({pt.deck_size} cards)", 0.05)
    classes: dict[int, DealClasses] = {}
    if ctx.executor.distributed:
        for slug, other in paytable_files(ctx.config):
            try:
                sib = load_paytable(other)
            except ValueError:
                continue  # a broken file fails its own stage
            if slug != pt.slug and current_artifact(sib, ctx.artifacts) is None:
                _submit(ctx, sib, classes, prefetch=True)
    ctx.progress("pay categories, subset counts, 32 holds per class", 0.15)
    a = _submit(ctx, pt, classes, prefetch=False)
    ctx.progress(f"return {float(a.return_exact):.6f}; strategy chart", 0.6)
    chart = default_chart(strategy_data_of(a))
    figs = bankroll_figures(a.paytable, a.final_counts, a.denominator, a.classes.weight, a.best,
                            a.best_counts)
    ctx.progress("break-even royal", 0.7)
    breakeven = stored_break_evens(a)
    ctx.progress(f"writing {h5_rel}", 0.8)
    with atomic_path(ctx.path(h5_rel)) as tmp:
        write_paytable_file(a, chart, figs, tmp, breakeven)
    ctx.progress(f"writing {pq_rel}", 0.9)
    r = chart.return_exact
    tbl = strategy_table(a).append_column("chart_hold", pa.array(chart.holds))
    tbl = tbl.replace_schema_metadata({**(tbl.schema.metadata or {}),
                                       b"chart_return_exact": f"{r.numerator}/{r.denominator}".encode()})
    write_parquet_atomic(tbl, ctx.path(pq_rel), compression="zstd")
    ctx.progress("done", 1.0)


def strategy_table(a: Analysis) -> pa.Table:
    """Arrow table: one row per deal class with its best hold and EV."""
    cls = a.classes
    n = len(cls)
    rows = np.arange(n)
    held_n = np.array([bin(m).count("1") for m in range(32)], dtype=np.int8)[a.best]
    tbl = pa.table({
        "index5": pa.array(cls.index5),
        "cards": deal_texts(cls.hands),
        "weight": pa.array(cls.weight.astype(np.uint8)),
        "best_hold": deal_texts(cls.hands, a.best),
        "best_hold_mask": pa.array(a.best),
        "held": pa.array(held_n),
        "best_ev": pa.array(a.ev[rows, a.best]),
        "best_ev_numerator": pa.array(a.best_num),
    })
    # --- mistake costs (issue 12): second-best hold, its EV, the error cost ---
    second = np.where(a.second == NO_HOLD, a.best, a.second)
    tbl = tbl.append_column("second_hold", deal_texts(cls.hands, second))
    tbl = tbl.append_column("second_hold_mask", pa.array(a.second))
    tbl = tbl.append_column("second_ev", pa.array(a.ev[rows, second]))
    tbl = tbl.append_column("second_ev_numerator", pa.array(a.second_num))
    tbl = tbl.append_column("error_cost", pa.array(a.error_cost()))
    # --- end mistake costs ---
    meta = {"paytable": a.paytable.name, "slug": a.paytable.slug,
            "best_ev_denominator": str(a.ev_denominator), "hold_bits": HOLD_BITS,
            "tie_break": TIE_BREAKS_TEXT[a.paytable.tie_break], "second_hold": SECOND_HOLD_TEXT,
            "return_exact": f"{a.return_exact.numerator}/{a.return_exact.denominator}"}
    return tbl.replace_schema_metadata({k: str(v) for k, v in meta.items()})
