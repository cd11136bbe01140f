"""The text report of an equity answer, shared by ``pokertables equity`` and ``preflop``."""

from __future__ import annotations

from typing import Any

import typer


def print_result(out: dict[str, Any]) -> None:
    """The text report of an equity answer (a seat table after a method line)."""
    players = out.get("players", [])
    names = [f"{p['range']}" + (f" ({p['combos']} combos)" if p["combos"] > 1 and p["range"] != "random"
                                else "") for p in players]
    where = f" on {out['board']}" if out["board"] else " preflop"
    others = [n for n in names[1:] if n != "random"]
    k = len(names) - 1 - len(others)
    if k:
        others.append(f"{k} random hand{'s' if k > 1 else ''}")
    typer.echo(f"{names[0]}{where} vs " + ", ".join(others)
               + (f" (dead: {out['dead']})" if out["dead"] else ""))
    if out["method"] == "exact":
        how = f"  exact over {out['deals']:,} deals" if out.get("deals") else "  exact (weighted)"
    elif out.get("samples"):
        how = f"  Monte Carlo, {out['samples']:,} deals (seed {out['seed']})"
    else:
        how = "  Monte Carlo"
    if out.get("source"):
        how += f", read from {out['source']}"
    typer.echo(f"{how} in {out['seconds']:.3f}s" + (f"; {out['note']}" if out.get("note") else ""))
    width = max(6, *(len(p["range"]) for p in players))
    typer.echo(f"  {'seat':<5} {'range':<{width}} {'win %':>8} {'tie %':>8} {'lose %':>8} "
               f"{'equity %':>9} {'± stderr':>9}")
    for p in players:
        cells = [f"{100 * p[k]:8.3f}" if p[k] is not None else f"{'-':>8}" for k in ("win", "tie", "lose")]
        se = f"{100 * p['stderr']:9.3f}" if p["stderr"] is not None else f"{'':>9}"
        eq = f"{100 * p['equity']:9.3f}" if p["equity"] is not None else f"{'-':>9}"
        typer.echo(f"  {p['player']:<5} {p['range']:<{width}} {' '.join(cells)} {eq} {se}")
    c = out.get("counts") or {}
    if out["method"] == "exact" and "win" in c and "equity_numerator" in c:
        typer.echo(f"  hero counts: win {c['win']:,}  tie {c['tie']:,}  lose {c['lose']:,}  "
                   f"equity {c['equity_numerator']:,} / {c['equity_denominator']:,}")
