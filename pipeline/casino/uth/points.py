"""A solve's decisions as the casino framework's :class:`DecisionPoint` rows.

* ``preflop``: the 169 starting-hand classes (a representative hole each, weight = its
  combinations), exact values of checking and of each Play bet per unit ante;
* ``flop``: every (hole, flop) with the flop one of the suit-isomorphic flop classes (1,755 on
  a full deck) and the hole any of the 1,176 off it: 2,063,880 rows, weight = the flop's orbit
  size, values of checking (then the best river decision) and of betting.

River decisions (about 10^8 classes) are not stored: ``casino grade`` computes one in
microseconds (:mod:`pipeline.casino.uth.states`).
"""

from __future__ import annotations

import numpy as np

from pipeline.casino.result import DecisionPoint
from pipeline.casino.uth.analysis import FLOP, PREFLOP, RIVER, Analysis
from pipeline.casino.uth.flop_pass import EV_BET, EV_CHECK
from pipeline.casino.uth.solve import FLOP_CARDS, Totals
from pipeline.equity.hands.starting_hands import HOLE_CARDS, HOLE_MASKS, hand_classes

PREFLOP_LAYOUT = "the player's two cards (one hole of each of the 169 classes)"
FLOP_LAYOUT = "the player's two cards, then the flop (flops up to suit symmetry)"


def preflop_options(bets: tuple[int, ...]) -> tuple[str, ...]:
    """Option names pre-flop, smallest first (ties take the first): check, raise Nx ..."""
    return ("check", *(f"raise {b}x" for b in bets))


def flop_options(bet: int) -> tuple[str, ...]:
    """Option names at the flop."""
    return ("check", f"bet {bet}x")


def river_options(bet: int) -> tuple[str, ...]:
    """Option names at the river."""
    return ("fold", f"play {bet}x")


def class_representatives() -> tuple[np.ndarray, np.ndarray]:
    """(hole index of one hole per starting-hand class, combinations per class), class order."""
    cls, _names, _rows, _cols, combos = hand_classes()
    first = np.full(len(combos), -1, np.int64)
    for h in range(len(cls) - 1, -1, -1):
        first[cls[h]] = h
    return first, np.asarray(combos, np.int64)


def preflop_point(an: Analysis, t: Totals) -> DecisionPoint:
    """The pre-flop point of a full-deck solve (169 classes)."""
    reps, combos = class_representatives()
    row_of = {int(h): i for i, h in enumerate(an.holes)}
    rows = np.array([row_of[int(h)] for h in reps])
    denominator = t.plan.scale * t.deck.deals_per_hole()
    return DecisionPoint(PREFLOP, preflop_options(an.choices), PREFLOP_LAYOUT,
                         HOLE_CARDS[reps].astype(np.uint8), combos, an.values[rows].astype(np.int64),
                         denominator)


def flop_point(t: Totals, best: np.ndarray | None = None) -> DecisionPoint:
    """The flop point: every (canonical flop, hole off it) row of a solve's flop values.
    ``best`` overrides the decisions (a rule's), else the best value (ties: check)."""
    fmask = np.zeros(len(t.flops), np.uint64)
    for q in range(FLOP_CARDS):
        fmask |= np.uint64(1) << t.flops[:, q].astype(np.uint64)
    off = (fmask[:, None] & HOLE_MASKS[None, :]) == 0
    deck_holes = np.zeros(len(HOLE_MASKS), bool)
    deck_holes[t.deck.holes()] = True
    f, h = np.nonzero(off & deck_holes[None, :])
    cards = np.concatenate([HOLE_CARDS[h], t.flops[f]], axis=1).astype(np.uint8)
    ev = np.stack([t.ev[f, h, EV_CHECK], t.ev[f, h, EV_BET]], axis=1)
    m = t.deck.size - 2 - FLOP_CARDS
    denominator = t.plan.scale * (m * (m - 1) // 2) * t.deck.dealers()
    return DecisionPoint(FLOP, flop_options(t.plan.flop_bet), FLOP_LAYOUT, cards, t.weights[f], ev,
                         denominator, best=best)


__all__ = ["PREFLOP", "FLOP", "RIVER", "preflop_options", "flop_options", "river_options",
           "class_representatives", "preflop_point", "flop_point"]
