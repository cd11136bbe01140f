"""``pokertables equity HOLE``: win/tie/lose and pot equity against random and named hands."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Optional

import typer

if TYPE_CHECKING:
    from pipeline.query.tables import Tables

from pipeline.cli import app, artifacts_dir
from pipeline.errors import InputError, PokertablesError


@contextmanager
def _spot_errors() -> Iterator[None]:
    """Report the equity engine's plain ``ValueError``s about the spot as bad input.

    pipeline/equity/ (being rewritten) still raises ``ValueError`` for impossible spots; this
    adapter goes once it raises :class:`InputError` itself.
    """
    try:
        yield
    except ValueError as exc:
        if isinstance(exc, PokertablesError):
            raise
        raise InputError(str(exc)) from exc


@app.command("equity")
def equity_cmd(
    hole: list[str] = typer.Argument(..., help="your two cards (hold'em), e.g. AsKs, or four (Omaha)"),
    board: str = typer.Option("", "--board", "-b", help="0, 3, 4 or 5 board cards"),
    opponents: Optional[int] = typer.Option(None, "--opponents", "-n",
                                            help="random opponents (default 1, or 0 with --vs)"),
    vs: Optional[list[str]] = typer.Option(None, "--vs", help="a named opponent hand; repeat"),
    dead: str = typer.Option("", "--dead", help="cards out of play (folded, burned, seen)"),
    exact: bool = typer.Option(False, "--exact", help="insist on exact enumeration"),
    samples: Optional[int] = typer.Option(None, "--samples", "-s",
                                          help="Monte Carlo deals (default 300,000: stderr < 0.1 pp)"),
    seed: Optional[int] = typer.Option(None, "--seed", help="Monte Carlo seed (reproducible)"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
) -> None:
    """Probability to win, tie and lose, and the expected pot share (a k-way tie pays 1/k).

    Exact when enumeration is cheap (every street heads-up, up to 3 random opponents after
    the flop, any all-named spot), Monte Carlo with a standard error otherwise.
    """
    from pipeline.core.constants import MAX_SAMPLES
    from pipeline.errors import InputError, clip

    if seed is not None and not 0 <= seed < 2 ** 63:
        raise InputError(f"--seed must be 0 .. 2^63-1, got {clip(str(seed))}")
    if samples is not None and samples > MAX_SAMPLES:
        raise InputError(f"--samples {clip(str(samples))} is more than {MAX_SAMPLES:,} "
                         "(the Monte Carlo error is already below 0.003 pp there)")
    from pipeline.core.cards import parse_cards
    from pipeline.equity.engine import equity
    from pipeline.query.tables import Tables

    n_hole = len(parse_cards(" ".join(hole)))
    if n_hole not in (2, 4):
        raise InputError(f"expected 2 hole cards (hold'em) or 4 (Omaha), got {n_hole}: {' '.join(hole)}")
    tables = Tables(artifacts_dir())
    if n_hole == 4:
        with _spot_errors():
            _omaha(tables, " ".join(hole), board, opponents, vs or [], dead, exact, samples, seed, as_json)
        return
    with _spot_errors():
        res = equity(tables, " ".join(hole), board=board, opponents=opponents, vs=vs or [], dead=dead,
                     exact=True if exact else None, samples=samples, seed=seed)
    out = res.to_json()
    if as_json:
        typer.echo(json.dumps(out))
        return
    who = []
    if res.opponents:
        who.append(f"{res.opponents} random hand{'s' if res.opponents > 1 else ''}")
    who += out["vs"]
    typer.echo(f"{out['hole']}" + (f" on {out['board']}" if out["board"] else " preflop")
               + " vs " + ", ".join(who) + (f" (dead: {out['dead']})" if out["dead"] else ""))
    if res.method == "exact":
        c = res.counts
        typer.echo(f"  exact over {res.deals:,} deals in {res.seconds:.3f}s")
        typer.echo(f"  win  {100 * res.win:7.3f}%  ({c['win']:,})")
        typer.echo(f"  tie  {100 * res.tie:7.3f}%  ({c['tie']:,})")
        typer.echo(f"  lose {100 * res.lose:7.3f}%  ({c['lose']:,})")
        typer.echo(f"  equity {100 * res.equity:.4f}%")
    else:
        typer.echo(f"  Monte Carlo, {res.samples:,} deals (seed {res.seed}) in {res.seconds:.3f}s")
        typer.echo(f"  win  {100 * res.win:7.3f}%")
        typer.echo(f"  tie  {100 * res.tie:7.3f}%")
        typer.echo(f"  lose {100 * res.lose:7.3f}%")
        typer.echo(f"  equity {100 * res.equity:.3f}% \u00b1 {100 * (res.stderr or 0.0):.3f} pp (1 stderr)")
    for p in out.get("players", []):
        typer.echo(f"  {p['player']:>5} {p['hand']}: win {100 * p['win']:.3f}%  tie "
                   f"{100 * p['tie']:.3f}%  equity {100 * p['equity']:.3f}%")


def _omaha(tables: Tables, hole: str, board: str, opponents: Optional[int], vs: list[str], dead: str,
           exact: bool, samples: Optional[int], seed: Optional[int], as_json: bool) -> None:
    """Pot-limit Omaha: exactly two hole cards and three board cards make each hand."""
    from pipeline.equity.omaha import omaha_equity

    n = opponents if opponents is not None else (0 if vs else 1)
    res = omaha_equity(tables, hole, board=board, opponents=n, vs=vs, dead=dead,
                       exact=True if exact else None, samples=samples, seed=seed or 0)
    if as_json:
        typer.echo(json.dumps(res))
        return
    who = ([f"{n} random hand{'s' if n > 1 else ''}"] if n else []) + res["vs"]
    typer.echo(f"Omaha {res['hole']}" + (f" on {res['board']}" if res["board"] else " preflop")
               + " vs " + ", ".join(who))
    if res["method"] == "exact":
        typer.echo(f"  exact over {res['deals']:,} deals in {res['seconds']:.3f}s")
    else:
        typer.echo(f"  Monte Carlo, {res['samples']:,} deals (seed {seed or 0}) in {res['seconds']:.3f}s")
    typer.echo(f"  win  {100 * res['win']:7.3f}%")
    typer.echo(f"  tie  {100 * res['tie']:7.3f}%")
    typer.echo(f"  lose {100 * res['lose']:7.3f}%")
    err = f" \u00b1 {100 * res['stderr']:.3f} pp (1 stderr)" if res["stderr"] is not None else ""
    typer.echo(f"  equity {100 * res['equity']:.3f}%{err}")
