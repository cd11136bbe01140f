"""``pokertables build [STAGE...]``: run the build stages with progress and a summary table."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any, Optional

import typer

from pipeline.cli.app import DEFAULT_ARTIFACTS, STATE, app, artifacts_dir
from pipeline.cli.progress import LogProgress


class _RichProgress:
    """Progress bar per stage and a final summary, on stderr."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self.console = Console(stderr=True)
        self.progress = Progress(TextColumn("[bold]{task.fields[stage]:<28}"), BarColumn(),
                                 TextColumn("{task.description}"), TimeElapsedColumn(),
                                 console=self.console, transient=False)
        self.task: Any = None

    def start(self, stage: Any) -> None:
        """Add a bar for a stage that is about to be checked or built."""
        if not self.progress.live.is_started:
            self.progress.start()
        self.task = self.progress.add_task("checking", total=1.0, stage=stage.name)

    def update(self, text: str, fraction: float) -> None:
        """Move the current stage's bar (``fraction`` 0..1) and show what it is doing."""
        self.progress.update(self.task, description=text, completed=fraction)

    def finish(self, result: Any) -> None:
        """Mark the current stage built (with seconds) or skipped."""
        self.progress.update(self.task, completed=1.0,
                             description="skipped (up to date)" if result.status == "skipped"
                             else f"built in {result.seconds:.2f}s")

    def close(self) -> None:
        """Stop the live display."""
        if self.progress.live.is_started:
            self.progress.stop()


@app.command("build")
def build(
    stages: Optional[list[str]] = typer.Argument(None, help="stages to build (default: all enabled)"),
    force: bool = typer.Option(False, "--force", help="rebuild even if up to date"),
    config: Optional[Path] = typer.Option(None, "--config", help="build config (configs/build.toml)"),
    wait: bool = typer.Option(False, "--wait", help="wait for another running build instead of failing"),
    dry_run: bool = typer.Option(False, "--dry-run", help="only say which stages would run and why"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON summary"),
    executor: str = typer.Option("local", "--executor",
                                 help="where parallel tasks run: local (this process) or dask"),
    scheduler: Optional[str] = typer.Option(None, "--scheduler",
                                            help="with --executor dask: join this scheduler (tcp://HOST:PORT)"),
    workers: Optional[int] = typer.Option(None, "--workers",
                                          help="with --executor dask: start a local cluster of N worker processes"),
) -> None:
    """Build the artifacts (what `make tables` runs); only stale stages are rebuilt."""
    from pipeline.build.config import load_config
    from pipeline.build.executor import make_executor
    from pipeline.build.runner import run_build

    chosen = artifacts_dir()  # refuses an empty text
    artifacts = chosen if str(STATE["artifacts"]) != DEFAULT_ARTIFACTS else None
    cfg = load_config(config, artifacts)
    if dry_run:
        _dry_run(cfg, stages or None, force, as_json)
        return
    ex = make_executor(executor, scheduler, workers)
    show: _RichProgress | LogProgress | None = None
    if not as_json:
        show = _RichProgress() if sys.stderr.isatty() else LogProgress()
    t0 = time.perf_counter()
    try:
        results = run_build(cfg, stages or None, force=force, wait=wait, progress=show, executor=ex)
    finally:
        if show:
            show.close()
        ex.close()
    total = time.perf_counter() - t0
    if as_json:
        typer.echo(json.dumps({"artifacts": str(cfg.artifacts), "seconds": round(total, 3),
                               "executor": executor,
                               "stages": [{"name": r.name, "status": r.status,
                                           "seconds": round(r.seconds, 3), "bytes": r.bytes}
                                          for r in results]}))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"pokertables build -> {cfg.artifacts}")
    for col in ("stage", "status"):
        table.add_column(col, justify="left")
    for col in ("seconds", "bytes"):
        table.add_column(col, justify="right")
    for r in results:
        table.add_row(r.name, r.status, f"{r.seconds:.2f}", f"{r.bytes:,}")
    Console(stderr=True).print(table)
    built = sum(r.status == "built" for r in results)
    typer.echo(f"{built} stage(s) built, {len(results) - built} up to date, {total:.2f}s total"
               if built else f"nothing to do: all {len(results)} stages up to date ({total:.2f}s)")


def _dry_run(cfg: Any, stages: Optional[list[str]], force: bool, as_json: bool) -> None:
    """Print each planned stage as would-run / up-to-date with the reasons."""
    from pipeline.build.runner import plan_build

    planned = plan_build(cfg, stages, force=force)
    rows = [{"name": p.stage.name, "status": p.status,
             # a stage that runs anyway needs no note about its rebuilt inputs
             "reasons": list(p.reasons) or [f"input: {i} (rebuilt first; reruns only if it changes)"
                                            for i in p.upstream],
             "outputs": list(p.stage.outputs)} for p in planned]
    if as_json:
        typer.echo(json.dumps({"artifacts": str(cfg.artifacts), "stages": rows}))
        return
    width = max((len(r["name"]) for r in rows), default=0)
    for r in rows:
        why = f"  ({'; '.join(r['reasons'])})" if r["reasons"] else ""
        typer.echo(f"{r['name']:<{width}}  {r['status']}{why}")
    n = sum(p.stale for p in planned)
    maybe = sum(p.status == "may-run" for p in planned)
    typer.echo(f"{n} stage(s) would run, {maybe} may run, {len(rows) - n - maybe} up to date")
