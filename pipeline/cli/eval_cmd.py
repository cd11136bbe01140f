"""``pokertables eval CARDS``: score, category and name of a 5-, 6- or 7-card hand."""

from __future__ import annotations

import json

import typer

from pipeline.cli.app import app, artifacts_dir


@app.command("eval")
def eval_hand(
    cards: list[str] = typer.Argument(..., help="5, 6 or 7 cards, e.g. 'As Ks Qs Js Ts' or AsKsQsJsTs"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    rules: str = typer.Option("standard", "--rules", help="rule set by name (e.g. short-deck) or TOML file"),
) -> None:
    """Look a hand up in the score tables."""
    from pipeline.core.cards import parse_cards
    from pipeline.core.constants import N_SCORES
    from pipeline.query.tables import Tables

    ids = parse_cards(" ".join(cards), count=(5, 6, 7))
    info = Tables(artifacts_dir(), rules=rules).describe(ids)
    if as_json:
        typer.echo(json.dumps(info))
        return
    if "rules" in info:
        typer.echo(f"{info['cards']}: {info['name']} ({info['category_name']}), "
                   f"score {info['score']} of {info['classes']} under {info['rules']} rules")
    else:
        typer.echo(f"{info['cards']}: {info['name']} ({info['category_name']}), "
                   f"score {info['score']} of {N_SCORES} (Cactus Kev rank {info['cactus_kev']})")
