"""``vp draw``: a trainer's hand played out. Hand N of seed S (``vp deal --seed S``'s N-th
deal), the hold kept, the replacement cards drawn from the same seeded deck on 1 to 100 lines,
each final hand paid by the pay table in credits, with the hold's exact expected value and the
strategy-chart line that decides the deal (:func:`pipeline.answers.vp_play.draw`)."""

from __future__ import annotations

import json
from typing import Optional

import typer

from pipeline.answers.vp import COINS, DEFAULT_GAME
from pipeline.cli.common import artifacts_dir, whole
from pipeline.cli.vp import GAME_HELP, PAY_HELP, echo_edits, one_game, vp_app

#: final hands listed one by one in the text output (the JSON has them all)
SHOW_LINES = 10


@vp_app.command("draw")
def draw_cmd(
    game: Optional[str] = typer.Argument(None, help=GAME_HELP + f" (default {DEFAULT_GAME})"),
    seed: int = typer.Option(..., "--seed", parser=whole, help="the seed of `vp deal --seed`"),
    hand: int = typer.Option(1, "--hand", parser=whole, help="which deal of the seed (1 = the first)"),
    hold: str = typer.Option(..., "--hold", help="cards held ('Js Jd'), positions ('1,2,5'), a 0/1 "
                             "flag per position, 'draw five' (or 'none') or 'all'"),
    lines: int = typer.Option(1, "--lines", parser=whole, help="multi-play: 1, 3, 5, 10, 50 or 100 lines"),
    coins: int = typer.Option(COINS, "--coins", parser=whole, help=f"coins a line, 1 to {COINS}"),
    paytable: Optional[str] = typer.Option(None, "--paytable", "-p", help="the game, as GAME"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    pay: list[str] = typer.Option([], "--pay", help=PAY_HELP),
) -> None:
    """Play a dealt hand out: the hold kept, replacement cards from the same seeded deck, paid."""
    from pipeline.answers import Context
    from pipeline.answers.vp_play import draw

    name = one_game(game, paytable, DEFAULT_GAME)
    d = draw(Context(artifacts_dir()), seed, hand, hold, name, pay=pay, lines=lines, coins=coins)
    if as_json:
        typer.echo(json.dumps(d))
        return
    g, line = d["grade"], d["chart_line"]
    typer.echo(f"{d['name']}: hand {d['hand']} of seed {d['seed']}: {d['deal']}")
    echo_edits(name, pay)
    typer.echo(f"  hold {g['hold']}; chart line {line['line']}: {line['hold']}")
    rows = d["lines"]
    for i, ln in enumerate(rows[:SHOW_LINES]):
        paid = f"{ln['hand']}, {ln['won']:g} credits" if ln["hand"] else "no win"
        typer.echo(f"  {'line ' + str(i + 1) + ': ' if len(rows) > 1 else 'final: '}{ln['final']}  {paid}")
    if len(rows) > SHOW_LINES:
        typer.echo(f"  ... {len(rows) - SHOW_LINES} more lines (--json lists them all)")
    typer.echo(f"  won {d['won']:g} credits of {d['bet']} bet ({d['coins']} coin{'s' * (d['coins'] > 1)} x "
               f"{len(rows)} line{'s' * (len(rows) > 1)}); expected {d['expected']:.4f} = {d['expected_exact']}")
    verdict = "the best hold" if g["optimal"] else (
        f"best {g['best_hold']}; the hold costs {float(g['cost']) * d['bet']:.4f} credits "
        f"({float(g['cost']) * 100:.2f}% of the bet) = {g['cost_exact']} per coin")
    typer.echo(f"  {verdict}")
