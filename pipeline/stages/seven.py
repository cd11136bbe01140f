"""Stage ``seven``: best-of-7 score of all 133,784,560 seven-card hands, the O(1) bitmap lookup.

reads:   nothing
writes:  seven.h5 (/score uint16[133,784,560] by colex), parquet/seven_card_hands.parquet
config:  [seven] parquet (bool), parquet_zstd_level
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..cards import n_combinations
from ..combos import hand_bitmaps, hands_range
from ..config import BuildConfig
from ..evaluate import build_rank_tables
from ..store import atomic_path, map_dataset
from . import Context, Stage
from .tables import write_score_file

CODE = ("pipeline.evaluate", "pipeline.cards", "pipeline.combos", "pipeline.stages.tables",
        "pipeline.stages.seven")
ROW_GROUP = 1 << 23


def stages(config: BuildConfig) -> list[Stage]:
    """The single ``seven`` stage (with or without its Parquet export)."""
    settings = config.section("seven")
    outputs = ["seven.h5"]
    if settings.get("parquet", True):
        outputs.append("parquet/seven_card_hands.parquet")
    return [Stage("seven", tuple(outputs), run, settings=settings, code=CODE)]


def run(ctx: Context) -> None:
    """Build seven.h5 (filled through a memory map) and optionally its Parquet copy."""
    settings = ctx.config.section("seven")
    ctx.progress("scoring 133,784,560 seven-card hands", 0.05)
    write_score_file(ctx.path("seven.h5"), 7, build_rank_tables())
    if not settings.get("parquet", True):
        return
    score = map_dataset(ctx.path("seven.h5"), "score")
    n = n_combinations(7)
    schema = pa.schema([("bitmap", pa.uint64()), ("score", pa.uint16())])
    level = int(settings.get("parquet_zstd_level", 1))
    with atomic_path(ctx.path("parquet/seven_card_hands.parquet")) as tmp:
        # rows are bitmaps in colex order: delta encoding makes the bitmap column tiny
        with pq.ParquetWriter(tmp, schema, compression="zstd", compression_level=level,
                              use_dictionary=False,
                              column_encoding={"bitmap": "DELTA_BINARY_PACKED",
                                               "score": "PLAIN"}) as w:
            start = 0
            while start < n:
                stop = min(n, start + ROW_GROUP)
                bits = hand_bitmaps(hands_range(7, start, stop))
                w.write_table(pa.table({"bitmap": bits, "score": np.asarray(score[start:stop])},
                                       schema=schema), row_group_size=ROW_GROUP)
                ctx.progress("writing seven_card_hands.parquet", 0.3 + 0.7 * stop / n)
                start = stop
    del score

