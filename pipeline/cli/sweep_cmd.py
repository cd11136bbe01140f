"""``pokertables vp sweep NAME``: exact returns of every variant of a paytable sweep."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from pipeline.cli.app import artifacts_dir
from pipeline.cli.vp_shared import deal_classes_here, vp_app

#: rows shown in the text output (the dataset has them all)
SHOW = 8


@vp_app.command("sweep")
def sweep_cmd(
    name: str = typer.Argument(..., help="a sweep in configs/sweeps (e.g. jacks-or-better) or a TOML path"),
    executor: str = typer.Option("local", "--executor", help="local or dask"),
    scheduler: str | None = typer.Option(None, "--scheduler", help="with dask: join tcp://HOST:PORT"),
    workers: int | None = typer.Option(None, "--workers", help="with dask: start N local worker processes"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
) -> None:
    """Solve every variant exactly; write artifacts/sweeps/NAME.parquet/ and NAME.png."""
    from pipeline.build.executor import make_executor
    from pipeline.build.sweeps import run_sweep
    from pipeline.videopoker.sweep import find_sweep, load_sweep

    roots = [Path.cwd(), Path(__file__).resolve().parents[2]]
    sweep = load_sweep(find_sweep(name, roots))
    with make_executor(executor, scheduler, workers) as ex:
        info = run_sweep(sweep, deal_classes_here, ex, artifacts_dir())
    if as_json:
        typer.echo(json.dumps(info))
        return
    typer.echo(f"{info['sweep']}: {info['variants']} variants solved exactly in "
               f"{info['solve_seconds']:.2f} s ({info['ms_per_variant']:.1f} ms per variant, "
               f"executor {info['executor']}, {info['workers']} worker(s))")
    rows = sorted(info["rows"], key=lambda r: -r["return"])
    typer.echo(f"{'variant':<64}{'return':>10}{'variance':>10}{'hit freq':>10}")
    for r in rows[:SHOW]:
        label = r["name"].split("[")[-1].rstrip("]")  # the swept pays (the base name is shared)
        typer.echo(f"{label[:64]:<64}{r['return']:>10.6f}{r['variance']:>10.3f}"
                   f"{r['hit_frequency']:>10.5f}")
    if len(rows) > SHOW:
        typer.echo(f"... {len(rows) - SHOW} more; lowest return {rows[-1]['return']:.6f}")
    typer.echo(f"wrote {info['dataset']}/ and {info['plot']}" + (f"; {info['note']}" if info["note"] else ""))
