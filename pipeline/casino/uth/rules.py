"""Ultimate Texas Hold'em's rules as the solver takes them, read from a game file.

The rule family is fixed in code (ante and blind, one Play bet at one of three points, the
ante pushing when the dealer fails to qualify, the Blind paid by its table only when the
player wins and lost when the dealer wins, everything pushing on a tie); what a casino varies
is in the game file: the Play bet sizes, the dealer's qualifying hand and the Blind's table.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from pipeline.casino.game import Game
from pipeline.errors import InputError

#: The game file's pay table the Blind is paid by.
BLIND_TABLE = "blind"
#: Largest Blind pay in 1/scale ante units (pay x common denominator) the int64 sums allow: a
#: full-deck hole's value sums 2.1e10 deals of at most (5 + pay) antes, so 2.1e10 x 1e7 = 2.1e17
#: stays far below 2**63 = 9.2e18 (totals over the holes are Python integers).
MAX_SCALED_PAY = 10_000_000


@dataclass(frozen=True)
class UthRules:
    """The solver's view of one game: Play bet sizes (whole multiples of the ante) pre-flop,
    at the flop and at the river; the lowest dealer score that qualifies; the Blind's line per
    score, its pays ("to 1", then 0 for hands on no line: the Blind pushes) and line labels."""

    preflop_bets: tuple[int, ...]
    flop_bet: int
    river_bet: int
    qual_score: int
    blind_line: np.ndarray
    blind_pays: tuple[Fraction, ...]
    line_labels: tuple[str, ...]

    @classmethod
    def of(cls, game: Game) -> UthRules:
        """The rules of a parsed ``ultimate-texas-holdem`` game file."""
        from pipeline.casino.hands import five_card_ranking, qualifier_score

        r = game.rules
        table = game.tables[BLIND_TABLE]
        pays = tuple(Fraction(p) for p in table.amounts(game.meter))
        out = cls(tuple(sorted(int(b) for b in r["preflop_bets"])), int(r["flop_bet"]), int(r["river_bet"]),
                  qualifier_score(five_card_ranking(), r["dealer_qualifies"]), table.line_of_score(),
                  pays, tuple(ln.label for ln in table.lines) + ("no blind pay",))
        if max(pays) * out.scale > MAX_SCALED_PAY:
            raise InputError(f"{game.name}: Blind pays of {float(max(pays)):g} to 1 over a common "
                             f"denominator of {out.scale} exceed the exact integer range "
                             f"(pay x denominator at most {MAX_SCALED_PAY:,})")
        return out

    @property
    def scale(self) -> int:
        """Least common denominator of the Blind pays: values are integers in 1/scale ante."""
        d = 1
        for p in self.blind_pays:
            d = d * p.denominator // _gcd(d, p.denominator)
        return d

    @property
    def line_names(self) -> tuple[str, ...]:
        """The Blind lines' labels, best first, then the push line."""
        return self.line_labels

    def line_of_score(self) -> np.ndarray:
        """int64[7463]: the Blind line (index into :attr:`line_names`) of each score."""
        return np.asarray(self.blind_line, np.int64)

    def blind_scaled(self) -> np.ndarray:
        """int64[lines]: each line's Blind pay in 1/scale ante."""
        return np.array([int(p * self.scale) for p in self.blind_pays], np.int64)

    def key(self) -> tuple[Any, ...]:
        """A hashable identity of everything that shapes a solve (cache key)."""
        return (self.preflop_bets, self.flop_bet, self.river_bet, self.qual_score,
                self.blind_line.tobytes(), self.blind_pays)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


__all__ = ["BLIND_TABLE", "MAX_SCALED_PAY", "UthRules"]
