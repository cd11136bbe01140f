"""How to play one video poker game: ``vp analyze GAME`` (exact optimal-strategy return,
variance, final-hand table and bankroll figures; ``--strategy`` plays another game's strategy on
it), ``vp hold CARDS`` (EV of all 32 holds), ``vp grade DEAL HOLD`` (what a hold costs) and
``vp chart GAME`` (a strategy chart derived from the optimal strategy, judged exactly)."""

from __future__ import annotations

import json
import shutil
import textwrap
from typing import Any, Optional

import typer

from pipeline.answers.vp import DEFAULT_GAME
from pipeline.cli.common import artifacts_dir, whole, whole_at_least
from pipeline.cli.vp import GAME_HELP, PAY_HELP, echo_edits, one_game, vp_app

#: the hold column of a chart; a longer hold pushes its numbers right while the line fits the
#: terminal, and wraps once it does not
HOLD_WIDTH = 62
#: characters of a chart row besides the hold (number, gaps, deals, loss), and the least room
#: a wrapped hold keeps
CHART_FIXED_WIDTH = 25
MIN_HOLD_WIDTH = 30


@vp_app.command("analyze")
def analyze_cmd(
    paytable: str = typer.Argument(..., help="game: slug (see `vp list`), common name (\"9/6 jacks\") or TOML path"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    strategy: str = typer.Option("", "--strategy", help="play this game's strategy (slug, name or path) on PAYTABLE"),
    chart: bool = typer.Option(False, "--chart", help="with --strategy: play that game's derived chart"),
    pay: list[str] = typer.Option([], "--pay", help=PAY_HELP),
) -> None:
    """Exact optimal-strategy return, variance and final-hand table of a paytable."""
    from pipeline.answers import Context
    from pipeline.answers.vp import analyze

    text: dict[str, Any] = {}
    info = analyze(Context(artifacts_dir()), paytable, strategy=strategy, chart=chart, pay=pay,
                   text=text)
    pt, source = text["paytable"], text["source"]
    if as_json:
        typer.echo(json.dumps(info))
        return
    deck = f"{pt.deck_size} cards ({pt.deck_size - 52} joker{'s' * (pt.deck_size > 53)} wild)" \
        if pt.wild == "joker" else "52 cards, deuces wild" if pt.wild == "deuces" else "52 cards"
    typer.echo(f"{pt.name}  ({deck}; optimal strategy)")
    echo_edits(paytable, pay)
    typer.echo(f"{'hand':<24}{'pays':>7}{'combinations':>24}{'probability':>14}{'return':>11}")
    for ln in info["lines"]:
        typer.echo(f"{ln['hand']:<24}{ln['pays']:>7}{ln['combinations']:>24,}"
                   f"{ln['probability']:>14.8f}{ln['return']:>11.6f}")
    typer.echo(f"{'total':<24}{'':>7}{info['total_combinations']:>24,}{1:>14.8f}"
               f"{info['return']:>11.6f}")
    typer.echo(f"return {info['return']:.6f} = {info['return_exact']}; variance {info['variance']:.4f}")
    echo_extras(info)
    typer.echo(f"{info['seconds']:.2f} s ({source})")


@vp_app.command("hold")
def hold_cmd(
    cards: list[str] = typer.Argument(..., help="five cards, e.g. 'Jh Qh Kh Ah 2c' (Jk = joker), then "
                                      "optionally the game (\"9/6 jacks\")"),
    paytable: Optional[str] = typer.Option(None, "--paytable", "-p", help=GAME_HELP + f" (default {DEFAULT_GAME})"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    pay: list[str] = typer.Option([], "--pay", help=PAY_HELP),
) -> None:
    """EV of all 32 holds of a deal, best first."""
    from pipeline.answers import Context
    from pipeline.answers.vp import hold

    words, game = split_game(cards)
    game = one_game(game, paytable, DEFAULT_GAME)
    text: dict[str, Any] = {}
    out = hold(Context(artifacts_dir()), " ".join(words), game, pay=pay, text=text)
    if as_json:
        typer.echo(json.dumps(out))
        return
    rows = out["holds"]
    typer.echo(f"{out['cards']} under {out['name']}: all 32 holds, best first")
    echo_edits(game, pay)
    typer.echo(f"{'':2}{'hold':<22}{'EV':>12}{'cost':>11}  {'EV exact':<24}cost exact")
    for r in rows:
        mark = "* " if r["best"] else "  "
        typer.echo(f"{mark}{r['hold']:<22}{r['ev']:>12.6f}{r['cost']:>11.6f}  "
                   f"{r['ev_exact']:<24}{r['cost_exact']}")
    typer.echo(f"{out['seconds']:.2f} s ({text['source']})")


def split_game(words: list[str]) -> tuple[list[str], str | None]:
    """The cards of ``vp hold CARDS [GAME]``, and the game when the last word is not cards."""
    from pipeline.errors import InputError
    from pipeline.videopoker.paytables.deal_text import parse_deal

    def cards(ws: list[str]) -> bool:
        try:
            parse_deal(" ".join(ws), 54)  # the largest deck: jokers parse
        except InputError:
            return False
        return True

    if len(words) > 1 and not cards(words) and cards(words[:-1]):
        return words[:-1], words[-1]
    return words, None


def echo_strategy(info: dict[str, Any]) -> None:
    """Print the ``--strategy`` result under the analyze table."""
    typer.echo(f"playing {info['strategy']} strategy on {info['paytable']}: return "
               f"{info['return'] * 100:.6f}% = {info['return_exact']}")
    typer.echo(f"  optimal {info['optimal_return'] * 100:.6f}%; cost {info['cost'] * 100:.6f} "
               f"percentage points; {info['deals_played_differently']:,} deals played differently")


def echo_extras(info: dict[str, Any]) -> None:
    """Print the bankroll figures (and the cross-play line) under the analyze table."""
    b = info["bankroll"]
    typer.echo(f"hit frequency {b['hit_frequency']:.6f} = {b['hit_frequency_exact']}; "
               f"standard deviation per hand {b['sd_per_hand']:.4f}")
    typer.echo("N-play (N hands on one deal): variance of the round's total pay, in bets of one hand")
    typer.echo("  " + "  ".join(f"N={r['hands']}: {r['variance']:,.2f}" for r in b["n_play"]))
    rr = b["risk_of_ruin"]
    if "rows" in rr:
        by = {(r["bankroll"], r["hands"]): r["risk_of_ruin"] for r in rr["rows"]}
        hands = sorted({r["hands"] for r in rr["rows"]})
        typer.echo(f"risk of ruin (exact DP, error < {rr['error_bound']:.0e}); bankroll in bets: "
                   + ", ".join(f"{h:,} hands" for h in hands) + ", long run")
        for lr in rr["long_run"]:
            bank = lr["bankroll"]
            typer.echo(f"  {bank:>6,} bets: " + "  ".join(f"{by[(bank, h)]:.6f}" for h in hands)
                       + f"  {lr['risk_of_ruin']:.6f}")
    if "played_strategy" in info:
        echo_strategy(info["played_strategy"])


@vp_app.command("grade")
def grade_cmd(
    deal: str = typer.Argument(..., help="the five dealt cards, e.g. 'Js Jd 5h 8c Qs' (Jk = joker)"),
    hold: str = typer.Argument(..., help="cards held ('Js Jd'), positions ('1,2,5'), a 0/1 flag per "
                                         "position ('11000'), 'draw five' (or 'none') or 'all'"),
    game: Optional[str] = typer.Argument(None, help=GAME_HELP + f" (default {DEFAULT_GAME})"),
    paytable: Optional[str] = typer.Option(None, "--paytable", "-p", help="the game, as GAME"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    pay: list[str] = typer.Option([], "--pay", help=PAY_HELP),
) -> None:
    """The cost of a hold against the best hold of the deal (exact fraction and decimal)."""
    from pipeline.answers import Context
    from pipeline.answers.vp import grade

    game = one_game(game, paytable, DEFAULT_GAME)
    g = grade(Context(artifacts_dir()), deal, hold, game, pay=pay)
    if as_json:
        typer.echo(json.dumps(g))
        return
    typer.echo(f"{g['cards']} under {g['name']}")
    echo_edits(game, pay)
    typer.echo(f"  your hold  {g['hold']:<22} EV {g['ev']:.6f} = {g['ev_exact']}")
    typer.echo(f"  best hold  {g['best_hold']:<22} EV {g['best_ev']:.6f} = {g['best_ev_exact']}")
    verdict = "optimal" if g["optimal"] else f"rank {g['rank']} of 32 by EV"
    typer.echo(f"  cost {g['cost']:.6f} per coin bet = {g['cost_exact']} ({verdict})")


@vp_app.command("chart")
def chart_cmd(
    paytable: str = typer.Argument(..., help="game: slug (jacks-or-better-9-6), common name "
                                             "(\"9/6 jacks\") or TOML path"),
    max_lines: int = typer.Option(40, "--max-lines", "-n", parser=whole_at_least(2),
                                   help="most lines the chart may have"),
    derive: bool = typer.Option(False, "--derive", help="derive the chart now even if the build exported it"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    pay: list[str] = typer.Option([], "--pay", help=PAY_HELP),
) -> None:
    """A strategy chart derived from the optimal strategy, with its exact return vs optimal.

    With the default --max-lines the chart the build exported (strategy/chart_hold) is used
    and judged exactly again; other sizes (or --derive) derive it now.
    """
    from pipeline.answers import Context
    from pipeline.answers.vp import chart
    from pipeline.videopoker.charts.chart import LEGEND

    info = chart(Context(artifacts_dir()), paytable, max_lines=max_lines, derive=derive, pay=pay)
    source = info["source"]
    if as_json:
        typer.echo(json.dumps(info))
        return
    groups = info.get("groups") or []
    by = f"; by {groups[0]['title'].split()[-1]} dealt" if groups else ""
    width = shutil.get_terminal_size().columns
    typer.echo(textwrap.fill(f"{info['name']}: strategy chart ({len(info['lines'])} lines{by}; hold "
                             "the first line the deal contains)", width, subsequent_indent="  "))
    echo_edits(paytable, pay)
    if not groups:
        echo_chart_lines(info["lines"], width)
    for g in groups:
        typer.echo(f"{g['title']} ({g['deals']:,} deals):")
        echo_chart_lines(g["lines"], width)
    typer.echo(f"chart return   {info['chart_return'] * 100:.6f}% = {info['chart_return_exact']}")
    typer.echo(f"optimal return {info['optimal_return'] * 100:.6f}% = {info['optimal_return_exact']}")
    typer.echo(f"cost of the chart {info['cost'] * 100:.6f} percentage points")
    if info.get("players"):
        echo_players(info, width)
    for note in (f"tie rule: {info['tie_rule']}", f"terms: {LEGEND}"):
        typer.echo(textwrap.fill(note, width, subsequent_indent="  ", break_on_hyphens=False))
    typer.echo(f"{info['seconds']:.2f} s ({source})")


def echo_players(info: dict[str, Any], width: int) -> None:
    """The short card in players' words: each line's words, what that rewording alone costs (%
    of the bet, exact; a line whose kinds an earlier line names is merged into it), and the
    worded card's exact return."""
    p = info["players"]
    room = max(MIN_HOLD_WIDTH, width - CHART_FIXED_WIDTH)
    col = min(HOLD_WIDTH, room)
    typer.echo("in players' words (read as written: every hold of the kinds named):")
    typer.echo(f"{'#':>3}  {'hold':<{col}}{'costs %':>12}")
    for ln in info["lines"]:
        text = ln["players"] or f"(merged into line {ln['merged_into']})"
        parts = [text] if len(text) <= col else textwrap.wrap(text, col, break_on_hyphens=False)
        typer.echo(f"{ln['line']:>3}  {parts[0]:<{col}}{ln['players_cost'] * 100:>12.6f}")
        for more in parts[1:]:
            typer.echo(f"{'':>3}    {more}")
    typer.echo(f"players' card return {p['return'] * 100:.6f}% = {p['return_exact']}")
    typer.echo(f"cost of the players' words {p['vs_chart'] * 100:.6f} percentage points "
               f"(= {p['vs_chart_exact']}); against optimal {p['cost'] * 100:.6f}")


def echo_chart_lines(lines: list[dict[str, Any]], width: int) -> None:
    """Chart lines under a header: number, hold, deals, loss; a hold too long for ``width``
    wraps onto indented lines below its numbers."""
    room = max(MIN_HOLD_WIDTH, width - CHART_FIXED_WIDTH)
    col = min(HOLD_WIDTH, room)
    typer.echo(f"{'#':>3}  {'hold':<{col}}{'deals':>10}{'lost %':>10}")
    for ln in lines:
        text = ln["hold"]
        parts = [text] if len(text) <= room else textwrap.wrap(text, room, break_on_hyphens=False)
        typer.echo(f"{ln['line']:>3}  {parts[0]:<{col}}{ln['deals']:>10,}{ln['loss'] * 100:>10.5f}")
        for more in parts[1:]:
            typer.echo(f"{'':>3}    {more}")


@vp_app.command("deal")
def deal_cmd(
    game: Optional[str] = typer.Argument(None, help=GAME_HELP + f" (default {DEFAULT_GAME}; its "
                                         "deck: jokers are dealt)"),
    paytable: Optional[str] = typer.Option(None, "--paytable", "-p", help="the game, as GAME"),
    seed: Optional[int] = typer.Option(None, "--seed", parser=whole, help="the same seed deals the same hands "
                                                            "(default: a fresh seed, printed)"),
    count: int = typer.Option(1, "--count", "-n", parser=whole, help="how many deals (1..10,000)"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    pay: list[str] = typer.Option([], "--pay", help=PAY_HELP),
) -> None:
    """Deal five-card hands from a game's deck, seeded and repeatable (a trainer's deals)."""
    from pipeline.answers import Context
    from pipeline.answers.vp import deal

    game = one_game(game, paytable, DEFAULT_GAME)
    out = deal(Context(artifacts_dir()), game, seed=seed, count=count, pay=pay)
    if as_json:
        typer.echo(json.dumps(out))
        return
    typer.echo(f"{out['name']}: {len(out['deals'])} deal{'s' * (len(out['deals']) > 1)} (seed {out['seed']})")
    echo_edits(game, pay)
    for d in out["deals"]:
        typer.echo(f"  {d}")
