"""Video poker games side by side or with a pay varied: ``vp list`` (the built-in games),
``vp compare GAME GAME...``, ``vp breakeven GAME`` (the pay of one line, a progressive royal's
meter, at which the optimal return reaches a target; ``--table`` for return against that pay)
and ``vp sweep NAME`` (exact returns of every variant of a paytable sweep)."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from pipeline.answers.vp import COINS, MAX_PAY_TEXT
from pipeline.cli.common import artifacts_dir, say_waiting, whole
from pipeline.cli.vp import PAY_HELP, deal_classes_here, echo_edits, vp_app
from pipeline.errors import InputError, clip

if TYPE_CHECKING:
    from pipeline.videopoker.tools.breakeven import PaySolver

#: sweep rows shown in the text output (the dataset has them all)
SHOW = 8


@vp_app.command("list")
def list_cmd(
    query: Optional[list[str]] = typer.Argument(None, help="only the games these words name, best "
                                                          "fit first (\"9/6 jacks\", \"deuces wild\")"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON array"),
) -> None:
    """The built-in games: slug, deck, wild cards, return, variance, hit frequency, built or not."""
    from pipeline.answers import Context
    from pipeline.answers.vp import games
    from pipeline.videopoker.catalog.games import catalog

    t0 = time.perf_counter()
    q = " ".join(query or []) or None
    if as_json:
        typer.echo(json.dumps(games(Context(artifacts_dir()), q)))
        return
    rows = catalog(artifacts_dir())
    if q is not None:
        from pipeline.videopoker.catalog.games import search_games

        order = [m.slug for m in search_games(q) if m.complete]
        rows = sorted((r for r in rows if r.slug in order), key=lambda r: order.index(r.slug))
        if not rows:
            raise InputError(f"no game fits {clip(q)} (`pokertables vp list` shows them all)")
    typer.echo(f"{'game':<34}{'slug':<28}{'deck':>5}  {'wild':<9}{'return':>10}{'variance':>10}"
               f"{'hit freq':>10}  built")
    for r in rows:
        ret = f"{float(r.return_exact):.4%}" if r.return_exact is not None else "-"
        var = f"{r.variance:.2f}" if r.variance is not None else "-"
        hit = f"{float(r.hit_frequency):.4f}" if r.hit_frequency is not None else "-"
        typer.echo(f"{r.name:<34}{r.slug:<28}{r.deck:>5}  {r.wild:<9}{ret:>10}{var:>10}{hit:>10}"
                   f"  {'yes' if r.built else 'no'}")
    built = sum(r.built for r in rows)
    typer.echo(f"{len(rows)} games, {built} built ({time.perf_counter() - t0:.2f} s); "
               "`pokertables build` builds the rest, `vp analyze SLUG` computes one now")


def _money(x: Fraction | float) -> str:
    return f"${float(x):,.2f}"


def _pays(p: Fraction) -> str:
    from pipeline.videopoker.tools.breakeven import pay_text

    return f"{int(p):,}" if p.denominator == 1 else pay_text(p)


@vp_app.command("breakeven")
def breakeven_cmd(
    game: str = typer.Argument(..., help="game: slug (see `vp list`), common name (\"9/6 jacks\") or TOML path"),
    line: str = typer.Option("royal flush", "--line", help="the line whose pay moves (its label or hand)"),
    target: str = typer.Option("1", "--target", help="return to reach, per unit bet (1 = 100%; '99.5%' works)"),
    step: str = typer.Option("", "--step", help="pay grid in credits per credit bet (default 1; "
                             "with --table, the row spacing)"),
    max_pay: str = typer.Option(MAX_PAY_TEXT, "--max-pay", help="highest pay per credit the search tries"),
    bet: list[str] = typer.Option([], "--bet", help="show the meter in dollars for this bet "
                                  "(repeatable; default $1.25 and $5)"),
    table: bool = typer.Option(False, "--table", help="return against the pay, one exact solve per row"),
    start: str = typer.Option("", "--start", help="with --table: first pay (default: the paytable's)"),
    stop: str = typer.Option("", "--stop", help="with --table: last pay (default: twice the first)"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    pay: list[str] = typer.Option([], "--pay", help=PAY_HELP),
) -> None:
    """The smallest pay of a line (default the royal) at which the optimal return reaches the target."""
    from pipeline.answers import Context
    from pipeline.answers.vp import breakeven

    t0 = time.perf_counter()
    text: dict[str, Any] = {}
    info = breakeven(Context(artifacts_dir()), game, line=line, target=target, step=step,
                     max_pay=max_pay, bet=bet, table=table, start=start, stop=stop, pay=pay, text=text)
    if as_json:
        typer.echo(json.dumps(info))
        return
    echo_edits(game, pay)
    if table:
        _table(text["solver"], info["rows"], t0)
        return
    _search(text, t0)


def _search(text: dict[str, Any], t0: float) -> None:
    """Print the break-even search (``text``: the objects behind its answer)."""
    from pipeline.videopoker.tools.breakeven import exact_text, pay_text, percent

    solver, found, own, changes = text["solver"], text["found"], text["own"], text["changes"]
    goal, grid, bets = text["goal"], text["grid"], text["bets"]
    label = solver.pt.lines[solver.line].label
    hi, lo = found.hi, found.lo
    typer.echo(f"{solver.pt.name}: {label} pays {pay_text(own.pay)} per credit bet; optimal return "
               f"{float(own.ret):.6%}")
    typer.echo(f"break-even (return >= {percent(goal)}; the smallest pay in steps of "
               f"{pay_text(grid)}): {label} {_pays(hi.pay)} per credit = {_pays(hi.pay * COINS)} coins "
               f"on a {COINS}-coin bet")
    typer.echo("  meter: " + "; ".join(f"{_money(hi.pay * b)} for a {_money(b)} bet" for b in bets))
    below = f"; at {pay_text(lo.pay)}: {float(lo.ret):.6%}" if lo is not None else \
        f" (the target is met even when {label} pays nothing)"
    typer.echo(f"  return at {pay_text(hi.pay)}: {float(hi.ret):.6%} = {exact_text(hi.ret)}{below}")
    if found.exact is not None and lo is not None:
        typer.echo(f"  exact break-even {float(found.exact):.6f} = {exact_text(found.exact)} "
                   f"(the optimal return is linear between {pay_text(lo.pay)} and {pay_text(hi.pay)})")
    elif lo is not None:
        typer.echo(f"  exact break-even between {float(found.lower):.6f} and {float(found.upper):.6f} "
                   "(the strategy changes in between)")
    if hi.slope:
        typer.echo(f"  {label}: 1 in {float(1 / hi.slope):,.0f} hands there "
                   f"(1 in {float(1 / own.slope):,.0f} at {pay_text(own.pay)})")
    _changes(changes, pay_text(own.pay), pay_text(hi.pay))
    typer.echo(f"{solver.solves} exact solves in {time.perf_counter() - t0:.2f} s")


def _changes(changes: dict[str, Any], before: str, after: str) -> None:
    """Print the strategy changes between the two pays."""
    typer.echo(f"strategy at {after} vs {before}: {changes['classes']:,} deal classes "
               f"({changes['deals']:,} deals, {changes['deal_fraction']:.2%}) change their best hold; "
               f"re-optimising adds {changes['return_gain']:.4%} of return")
    if not changes["top"]:
        return
    typer.echo(f"  {'hold at ' + before:<18}{'hold at ' + after:<18}{'classes':>8}{'deals':>8}"
               f"{'EV gain':>10}{'return':>10}  example deal")
    for c in changes["top"]:
        typer.echo(f"  {c.old_hold:<18}{c.new_hold:<18}{c.classes:>8,}{c.deals:>8,}{c.gain:>10.6f}"
                   f"{c.effect:>10.4%}  {c.example}")
    more = changes["kinds"] - len(changes["top"])
    if more > 0:
        typer.echo(f"  ... {more:,} more changes of hold")


def _table(solver: PaySolver, rows: list[dict[str, Any]], t0: float) -> None:
    """Print return against the line's pay."""
    from pipeline.videopoker.tools.breakeven import pay_text

    label = solver.pt.lines[solver.line].label
    typer.echo(f"{solver.pt.name}: optimal return against the {label} pay "
               f"(the paytable pays {pay_text(solver.own)})")
    typer.echo(f"{'pay':>10}{'per 5 coins':>13}{'return':>13}{'1 in':>10}{'classes changed':>17}")
    for r in rows:
        p = Fraction(r["pay_exact"])
        cycle = f"{r['line_cycle']:,.0f}" if r["line_cycle"] else "-"
        typer.echo(f"{_pays(p):>10}{_pays(p * COINS):>13}{r['return']:>13.6%}{cycle:>10}"
                   f"{r['classes_changed']:>17,}")
    typer.echo(f"{solver.solves} exact solves in {time.perf_counter() - t0:.2f} s")


