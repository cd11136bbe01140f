"""``pokertables vp analyze GAME`` and ``pokertables vp hold CARDS --paytable GAME`` (GAME: a
slug of a built-in paytable or a TOML path).

Both use the built ``artifacts/paytables/<slug>.h5`` when it was made from exactly this file
by this solver, and otherwise compute on the fly (about a second), so any TOML works.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

import typer

from pipeline.cli.app import artifacts_dir
from pipeline.cli.vp_shared import analyze_extras, deal_classes_here, echo_extras, vp_app

if TYPE_CHECKING:
    pass

@vp_app.command("analyze")
def analyze_cmd(
    paytable: str = typer.Argument(..., help="game slug (see `vp list`, e.g. jacks-or-better-9-6) or TOML path"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    strategy: str = typer.Option("", "--strategy", help="play this game's strategy (slug or path) on PAYTABLE"),
    chart: bool = typer.Option(False, "--chart", help="with --strategy: play that game's derived chart"),
) -> None:
    """Exact optimal-strategy return, variance and final-hand table of a paytable."""
    from pipeline.videopoker.analysis import analyze, summary_dict
    from pipeline.videopoker.catalog import load_named
    from pipeline.videopoker.paytable_file import current_artifact, read_final_counts

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
    from pipeline.videopoker.analysis import (
        compute_counts,
        hold_table,
        parse_deal,
        vp_cards_text,
    )
    from pipeline.videopoker.catalog import load_named
    from pipeline.videopoker.paytable_file import artifact_counts, current_artifact

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
