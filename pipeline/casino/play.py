"""What the ``casino`` commands compute beyond one analysis: the exact cost of each strategy a
person can use (:func:`strategy_costs`), the exact cost of one decision in one hand
(:func:`grade`) and the pay of a line (or a progressive's meter) at which a game breaks even
(:func:`breakeven`)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.casino.edit import METER, find_line
from pipeline.casino.families import family_module
from pipeline.casino.family import Choice, PlayerStrategy
from pipeline.casino.game import Game, PayTable
from pipeline.casino.result import CasinoAnalysis, DecisionPoint, frac_text
from pipeline.core.cards import format_cards, parse_cards
from pipeline.core.tasks import Tasks
from pipeline.errors import InputError, clip

#: most Newton steps of a break-even search (each an exact analysis; convex piecewise-linear
#: returns converge in a handful)
MAX_STEPS = 30


def analyze(game: Game, strategy: PlayerStrategy | None = None, executor: Tasks | None = None) -> CasinoAnalysis:
    """The game's exact analysis by its family (optimal play unless ``strategy``), timed.
    ``executor`` (a build's) goes to families whose ``analyze`` takes one (long solves)."""
    import inspect
    import time

    t0 = time.perf_counter()
    fam = family_module(game.family)
    if executor is not None and "executor" in inspect.signature(fam.analyze).parameters:
        a = fam.analyze(game, strategy, executor=executor)
    else:
        a = fam.analyze(game, strategy)
    return dataclasses.replace(a, seconds=time.perf_counter() - t0)


def strategy_costs(game: Game, best: CasinoAnalysis, executor: Tasks | None = None) -> list[dict[str, Any]]:
    """Each strategy of the game's family scored exactly: its house edge and its cost (house
    edge minus the optimal one, per unit base bet)."""
    out = []
    for s in family_module(game.family).strategies(game):
        a = analyze(game, s, executor)
        cost = a.house_edge - best.house_edge
        out.append({"name": s.name, "rules": list(s.rules), "house_edge": float(a.house_edge),
                    "house_edge_exact": frac_text(a.house_edge), "element_of_risk": float(a.element_of_risk),
                    "cost": float(cost), "cost_exact": frac_text(cost)})
    return out


def parse_hand(text: str) -> tuple[list[list[int]], dict[str, int]]:
    """Card groups written ``"As Kd 9c | Qh"`` (``|`` separates the player's cards from the
    dealer's up card or the community cards), every card distinct, then optionally ``;`` and
    ``key=N`` facts of the state (``"As Kd | 9c; wagered=4"``)."""
    if not isinstance(text, str) or not text.strip():
        raise InputError("no cards given (write e.g. \"Qs 6d 4c\")")
    text, _, facts = text.partition(";")
    context = {}
    for fact in facts.replace(",", " ").split():
        key, eq, value = fact.partition("=")
        if not eq or not value.strip().isdigit() or len(value) > 6:
            raise InputError(f"hand {clip(text)}: state fact {clip(fact)} must be key=N, e.g. wagered=4")
        context[key.strip().lower()] = int(value)
    groups = [parse_cards(g) for g in text.split("|")]
    flat = [c for g in groups for c in g]
    if len(set(flat)) != len(flat):
        dup = next(c for c in flat if flat.count(c) > 1)
        raise InputError(f"hand {clip(text)}: duplicate card {format_cards([dup])}")
    return groups, context


def grade(game: Game, hand: str, decision: str, artifacts: Path | None = None) -> dict[str, Any]:
    """The exact EV of every option at this hand's decision point and what ``decision`` costs
    against the best one (per unit base bet)."""
    fam = family_module(game.family)
    cards, given = parse_hand(hand)
    point, context = fam.decision_state(game, cards)
    unknown = sorted(set(given) - set(context))
    if unknown:
        raise InputError(f"{point} of {game.name} has no state fact {unknown[0]!r}"
                         + (f" (facts: {', '.join(context)})" if context else ""))
    context = {**context, **given}
    evs = fam.grade_state(game, point, cards, context, artifacts)
    options = _options(game, point)
    key = " ".join(decision.lower().split())
    if key not in options:
        raise InputError(f"unknown decision {clip(decision)} at {point}; options: {', '.join(options)}")
    best = max(range(len(evs)), key=lambda i: (evs[i], -i))
    mine = options.index(key)
    cost = evs[best] - evs[mine]
    return {"game": game.slug, "name": game.name, "point": point,
            "hand": " | ".join(format_cards(g) for g in cards), "context": context,
            "decision": options[mine], "best": options[best], "optimal": cost == 0,
            "options": [{"option": o, "ev": float(e), "ev_exact": frac_text(e)} for o, e in zip(options, evs)],
            "cost": float(cost), "cost_exact": frac_text(cost)}


def _options(game: Game, point: str) -> list[str]:
    fam = family_module(game.family)
    return list(fam.point_options(game)[point])


def _with_pay(game: Game, where: tuple[str, int] | None, value: Fraction) -> Game:
    """The game with one line's pay (``where``) or the meter (``None``) set to ``value``."""
    if where is None:
        return dataclasses.replace(game, meter=value, digest="")
    tname, i = where
    t = game.tables[tname]
    lines = tuple(dataclasses.replace(ln, pays=value) if j == i else ln for j, ln in enumerate(t.lines))
    return dataclasses.replace(game, tables={**game.tables, tname: PayTable(t.name, t.ranking, lines, t.otherwise)},
                               digest="")


def _replay(choices: np.ndarray) -> Choice:
    def choose(_point: DecisionPoint) -> np.ndarray:
        return choices
    return choose


def _frozen(a: CasinoAnalysis) -> PlayerStrategy:
    """The decisions of ``a`` replayed on another pay table of the same game."""
    return PlayerStrategy("frozen", (), {p.name: _replay(p.best_option) for p in a.points})


def breakeven(game: Game, line: str) -> dict[str, Any]:
    """The pay of ``line`` (or ``meter``) at which the optimal return is exactly 0 (house edge
    0), exact: the return is linear in the pay under fixed decisions and convex under optimal
    ones, so Newton steps on exact analyses end on the exact value."""
    shares = [ln for t in game.tables.values() for ln in t.lines if ln.meter_share]
    where: tuple[str, int] | None
    if " ".join(line.lower().split()) == METER or (shares and any(
            ln.label == " ".join(line.lower().split()) or ln.hand == " ".join(line.lower().split()) for ln in shares)):
        if not shares:
            raise InputError(f"{game.name} has no progressive meter")
        where, now = None, game.meter
        label = METER
    else:
        where = find_line(game, line)
        now = game.tables[where[0]].lines[where[1]].pays
        label = game.tables[where[0]].lines[where[1]].label
    x = now
    for _ in range(MAX_STEPS):
        a = analyze(_with_pay(game, where, x))
        r = a.expected_return
        if r == 0:
            break
        b = analyze(_with_pay(game, where, x + 1), _frozen(a))
        slope = b.expected_return - r
        if slope <= 0:
            raise InputError(f"the return of {game.name} does not grow with {label}: no break-even pay")
        step = x - r / slope
        if step < 0:
            raise InputError(f"{game.name} returns more than it costs even when {label} pays 0")
        if step == x:
            break
        x = step
    else:  # pragma: no cover  (convex piecewise-linear: finitely many pieces)
        raise InputError(f"no break-even pay of {label} found in {MAX_STEPS} steps")
    base = analyze(game)
    return {"game": game.slug, "name": game.name, "line": label, "pays_now": float(now),
            "pays_now_exact": frac_text(now), "house_edge_now": float(base.house_edge),
            "breakeven": float(x), "breakeven_exact": frac_text(x)}


__all__ = ["analyze", "strategy_costs", "parse_hand", "grade", "breakeven"]
