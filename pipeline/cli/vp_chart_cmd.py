"""``pokertables vp chart SLUG`` (a strategy chart derived from the optimal strategy, judged
exactly) and the helpers ``vp analyze`` uses for ``--strategy`` and the bankroll figures.
"""

from __future__ import annotations

import json
import time
from typing import Any

import typer

from pipeline.cli import artifacts_dir
from pipeline.cli.vp_cmd import _classes, vp_app


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
    from pipeline.videopoker.analysis import current_artifact
    from pipeline.videopoker.catalog import resolve_paytable
    from pipeline.videopoker.chart import DEFAULT_MAX_LINES, LEGEND, derive_chart
    from pipeline.videopoker.paytable import load_paytable
    from pipeline.videopoker.strategy_io import (
        read_chart,
        strategy_data,
    )

    t0 = time.perf_counter()
    pt = load_paytable(resolve_paytable(paytable))
    data, source = strategy_data(pt, artifacts_dir(), _classes(pt.deck_size))
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


def strategy_info(target: Any, strategy: str, use_chart: bool) -> dict[str, Any]:
    """``vp analyze B --strategy A [--chart]``: exact return of A's strategy on B's paytable."""
    from pipeline.videopoker.catalog import resolve_paytable
    from pipeline.videopoker.paytable import load_paytable
    from pipeline.videopoker.strategy_io import (
        cross_play,
        strategy_data,
    )

    a_pt = load_paytable(resolve_paytable(strategy))
    a, _ = strategy_data(a_pt, artifacts_dir(), _classes(a_pt.deck_size))
    b, _ = strategy_data(target, artifacts_dir(), _classes(target.deck_size))
    return cross_play(a, b, use_chart)


def echo_strategy(info: dict[str, Any]) -> None:
    """Print the ``--strategy`` result under the analyze table."""
    typer.echo(f"playing {info['strategy']} strategy on {info['paytable']}: return "
               f"{info['return'] * 100:.6f}% = {info['return_exact']}")
    typer.echo(f"  optimal {info['optimal_return'] * 100:.6f}%; cost {info['cost'] * 100:.6f} "
               f"percentage points; {info['deals_played_differently']:,} deals played differently")


def analyze_extras(info: dict[str, Any], pt: Any, art: Any, strategy: str, use_chart: bool) -> None:
    """Add the bankroll figures (and, with ``--strategy``, the cross-play return) to ``info``.

    The figures the build stored with the artifact are used when it is current.
    """
    import h5py
    import numpy as np

    from pipeline.errors import InputError
    from pipeline.videopoker.analysis import analyze
    from pipeline.videopoker.bankroll import BANKROLL_ATTR, bankroll_figures

    if use_chart and not strategy:
        raise InputError("--chart needs --strategy GAME (whose chart to play)")
    t0 = time.perf_counter()
    figs = None
    if art is not None:
        with h5py.File(art, "r") as f:
            if BANKROLL_ATTR in f.attrs:
                figs = json.loads(f.attrs[BANKROLL_ATTR])
            else:
                s = f["strategy"]
                weight, best, counts = s["weight"][:], s["best_hold"][:], s["best_counts"][:]
    else:
        a = analyze(pt, _classes(pt.deck_size))
        weight, best, counts = a.classes.weight, a.best, a.best_counts
    if figs is None:
        finals = [ln["combinations"] for ln in info["lines"]]
        figs = bankroll_figures(pt, finals, info["total_combinations"],
                                np.asarray(weight, np.int64), best, counts)
    info["bankroll"] = figs
    if strategy:
        info["played_strategy"] = strategy_info(pt, strategy, use_chart)
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
