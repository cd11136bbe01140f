"""Writing a paytable sweep: ``sweeps/<name>.parquet/`` (a Hive-partitioned dataset) + a PNG.

The dataset is partitioned by the first swept line's pay (``full_house=9/part-0.parquet``), so
an engine asked about one value of that line reads one folder. A sweep's files are committed
like a build stage named ``sweep:<name>``: written into the staging folder under the commit lock
(so a build never cleans them away mid-write, and two sweeps never interleave), then moved into
place together with the manifest through the commit journal (a kill or a full disk leaves the
old data and plot, or the new ones, never a mix), and listed in the manifest, so ``verify``
checks them like any artifact.
"""

from __future__ import annotations

import contextlib
import errno
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.build.commit import commit_stage
from pipeline.build.executor import Executor
from pipeline.build.locks import OnWait, commit_lock
from pipeline.build.store import STAGING, describe_file
from pipeline.errors import BuildError
from pipeline.query.artifacts import read_manifest
from pipeline.videopoker.solver.deals import DealClasses
from pipeline.videopoker.tools.sweep import Sweep, plot_sweep, solve_sweep, sweep_rows

#: the folder of the artifacts folder that sweeps write into
SWEEPS = "sweeps"
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


def _write_outputs(sweep: Sweep, cols: dict[str, list[Any]], staging: Path) -> list[str]:
    """Write the dataset's partitions and the plot under ``staging``; their paths relative to it."""
    table = sweep_table(cols)
    meta = {"sweep": sweep.name, "base": sweep.base.name if sweep.base else "",
            "swept": ",".join(a.label for a in sweep.axes)}
    table = table.replace_schema_metadata(meta)
    data = f"{SWEEPS}/{sweep.slug}.parquet"
    parts: list[tuple[str, pa.Table]] = []
    if sweep.axes:
        key = sweep.axes[0]
        pays = table.column("pays_" + key.column).to_pylist()
        for value in dict.fromkeys(pays):  # first-seen order: deterministic
            rows = [i for i, p in enumerate(pays) if p == value]
            text = str(int(value)) if float(value).is_integer() else repr(float(value))
            parts.append((f"{data}/{key.column}={text}/part-0.parquet", table.take(rows)))
    else:
        parts.append((f"{data}/part-0.parquet", table))
    out = []
    for rel, part in parts:
        (staging / rel).parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(part, staging / rel, compression="zstd", row_group_size=ROW_GROUP)
        out.append(rel)
    png = f"{SWEEPS}/{sweep.slug}.png"
    plot_sweep(sweep, cols, staging / png)
    out.append(png)
    return out


def write_sweep(sweep: Sweep, cols: dict[str, list[Any]], folder: Path, started: float | None = None,
                on_wait: OnWait | None = None) -> tuple[Path, Path, str | None]:
    """Commit ``folder/sweeps/<slug>.parquet/`` and ``<slug>.png`` as one unit; return both paths
    and a note when this replaced a result another run of the same sweep wrote after ``started``.
    Only the commit lock is taken (a running build holds it only while it commits a stage);
    ``on_wait`` is told at once who holds it when it must be waited for."""
    stage = f"sweep:{sweep.slug}"
    with commit_lock(folder, on_wait):
        manifest = read_manifest(folder, strict=False)
        before = manifest.get("stages", {}).get(stage, {})
        note = None
        if started is not None and float(before.get("written_epoch", 0.0)) > started:
            note = (f"replaced the result another run of this sweep wrote at "
                    f"{before.get('built_at', '?')} (both runs solved the same variants)")
        staging = folder / STAGING / stage.replace(":", "_")
        shutil.rmtree(staging, ignore_errors=True)
        try:
            try:
                outputs = _write_outputs(sweep, cols, staging)
            except OSError as exc:
                if exc.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
                    raise
                kept = ("the previous data and plot of this sweep are unchanged" if before
                        else "nothing was written")
                free = shutil.disk_usage(folder).free / (1 << 20)
                raise BuildError(f"disk full while writing sweep {sweep.name!r} into "
                                 f"{folder / SWEEPS} ({free:,.1f} MiB free): {kept}") from None
            files = manifest.setdefault("files", {})
            for rel in outputs:
                files[rel] = {**describe_file(staging / rel), "stage": stage}
            retired = tuple(rel for rel, info in list(files.items())
                            if info.get("stage") == stage and rel not in outputs)
            for rel in retired:
                del files[rel]
            manifest.setdefault("stages", {})[stage] = {
                "outputs": outputs, "written_epoch": time.time(),
                "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
            commit_stage(folder, staging, stage, tuple(outputs), manifest, retired)
        finally:  # its own staging only: a running build stages beside it
            shutil.rmtree(staging, ignore_errors=True)
            with contextlib.suppress(OSError):
                (folder / STAGING).rmdir()  # only when empty
    return folder / SWEEPS / f"{sweep.slug}.parquet", folder / SWEEPS / f"{sweep.slug}.png", note


def run_sweep(sweep: Sweep, classes_for: Callable[[int], DealClasses], executor: Executor,
              folder: Path,
              on_wait: OnWait | None = None) -> dict[str, Any]:
    """Solve every variant on ``executor``, write the outputs; return a JSON-ready summary
    (``on_wait``: see :func:`write_sweep`)."""
    t0 = time.perf_counter()
    started = time.time()
    solved = solve_sweep(sweep, classes_for, executor)
    solve_s = time.perf_counter() - t0
    cols = sweep_rows(sweep, solved)
    data, png, note = write_sweep(sweep, cols, folder, started, on_wait)
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
            "note": note, "seconds": round(time.perf_counter() - t0, 3)}
