"""Stage ``vp_summary``: one row per paytable x final hand, for cross-game analytics.

reads:   paytables/<slug>.h5 of every paytable stage
writes:  parquet/paytable_summary.parquet
config:  [vp_summary]
"""

from __future__ import annotations

from fractions import Fraction

import h5py
import pyarrow as pa

from pipeline.build.config import BuildConfig
from pipeline.build.stages import Context, Stage
from pipeline.build.stages.paytable import outputs_for, paytable_files
from pipeline.build.store import write_parquet_atomic
from pipeline.videopoker.bankroll import bankroll_columns
from pipeline.videopoker.paytable import load_paytable

OUTPUT = "parquet/paytable_summary.parquet"
#: settings of this stage's config section besides ``enabled``
KEYS: tuple[str, ...] = ()


def stages(config: BuildConfig) -> list[Stage]:
    """The single ``vp_summary`` stage (none when there are no paytables)."""
    inputs = tuple(outputs_for(slug)[0] for slug, _ in paytable_files(config))
    if not inputs:
        return []
    return [Stage("vp_summary", (OUTPUT,), run, inputs=inputs,
                  settings=config.section("vp_summary"))]


def run(ctx: Context) -> None:
    """Collect every paytable's final-hand table into one Parquet file."""
    cols: dict[str, list] = {k: [] for k in (
        "slug", "name", "wild", "deck_size", "row", "hand", "pays", "combinations",
        "total_combinations", "probability", "return_contribution", "game_return",
        "game_return_exact", "game_variance")}
    extra: dict[str, list] = {}
    for slug, path in paytable_files(ctx.config):
        with h5py.File(ctx.path(outputs_for(slug)[0]), "r") as f:
            at = f.attrs
            counts = [int(x) for x in f["final_counts"][:]]
            den = int(f["final_counts"].attrs["denominator"])
            # ---- vp-charts (issue 12): bankroll figures, one value per game on each row ----
            figs = bankroll_columns(load_paytable(path), counts, den, f["strategy"])
            for k, v in figs.items():
                extra.setdefault(k, []).extend([v] * len(counts))
            # ---- end vp-charts ----
            for i, (label, pay, c) in enumerate(zip(at["labels"], at["pays"], counts)):
                p = Fraction(str(pay))
                cols["slug"].append(slug)
                cols["name"].append(str(at["name"]))
                cols["wild"].append(str(at["wild"]))
                cols["deck_size"].append(int(at["deck_size"]))
                cols["row"].append(i)
                cols["hand"].append(str(label))
                cols["pays"].append(float(p))
                cols["combinations"].append(c)
                cols["total_combinations"].append(den)
                cols["probability"].append(c / den)
                cols["return_contribution"].append(float(p * c / den))
                cols["game_return"].append(float(at["return"]))
                cols["game_return_exact"].append(str(at["return_exact"]))
                cols["game_variance"].append(float(at["variance"]))
    tbl = pa.table({k: pa.array(v) for k, v in {**cols, **extra}.items()})
    write_parquet_atomic(tbl, ctx.path(OUTPUT), compression="zstd")
