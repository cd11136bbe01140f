"""Family ``caribbean-stud``: Caribbean Stud Poker.

Ante; five cards each; the dealer shows one. The player folds (loses the ante) or raises
``raise_bet`` times the ante (default 2). Dealer not qualified (``dealer_qualifies``, default
``"ace king"``): the ante wins 1:1, the raise pushes. Qualified: the player's higher hand wins
1:1 on the ante and the raise pays by table ``raise`` (every hand must have a line); the
dealer's higher hand takes both; a tie pushes both. House edge per unit of the ante.

Method: the player's 134,459 suit classes (with their weights) x the 47 up cards; for each, the
163,185 dealer completions are counted by outcome with inclusion–exclusion over the subsets of
the player's cards (:mod:`pipeline.casino.families.caribbean_counts`): 19,933,230,517,200 deals
in exact integers. The counts do not depend on the pays, so they are computed once per process
and qualifying rule; every pay table and every strategy is then a weighted sum.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.casino.families.caribbean_counts import DEALER_HANDS, dealer_counts
from pipeline.casino.family import PlayerStrategy, optimal
from pipeline.casino.game import Game, TableSpec
from pipeline.casino.hands import five_card_ranking, five_card_scores, qualifier_score
from pipeline.casino.result import CasinoAnalysis, DecisionPoint, rows_from_counts
from pipeline.casino.settings import check_settings, multiple, qualifier
from pipeline.casino.subsets import colex
from pipeline.errors import InputError

FAMILY = "caribbean-stud"
#: the card groups dealt at the first decision (the trainer deals these)
FIRST_DEAL = (5, 1)
BASE_BET = "ante"
POINT = "raise or fold"
OPTIONS = ("fold", "raise")
FOLD, RAISE = 0, 1
UP_CARDS = 47
LAYOUT = "the player's five cards (suit class representative); context: the dealer's up card"


def check_rules(raw: Mapping[str, Any]) -> dict[str, Any]:
    """``dealer_qualifies`` (default ace king) and ``raise_bet`` (default 2 antes)."""
    return check_settings(raw, {"dealer_qualifies": ("ace king", qualifier("five")),
                                "raise_bet": (2, multiple)})


def point_options(game: Game) -> dict[str, tuple[str, ...]]:
    """One decision: raise or fold."""
    return {POINT: OPTIONS}


def table_specs(rules: Mapping[str, Any]) -> dict[str, TableSpec]:
    """Table ``raise``: what the raise pays when the player beats a qualifying dealer."""
    return {"raise": TableSpec("five", otherwise=None)}


@functools.lru_cache(maxsize=2)
def states(qualifying: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every (player class, up card) state: (player cards uint8[n, 5], up card, class weight,
    player score, dealer outcome counts int64[n, 4]), computed once per qualifying rule."""
    from pipeline.videopoker.solver.deals import deal_classes

    cls = deal_classes(52)
    q = qualifier_score(five_card_ranking(), qualifying)
    counts = dealer_counts(cls.hands, q)
    held = np.zeros((len(cls), 52), bool)
    held[np.arange(len(cls))[:, None], cls.hands.astype(np.int64)] = True
    ci, up = np.nonzero(~held)
    score = five_card_scores()[colex(cls.hands)].astype(np.int64)
    return (cls.hands[ci], up.astype(np.int64), cls.weight.astype(np.int64)[ci], score[ci],
            counts[ci, up].astype(np.int64))


def point_of(game: Game) -> tuple[DecisionPoint, np.ndarray, np.ndarray, np.ndarray]:
    """(the raise-or-fold point over every (class, up card) state, the raise table's line of
    each state, the outcome counts, the weights)."""
    cards, up, weight, score, counts = states(game.rules["dealer_qualifies"])
    table = game.tables["raise"]
    rb = game.rules["raise_bet"]
    scale = game.pay_scale() * rb.denominator
    line = table.line_of_score()[score]
    pay = np.array([int(p * rb * scale) for p in table.amounts()], np.int64)[line]
    ev = np.empty((len(up), 2), np.int64)
    ev[:, FOLD] = -DEALER_HANDS * scale
    ev[:, RAISE] = (counts[:, 0] * scale + counts[:, 1] * (scale + pay)
                    - counts[:, 3] * int((1 + rb) * scale))
    point = DecisionPoint(POINT, OPTIONS, LAYOUT, cards, weight, ev, DEALER_HANDS * scale,
                          {"up_card": up})
    return point, line, counts, weight


def analyze(game: Game, strategy: PlayerStrategy | None = None) -> CasinoAnalysis:
    """The exact analysis over all 19,933,230,517,200 deals (optimal play unless ``strategy``)."""
    point, line, counts, weight = point_of(game)
    choose = strategy.choose.get(POINT, optimal) if strategy else optimal
    raises = choose(point).astype(bool)
    table = game.tables["raise"]
    rb = game.rules["raise_bet"]
    w = np.where(raises, weight, 0)
    total = counts * w[:, None]
    wins = np.zeros(len(table.lines) + 1, np.int64)
    np.add.at(wins, line, total[:, 1])
    rows = [(f"player wins with {ln.label}", 1 + rb * ln.pays, 1 + rb) for ln in table.lines]
    n = [int(x) for x in wins[:len(table.lines)]]
    rows += [("dealer does not qualify", Fraction(1), 1 + rb), ("push", Fraction(0), 1 + rb),
             ("fold", Fraction(-1), Fraction(1)), ("dealer wins", -1 - rb, 1 + rb)]
    n += [int(total[:, 0].sum()), int(total[:, 2].sum()),
          int(np.where(raises, 0, weight).sum()) * DEALER_HANDS, int(total[:, 3].sum())]
    return CasinoAnalysis(game.slug, game.name, FAMILY, int(weight.sum()) * DEALER_HANDS,
                          rows_from_counts(rows, n), (point,), strategy.name if strategy else "optimal",
                          BASE_BET)


def strategies(game: Game) -> tuple[PlayerStrategy, ...]:
    """The ace-king chart by up card derived from optimal play, the published rules of thumb
    and simpler rules, each scored exactly."""
    from pipeline.casino.families.caribbean_rules import all_strategies

    return all_strategies(game, point_of(game)[0])


def decision_state(game: Game, cards: list[list[int]]) -> tuple[str, dict[str, int]]:
    """Five cards | the dealer's up card."""
    if len(cards) != 2 or len(cards[0]) != 5 or len(cards[1]) != 1:
        raise InputError(f"{game.name}: a hand is the player's five cards | the dealer's up card, "
                         "e.g. 'As Kd 9c 5h 2s | Qd'")
    return POINT, {"up_card": cards[1][0]}


def grade_state(game: Game, point: str, cards: list[list[int]], context: Mapping[str, int],
                artifacts: Path | None = None) -> list[Fraction]:
    """Exact EVs of folding and raising with these five cards against this up card."""
    hand = np.array([sorted(cards[0])], np.uint8)
    q = qualifier_score(five_card_ranking(), game.rules["dealer_qualifies"])
    c = dealer_counts(hand, q)[0, context["up_card"]].astype(np.int64)
    rb = game.rules["raise_bet"]
    pay = game.tables["raise"].pay_of_score()[int(five_card_scores()[colex(hand)][0])]
    raise_ev = Fraction(int(c[0]) + int(c[1]) * (1 + rb * pay) - int(c[3]) * (1 + rb), DEALER_HANDS)
    return [Fraction(-1), raise_ev]