@vp_app.command("compare")
def compare_cmd(
    games: list[str] = typer.Argument(..., help="games: slugs (see `vp list`), common names or TOML paths"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    pay: list[str] = typer.Option([], "--pay", help=PAY_HELP + "; the first game as edited "
                                  "is shown beside the games named"),
) -> None:
    """Games side by side: return, variance, royal cycle, hit frequency, break-even royal."""
    from pipeline.answers import Context
    from pipeline.answers.vp import compare

    t0 = time.perf_counter()
    text: dict[str, Any] = {}
    out = compare(Context(artifacts_dir()), games, pay=pay, text=text)
    if as_json:
        typer.echo(json.dumps(out))
        return
    if pay:
        echo_edits(games[0], pay)
    cols = text["columns"]
    heads = [f"{c.slug} edited" if g["edited"] else c.slug for c, g in zip(cols, out["games"])]
    width = max(14, *(len(h) + 2 for h in heads))
    rows = [("game", heads),
            ("return", [f"{float(c.return_exact):.4%}" for c in cols]),
            ("variance", [f"{c.variance:.2f}" for c in cols]),
            ("royal cycle", [f"{c.royal_cycle:,.0f}" if c.royal_cycle else "-" for c in cols]),
            ("hit frequency", [f"{float(c.hit_frequency):.4%}" for c in cols]),
            ("break-even royal", [_pays(c.break_even) if c.break_even is not None else "-" for c in cols]),
            (f"  per {COINS} coins", [_pays(c.break_even * COINS) if c.break_even is not None else "-"
                                      for c in cols]),
            ("figures from", [c.source for c in cols])]
    for head, vals in rows:
        typer.echo(f"{head:<18}" + "".join(f"{v:>{width}}" for v in vals))
    for c, g in zip(cols, out["games"]):
        if g["edited"]:
            typer.echo(f"{c.slug} edited: {c.name}")
    for c in cols:
        if c.break_even_note:
            typer.echo(f"{c.slug}: {c.break_even_note}")
    typer.echo(f"break-even royal: the smallest whole-credit royal pay (per credit bet) whose optimal "
               f"return reaches 100%; {time.perf_counter() - t0:.2f} s")


@vp_app.command("sweep")
def sweep_cmd(
    name: str = typer.Argument(..., help="a sweep in configs/sweeps (e.g. jacks-or-better) or a TOML path"),
    executor: str = typer.Option("local", "--executor", help="local or dask"),
    scheduler: str | None = typer.Option(None, "--scheduler", help="with dask: join tcp://HOST:PORT"),
    workers: int | None = typer.Option(None, "--workers", parser=whole,
                                        help="with dask: start N local worker processes"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
) -> None:
    """Solve every variant exactly; write artifacts/sweeps/NAME.parquet/ and NAME.png."""
    from pipeline.build.config import PACKAGE_ROOT
    from pipeline.build.executor import make_executor
    from pipeline.build.sweeps import run_sweep
    from pipeline.videopoker.tools.sweep import find_sweep, load_sweep

    roots = [Path.cwd(), PACKAGE_ROOT]
    sweep = load_sweep(find_sweep(name, roots))
    with make_executor(executor, scheduler, workers) as ex:
        info = run_sweep(sweep, deal_classes_here, ex, artifacts_dir(), on_wait=say_waiting)
    if as_json:
        typer.echo(json.dumps(info))
        return
    typer.echo(f"{info['sweep']}: {info['variants']} variants solved exactly in "
               f"{info['solve_seconds']:.2f} s ({info['ms_per_variant']:.1f} ms per variant, "
               f"executor {info['executor']}, {info['workers']} worker(s))")
    rows = sorted(info["rows"], key=lambda r: -r["return"])
    typer.echo(f"{'variant':<64}{'return':>10}{'variance':>10}{'hit freq':>10}")
    for r in rows[:SHOW]:
        label = r["name"].split("[")[-1].rstrip("]")  # the swept pays (the base name is shared)
        typer.echo(f"{label[:64]:<64}{r['return']:>10.6f}{r['variance']:>10.3f}"
                   f"{r['hit_frequency']:>10.5f}")
    if len(rows) > SHOW:
        typer.echo(f"... {len(rows) - SHOW} more; lowest return {rows[-1]['return']:.6f}")
    typer.echo(f"wrote {info['dataset']}/ and {info['plot']}" + (f"; {info['note']}" if info["note"] else ""))
