"""Strategies a person can use: the 13x13 pre-flop chart and the flop and river rule sets.

A rule at the flop or the river is a :class:`RuleChoice`: the solve's pass applies its code
inside the kernels (:mod:`pipeline.casino.uth.simple_rules`), and every earlier decision is
re-optimised against it, so a strategy's house edge is exact. The pre-flop chart is applied to
the exact per-hole totals after the pass, which costs nothing extra.

>>> chart_text(wizard_chart())
'raise 4x: 33+, A2s+, A2o+, K2s+, K5o+, Q6s+, Q8o+, J8s+, JTo; check everything else'
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np

from pipeline.casino.family import PlayerStrategy
from pipeline.casino.result import DecisionPoint
from pipeline.casino.uth.analysis import FLOP, PREFLOP, RIVER
from pipeline.casino.uth.simple_rules import OPTIMAL, WIZARD, flop_rule_bets
from pipeline.core.cards import RANKS
from pipeline.equity.hands.starting_hands import HOLE_HIGH, HOLE_LOW, HOLE_SUITED

#: Rank indices (0..12 = 2..A).
DEUCE, THREE, FIVE, SIX, EIGHT, TEN, JACK, QUEEN, KING, ACE = 0, 1, 3, 4, 6, 8, 9, 10, 11, 12
#: The Wizard of Odds' raise chart: lowest pair, and per high card the lowest kicker raised
#: suited and offsuit (ranks below JACK raise nothing unpaired).
WIZARD_PAIRS = THREE
WIZARD_KICKERS = {ACE: (DEUCE, DEUCE), KING: (DEUCE, FIVE), QUEEN: (SIX, EIGHT), JACK: (EIGHT, TEN)}
FLOP_RULES = (
    "bet 2x with a hidden pair (a pocket pair, or a hole card pairing the flop), except pocket deuces",
    "bet 2x with two pair or better made with a hole card, a straight or a flush",
    "bet 2x with four to a flush including a hole card of that suit ranked ten or higher",
    "otherwise check",
)
RIVER_RULES = (
    "play 1x with a hidden pair or better (a pocket pair, a hole card pairing the board, or a hand "
    "of a higher category than the board's own)",
    "play 1x when fewer than 21 unseen cards would, with the board, beat you (dealer outs; a card "
    "that only ties is no out)",
    "otherwise fold",
)


@dataclass(frozen=True)
class RuleChoice:
    """A decision rule at the flop or river, by its kernel code (a :data:`Choice`: called on the
    flop point it returns the rule's option per state; the solve reads ``code``)."""

    point: str
    code: int

    def __call__(self, p: DecisionPoint) -> np.ndarray:
        if self.point != FLOP or len(p) == 0:
            return np.zeros(len(p), np.uint8)
        return flop_rule_states(p.cards.astype(np.int64), self.code)


@nb.njit(cache=True)
def flop_rule_states(cards: np.ndarray, code: int) -> np.ndarray:
    """uint8[n]: 1 where rule ``code`` bets with hole ``cards[i, :2]`` on flop ``cards[i, 2:5]``."""
    out = np.zeros(cards.shape[0], np.uint8)
    for i in range(cards.shape[0]):
        out[i] = flop_rule_bets(code, cards[i, 0], cards[i, 1], cards[i, 2:5])
    return out


def wizard_chart() -> np.ndarray:
    """bool[1326]: the holes the Wizard of Odds' chart raises pre-flop."""
    hi, lo, suited = HOLE_HIGH, HOLE_LOW, HOLE_SUITED
    out = (hi == lo) & (hi >= WIZARD_PAIRS)
    for high, (min_s, min_o) in WIZARD_KICKERS.items():
        out |= (hi == high) & (lo != hi) & np.where(suited, lo >= min_s, lo >= min_o)
    return out


def chart_text(raise_hole: np.ndarray, bet: int = 4) -> str:
    """A raise chart (bool per hole) as hand ranges: ``33+, A2s+, ...``; ranges are written
    where the raised kickers run up to the high card, single hands otherwise."""
    parts = []
    pairs = sorted({int(r) for r in HOLE_HIGH[raise_hole & (HOLE_HIGH == HOLE_LOW)]})
    parts += _runs(pairs, 12, lambda r: RANKS[r] * 2)
    for high in range(12, 0, -1):
        for suited, tag in ((True, "s"), (False, "o")):
            sel = raise_hole & (HOLE_HIGH == high) & (HOLE_LOW < high) & (HOLE_SUITED == suited)
            kick = sorted({int(r) for r in HOLE_LOW[sel]})
            parts += _runs(kick, high - 1, lambda r, h=high, t=tag: f"{RANKS[h]}{RANKS[r]}{t}")
    return f"raise {bet}x: {', '.join(parts)}; check everything else"


def chart_grid(raise_hole: np.ndarray, bet: int = 4) -> tuple[str, ...]:
    """The chart as a 13x13 grid of text lines: ``4`` (raise 4x) or ``.`` (check), aces first;
    suited hands above the diagonal, offsuit below, pairs on it."""
    mark = str(bet)
    order = list(range(12, -1, -1))
    head = "    " + " ".join(RANKS[r] for r in order)
    rows = [f"{mark} = raise {bet}x, . = check; suited above the diagonal, offsuit below", head]
    for r1 in order:
        cells = []
        for r2 in order:
            hi, lo, suited = max(r1, r2), min(r1, r2), r2 < r1
            sel = (HOLE_HIGH == hi) & (HOLE_LOW == lo) & ((HOLE_SUITED == suited) | (hi == lo))
            cells.append(mark if raise_hole[sel].all() else ".")
        rows.append(f" {RANKS[r1]}  " + " ".join(cells))
    return tuple(rows)


def _runs(ranks: list[int], top: int, name: object) -> list[str]:
    """``X+`` when the ranks run from their lowest up to ``top``, else each one."""
    if not ranks:
        return []
    if len(ranks) > 1 and ranks == list(range(ranks[0], top + 1)):
        return [f"{name(ranks[0])}+"]  # type: ignore[operator]
    return [name(r) for r in ranks]  # type: ignore[operator]


def chart_choice(raise_hole: np.ndarray, option: int) -> object:
    """The pre-flop :data:`Choice` of a chart: option ``option`` where it raises, else check."""
    def choose(p: DecisionPoint) -> np.ndarray:
        a, b = p.cards[:, 0].astype(np.int64), p.cards[:, 1].astype(np.int64)
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        return np.where(raise_hole[lo + hi * (hi - 1) // 2], option, 0).astype(np.uint8)
    return choose


def strategies(bets: tuple[int, ...]) -> tuple[PlayerStrategy, ...]:
    """The practical strategy (chart, flop rules, river rules: recommended), then each of its
    three parts alone with optimal play elsewhere, so each simplification's cost shows."""
    chart = wizard_chart()
    top = len(bets)  # the largest bet's option index (options: check, then bets ascending)
    pre = chart_text(chart, bets[-1])
    flop = RuleChoice(FLOP, WIZARD)
    river = RuleChoice(RIVER, WIZARD)
    pick = chart_choice(chart, top)
    return (
        PlayerStrategy("practical", (f"pre-flop: {pre}", *(f"  {g}" for g in chart_grid(chart, bets[-1])),
                                     *(f"flop: {r}" for r in FLOP_RULES),
                                     *(f"river: {r}" for r in RIVER_RULES)),
                       {PREFLOP: pick, FLOP: flop, RIVER: river}),  # type: ignore[dict-item]
        PlayerStrategy("pre-flop chart only", (f"pre-flop: {pre}", "flop and river: optimal"),
                       {PREFLOP: pick}),  # type: ignore[dict-item]
        PlayerStrategy("flop rules only", (*(f"flop: {r}" for r in FLOP_RULES),
                                           "pre-flop and river: optimal"), {FLOP: flop}),
        PlayerStrategy("river rules only", (*(f"river: {r}" for r in RIVER_RULES),
                                            "pre-flop and flop: optimal"), {RIVER: river}),
    )


def rule_codes(strategy: PlayerStrategy | None) -> tuple[int, int]:
    """(river code, flop code) of a strategy: its :class:`RuleChoice` codes, optimal elsewhere.
    A flop or river choice that is not a rule set cannot be replayed (rivers are not stored)."""
    codes = []
    for point in (RIVER, FLOP):
        c = strategy.choose.get(point) if strategy else None
        if c is None:
            codes.append(OPTIMAL)
        elif isinstance(c, RuleChoice):
            codes.append(c.code)
        else:
            raise ValueError(f"a {point} decision must be a rule set (RuleChoice) in this game")
    return codes[0], codes[1]


__all__ = ["FLOP_RULES", "RIVER_RULES", "RuleChoice", "flop_rule_states", "wizard_chart", "chart_text",
           "chart_grid", "chart_choice", "strategies", "rule_codes"]
