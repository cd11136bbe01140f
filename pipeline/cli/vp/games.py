"""Video poker games side by side or with a pay varied: ``vp list`` (the built-in games),
``vp compare GAME GAME...``, ``vp breakeven GAME`` (the pay of one line, a progressive royal's
meter, at which the optimal return reaches a target; ``--table`` for return against that pay)
and ``vp sweep NAME`` (exact returns of every variant of a paytable sweep)."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import typer

from pipeline.cli.common import artifacts_dir
from pipeline.cli.vp import deal_classes_here, vp_app

#: coins of a max bet, and the bets (in dollars) a meter is shown for by default
COINS = 5
DEFAULT_BETS = ("1.25", "5")
#: ``breakeven.MAX_SEARCH_PAY`` as text (not imported here: numpy loads only when a command runs)
MAX_PAY_TEXT = "100000"
#: sweep rows shown in the text output (the dataset has them all)
SHOW = 8


@vp_app.command("list")
def list_cmd(
    as_json: bool = typer.Option(False, "--json", help="print a JSON array"),
) -> None:
    """The built-in games: slug, deck, wild cards, return, variance, hit frequency, built or not."""
    from pipeline.videopoker.catalog.games import catalog

    t0 = time.perf_counter()
    rows = catalog(artifacts_dir())
    if as_json:
        typer.echo(json.dumps([r.as_json() for r in rows]))
        return
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
    game: str = typer.Argument(..., help="game slug (see `vp list`) or paytable TOML path"),
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
) -> None:
    """The smallest pay of a line (default the royal) at which the optimal return reaches the target."""
    from pipeline.errors import InputError
    from pipeline.videopoker.catalog.games import load_named
    from pipeline.videopoker.tools.breakeven import (
        DEFAULT_STEP,
        PaySolver,
        find_line,
        parse_amount,
        parse_target,
    )

    t0 = time.perf_counter()
    goal = parse_target(target)
    grid = parse_amount(step, "--step") if step else None
    if grid is not None and grid <= 0:
        raise InputError("--step must be above 0")
    cap = parse_amount(max_pay, "--max-pay")
    if cap <= 0:
        raise InputError("--max-pay must be above 0")
    bets = [parse_amount(b, "--bet") for b in (bet or DEFAULT_BETS)]
    if any(b <= 0 for b in bets):
        raise InputError("--bet must be above 0")
    first = parse_amount(start, "--start") if start else None
    last = parse_amount(stop, "--stop") if stop else None
    if not table and (first is not None or last is not None):
        raise InputError("--start and --stop go with --table")
    pt = load_named(game)
    idx = find_line(pt, line)
    if table:
        from pipeline.videopoker.tools.breakeven import table_pays

        lo = pt.lines[idx].pays if first is None else first
        pays = table_pays(lo, max(lo * 2, lo + 1) if last is None else last, grid)
    solver = PaySolver(pt, idx, deal_classes_here(pt.deck_size))
    if table:
        _table(solver, pays, t0, as_json)
        return
    _search(solver, goal, grid or DEFAULT_STEP, cap, bets, t0, as_json)


def _search(solver: Any, goal: Fraction, grid: Fraction, cap: Fraction, bets: list[Fraction],
            t0: float, as_json: bool) -> None:
    """Run the break-even search and print it."""
    from pipeline.videopoker.tools.breakeven import (
        break_even,
        exact_text,
        meter,
        pay_text,
        percent,
        strategy_changes,
    )

    found = break_even(solver, goal, grid, cap)
    own = solver.point(solver.own)
    changes = strategy_changes(solver.analysis(solver.own), solver.analysis(found.hi.pay))
    label = solver.pt.lines[solver.line].label
    info: dict[str, Any] = {
        "name": solver.pt.name, "slug": solver.pt.slug, "line": label,
        "target": float(goal), "target_exact": exact_text(goal), "step": float(grid),
        "paytable": own.as_json(), "break_even": float(found.hi.pay),
        "break_even_exact": exact_text(found.hi.pay), "at_break_even": found.hi.as_json(),
        "below": found.lo.as_json() if found.lo is not None else None,
        "exact_break_even": None if found.exact is None else exact_text(found.exact),
        "exact_break_even_bounds": [float(found.lower), float(found.upper)],
        "meters": [meter(found.hi.pay, COINS, b) for b in bets],
        "strategy_changes": {**changes, "top": [c.as_json() for c in changes["top"]]},
        "solves": solver.solves, "seconds": round(time.perf_counter() - t0, 3)}
    if as_json:
        typer.echo(json.dumps(info))
        return
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


def _table(solver: Any, pays: list[Fraction], t0: float, as_json: bool) -> None:
    """Print return against the line's pay."""
    from pipeline.videopoker.tools.breakeven import pay_table, pay_text

    rows = pay_table(solver, pays)
    label = solver.pt.lines[solver.line].label
    if as_json:
        typer.echo(json.dumps({"name": solver.pt.name, "slug": solver.pt.slug, "line": label,
                               "paytable_pay": float(solver.own), "rows": rows,
                               "solves": solver.solves,
                               "seconds": round(time.perf_counter() - t0, 3)}))
        return
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
    games: list[str] = typer.Argument(..., help="game slugs (see `vp list`) or paytable TOML paths"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
) -> None:
    """Games side by side: return, variance, royal cycle, hit frequency, break-even royal."""
    from pipeline.videopoker.catalog.games import load_named
    from pipeline.videopoker.tools.compare import check_games, game_figures

    t0 = time.perf_counter()
    check_games(games)
    tables = [load_named(g) for g in games]  # every name checked before any solve
    cols = [game_figures(pt, artifacts_dir(), deal_classes_here) for pt in tables]
    if as_json:
        typer.echo(json.dumps({"games": [c.as_json() for c in cols],
                               "seconds": round(time.perf_counter() - t0, 3)}))
        return
    width = max(14, *(len(c.slug) + 2 for c in cols))
    rows = [("game", [c.slug for c in cols]),
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
    workers: int | None = typer.Option(None, "--workers", help="with dask: start N local worker processes"),
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
        info = run_sweep(sweep, deal_classes_here, ex, artifacts_dir())
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
