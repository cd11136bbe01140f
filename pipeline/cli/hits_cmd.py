"""``pokertables hits RANGE --board B``: how often a range makes each hand and draw (Flopzilla)."""

from __future__ import annotations

import json
from typing import Any

import typer

from pipeline.cli.app import app, artifacts_dir

#: Width of the category column in the text tables.
NAME_WIDTH = 28
#: Decimals of the percentages in the text tables.
PCT_DIGITS = 2
PERCENT = 100


@app.command("hits")
def hits_cmd(
    rng_text: list[str] = typer.Argument(..., metavar="RANGE", help="a range (\"QQ+,AKs\", \"15%\")"),
    board: str = typer.Option(..., "--board", "-b", help="3, 4 or 5 board cards"),
    dead: str = typer.Option("", "--dead", help="cards out of play"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
) -> None:
    """For every live combo of the range on the board: its made hand (exactly one) and its draws
    (any number; backdoor flush draws on the flop only, no draws on the river), as weighted
    combos and percentages of the range's live weighted combos. Definitions: docs/hits.md."""
    from pipeline.cli.range_cmd import number, strength_loader
    from pipeline.core.cards import format_cards
    from pipeline.equity.hits import range_hits
    from pipeline.equity.rangegrid import board_and_dead
    from pipeline.equity.ranges import parse_range
    from pipeline.query.tables import Tables

    text = " ".join(rng_text)
    rng = parse_range(text, strength_loader())
    b, d = board_and_dead(board, dead, (3, 4, 5))
    h = range_hits(rng, b, d, Tables(artifacts_dir()).eval_tables())
    total = h.live_combos

    def rows(kind: str, items: Any) -> list[dict[str, Any]]:
        return [{"kind": kind, "category": r.name, "combos": number(r.combos), "hands": r.hands,
                 "percent": float(PERCENT * r.combos / total)} for r in items]

    made, draws = rows("made", h.made), rows("draw", h.draws)
    if as_json:
        typer.echo(json.dumps({"range": rng.text, "board": format_cards(b), "dead": format_cards(d),
                               "live_hands": h.live_hands, "live_combos": number(total),
                               "made": made, "draws": draws}))
        return
    lines = [f"range {rng.text}   board {format_cards(b)}" + (f"   dead {format_cards(d)}" if d else ""),
             f"live combos {number(total)} ({h.live_hands} hands)"]
    for title, table in (("made hand", made), ("draw", draws)):
        lines += ["", f"{title:<{NAME_WIDTH}}{'combos':>10}{'%':>9}"]
        lines += [f"{r['category']:<{NAME_WIDTH}}{r['combos']:>10}{r['percent']:>9.{PCT_DIGITS}f}"
                  for r in table]
    typer.echo("\n".join(lines))
