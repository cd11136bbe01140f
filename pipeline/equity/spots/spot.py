"""The exact counter's view of a hold'em spot: the hero's two cards, the board, named hands,
dead cards and a number of random opponents, as card ids (made from a checked
:class:`pipeline.equity.question.Question`; nothing here checks it again)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.core.constants import BOARD_CARDS, DECK_SIZE
from pipeline.equity.hands.symmetry import stabilizer


@dataclass(frozen=True)
class Spot:
    """Known cards and how many random opponents."""

    hole: tuple[int, int]
    board: tuple[int, ...]
    vs: tuple[tuple[int, int], ...]
    dead: tuple[int, ...]
    opponents: int

    @property
    def live(self) -> np.ndarray:
        """Sorted card ids nobody holds or sees (the deck the unknown cards come from)."""
        known = set(self.hole) | set(self.board) | set(self.dead)
        for h in self.vs:
            known |= set(h)
        return np.array([c for c in range(DECK_SIZE) if c not in known], dtype=np.int64)

    @property
    def missing_board(self) -> int:
        """Board cards still to come."""
        return BOARD_CARDS - len(self.board)

    @property
    def fixed(self) -> np.ndarray:
        """int64[P, 2]: the hands dealt face up, hero first, then the named hands."""
        return np.array([self.hole, *self.vs], dtype=np.int64).reshape(-1, 2)

    def group(self) -> np.ndarray:
        """Suit permutations fixing hero, each named hand, board and dead cards as sets."""
        return stabilizer([self.hole, self.board, self.dead, *self.vs])


__all__ = ["Spot"]
