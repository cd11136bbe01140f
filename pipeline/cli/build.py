"""The ``build`` group: ``pokertables build [STAGE...]`` (run the stages with progress and a
summary table), ``verify`` (check the artifacts against the manifest and their content
invariants) and ``warm`` (compile the query kernels once, so the first real query answers at
once; ``make tables`` ends with it)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from pipeline.cli.common import (
    DEFAULT_ARTIFACTS,
    STATE,
    LogProgress,
    RichProgress,
    app,
    artifacts_dir,
    say_waiting,
    whole,
    whole_at_least,
)

if TYPE_CHECKING:
    from pipeline.build.config import BuildConfig


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
    workers: Optional[int] = typer.Option(None, "--workers", parser=whole,
                                          help="with --executor dask: start a local cluster of N worker processes"),
    one_process: bool = typer.Option(False, "--one-process",
                                     help="compute every stage in this process, one after another (by "
                                          "default the video-poker stages run in a second process beside "
                                          "the others)"),
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
    show: RichProgress | LogProgress | None = None
    if not as_json:
        show = RichProgress() if sys.stderr.isatty() else LogProgress()
    from pipeline.core.jit_clock import CompileClock

    t0 = time.perf_counter()
    try:
        # numba compiling in this process and the build's second process (a dask cluster's
        # workers compile on their own)
        with CompileClock() as clock:
            results = run_build(cfg, stages or None, force=force, wait=wait, progress=show, executor=ex,
                                on_wait=say_waiting, lanes=not one_process, clock=clock)
    finally:
        if show:
            show.close()
        ex.close()
    total = time.perf_counter() - t0
    if as_json:
        typer.echo(json.dumps({"artifacts": str(cfg.artifacts), "seconds": round(total, 3),
                               "compile_seconds": round(clock.total, 3), "executor": executor,
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
    compiled = (f", of which {clock.total:.1f}s numba compiling "
                f"({sum(clock.compiles.values())} specialization(s) of {len(clock.compiles)} kernel(s))"
                if clock.compiles else "")
    typer.echo(f"{built} stage(s) built, {len(results) - built} up to date, {total:.2f}s total{compiled}"
               if built else f"nothing to do: all {len(results)} stages up to date ({total:.2f}s)")


def _dry_run(cfg: BuildConfig, stages: Optional[list[str]], force: bool, as_json: bool) -> None:
    """Print each planned stage as would-run / up-to-date with the reasons."""
    from pipeline.build.estimate import describe, estimate
    from pipeline.build.runner import plan_build
    from pipeline.build.store import read_manifest

    planned = plan_build(cfg, stages, force=force)
    est = estimate([p.stage for p in planned if p.stale], read_manifest(cfg.artifacts, strict=False))
    rows = [{"name": p.stage.name, "status": p.status,
             # a stage that runs anyway needs no note about its rebuilt inputs
             "reasons": list(p.reasons) or [f"input: {i} (rebuilt first; reruns only if it changes)"
                                            for i in p.upstream],
             "outputs": list(p.stage.outputs)} for p in planned]
    if as_json:
        typer.echo(json.dumps({"artifacts": str(cfg.artifacts), "stages": rows,
                               "estimate": {"seconds": round(est.seconds, 1), "bytes": est.bytes,
                                            "not_estimated": list(est.unknown)}}))
        return
    width = max((len(r["name"]) for r in rows), default=0)
    for r in rows:
        why = f"  ({'; '.join(r['reasons'])})" if r["reasons"] else ""
        typer.echo(f"{r['name']:<{width}}  {r['status']}{why}")
    n = sum(p.stale for p in planned)
    maybe = sum(p.status == "may-run" for p in planned)
    typer.echo(f"{n} stage(s) would run, {maybe} may run, {len(rows) - n - maybe} up to date")
    if n:
        typer.echo(describe(est))


@app.command("verify")
def verify_cmd(
    as_json: bool = typer.Option(False, "--json", help="print a JSON report"),
    quick: bool = typer.Option(False, "--quick", help="skip the re-hash, content invariants and shipped "
                               "digests (sizes, shapes, and a re-hash only of files whose stat changed)"),
    config: Optional[Path] = typer.Option(None, "--config", help="build config whose plan says what must "
                                          "exist (configs/build.toml)"),
    stages: Optional[list[str]] = typer.Argument(None, help="expect only these stages' outputs"),
) -> None:
    """Verify the artifacts: every planned output listed and intact (size, sha256, shapes), content
    invariants and the shipped content digests; exit 1 if anything is wrong."""
    from pipeline.build.verify import verify

    rep = verify(artifacts_dir(), content=not quick, config=config, stages=stages or None)
    if as_json:
        typer.echo(json.dumps(rep.as_json()))
    else:
        for rel in rep.checked:
            typer.echo(f"ok       {rel}")
        for rel, msg in rep.notes:
            typer.echo(f"note     {rel}: {msg}")
        for rel, msg in rep.problems:
            typer.echo(f"PROBLEM  {rel}: {msg}")
        typer.echo(f"{len(rep.checked)} file(s) ok, {len(rep.problems)} problem(s)")
    if not rep.ok:
        raise typer.Exit(1)


@app.command("warm")
def warm_cmd(
    workers: Optional[int] = typer.Option(None, "--workers", parser=whole_at_least(1),
                                          help="worker processes (default: one per core)"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
) -> None:
    """Compile the query kernels now, across the cores (``make tables`` runs this last), so the
    first query of each kind answers at once instead of compiling for seconds."""
    from pipeline.equity.warm import warm
    from pipeline.errors import ArtifactError

    try:
        rep = warm(artifacts_dir(), workers)
    except ArtifactError as exc:
        # a partial build (make tables STAGES=...): nothing the engine can run yet
        typer.echo(json.dumps({"skipped": True, "reason": str(exc)}) if as_json else
                   f"warm: skipped, the equity engine needs the evaluator's tables ({exc})")
        return
    note = f" ({rep.skipped} question(s) skipped: tables not built)" if rep.skipped else ""
    specs = sum(rep.compiled.values())
    if as_json:
        typer.echo(json.dumps({"skipped": False, "up_to_date": rep.up_to_date, "seconds": rep.seconds,
                               "workers": rep.workers, "questions_skipped": rep.skipped,
                               "compiled": dict(rep.compiled), "compile_seconds": rep.compile_seconds}))
        return
    if rep.up_to_date:
        typer.echo(f"query kernels already compiled for these sources (checked in {rep.seconds:.2f}s)")
        return
    typer.echo(f"query kernels compiled and cached in {rep.seconds:.1f}s on {rep.workers} "
               f"process(es): {specs} specialization(s) of {len(rep.compiled)} kernel(s) compiled "
               f"in {rep.compile_seconds:.1f}s (summed over the processes), the rest loaded from "
               f"numba's cache{note}")
