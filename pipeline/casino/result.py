"""The typed results of a casino-game analysis: :class:`CasinoAnalysis` (house edge, element of
risk, the return table, the optimal decision at every decision point) and its parts.

Every figure derives from integers: a return-table row holds the exact number of equally likely
deals ending that way (``combinations``), what the player nets (``net_win``) and what he has
wagered (``total_bet``), both exact fractions per unit of the base bet. So the expected return,
the average total bet, the element of risk and the standard deviation are exact sums over the
rows, and the house edge is a :class:`~fractions.Fraction`.

A :class:`DecisionPoint` is one moment of choice (Three Card Poker's play-or-fold, Mississippi
Stud's 4th street): one row per state (the cards seen, plus context columns such as the amount
already wagered), the exact EV of every option as an integer numerator over one denominator, and
the best option. These arrays are what the build stores (HDF5) and what ``casino grade`` reads.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

#: ``best`` of a state no option is recorded for (not reached)
NO_OPTION = 255


@dataclass(frozen=True)
class ReturnRow:
    """One outcome of the return table: how many deals end this way and what it pays."""

    outcome: str
    net_win: Fraction          # per unit base bet
    total_bet: Fraction        # amount wagered in this outcome, per unit base bet
    combinations: int

    def as_json(self, total: int) -> dict[str, Any]:
        """JSON row: counts as integers, the rest as floats plus exact text."""
        p = Fraction(self.combinations, total)
        return {"outcome": self.outcome, "net_win": _num(self.net_win), "total_bet": _num(self.total_bet),
                "combinations": self.combinations, "probability": float(p),
                "contribution": float(p * self.net_win),
                "contribution_exact": _frac_text(p * self.net_win)}


@dataclass(frozen=True)
class DecisionPoint:
    """One decision point: per state the EV of each option (``ev_num / denominator`` per unit
    base bet, exact) and the best option (ties: the first option in ``options`` order).

    ``cards`` holds each state's cards (uint8 ids, a fixed layout the family documents in
    ``layout``); ``context`` extra integer columns of the state (e.g. ``wagered``); ``weight``
    the number of card situations the row stands for (suit-isomorphic classes) — so
    ``sum(weight * ev[best]) / sum(weight)`` is the point's average EV over its states.
    ``reached`` (optional) marks the states optimal play ever reaches."""

    name: str
    options: tuple[str, ...]
    layout: str
    cards: np.ndarray               # uint8[n, k]
    weight: np.ndarray              # int64[n]
    ev_num: np.ndarray              # int64[n, len(options)]
    denominator: int
    context: dict[str, np.ndarray] = field(default_factory=dict)
    best: np.ndarray | None = None  # uint8[n]; computed from ev_num when None

    def __post_init__(self) -> None:
        if self.best is None:
            object.__setattr__(self, "best", np.argmax(self.ev_num, axis=1).astype(np.uint8))

    @property
    def best_option(self) -> np.ndarray:
        """uint8[n]: index of the best option of every state."""
        assert self.best is not None
        return self.best

    def __len__(self) -> int:
        return len(self.weight)

    def ev(self) -> np.ndarray:
        """float64[n, options]: the EVs as floats."""
        return self.ev_num / self.denominator

    def ev_exact(self, row: int, option: int) -> Fraction:
        """The exact EV of one option of one state."""
        return Fraction(int(self.ev_num[row, option]), self.denominator)


@dataclass(frozen=True)
class CasinoAnalysis:
    """A game's exact analysis under optimal play (or under a given strategy: ``strategy``)."""

    slug: str
    name: str
    family: str
    combinations: int                      # equally likely deals enumerated
    rows: tuple[ReturnRow, ...]
    points: tuple[DecisionPoint, ...] = ()
    strategy: str = "optimal"
    base_bet: str = "ante"                 # what one unit is
    seconds: float = 0.0
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        total = sum(r.combinations for r in self.rows)
        if total != self.combinations:
            raise ValueError(f"{self.slug}: the return table counts {total:,} deals, not {self.combinations:,}")

    @property
    def expected_return(self) -> Fraction:
        """Expected net win per unit base bet (negative: the house wins)."""
        return sum((r.net_win * r.combinations for r in self.rows), Fraction(0)) / self.combinations

    @property
    def house_edge(self) -> Fraction:
        """Expected loss per unit of the base bet."""
        return -self.expected_return

    @property
    def average_bet(self) -> Fraction:
        """Average total amount wagered per unit base bet."""
        return sum((r.total_bet * r.combinations for r in self.rows), Fraction(0)) / self.combinations

    @property
    def element_of_risk(self) -> Fraction:
        """Expected loss divided by the average total bet."""
        return self.house_edge / self.average_bet

    @property
    def variance(self) -> Fraction:
        """Variance of the net win per unit base bet."""
        m2 = sum((r.net_win ** 2 * r.combinations for r in self.rows), Fraction(0)) / self.combinations
        return m2 - self.expected_return ** 2

    @property
    def standard_deviation(self) -> float:
        """Standard deviation of the net win per unit base bet."""
        return math.sqrt(self.variance)

    def point(self, name: str) -> DecisionPoint:
        """The decision point called ``name``."""
        for p in self.points:
            if p.name == name:
                return p
        raise KeyError(name)

    def summary(self) -> dict[str, Any]:
        """The figures without the table: what ``casino list`` and the artifact attributes show."""
        return {"game": self.slug, "name": self.name, "family": self.family, "strategy": self.strategy,
                "house_edge": float(self.house_edge), "house_edge_exact": _frac_text(self.house_edge),
                "element_of_risk": float(self.element_of_risk),
                "element_of_risk_exact": _frac_text(self.element_of_risk),
                "average_bet": float(self.average_bet), "average_bet_exact": _frac_text(self.average_bet),
                "standard_deviation": self.standard_deviation,
                "return_exact": _frac_text(self.expected_return), "combinations": self.combinations,
                "base_bet": self.base_bet}

    def as_json(self) -> dict[str, Any]:
        """The ``casino analyze --json`` object (decision points summarised, not listed)."""
        return {**self.summary(),
                "return_table": [r.as_json(self.combinations) for r in self.rows],
                "decision_points": [{"name": p.name, "options": list(p.options), "states": len(p),
                                     "layout": p.layout} for p in self.points],
                "notes": list(self.notes), "seconds": round(self.seconds, 4)}


def _num(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


def _frac_text(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def frac_text(x: Fraction) -> str:
    """A fraction as ``"n/d"`` (the exact-value text of every JSON answer)."""
    return _frac_text(x)


def rows_from_counts(labels: Sequence[tuple[str, Fraction, Fraction]], counts: Sequence[int],
                     keep_zero: bool = False) -> tuple[ReturnRow, ...]:
    """Return rows from parallel (outcome, net win, total bet) and counts; rows with no deal are
    dropped unless ``keep_zero``."""
    return tuple(ReturnRow(o, n, b, int(c)) for (o, n, b), c in zip(labels, counts) if c or keep_zero)


__all__ = ["NO_OPTION", "ReturnRow", "DecisionPoint", "CasinoAnalysis", "frac_text", "rows_from_counts"]
