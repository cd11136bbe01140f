"""Stage ``seven_parquet``: the 7-card table as Parquet for SQL and dataframes.

reads:   seven.h5
writes:  parquet/seven_card_hands.parquet (133,784,560 rows: bitmap uint64, score uint16; zstd)
config:  [seven_parquet] zstd_level
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.build.config import BuildConfig
from pipeline.build.stages import Context, Stage
from pipeline.build.store import atomic_path, map_dataset
from pipeline.core.bits import colex_bitmaps
from pipeline.core.cards import BINOM, n_combinations

OUTPUT = "parquet/seven_card_hands.parquet"
ROW_GROUP = 1 << 23

#: settings of this stage's config section besides ``enabled``
KEYS: tuple[str, ...] = ("zstd_level",)


def stages(config: BuildConfig) -> list[Stage]:
    """The single ``seven_parquet`` stage."""
    return [Stage("seven_parquet", (OUTPUT,), run, inputs=("seven.h5",),
                  settings=config.section("seven_parquet"))]


def run(ctx: Context) -> None:
    """Stream seven.h5 into Parquet row group by row group (never the whole table in RAM)."""
    level = int(ctx.config.section("seven_parquet").get("zstd_level", 1))
    score = map_dataset(ctx.path("seven.h5"), "score")
    n = n_combinations(7)
    schema = pa.schema([("bitmap", pa.uint64()), ("score", pa.uint16())])
    with atomic_path(ctx.path(OUTPUT)) as tmp:
        # rows are bitmaps in increasing order: delta encoding makes that column tiny
        with pq.ParquetWriter(tmp, schema, compression="zstd", compression_level=level,
                              use_dictionary=False,
                              column_encoding={"bitmap": "DELTA_BINARY_PACKED", "score": "PLAIN"}) as w:
            bits = np.empty(ROW_GROUP, np.uint64)
            start = 0
            while start < n:
                stop = min(n, start + ROW_GROUP)
                rows = bits[:stop - start]
                colex_bitmaps(7, start, BINOM, rows)
                w.write_table(pa.table({"bitmap": rows, "score": np.asarray(score[start:stop])},
                                       schema=schema), row_group_size=ROW_GROUP)
                ctx.progress("writing seven_card_hands.parquet", stop / n)
                start = stop
    del score
