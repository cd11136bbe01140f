"""Stage ``five``: the 5-card score table and the 7,462-row class table.

reads:   nothing (computes the ranking from the rules of poker)
writes:  five.h5 (/score uint16[2,598,960] by colex; /classes/*),
         parquet/hand_classes.parquet, parquet/five_card_hands.parquet
config:  [five]
"""

from __future__ import annotations

import h5py
import numpy as np
import pyarrow as pa

from pipeline.build.config import BuildConfig
from pipeline.build.score_files import cards_text, write_score_file
from pipeline.build.stages import Context, Stage
from pipeline.build.store import write_parquet_atomic
from pipeline.core.cards import RANKS, n_combinations
from pipeline.core.category import CATEGORY_NAMES
from pipeline.core.combos import all_hands, hand_bitmaps
from pipeline.core.constants import CACTUS_KEV_BASE, N_SCORES
from pipeline.core.evaluate import build_rank_tables, score_table

OUTPUTS = ("five.h5", "parquet/hand_classes.parquet", "parquet/five_card_hands.parquet")
#: settings of this stage's config section besides ``enabled``
KEYS: tuple[str, ...] = ()


def stages(config: BuildConfig) -> list[Stage]:
    """The single ``five`` stage."""
    return [Stage("five", OUTPUTS, run, settings=config.section("five"))]


def run(ctx: Context) -> None:
    """Build five.h5 and its Parquet exports."""
    ctx.progress("ranking 7,462 hand classes", 0.05)
    tables = build_rank_tables()
    ctx.progress("counting 6- and 7-card hands per class", 0.15)
    count6 = score_table(6, tables, None)
    count7 = score_table(7, tables, None)
    scores = np.arange(N_SCORES + 1, dtype=np.uint16)[1:]
    names = np.array(tables.class_names[1:], dtype=object)

    def add_classes(f: h5py.File, count5: np.ndarray) -> None:
        g = f.create_group("classes")
        g.attrs["rows"] = N_SCORES
        g.attrs["row_meaning"] = "row i describes score i+1"
        g["score"] = scores
        g["category"] = tables.class_category[1:]
        g["category"].attrs["names"] = list(CATEGORY_NAMES)
        g["ranks"] = tables.class_ranks[1:]
        g["ranks"].attrs["meaning"] = "the five ranks (0=2 .. 12=A) in order of significance"
        g["name"] = names.astype("S")
        g["cactus_kev"] = (CACTUS_KEV_BASE - scores.astype(np.int32)).astype(np.uint16)
        g["count5"] = count5[1:]
        g["count6"] = count6[1:]
        g["count7"] = count7[1:]

    ctx.progress("scoring 2,598,960 five-card hands", 0.3)
    count5 = write_score_file(ctx.path("five.h5"), 5, tables, add_classes)

    ctx.progress("writing hand_classes.parquet", 0.6)
    cls = pa.table({
        "score": pa.array(scores),
        "cactus_kev": pa.array((CACTUS_KEV_BASE - scores.astype(np.int32)).astype(np.uint16)),
        "category": pa.array(tables.class_category[1:]),
        "category_name": pa.array([CATEGORY_NAMES[c] for c in tables.class_category[1:]]),
        "name": pa.array(list(names)),
        "ranks": pa.array(["".join(RANKS[r] for r in row) for row in tables.class_ranks[1:]]),
        "count5": pa.array(count5[1:]),
        "count6": pa.array(count6[1:]),
        "count7": pa.array(count7[1:]),
    })
    write_parquet_atomic(cls, ctx.path("parquet/hand_classes.parquet"), compression="zstd")

    ctx.progress("writing five_card_hands.parquet", 0.75)
    hands = all_hands(5)
    with h5py.File(ctx.path("five.h5"), "r") as f:
        score = f["score"][:]
    cat = tables.class_category[score]
    tbl = pa.table({
        "index": pa.array(np.arange(n_combinations(5), dtype=np.int64)),
        "bitmap": pa.array(hand_bitmaps(hands)),
        "cards": cards_text(hands[:, ::-1]),  # highest card first, like "As Ks Qs Js Ts"
        "score": pa.array(score),
        "category": pa.array(cat),
        "category_name": pa.DictionaryArray.from_arrays(pa.array(cat.astype(np.int32)),
                                                        pa.array(list(CATEGORY_NAMES))),
    })
    write_parquet_atomic(tbl, ctx.path("parquet/five_card_hands.parquet"), compression="zstd")
    ctx.progress("done", 1.0)
