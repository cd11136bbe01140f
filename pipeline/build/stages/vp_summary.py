"""Stage ``vp_summary``: one row per paytable x final hand, for cross-game analytics.

reads:   paytables/<slug>.h5 of every paytable stage
writes:  parquet/paytable_summary.parquet, paytables/catalog.json (each game's ``vp list`` row
         and what it was made from, so ``vp list`` reads one small file; see
         :mod:`pipeline.videopoker.catalog.games`)
config:  [vp_summary]
"""

from __future__ import annotations

from fractions import Fraction

import pyarrow as pa

from pipeline.build.config import BuildConfig
from pipeline.build.paytable_set import outputs_for, paytable_files
from pipeline.build.stages import Context, Stage
from pipeline.build.store import write_json_atomic, write_parquet_atomic
from pipeline.query.artifacts import read_manifest, sha256_file
from pipeline.videopoker.catalog.games import CATALOG_FILE, catalog_entry, slow_row
from pipeline.videopoker.catalog.paytable_file import open_strategy, read_attrs, read_final_counts
from pipeline.videopoker.paytables.paytable import load_paytable
from pipeline.videopoker.solver.bankroll import bankroll_columns
from pipeline.videopoker.solver.digest import solver_digest

OUTPUT = "parquet/paytable_summary.parquet"
#: settings of this stage's config section besides ``enabled``
KEYS: tuple[str, ...] = ()


def stages(config: BuildConfig) -> list[Stage]:
    """The single ``vp_summary`` stage (none when there are no paytables)."""
    inputs = tuple(outputs_for(slug)[0] for slug, _ in paytable_files(config))
    if not inputs:
        return []
    return [Stage("vp_summary", (OUTPUT, CATALOG_FILE), run, inputs=inputs,
                  settings=config.section("vp_summary"))]


def run(ctx: Context) -> None:
    """Collect every paytable's final-hand table into one Parquet file."""
    cols: dict[str, list] = {k: [] for k in (
        "slug", "name", "wild", "deck_size", "row", "hand", "pays", "combinations",
        "total_combinations", "probability", "return_contribution", "game_return",
        "game_return_exact", "game_variance")}
    extra: dict[str, list] = {}
    for slug, path in paytable_files(ctx.config):
        h5 = ctx.path(outputs_for(slug)[0])
        counts, den = read_final_counts(h5)
        at = read_attrs(h5)
        with open_strategy(h5) as strategy:
            # ---- vp-charts (issue 12): bankroll figures, one value per game on each row ----
            figs = bankroll_columns(load_paytable(path), counts, den, strategy)
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
    write_json_atomic(ctx.path(CATALOG_FILE), catalog_json(ctx))


def catalog_json(ctx: Context) -> dict[str, object]:
    """``paytables/catalog.json``: the ``vp list`` row of every built game, keyed by slug, with
    the sha256 of its TOML and of its ``.h5``."""
    files = read_manifest(ctx.artifacts, strict=False).get("files", {})
    digest = solver_digest()
    games = {}
    for slug, path in paytable_files(ctx.config):
        rel = outputs_for(slug)[0]
        row = slow_row(slug, path, ctx.artifacts, digest)
        if not row.built:
            continue  # made by other code than this build's: vp list reads it the slow way
        h5_sha = files.get(rel, {}).get("sha256") or sha256_file(ctx.path(rel))
        games[slug] = catalog_entry(row, load_paytable(path).digest, h5_sha)
    return {"meaning": "vp list rows of the built games (see pipeline/videopoker/catalog/games.py)",
            "games": games}
