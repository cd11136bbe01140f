"""``pokertables preflop HAND|RANGE``: preflop equity read from the preflop tables."""

from __future__ import annotations

import json
from typing import Optional

import typer

from pipeline.cli.app import app, artifacts_dir


@app.command("preflop")
def preflop_cmd(
    hand: list[str] = typer.Argument(..., help="a hand (AsAd) or a range (\"QQ+,AKs\")"),
    vs: Optional[str] = typer.Option(None, "--vs", help="heads-up against this range"),
    opponents: Optional[int] = typer.Option(None, "--opponents", "-n",
                                            help="random opponents, 1..9 (default 1)"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
) -> None:
    """Preflop equity from the tables: vs 1 random hand exact (preflop.h5), vs 2..9 from its
    Monte Carlo columns (with their stderr), range vs range heads-up exact from
    preflop_matchups.h5 (enumerated instead, and said so, when that table is not built)."""
    from pipeline.cli.equity_report import print_result
    from pipeline.equity.engine import preflop
    from pipeline.query.tables import Tables

    res = preflop(Tables(artifacts_dir()), " ".join(hand), vs=vs, opponents=opponents)
    out = res.to_json()
    if as_json:
        typer.echo(json.dumps(out))
        return
    print_result(out)
