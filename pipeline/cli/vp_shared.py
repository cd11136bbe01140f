"""What the ``vp`` commands share: the command group, the deal classes of the artifacts folder,
and the ``vp analyze`` extras (``--strategy`` cross-play and the bankroll figures)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import typer

from pipeline.cli.app import app, artifacts_dir

if TYPE_CHECKING:
    from pipeline.videopoker.deals import DealClasses

vp_app = typer.Typer(no_args_is_help=True, help="Video poker: exact return, strategy and holds of a paytable.")
app.add_typer(vp_app, name="vp")


def deal_classes_here(deck_size: int) -> DealClasses:
    """Deal classes from the built vp_classes.h5 if present, else derived now."""
    from pipeline.query.artifacts import open_checked, read_manifest
    from pipeline.videopoker.deals import deal_classes, read_classes

    folder = artifacts_dir()
    if (folder / "vp_classes.h5").exists() and "vp_classes.h5" in read_manifest(folder)["files"]:
        p = open_checked(folder, "vp_classes.h5")  # a changed file is refused, not used
        try:
            return read_classes(p, deck_size)
        except (OSError, KeyError):
            pass  # old layout: derive instead
    return deal_classes(deck_size)



def strategy_info(target: Any, strategy: str, use_chart: bool) -> dict[str, Any]:
    """``vp analyze B --strategy A [--chart]``: exact return of A's strategy on B's paytable."""
    from pipeline.videopoker.catalog import resolve_paytable
    from pipeline.videopoker.paytable import load_paytable
    from pipeline.videopoker.strategy_io import (
        cross_play,
        strategy_data,
    )

    a_pt = load_paytable(resolve_paytable(strategy))
    a, _ = strategy_data(a_pt, artifacts_dir(), deal_classes_here(a_pt.deck_size))
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
    :class:`pipeline.videopoker.analysis.Analysis` just computed (not computed twice).
    """
    from pathlib import Path

    import numpy as np

    from pipeline.errors import InputError
    from pipeline.videopoker.bankroll import bankroll_figures
    from pipeline.videopoker.paytable_file import read_bankroll, read_best

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
