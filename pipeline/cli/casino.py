"""The ``casino`` command group (house-banked poker games: Three Card Poker, Let It Ride,
Mississippi Stud, Caribbean Stud, their side bets...): ``list``, ``analyze``, ``strategy``,
``grade`` and ``breakeven``. GAME is a slug, a common name or alias ("3cp", "caribbean stud")
or a game file path; answers come from :mod:`pipeline.answers.casino`."""

from __future__ import annotations

import json
from typing import Any, Optional

import typer

from pipeline.cli.common import AlphabeticalGroup, app, artifacts_dir

PAY_HELP = ("edit a line's pay in place, e.g. \"straight=2\" (line name or hand, any case; "
            "TABLE:LINE when several tables have it; meter=N for a progressive; repeatable): the "
            "edited game is solved exactly now and named as edited")
GAME_HELP = "game: slug (see `casino list`), common name (\"3cp\", \"caribbean stud\") or TOML path"

casino_app = typer.Typer(no_args_is_help=True, cls=AlphabeticalGroup,
                         help="Casino poker games: exact house edge, return table and strategy.")
app.add_typer(casino_app, name="casino")


def _pct(x: float) -> str:
    return f"{x * 100:.4f}%"


@casino_app.command("list")
def list_cmd(
    query: Optional[list[str]] = typer.Argument(None, help="only the game these words name"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON array"),
) -> None:
    """The known games: slug, name, family, house edge (when built)."""
    from pipeline.answers import Context
    from pipeline.answers.casino import games

    rows = games(Context(artifacts_dir()), " ".join(query) if query else None)
    if as_json:
        typer.echo(json.dumps(rows))
        return
    typer.echo(f"{'game':<34}{'slug':<36}{'house edge':>11}{'elem. risk':>11}  built")
    for r in rows:
        he = _pct(r["house_edge"]) if r["built"] else "-"
        er = _pct(r["element_of_risk"]) if r["built"] else "-"
        typer.echo(f"{r['name']:<34}{r['game']:<36}{he:>11}{er:>11}  {'yes' if r['built'] else 'no'}")
    typer.echo(f"{len(rows)} games; `pokertables casino analyze GAME` computes one now")


@casino_app.command("analyze")
def analyze_cmd(
    game: str = typer.Argument(..., help=GAME_HELP),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    pay: list[str] = typer.Option([], "--pay", help=PAY_HELP),
) -> None:
    """Exact house edge, element of risk and return table of a game under optimal play."""
    from pipeline.answers import Context
    from pipeline.answers.casino import analyze

    text: dict[str, Any] = {}
    info = analyze(Context(artifacts_dir()), game, pay=pay, text=text)
    if as_json:
        typer.echo(json.dumps(info))
        return
    typer.echo(f"{info['name']}  (optimal strategy; per unit of the {info['base_bet']})")
    typer.echo(f"{'outcome':<52}{'net win':>9}{'combinations':>22}{'probability':>13}{'return':>11}")
    for r in info["return_table"]:
        typer.echo(f"{r['outcome']:<52}{r['net_win']:>9g}{r['combinations']:>22,}{r['probability']:>13.8f}"
                   f"{r['contribution']:>11.6f}")
    typer.echo(f"{'total':<52}{'':>9}{info['combinations']:>22,}{1:>13.8f}{-info['house_edge']:>11.6f}")
    typer.echo(f"house edge {_pct(info['house_edge'])} = {info['house_edge_exact']}")
    typer.echo(f"element of risk {_pct(info['element_of_risk'])}; average total bet {info['average_bet']:.6f}; "
               f"standard deviation {info['standard_deviation']:.4f}")
    typer.echo(f"{info['seconds']:.2f} s ({text['source']})")


@casino_app.command("strategy")
def strategy_cmd(
    game: str = typer.Argument(..., help=GAME_HELP),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    pay: list[str] = typer.Option([], "--pay", help=PAY_HELP),
) -> None:
    """Strategies a person can use, each with its exact cost against optimal play."""
    from pipeline.answers import Context
    from pipeline.answers.casino import strategy

    info = strategy(Context(artifacts_dir()), game, pay=pay)
    if as_json:
        typer.echo(json.dumps(info))
        return
    opt = info["optimal"]
    typer.echo(f"{info['name']}: optimal house edge {_pct(opt['house_edge'])} = {opt['house_edge_exact']}")
    for s in info["strategies"]:
        typer.echo(f"\n{s['name']}: house edge {_pct(s['house_edge'])}; costs {s['cost'] * 100:.6f} "
                   f"percentage points = {s['cost_exact']}")
        for rule in s["rules"]:
            typer.echo(f"  {rule}")


@casino_app.command("grade")
def grade_cmd(
    game: str = typer.Argument(..., help=GAME_HELP),
    hand: str = typer.Argument(..., help="the cards seen, e.g. 'Qs 6d 4c'; '|' before the dealer's "
                                         "up card or the community cards ('As Kd 9c 5h 2s | Qd')"),
    decision: str = typer.Argument(..., help="the decision taken, e.g. play, fold, raise, 3x"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    pay: list[str] = typer.Option([], "--pay", help=PAY_HELP),
) -> None:
    """The exact cost of a decision in a hand against the best decision there."""
    from pipeline.answers import Context
    from pipeline.answers.casino import grade

    g = grade(Context(artifacts_dir()), game, hand, decision, pay=pay)
    if as_json:
        typer.echo(json.dumps(g))
        return
    typer.echo(f"{g['hand']} under {g['name']} ({g['point']})")
    for o in g["options"]:
        mark = "*" if o["option"] == g["best"] else " "
        typer.echo(f" {mark} {o['option']:<8} EV {o['ev']:+.6f} = {o['ev_exact']}")
    verdict = "optimal" if g["optimal"] else f"best is {g['best']}"
    typer.echo(f"  {g['decision']} costs {g['cost']:.6f} per unit bet = {g['cost_exact']} ({verdict})")


@casino_app.command("breakeven")
def breakeven_cmd(
    game: str = typer.Argument(..., help=GAME_HELP),
    line: str = typer.Option(..., "--line", help="the line whose pay moves (label or hand), or "
                                                  "'meter' for a progressive"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    pay: list[str] = typer.Option([], "--pay", help=PAY_HELP),
) -> None:
    """The pay of a line (or a progressive's meter) at which the house edge is exactly 0."""
    from pipeline.answers import Context
    from pipeline.answers.casino import breakeven

    b = breakeven(Context(artifacts_dir()), game, line, pay=pay)
    if as_json:
        typer.echo(json.dumps(b))
        return
    typer.echo(f"{b['name']}: {b['line']} pays {b['pays_now']:g} now (house edge {_pct(b['house_edge_now'])})")
    typer.echo(f"break-even {b['line']}: {b['breakeven']:,.4f} = {b['breakeven_exact']}")
