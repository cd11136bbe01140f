"""``pokertables vp list`` (the game catalog) and ``pokertables vp grade DEAL HOLD`` (what a
hold costs against the best one). Registered on the ``vp`` command group."""

from __future__ import annotations

import json
import time

import typer

from pipeline.cli.app import artifacts_dir
from pipeline.cli.vp_shared import vp_app


@vp_app.command("list")
def list_cmd(
    as_json: bool = typer.Option(False, "--json", help="print a JSON array"),
) -> None:
    """The built-in games: slug, deck, wild cards, return, variance, hit frequency, built or not."""
    from pipeline.videopoker.catalog import catalog

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
    from pipeline.videopoker.analysis import (
        compute_counts,
        grade_hold,
        parse_deal,
        parse_hold,
        vp_cards_text,
    )
    from pipeline.videopoker.catalog import load_named
    from pipeline.videopoker.paytable_file import artifact_counts, current_artifact

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
