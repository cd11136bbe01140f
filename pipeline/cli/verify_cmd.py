"""``pokertables verify``: check artifacts against the manifest and their content invariants."""

from __future__ import annotations

import json

import typer

from pipeline.cli import app, artifacts_dir


@app.command("verify")
def verify_cmd(
    as_json: bool = typer.Option(False, "--json", help="print a JSON report"),
    quick: bool = typer.Option(False, "--quick", help="skip content invariants (sizes, hashes, shapes only)"),
) -> None:
    """Verify every artifact (size, sha256, shapes, content invariants); exit 1 if anything is wrong."""
    from pipeline.build.verify import verify

    rep = verify(artifacts_dir(), content=not quick)
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
