"""``pokertables verify``: check artifacts against the manifest and their content invariants."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from pipeline.cli.app import app, artifacts_dir


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
