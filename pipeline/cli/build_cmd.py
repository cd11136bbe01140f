"""``pokertables build [STAGE...]``: run the build stages with progress and a summary table."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Optional

import typer

from pipeline.cli import STATE, app


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

    artifacts = STATE["artifacts"] if STATE["artifacts"] != Path("artifacts") else None
    cfg = load_config(config, artifacts)
    ex = make_executor(executor, scheduler, workers)
    show = _RichProgress() if not as_json else None
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
    for col, just in (("stage", "left"), ("status", "left"), ("seconds", "right"), ("bytes", "right")):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for r in results:
        table.add_row(r.name, r.status, f"{r.seconds:.2f}", f"{r.bytes:,}")
    Console(stderr=True).print(table)
    built = sum(r.status == "built" for r in results)
    typer.echo(f"{built} stage(s) built, {len(results) - built} up to date, {total:.2f}s total"
               if built else f"nothing to do: all {len(results)} stages up to date ({total:.2f}s)")
