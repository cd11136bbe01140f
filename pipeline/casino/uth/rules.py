"""Ultimate Texas Hold'em's rules as data: bet sizes, the dealer's qualifier, the Blind's pay table.

The rule family is fixed in code (ante and blind, one Play bet at one of three points, the
ante pushing when the dealer fails to qualify, the Blind paying by table only when the player
wins); everything a casino varies is a field here, read from the game file.

>>> r = UthRules()
>>> r.scale, r.blind_scaled().tolist()
(2, [1000, 100, 20, 6, 3, 2, 0])
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from pipeline.casino.uth.simple_rules import CATEGORY_FLOOR
from pipeline.core.constants import N_SCORES, TOP_SCORE
from pipeline.errors import InputError

#: Hands a Blind line or the qualifier may name, with the lowest score of each (the royal
#: flush is the top score; the others are categories).
HAND_FLOORS: dict[str, int] = {
    "royal_flush": TOP_SCORE,
    "straight_flush": int(CATEGORY_FLOOR[8]),
    "four_of_a_kind": int(CATEGORY_FLOOR[7]),
    "full_house": int(CATEGORY_FLOOR[6]),
    "flush": int(CATEGORY_FLOOR[5]),
    "straight": int(CATEGORY_FLOOR[4]),
    "three_of_a_kind": int(CATEGORY_FLOOR[3]),
    "two_pair": int(CATEGORY_FLOOR[2]),
    "pair": int(CATEGORY_FLOOR[1]),
    "high_card": 1,
}
#: The published Blind table (Wizard of Odds): royal 500, straight flush 50, quads 10, full
#: house 3, flush 3:2, straight 1; a lower winning hand pushes the Blind.
STANDARD_BLIND: tuple[tuple[str, Fraction], ...] = (
    ("royal_flush", Fraction(500)), ("straight_flush", Fraction(50)), ("four_of_a_kind", Fraction(10)),
    ("full_house", Fraction(3)), ("flush", Fraction(3, 2)), ("straight", Fraction(1)))
#: The line a winning hand below every Blind line falls in (the Blind pushes).
PUSH_LINE = "other"
#: Largest ``scale`` (common denominator of the Blind pays) the exact int64 sums allow.
MAX_SCALE = 1000


@dataclass(frozen=True)
class UthRules:
    """One Ultimate Texas Hold'em game: Play bet sizes (multiples of the ante) pre-flop, at the
    flop and at the river, the dealer's qualifying hand, and the Blind's pays ("to 1") by the
    player's final hand when the player wins, best line first."""

    preflop_bets: tuple[int, ...] = (4, 3)
    flop_bet: int = 2
    river_bet: int = 1
    qualifier: str = "pair"
    blind: tuple[tuple[str, Fraction], ...] = field(default=STANDARD_BLIND)

    def __post_init__(self) -> None:
        bets = (*self.preflop_bets, self.flop_bet, self.river_bet)
        if not self.preflop_bets or any(int(b) != b or b < 1 for b in bets):
            raise InputError(f"Play bets must be whole multiples of the ante, at least 1: got {bets}")
        if self.qualifier not in HAND_FLOORS:
            raise InputError(f"unknown qualifying hand {self.qualifier!r} "
                             f"(hands: {', '.join(HAND_FLOORS)})")
        floors = []
        for name, pay in self.blind:
            if name not in HAND_FLOORS:
                raise InputError(f"unknown Blind line {name!r} (hands: {', '.join(HAND_FLOORS)})")
            if pay < 0:
                raise InputError(f"Blind line {name} pays {pay}: pays must not be negative")
            floors.append(HAND_FLOORS[name])
        if floors != sorted(floors, reverse=True) or len(set(floors)) != len(floors):
            raise InputError("Blind lines must be listed best hand first, each hand once: "
                             f"{', '.join(n for n, _ in self.blind)}")
        if self.scale > MAX_SCALE:
            raise InputError(f"Blind pays need a common denominator of {self.scale}; at most "
                             f"{MAX_SCALE} is supported")

    @property
    def scale(self) -> int:
        """Least common denominator of the Blind pays: values are integers in 1/scale ante."""
        return math.lcm(*(Fraction(p).denominator for _, p in self.blind)) if self.blind else 1

    @property
    def line_names(self) -> tuple[str, ...]:
        """The Blind lines, best first, then :data:`PUSH_LINE` for every lower hand."""
        return (*(n for n, _ in self.blind), PUSH_LINE)

    @property
    def qual_score(self) -> int:
        """Lowest dealer score that qualifies."""
        return HAND_FLOORS[self.qualifier]

    def line_of_score(self) -> np.ndarray:
        """int64[N_SCORES + 1]: the Blind line (index into :attr:`line_names`) of each score."""
        out = np.full(N_SCORES + 1, len(self.blind), np.int64)
        for i in range(len(self.blind) - 1, -1, -1):
            out[HAND_FLOORS[self.blind[i][0]]:] = i
        return out

    def blind_scaled(self) -> np.ndarray:
        """int64[lines]: each line's Blind pay in 1/scale ante (0 for the push line)."""
        s = self.scale
        return np.array([int(p * s) for _, p in self.blind] + [0], np.int64)


__all__ = ["HAND_FLOORS", "STANDARD_BLIND", "PUSH_LINE", "UthRules"]
