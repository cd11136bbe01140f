"""Exact values of single decision points, computed on demand (``casino grade``, the trainer).

The solve stores the pre-flop values of every hole class and the flop values of every flop
class; a river decision has ~10^8 classes and is never stored. Each is cheap to compute alone:

* a river state (hole, 5-card board): one showdown of every hole on the board (~15 us);
* a flop state (hole, 3-card flop): the solve's pass over that one flop, every turn-river
  pair (~25 ms), which also yields the values of every other hole on that flop.

Values are exact integers in 1/scale ante summed over the state's equally likely deals
(:attr:`StateValues.deals`), so a decision's cost is an exact :class:`~fractions.Fraction`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from pipeline.casino.uth.flop_pass import EV_BET, EV_CHECK, LN, LQ, N_COUNTS, N_HOLES, WN, WQ, flop_chunk, play_value
from pipeline.casino.uth.rules import UthRules
from pipeline.casino.uth.showdown import river_counts, showdown_scratch
from pipeline.casino.uth.solve import Deck, Plan, flop_stabilizers
from pipeline.core.constants import BOARD_CARDS
from pipeline.core.evalkeys import EvalTables
from pipeline.errors import InputError

#: Cards known at each decision point with a board: the flop, the river.
FLOP_CARDS, RIVER_CARDS = 3, BOARD_CARDS


@dataclass(frozen=True)
class StateValues:
    """The exact value of each choice at one decision point: ``values[name]`` in 1/scale ante
    summed over ``deals`` equally likely deals (per ante: value / (scale * deals))."""

    values: dict[str, int]
    deals: int
    scale: int

    def per_ante(self, choice: str) -> Fraction:
        """Expected net win of ``choice`` per unit of the ante."""
        return Fraction(self.values[choice], self.scale * self.deals)

    @property
    def best(self) -> str:
        """The choice of highest value (on an exact tie, the first listed: the smaller bet)."""
        top = max(self.values.values())
        return next(k for k, v in self.values.items() if v == top)

    def cost(self, choice: str) -> Fraction:
        """What ``choice`` gives up against the best choice, per unit of the ante (>= 0)."""
        return self.per_ante(self.best) - self.per_ante(choice)


def _check(hole: Sequence[int], board: Sequence[int], n_board: int, deck: Deck) -> None:
    cards = [*hole, *board]
    if len(hole) != 2 or len(board) != n_board:
        raise InputError(f"expected 2 hole cards and {n_board} board cards, got {len(hole)} and {len(board)}")
    if len(set(cards)) != len(cards):
        raise InputError("a card appears twice among the hole and board cards")
    if not set(cards) <= set(deck.cards.tolist()):
        raise InputError("a card is not in the deck")


def river_values(hole: Sequence[int], board: Sequence[int], rules: UthRules, tables: EvalTables,
                 deck: Deck | None = None) -> StateValues:
    """Play (the river bet) or fold, with ``hole`` against every dealer hole on ``board``."""
    deck = deck or Deck.of()
    _check(hole, board, RIVER_CARDS, deck)
    live = np.array([c for c in deck.cards.tolist() if c not in set(board)], np.int64)
    bkey = int(sum(int(tables.card_keys[c]) for c in board))
    bmask = sum(1 << int(c) for c in board)
    sc = showdown_scratch()
    n = river_counts(live, len(live), bkey, bmask, rules.qual_score, *tables, *sc)
    pa, pb, score = sc[0][:n], sc[1][:n], sc[2][:n]
    a, b = sorted(int(c) for c in hole)
    k = int(np.flatnonzero((pa == a) & (pb == b))[0])
    row = np.zeros(N_COUNTS, np.int64)
    for col, arr in ((WQ, sc[4]), (WN, sc[5]), (LQ, sc[6]), (LN, sc[7])):
        row[col] = arr[k]
    line = int(rules.line_of_score()[score[k]])
    dealers = deck.dealers()
    blind = int(rules.blind_scaled()[line])
    play = int(play_value(row, rules.river_bet, rules.scale, blind))
    return StateValues({"fold": -2 * rules.scale * dealers, f"play {rules.river_bet}x": play},
                       dealers, rules.scale)


def flop_values(hole: Sequence[int], flop: Sequence[int], rules: UthRules, tables: EvalTables,
                deck: Deck | None = None, river_rule: int = 0) -> StateValues:
    """Check (then the river decision, optimal or by ``river_rule``) or bet the flop bet, with
    ``hole`` on ``flop``, over every turn-river pair and dealer hole."""
    deck = deck or Deck.of()
    _check(hole, flop, FLOP_CARDS, deck)
    plan = Plan.of(rules, deck, river_rule, 0)
    flops = np.array([sorted(int(c) for c in flop)], np.int64)
    n_lines = len(plan.blind)
    ev = np.zeros((1, N_HOLES, 2), np.int64)
    flop_chunk(flops, np.ones(1, np.int64), flop_stabilizers(flops, plan.avail), 0, 1, plan.avail,
               plan.qual, plan.line_of, plan.blind, plan.scale, plan.flop_bet, plan.river_bet,
               plan.river_rule, plan.flop_rule, *tables, ev, np.zeros((N_HOLES, n_lines, N_COUNTS), np.int64),
               np.zeros((N_HOLES, 2, n_lines, N_COUNTS), np.int64), np.zeros(N_HOLES, np.int64),
               np.zeros(2, np.int64))
    a, b = sorted(int(c) for c in hole)
    h = a + b * (b - 1) // 2
    m = deck.size - 2 - FLOP_CARDS
    deals = (m * (m - 1) // 2) * deck.dealers()
    return StateValues({"check": int(ev[0, h, EV_CHECK]), f"bet {rules.flop_bet}x": int(ev[0, h, EV_BET])},
                       deals, rules.scale)


__all__ = ["StateValues", "river_values", "flop_values"]
