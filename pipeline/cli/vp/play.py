"""How to play one video poker game: ``vp analyze GAME`` (exact optimal-strategy return,
variance, final-hand table and bankroll figures; ``--strategy`` plays another game's strategy on
it), ``vp hold CARDS`` (EV of all 32 holds), ``vp grade DEAL HOLD`` (what a hold costs) and
``vp chart GAME`` (a strategy chart derived from the optimal strategy, judged exactly)."""

from __future__ import annotations

import json
import time
from typing import Any

import typer

from pipeline.cli.common import artifacts_dir
from pipeline.cli.vp import deal_classes_here, vp_app


@vp_app.command("analyze")
def analyze_cmd(
    paytable: str = typer.Argument(..., help="game slug (see `vp list`, e.g. jacks-or-better-9-6) or TOML path"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    strategy: str = typer.Option("", "--strategy", help="play this game's strategy (slug or path) on PAYTABLE"),
    chart: bool = typer.Option(False, "--chart", help="with --strategy: play that game's derived chart"),
) -> None:
    """Exact optimal-strategy return, variance and final-hand table of a paytable."""
    from pipeline.videopoker.catalog.games import load_named
    from pipeline.videopoker.catalog.paytable_file import current_artifact, read_final_counts
    from pipeline.videopoker.solver.analysis import analyze, summary_dict

    t0 = time.perf_counter()
    pt = load_named(paytable)
    art = current_artifact(pt, artifacts_dir())
    a = None
    if art is not None:
        counts, den = read_final_counts(art)
        source = f"artifact {art}"
    else:
        a = analyze(pt, deal_classes_here(pt.deck_size))
        counts, den = a.final_counts, a.denominator
        source = "computed now (no current artifact)"
    info = summary_dict(pt, counts, den, time.perf_counter() - t0)
    analyze_extras(info, pt, art if art is not None else a, strategy, chart)
    if as_json:
        typer.echo(json.dumps(info))
        return
    deck = f"{pt.deck_size} cards ({pt.deck_size - 52} joker{'s' * (pt.deck_size > 53)} wild)" \
        if pt.wild == "joker" else "52 cards, deuces wild" if pt.wild == "deuces" else "52 cards"
    typer.echo(f"{pt.name}  ({deck}; optimal strategy)")
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
    cards: list[str] = typer.Argument(..., help="five cards, e.g. 'Jh Qh Kh Ah 2c' (Jk = joker)"),
    paytable: str = typer.Option(..., "--paytable", "-p", help="game slug or paytable TOML path"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
) -> None:
    """EV of all 32 holds of a deal, best first."""
    from pipeline.videopoker.catalog.games import load_named
    from pipeline.videopoker.catalog.paytable_file import artifact_counts, current_artifact
    from pipeline.videopoker.paytables.deal_text import parse_deal, vp_cards_text
    from pipeline.videopoker.solver.analysis import compute_counts
    from pipeline.videopoker.solver.holds import hold_table

    t0 = time.perf_counter()
    pt = load_named(paytable)
    ids = parse_deal(" ".join(cards), pt.deck_size)
    art = current_artifact(pt, artifacts_dir())
    if art is not None:
        with artifact_counts(art) as (pay_cat, counts):  # reads only this deal's rows
            rows = hold_table(pt, ids, pay_cat, counts)
    else:
        rows = hold_table(pt, ids, *compute_counts(pt))
    seconds = time.perf_counter() - t0
    if as_json:
        typer.echo(json.dumps({"name": pt.name, "cards": vp_cards_text(ids),
                               "best": rows[0]["hold"], "holds": rows,
                               "seconds": round(seconds, 4)}))
        return
    typer.echo(f"{vp_cards_text(ids)} under {pt.name}: all 32 holds, best first")
    typer.echo(f"{'':2}{'hold':<22}{'EV':>12}{'cost':>11}  {'EV exact':<24}cost exact")
    for r in rows:
        mark = "* " if r["best"] else "  "
        typer.echo(f"{mark}{r['hold']:<22}{r['ev']:>12.6f}{r['cost']:>11.6f}  "
                   f"{r['ev_exact']:<24}{r['cost_exact']}")
    typer.echo(f"{seconds:.2f} s ({'artifact' if art is not None else 'computed now'})")


def strategy_info(target: Any, strategy: str, use_chart: bool, analysis: Any = None) -> dict[str, Any]:
    """``vp analyze B --strategy A [--chart]``: exact return of A's strategy on B's paytable.

    ``analysis`` is B's :class:`pipeline.videopoker.solver.analysis.Analysis` when ``vp analyze`` just
    computed it (no current artifact): B is then not solved a second time."""
    from pipeline.videopoker.catalog.games import resolve_paytable
    from pipeline.videopoker.paytables.paytable import load_paytable
    from pipeline.videopoker.tools.strategy_io import cross_play, strategy_data, strategy_data_of

    a_pt = load_paytable(resolve_paytable(strategy))
    a, _ = strategy_data(a_pt, artifacts_dir(), deal_classes_here(a_pt.deck_size))
    if analysis is not None:
        b = strategy_data_of(analysis)
    else:
        b, _ = strategy_data(target, artifacts_dir(), deal_classes_here(target.deck_size))
    return cross_play(a, b, use_chart)


def echo_strategy(info: dict[str, Any]) -> None:
    """Print the ``--strategy`` result under the analyze table."""
    typer.echo(f"playing {info['strategy']} strategy on {info['paytable']}: return "
               f"{info['return'] * 100:.6f}% = {info['return_exact']}")
    typer.echo(f"  optimal {info['optimal_return'] * 100:.6f}%; cost {info['cost'] * 100:.6f} "
               f"percentage points; {info['deals_played_differently']:,} deals played differently")


def analyze_extras(info: dict[str, Any], pt: Any, source: Any, strategy: str, use_chart: bool) -> None:
    """Add the bankroll figures (and, with ``--strategy``, the cross-play return) to ``info``.

    ``source`` is the current artifact's path (the figures the build stored are used) or the
    :class:`pipeline.videopoker.solver.analysis.Analysis` just computed (not computed twice).
    """
    from pathlib import Path

    import numpy as np

    from pipeline.errors import InputError
    from pipeline.videopoker.catalog.paytable_file import read_bankroll, read_best
    from pipeline.videopoker.solver.bankroll import bankroll_figures

    if use_chart and not strategy:
        raise InputError("--chart needs --strategy GAME (whose chart to play)")
    t0 = time.perf_counter()
    figs = None
    if isinstance(source, Path):
        figs = read_bankroll(source)
        if figs is None:
            weight, best, counts = read_best(source)
    else:
        weight, best, counts = source.classes.weight, source.best, source.best_counts
    if figs is None:
        finals = [ln["combinations"] for ln in info["lines"]]
        figs = bankroll_figures(pt, finals, info["total_combinations"],
                                np.asarray(weight, np.int64), best, counts)
    info["bankroll"] = figs
    if strategy:
        info["played_strategy"] = strategy_info(pt, strategy, use_chart,
                                                None if isinstance(source, Path) else source)
    info["seconds"] = round(info["seconds"] + time.perf_counter() - t0, 4)


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
    hold: str = typer.Argument(..., help="cards held ('Js Jd'), a 0/1 flag per position ('11000'), "
                                         "'none' or 'all'"),
    paytable: str = typer.Option("jacks-or-better-9-6", "--paytable", "-p",
                                 help="game slug or paytable TOML path"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
) -> None:
    """The cost of a hold against the best hold of the deal (exact fraction and decimal)."""
    from pipeline.videopoker.catalog.games import load_named
    from pipeline.videopoker.catalog.paytable_file import artifact_counts, current_artifact
    from pipeline.videopoker.paytables.deal_text import parse_deal, parse_hold, vp_cards_text
    from pipeline.videopoker.solver.analysis import compute_counts
    from pipeline.videopoker.solver.holds import grade_hold

    t0 = time.perf_counter()
    pt = load_named(paytable)
    ids = parse_deal(deal, pt.deck_size)
    held = parse_hold(hold, ids, pt.deck_size)
    art = current_artifact(pt, artifacts_dir())
    if art is not None:
        with artifact_counts(art) as (pay_cat, counts):  # reads only this deal's rows
            g = grade_hold(pt, ids, held, pay_cat, counts)
    else:
        g = grade_hold(pt, ids, held, *compute_counts(pt))
    seconds = time.perf_counter() - t0
    if as_json:
        typer.echo(json.dumps({"name": pt.name, "cards": vp_cards_text(ids), **g,
                               "seconds": round(seconds, 4)}))
        return
    typer.echo(f"{vp_cards_text(ids)} under {pt.name}")
    typer.echo(f"  your hold  {g['hold']:<22} EV {g['ev']:.6f} = {g['ev_exact']}")
    typer.echo(f"  best hold  {g['best_hold']:<22} EV {g['best_ev']:.6f} = {g['best_ev_exact']}")
    verdict = "optimal" if g["optimal"] else f"rank {g['rank']} of 32 by EV"
    typer.echo(f"  cost {g['cost']:.6f} per coin bet = {g['cost_exact']} ({verdict})")


@vp_app.command("chart")
def chart_cmd(
    paytable: str = typer.Argument(..., help="paytable slug (jacks-or-better-9-6) or TOML path"),
    max_lines: int = typer.Option(40, "--max-lines", "-n", min=2, help="most lines the chart may have"),
    derive: bool = typer.Option(False, "--derive", help="derive the chart now even if the build exported it"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
) -> None:
    """A strategy chart derived from the optimal strategy, with its exact return vs optimal.

    With the default --max-lines the chart the build exported (strategy/chart_hold) is used
    and judged exactly again; other sizes (or --derive) derive it now.
    """
    from pipeline.videopoker.catalog.games import resolve_paytable
    from pipeline.videopoker.catalog.paytable_file import current_artifact
    from pipeline.videopoker.charts.chart import DEFAULT_MAX_LINES, LEGEND, derive_chart
    from pipeline.videopoker.paytables.paytable import load_paytable
    from pipeline.videopoker.tools.strategy_io import (
        read_chart,
        strategy_data,
    )

    t0 = time.perf_counter()
    pt = load_paytable(resolve_paytable(paytable))
    data, source = strategy_data(pt, artifacts_dir(), deal_classes_here(pt.deck_size))
    art = current_artifact(pt, artifacts_dir())
    chart = read_chart(data, art) if art is not None and max_lines == DEFAULT_MAX_LINES \
        and not derive else None
    if chart is None:
        chart = derive_chart(data, max_lines)
    else:
        source += ", chart exported by the build, judged again"
    chart.seconds = time.perf_counter() - t0
    info = chart.as_dict()
    info["source"] = source
    if as_json:
        typer.echo(json.dumps(info))
        return
    typer.echo(f"{pt.name}: strategy chart ({len(chart.lines)} lines; hold the first line the "
               "deal contains)")
    typer.echo(f"{'#':>3}  {'hold':<62}{'deals':>10}{'lost %':>10}")
    for ln in info["lines"]:
        text = ln["hold"]
        typer.echo(f"{ln['line']:>3}  {text:<62}{ln['deals']:>10,}{ln['loss'] * 100:>10.5f}")
    typer.echo(f"chart return   {info['chart_return'] * 100:.6f}% = {info['chart_return_exact']}")
    typer.echo(f"optimal return {info['optimal_return'] * 100:.6f}% = {info['optimal_return_exact']}")
    typer.echo(f"cost of the chart {info['cost'] * 100:.6f} percentage points")
    typer.echo(f"tie rule: {info['tie_rule']}")
    typer.echo(f"terms: {LEGEND}")
    typer.echo(f"{chart.seconds:.2f} s ({source})")
