"""Answers of the ``casino`` group (house-banked poker games): ``list``, ``analyze``,
``strategy``, ``grade`` and ``breakeven``, each the command's ``--json`` dict.

A game is named by slug, common name or alias ("3cp", "caribbean stud"), or a TOML path on the
command line; ``pay`` edits lines in place (``["straight=2"]``, the game then solved in memory).
A game whose built artifact is current (``casino/<slug>.h5`` from exactly this file and code)
is read from it; any other game is analysed now.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pipeline.answers import Context
from pipeline.errors import InputError, clip

if TYPE_CHECKING:
    from pipeline.casino.game import Game


def _game(name: str, pay: Sequence[str]) -> Game:
    from pipeline.casino.catalog import load_game

    return load_game(name, list(pay))


def games(ctx: Context, query: str | None = None) -> list[dict[str, Any]]:
    """``casino list --json``: every known game (or those ``query`` fits) with its figures when
    built."""
    from pipeline.casino.artifact import current_artifact, read_summary
    from pipeline.casino.catalog import all_games, resolve_game

    chosen = None
    if query is not None:
        chosen = resolve_game(query).resolve()
    rows = []
    for g in all_games():
        if chosen is not None and resolve_game(g.slug).resolve() != chosen:
            continue
        art = current_artifact(g, ctx.artifacts)
        row: dict[str, Any] = {"game": g.slug, "name": g.name, "family": g.family, "aliases": list(g.aliases),
                               "source": g.reference, "built": art is not None}
        if art is not None:
            s = read_summary(art)
            row.update({k: s[k] for k in ("house_edge", "house_edge_exact", "element_of_risk",
                                          "combinations")})
        rows.append(row)
    if query is not None and not rows:
        raise InputError(f"no game fits {clip(query)}")
    return rows


def analyze(ctx: Context, game: str, pay: Sequence[str] = (), text: dict[str, Any] | None = None) -> dict[str, Any]:
    """``casino analyze --json``: house edge, element of risk, combinations, average bet,
    standard deviation and the return table (rows with integer combinations)."""
    from pipeline.casino.artifact import current_artifact, game_json, read_analysis
    from pipeline.casino.play import analyze as solve

    t0 = time.perf_counter()
    g = _game(game, pay)
    art = current_artifact(g, ctx.artifacts)
    a = read_analysis(art) if art is not None else solve(g)
    out = a.as_json()
    out["seconds"] = round(time.perf_counter() - t0, 4)
    out["source"] = g.reference
    # the pay tables as played (edits applied), so a front end can show and edit them
    out["pay_tables"] = [{"table": name, "lines": lines} for name, lines in game_json(g)["tables"].items()]
    out["meter"] = float(g.meter)
    if text is not None:
        text.update(game=g, source=f"artifact {ctx.shown(art)}" if art is not None else "computed now")
    return out


def strategy(ctx: Context, game: str, pay: Sequence[str] = ()) -> dict[str, Any]:
    """``casino strategy --json``: the optimal house edge and each strategy a person can use,
    its rules and its exact cost against optimal play."""
    from pipeline.casino.artifact import current_artifact, read_summary
    from pipeline.casino.play import analyze as solve
    from pipeline.casino.play import strategy_costs

    t0 = time.perf_counter()
    g = _game(game, pay)
    art = current_artifact(g, ctx.artifacts)
    if art is not None:
        s = read_summary(art)
        head = {k: s[k] for k in ("house_edge", "house_edge_exact", "element_of_risk")}
        costs = s["strategies"]
    else:
        a = solve(g)
        head = {"house_edge": float(a.house_edge), "house_edge_exact": f"{a.house_edge.numerator}/"
                f"{a.house_edge.denominator}", "element_of_risk": float(a.element_of_risk)}
        costs = strategy_costs(g, a)
    return {"game": g.slug, "name": g.name, "optimal": head, "strategies": costs,
            "seconds": round(time.perf_counter() - t0, 4)}


def grade(ctx: Context, game: str, hand: str, decision: str, pay: Sequence[str] = ()) -> dict[str, Any]:
    """``casino grade --json``: the EV of every option in this hand and the exact cost of
    ``decision``."""
    from pipeline.casino.play import grade as grade_hand

    t0 = time.perf_counter()
    out = grade_hand(_game(game, pay), hand, decision, ctx.artifacts)
    out["seconds"] = round(time.perf_counter() - t0, 4)
    return out


def breakeven(ctx: Context, game: str, line: str, pay: Sequence[str] = ()) -> dict[str, Any]:
    """``casino breakeven --json``: the pay of ``line`` (or ``meter``) at which the house edge
    is exactly 0."""
    from pipeline.casino.play import breakeven as solve

    t0 = time.perf_counter()
    out = solve(_game(game, pay), line)
    out["seconds"] = round(time.perf_counter() - t0, 4)
    return out


def deal(ctx: Context, game: str, seed: int | None = None, pay: Sequence[str] = ()) -> dict[str, Any]:
    """A hand of ``game`` at its first decision (the trainer's deal): seeded and repeatable
    (a fresh seed when none is given, returned so the hand can be dealt again)."""
    import random

    from pipeline.casino.families import family_module
    from pipeline.core.cards import format_cards

    g = _game(game, pay)
    fam = family_module(g.family)
    groups = getattr(fam, "FIRST_DEAL", None)
    if not groups:
        raise InputError(f"{g.name} has no decision to train (a side bet)")
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    cards = random.Random(seed).sample(range(52), sum(groups))
    parts, at = [], 0
    for n in groups:
        parts.append(format_cards(sorted(cards[at:at + n], reverse=True)))
        at += n
    hand = " | ".join(parts)
    point, _ = fam.decision_state(g, [cards[:groups[0]], *([cards[groups[0]:]] if len(groups) > 1 else [])])
    return {"game": g.slug, "name": g.name, "seed": seed, "hand": hand, "point": point,
            "options": list(fam.point_options(g)[point])}


__all__ = ["games", "analyze", "strategy", "grade", "breakeven", "deal"]
