"""Writing a paytable sweep: ``sweeps/<name>.parquet/`` (a Hive-partitioned dataset) + a PNG.

The dataset is partitioned by the first swept line's pay (``full_house=9/part-0.parquet``), so
an engine asked about one value of that line reads one folder. Both outputs are atomic: the
dataset folder is written beside its target and swapped in whole, the PNG renamed in place.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.build.store import atomic_folder, atomic_path
from pipeline.videopoker.sweep import Sweep, plot_sweep, solve_sweep, sweep_rows

#: rows per row group (a sweep of thousands of variants still has few, full groups)
ROW_GROUP = 1 << 16


def sweep_table(cols: dict[str, list[Any]]) -> pa.Table:
    """Arrow table of the sweep columns (exact numerators/denominators as int64 when they fit)."""
    arrays: dict[str, pa.Array] = {}
    for k, v in cols.items():
        if k in ("return_numerator", "return_denominator", "total_combinations") and \
                any(abs(x) >= 2 ** 63 for x in v):
            arrays[k] = pa.array([str(x) for x in v])  # too big for int64: keep exact as text
        else:
            arrays[k] = pa.array(v)
    return pa.table(arrays)


def write_sweep(sweep: Sweep, cols: dict[str, list[Any]], folder: Path) -> tuple[Path, Path]:
    """Write ``folder/<slug>.parquet/`` and ``folder/<slug>.png``; return both paths."""
    table = sweep_table(cols)
    meta = {"sweep": sweep.name, "base": sweep.base.name if sweep.base else "",
            "swept": ",".join(a.label for a in sweep.axes)}
    table = table.replace_schema_metadata(meta)
    target = folder / f"{sweep.slug}.parquet"
    with atomic_folder(target) as tmp:
        if sweep.axes:
            key = sweep.axes[0]
            pays = table.column("pays_" + key.column).to_pylist()
            for value in dict.fromkeys(pays):  # first-seen order: deterministic
                rows = [i for i, p in enumerate(pays) if p == value]
                text = str(int(value)) if float(value).is_integer() else repr(float(value))
                part = tmp / f"{key.column}={text}"
                part.mkdir()
                pq.write_table(table.take(rows), part / "part-0.parquet", compression="zstd",
                               row_group_size=ROW_GROUP)
        else:
            pq.write_table(table, tmp / "part-0.parquet", compression="zstd", row_group_size=ROW_GROUP)
    png = folder / f"{sweep.slug}.png"
    with atomic_path(png) as tmp_png:
        plot_sweep(sweep, cols, tmp_png)
    return target, png


def run_sweep(sweep: Sweep, classes_for: Any, executor: Any, folder: Path) -> dict[str, Any]:
    """Solve every variant on ``executor``, write the outputs; return a JSON-ready summary."""
    t0 = time.perf_counter()
    solved = solve_sweep(sweep, classes_for, executor)
    solve_s = time.perf_counter() - t0
    cols = sweep_rows(sweep, solved)
    data, png = write_sweep(sweep, cols, folder)
    n = len(solved)
    best = max(range(n), key=lambda i: cols["return"][i])
    return {"sweep": sweep.name, "variants": n, "dataset": str(data), "plot": str(png),
            "executor": executor.kind, "workers": executor.workers(),
            "solve_seconds": round(solve_s, 3), "ms_per_variant": round(1000 * solve_s / n, 2),
            "best": {"name": cols["name"][best], "return": cols["return"][best],
                     "return_exact": cols["return_exact"][best]},
            "rows": [{"name": cols["name"][i], "return": cols["return"][i],
                      "return_exact": cols["return_exact"][i], "variance": cols["variance"][i],
                      "hit_frequency": cols["hit_frequency"][i]} for i in range(n)],
            "seconds": round(time.perf_counter() - t0, 3)}
