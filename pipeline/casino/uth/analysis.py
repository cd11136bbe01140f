"""From a solve's totals to the figures: pre-flop decisions, return table, exact house edge.

Every number is an integer count of deals or an exact :class:`~fractions.Fraction`. A deal is
the player's two cards, the flop, the turn and river (as a pair) and the dealer's two cards:
the flop is distinguished from the turn and river because the player decides between them,
so each of the C(52,2)·C(50,2)·C(48,5) = 2,781,381,002,400 deals of unordered cards counts
C(5,3) = 10 times: 27,813,810,024,000 deals, all equally likely.

Pre-flop the player compares the exact values of each Play bet size with checking (an exact
tie takes the smaller bet; a chart given in place of optimal play decides instead).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from pipeline.casino.uth.flop_pass import BOARDS, FLOP_BET, LN, LQ, RIVER_PLAY, WN, WQ
from pipeline.casino.uth.solve import Totals

#: Where the Play bet was made, in return-table order (``fold``: folded at the river).
PREFLOP, FLOP, RIVER, FOLD = "preflop", "flop", "river", "fold"
CHECK = 0  #: pre-flop decision code: check (otherwise the Play bet's multiple)
RESULTS = ("win", "tie", "lose")


@dataclass(frozen=True)
class ReturnRow:
    """Deals ending one way: where and how much the Play bet was, the result, whether the
    dealer qualified (``None`` where it does not matter), the player's Blind line, the net win
    in antes and the number of deals."""

    street: str
    play: int
    result: str
    dealer_qualifies: bool | None
    blind_line: str
    net: Fraction
    combinations: int


@dataclass(frozen=True)
class Analysis:
    """A solve's figures: ``decision[h]`` pre-flop (0 check, else the Play multiple) and
    ``values[h]`` = exact value of each pre-flop choice (check first, then each bet size, in
    1/scale ante summed over the hole's deals), for every hole the deck deals; the return
    table and the totals over every deal."""

    holes: np.ndarray
    decision: np.ndarray
    values: np.ndarray
    choices: tuple[int, ...]
    rows: tuple[ReturnRow, ...]
    deals: int
    scale: int

    @property
    def total_return(self) -> Fraction:
        """Expected net win per deal, in antes (negative: the house wins)."""
        return sum((r.net * r.combinations for r in self.rows), Fraction(0)) / self.deals

    @property
    def house_edge(self) -> Fraction:
        """Expected loss per unit of the ante."""
        return -self.total_return

    @property
    def average_bet(self) -> Fraction:
        """Average total wager per deal: ante and blind plus the Play bet when made."""
        return 2 + Fraction(sum(r.play * r.combinations for r in self.rows), self.deals)

    @property
    def element_of_risk(self) -> Fraction:
        """Expected loss divided by the average total wager."""
        return self.house_edge / self.average_bet

    @property
    def variance(self) -> Fraction:
        """Variance of the net win per deal, in antes squared."""
        m2 = sum((r.net * r.net * r.combinations for r in self.rows), Fraction(0)) / self.deals
        return m2 - self.total_return ** 2


def hole_values(bet_counts: np.ndarray, play: int, scale: int, blind: np.ndarray) -> np.ndarray:
    """Exact value (1/scale ante, summed over the deals) of betting ``play`` on each row of
    ``bet_counts[..., line, count]``: the flop pass's :func:`play_value`, vectorised. int64
    suffices: a full-deck hole has 2.1e10 deals of at most 505 antes each."""
    c = bet_counts.astype(np.int64)
    win_q = scale * (1 + play) + blind
    win_n = scale * play + blind
    v = c[..., WQ] * win_q + c[..., WN] * win_n - c[..., LQ] * scale * (2 + play) - c[..., LN] * scale * (1 + play)
    return v.sum(axis=-1)


def preflop_values(t: Totals, choices: Sequence[int]) -> np.ndarray:
    """int64[1326, 1 + len(choices)]: per hole, the value of checking, then of each Play bet."""
    p = t.plan
    fold_loss = 2 * p.scale * t.deck.dealers()
    check = (hole_values(t.chk[:, FLOP_BET], p.flop_bet, p.scale, p.blind)
             + hole_values(t.chk[:, RIVER_PLAY], p.river_bet, p.scale, p.blind) - t.fold * fold_loss)
    cols = [check] + [hole_values(t.bet, b, p.scale, p.blind) for b in choices]
    return np.stack(cols, axis=1)


def analyse(t: Totals, rules_lines: Sequence[str], preflop_bets: Sequence[int],
            chart: np.ndarray | None = None) -> Analysis:
    """Pre-flop decisions (optimal, or ``chart[h]`` = 0 check / Play multiple), the return
    table and its totals from a solve's :class:`Totals`."""
    holes = t.deck.holes()
    choices = tuple(sorted(int(b) for b in preflop_bets))
    values = preflop_values(t, choices)[holes]
    if chart is None:
        best = values.max(axis=1)
        # the first column reaching the best: check, then the smallest bet (exact ties)
        pick = np.argmax(values == best[:, None], axis=1)
        decision = np.array((CHECK, *choices), np.int64)[pick]
    else:
        decision = np.asarray(chart, np.int64)[holes]
        if not set(np.unique(decision).tolist()) <= {CHECK, *choices}:
            raise ValueError("a chart entry is neither a check nor an allowed pre-flop bet")
    rows = _return_rows(t, holes, decision, rules_lines)
    deals = t.deck.deals_per_hole() * len(holes)
    if sum(r.combinations for r in rows) != deals:
        raise AssertionError("the return table does not cover every deal once")
    return Analysis(holes, decision, values, choices, tuple(rows), deals, t.plan.scale)


def _return_rows(t: Totals, holes: np.ndarray, decision: np.ndarray,
                 lines: Sequence[str]) -> list[ReturnRow]:
    """Group every hole's deals by where it bet, result, qualifier and Blind line."""
    p = t.plan
    d = t.deck.dealers()
    blind = [Fraction(int(b), p.scale) for b in p.blind]
    rows: list[ReturnRow] = []

    def add(street: str, play: int, counts: np.ndarray) -> None:
        tot = [int(x) for x in counts.sum(axis=0).reshape(-1)]  # per line: 5 counts
        for li, name in enumerate(lines):
            wq, wn, lq, ln, boards = tot[li * 5:(li + 1) * 5]
            ties = boards * d - wq - wn - lq - ln
            for res, q, n, net in (("win", True, wq, 1 + play + blind[li]),
                                   ("win", False, wn, play + blind[li]),
                                   ("tie", None, ties, Fraction(0)),
                                   ("lose", True, lq, Fraction(-2 - play)),
                                   ("lose", False, ln, Fraction(-1 - play))):
                if n:
                    rows.append(ReturnRow(street, play, res, q, name, Fraction(net), n))

    for b in sorted(set(decision.tolist()) - {CHECK}, reverse=True):
        add(PREFLOP, b, t.bet[holes[decision == b]])
    checked = holes[decision == CHECK]
    add(FLOP, p.flop_bet, t.chk[checked, FLOP_BET])
    add(RIVER, p.river_bet, t.chk[checked, RIVER_PLAY])
    folds = int(t.fold[checked].sum()) * d
    if folds:
        rows.append(ReturnRow(FOLD, 0, "lose", None, "", Fraction(-2), folds))
    assert BOARDS == 4
    return rows


__all__ = ["PREFLOP", "FLOP", "RIVER", "FOLD", "CHECK", "RESULTS", "ReturnRow", "Analysis",
           "hole_values", "preflop_values", "analyse"]
