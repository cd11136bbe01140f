"""A hold'em equity question for one hand: parsing and checking it, and shaping its answer.

A spot is the hero's two cards, a board of 0, 3, 4 or 5 cards, named opponent hands, dead
cards and a number of random opponents (at most :data:`MAX_OPPONENTS` in all).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Union

import numpy as np

from pipeline.core.cards import format_cards, parse_cards
from pipeline.core.constants import BOARD_CARDS, DECK_SIZE, MAX_OPPONENTS, SHARE_SCALE
from pipeline.equity.hands.symmetry import stabilizer
from pipeline.equity.spots.result import EquityResult, seat_row
from pipeline.errors import InputError

#: Cards as text (``"As Kd"``), ids or card names.
CardsInput = Union[str, Sequence[int], Sequence[str]]


@dataclass(frozen=True)
class Spot:
    """A validated equity question: known cards and how many random opponents."""

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


def make_spot(hole: CardsInput, board: CardsInput = (), opponents: int | None = None,
              vs: Sequence[CardsInput] = (), dead: CardsInput = ()) -> Spot:
    """Parse and check a spot; raises ``InputError`` with a message a user can act on."""
    h = parse_cards(hole, count=2) if not _is_empty(hole) else parse_cards("", count=2)
    b = parse_cards(board) if not _is_empty(board) else []
    if len(b) not in (0, 3, 4, 5):
        raise InputError(f"the board must have 0, 3, 4 or 5 cards, got {len(b)}: {format_cards(b)}")
    named = []
    for i, v in enumerate(vs):
        cards = parse_cards(v)
        if len(cards) != 2:
            raise InputError(f"--vs hand {i + 1} must be 2 cards, got {len(cards)}: "
                             f"{format_cards(cards) or '(none)'}")
        named.append(tuple(cards))
    d = parse_cards(dead) if not _is_empty(dead) else []
    if opponents is None:
        opponents = 0 if named else 1
    if opponents < 0:
        raise InputError(f"--opponents must be 0 or more, got {opponents}")
    total = opponents + len(named)
    if total > MAX_OPPONENTS:
        raise InputError(f"at most {MAX_OPPONENTS} opponents in all, got {total} "
                         f"({opponents} random + {len(named)} named)")
    if total == 0:
        raise InputError("need at least one opponent (--opponents N or --vs HAND)")
    owner: dict[int, str] = {}
    groups = [("hole", h), ("board", b)] + [(f"--vs hand {i + 1}", list(v)) for i, v in
                                             enumerate(named)] + [("dead", d)]
    for name, cards in groups:
        for c in cards:
            if c in owner:
                raise InputError(f"card {format_cards([c])} appears twice (in {owner[c]} and {name})")
            owner[c] = name
    spot = Spot((h[0], h[1]), tuple(b), tuple((v[0], v[1]) for v in named), tuple(d), opponents)
    need = spot.missing_board + 2 * opponents
    have = len(spot.live)
    if need > have:
        raise InputError(f"deck exhausted: the missing board cards and {opponents} random hands "
                         f"need {need} cards but only {have} are left")
    return spot


def _is_empty(x: Any) -> bool:
    if x is None:
        return True
    if isinstance(x, str):
        return not x.strip()
    return len(x) == 0


def spot_result(spot: Spot, method: str, acc: np.ndarray, n: int, seconds: float,
                **extra: Any) -> EquityResult:
    """The answer to ``spot`` from per-player sums ``acc[P, >=4]`` (win, tie, lose, equity
    numerator in 1/SHARE_SCALE pot units; hero first) over ``n`` deals or samples; ``extra``
    holds the method's own fields (stderr, deals or samples, seed, counts)."""
    win, tie, lose, eqn = (int(v) for v in acc[0, :4])
    players = []
    if spot.vs:
        for p, hand in enumerate([spot.hole, *spot.vs]):
            w, t, lo, e = (int(v) for v in acc[p, :4])
            text = format_cards(hand)
            players.append(seat_row("hero" if p == 0 else f"vs{p}", text, 1, w / n, t / n, lo / n,
                                    e / (SHARE_SCALE * n), None, hand=text))
    return EquityResult(
        hole=list(spot.hole), board=list(spot.board), dead=list(spot.dead),
        vs=[list(v) for v in spot.vs], opponents=spot.opponents, method=method,
        win=win / n, tie=tie / n, lose=lose / n, equity=eqn / (SHARE_SCALE * n),
        seconds=seconds, players=players, **extra)


__all__ = ["CardsInput", "Spot", "make_spot", "spot_result", "MAX_OPPONENTS"]
