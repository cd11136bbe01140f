"""Stage ``seven_parquet``: the 7-card table as a Hive-partitioned Parquet dataset.

reads:   seven.h5, five.h5 (the class table: category of every score)
writes:  parquet/seven_card_hands/category=<n>/part-0.parquet for n = 0..8 (133,784,560 rows in
         all: index int64 = colex index, bitmap uint64, score uint16; zstd)
config:  [seven_parquet] zstd_level

Partitioned by hand category so that engines (DuckDB, Spark, Polars, pyarrow.dataset) read
only the folders a query's ``category`` filter keeps. Inside a partition rows ascend by colex
index, which is also ascending bitmap order, so the row groups' min/max statistics of
``index`` and ``bitmap`` prune range queries too.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.build.config import BuildConfig
from pipeline.build.stages import Context, Stage
from pipeline.build.store import map_dataset
from pipeline.core.bits import colex_bitmaps
from pipeline.core.cards import BINOM, n_combinations
from pipeline.core.constants import N_SCORES
from pipeline.query.artifacts import read_datasets

DATASET = "parquet/seven_card_hands"
N_CATEGORIES = 9
OUTPUTS = tuple(f"{DATASET}/category={c}/part-0.parquet" for c in range(N_CATEGORIES))
#: rows read from seven.h5 per step, and rows per Parquet row group (about 10 MB of data)
BLOCK = 1 << 23
ROW_GROUP = 1 << 20
#: the files' columns; ``category`` comes from the folder name (Hive partitioning)
SCHEMA = pa.schema([("index", pa.int64()), ("bitmap", pa.uint64()), ("score", pa.uint16())])

#: settings of this stage's config section besides ``enabled``
KEYS: tuple[str, ...] = ("zstd_level",)


def stages(config: BuildConfig) -> list[Stage]:
    """The single ``seven_parquet`` stage."""
    return [Stage("seven_parquet", OUTPUTS, run, inputs=("seven.h5", "five.h5"),
                  settings=config.section("seven_parquet"))]


def _category_of_score(ctx: Context) -> np.ndarray:
    """uint8[N_SCORES + 1]: the category of every score (index 0 unused)."""
    d = read_datasets(ctx.path("five.h5"), ["classes/score", "classes/category"])
    out = np.zeros(N_SCORES + 1, np.uint8)
    out[d["classes/score"]] = d["classes/category"]
    return out


class _PartitionWriter:
    """One Parquet file per category; rows buffered so every row group but the last is full."""

    def __init__(self, ctx: Context, level: int) -> None:
        self.ctx = ctx
        self.level = level
        self.writers: dict[int, pq.ParquetWriter] = {}
        self.buffers: dict[int, list[pa.Table]] = {c: [] for c in range(N_CATEGORIES)}
        self.buffered = dict.fromkeys(range(N_CATEGORIES), 0)

    def _writer(self, c: int) -> pq.ParquetWriter:
        if c not in self.writers:
            path = self.ctx.path(OUTPUTS[c])
            path.parent.mkdir(parents=True, exist_ok=True)
            # ascending index/bitmap columns: delta encoding makes them tiny
            self.writers[c] = pq.ParquetWriter(
                path, SCHEMA, compression="zstd", compression_level=self.level,
                use_dictionary=False, write_statistics=True,
                column_encoding={"index": "DELTA_BINARY_PACKED", "bitmap": "DELTA_BINARY_PACKED",
                                 "score": "PLAIN"})
        return self.writers[c]

    def add(self, c: int, part: pa.Table, final: bool = False) -> None:
        """Buffer ``part`` for category ``c``; write full row groups (all that is left if final)."""
        if part.num_rows:
            self.buffers[c].append(part)
            self.buffered[c] += part.num_rows
        if self.buffered[c] >= ROW_GROUP or (final and self.buffered[c]):
            table = pa.concat_tables(self.buffers[c])
            keep = table.num_rows if final else table.num_rows - table.num_rows % ROW_GROUP
            self._writer(c).write_table(table.slice(0, keep), row_group_size=ROW_GROUP)
            rest = table.slice(keep)
            self.buffers[c] = [rest] if rest.num_rows else []
            self.buffered[c] = rest.num_rows

    def close(self) -> None:
        """Write what is buffered and close every file."""
        for c in range(N_CATEGORIES):
            self.add(c, SCHEMA.empty_table(), final=True)
        for w in self.writers.values():
            w.close()


def run(ctx: Context) -> None:
    """Stream seven.h5 into the partitioned dataset block by block (never the whole table in RAM)."""
    level = int(ctx.config.section("seven_parquet").get("zstd_level", 1))
    cat_of = _category_of_score(ctx)
    score = map_dataset(ctx.path("seven.h5"), "score")
    n = n_combinations(7)
    bits = np.empty(BLOCK, np.uint64)
    out = _PartitionWriter(ctx, level)
    start = 0
    while start < n:
        stop = min(n, start + BLOCK)
        rows = bits[:stop - start]
        colex_bitmaps(7, start, BINOM, rows)
        s = np.asarray(score[start:stop])
        cat = cat_of[s]
        index = np.arange(start, stop, dtype=np.int64)
        for c in range(N_CATEGORIES):
            keep = cat == c
            out.add(c, pa.table([index[keep], rows[keep], s[keep]], schema=SCHEMA))
        ctx.progress("writing parquet/seven_card_hands/category=*/", stop / n)
        start = stop
    out.close()
    del score
