"""``pokertables equity HERO``: win/tie/lose and pot equity of every seat (hands, ranges, random)."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any, Optional

import typer

from pipeline.cli.app import app, artifacts_dir
from pipeline.cli.equity_report import print_result

#: A progress bar appears only for runs that last longer than this (s).
PROGRESS_AFTER = 1.0


def progress_bar() -> tuple[Callable[[float, str], None], Callable[[], None]]:
    """A (callback, close) pair drawing a rich progress bar on stderr, only when stderr is a
    terminal and only once the run has lasted :data:`PROGRESS_AFTER` seconds."""
    t0 = time.perf_counter()
    state: dict[str, Any] = {}

    def update(frac: float, text: str) -> None:
        if not sys.stderr.isatty():
            return
        if "announced" not in state:
            # first call: the question passed validation, so a bad input never gets this line
            from pipeline.cli.warm_cmd import announce_compile

            state["announced"] = True
            announce_compile()
        if time.perf_counter() - t0 < PROGRESS_AFTER:
            return
        if "bar" not in state:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            bar = Progress(TextColumn("equity"), BarColumn(), TextColumn("{task.description}"),
                           TimeElapsedColumn(), console=Console(stderr=True), transient=True)
            bar.start()
            state["bar"] = bar
            state["task"] = bar.add_task(text, total=1.0)
        state["bar"].update(state["task"], completed=frac, description=text)

    def close() -> None:
        if "bar" in state:
            state["bar"].stop()

    return update, close


@app.command("equity")
def equity_cmd(
    hero: list[str] = typer.Argument(..., help="your hand (AsKs), a range (\"QQ+,AKs\"), or four "
                                               "cards for Omaha"),
    vs: Optional[list[str]] = typer.Option(None, "--vs", help="an opponent: hand, range or random; "
                                                              "repeat for more seats"),
    opponents: Optional[int] = typer.Option(None, "--opponents", "-n",
                                            help="random opponents (default 1, or 0 with --vs)"),
    board: str = typer.Option("", "--board", "-b", help="0, 3, 4 or 5 board cards"),
    dead: str = typer.Option("", "--dead", help="cards out of play (folded, burned, seen)"),
    exact: bool = typer.Option(False, "--exact", help="insist on an exact method"),
    samples: Optional[int] = typer.Option(None, "--samples", "-s",
                                          help="Monte Carlo deals (default 300,000: stderr < 0.1 pp)"),
    stderr: Optional[float] = typer.Option(None, "--stderr",
                                           help="Monte Carlo until every seat's stderr is below this"),
    time_limit: Optional[float] = typer.Option(None, "--time", help="Monte Carlo for this many seconds"),
    seed: Optional[int] = typer.Option(None, "--seed", help="Monte Carlo seed (reproducible)"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    breakdown: bool = typer.Option(False, "--breakdown",
                                   help="also each combo and class of the hero's range: its share "
                                        "of the deals and its equity"),
) -> None:
    """Win, tie, lose and pot equity (a k-way tie pays 1/k) of every seat.

    Up to 10 players, each a hand, a range (QQ+, AKs, A5s-A2s, KK:0.5, 15%, random ...) or a
    random hand. Preflop answers come from the preflop tables when they hold them; otherwise
    exact when the cost estimate says about 2 s or less, Monte Carlo with a standard error
    otherwise.
    """
    from pipeline.equity.engine import equity_seats
    from pipeline.query.tables import Tables

    if breakdown:
        _breakdown(" ".join(hero), vs or [], opponents, board, dead, exact, samples, stderr,
                   time_limit, seed, as_json)
        return
    update, close = progress_bar()
    try:
        res = equity_seats(Tables(artifacts_dir()), " ".join(hero), vs or [], opponents=opponents,
                           board=board, dead=dead, exact=True if exact else None, samples=samples,
                           stderr=stderr, time_limit=time_limit, seed=seed, progress=update)
    finally:
        close()
    out = res.to_json()
    if as_json:
        typer.echo(json.dumps(out))
        return
    if res.game == "omaha":
        typer.echo("Omaha (two hole cards + three board cards)")
    print_result(out)




def _breakdown(hero: str, vs: list[str], opponents: Optional[int], board: str, dead: str,
               exact: bool, samples: Optional[int], stderr: Optional[float],
               time_limit: Optional[float], seed: Optional[int], as_json: bool) -> None:
    """``--breakdown``: the answer, then the hero's classes and combos sorted by equity."""
    from pipeline.equity.breakdown import equity_breakdown
    from pipeline.errors import InputError
    from pipeline.query.tables import Tables

    if time_limit is not None:
        raise InputError("--breakdown runs one answer per combo: give --samples or --stderr, not --time")
    bd = equity_breakdown(Tables(artifacts_dir()), hero, vs, opponents=opponents, board=board,
                          dead=dead, exact=True if exact else None, samples=samples,
                          stderr=stderr, seed=seed)
    out = bd.to_json()
    if as_json:
        typer.echo(json.dumps(out))
        return
    print_result(out)
    for title, rows in (("by class", out["breakdown"]["classes"]),
                        ("by combo", out["breakdown"]["combos"])):
        typer.echo(f"  {title}:")
        typer.echo(f"    {'hand':<7} {'combos':>6} {'weight':>6} {'freq %':>7} {'win %':>7} "
                   f"{'tie %':>7} {'equity %':>8} {'± stderr':>8}")
        for r in rows:
            se = f"{100 * r['stderr']:8.3f}" if r["stderr"] is not None else ""
            typer.echo(f"    {r['hand']:<7} {r['combos']:>6} {r['weight']:>6.2f} "
                       f"{100 * r['frequency']:7.3f} {100 * r['win']:7.3f} {100 * r['tie']:7.3f} "
                       f"{100 * r['equity']:8.3f} {se}")
