"""A hold'em question's seats as ranges: each seat's range with the board, the dead cards and
the named hands removed (a hand is a range of one combo, a random seat the range of all 1,326),
checked that the ranges can be dealt together; and the seats flattened for the kernels.

The question's checks (board size, cards named twice, player cap, deck size) are made once, by
:class:`pipeline.equity.question.Question`; what is left here is what only ranges can say.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from pipeline.core.cards import card_text
from pipeline.equity.hands.starting_hands import HOLE_CARDS, HOLE_MASKS, hole_index
from pipeline.equity.question import PARSE_CACHE, Question, parsed_range
from pipeline.equity.ranges.parse import Range, StrengthOrder, parse_range, ranges_fit
from pipeline.equity.spots.seats import Seat, Seats
from pipeline.errors import InputError

if TYPE_CHECKING:
    from pipeline.query.tables import Tables


@dataclass(frozen=True, slots=True)
class Table:
    """The seats in order as ranges after card removal, which of them are random, the cards."""

    seats: tuple[Range, ...]
    random: tuple[bool, ...]
    board: tuple[int, ...]
    dead: tuple[int, ...]

    @property
    def n_random(self) -> int:
        """Seats holding a random hand."""
        return sum(self.random)

    @property
    def ranged(self) -> tuple[Range, ...]:
        """The seats that are not random, in seat order."""
        return tuple(s for s, r in zip(self.seats, self.random) if not r)


def seat_table(q: Question, tables: Tables | None) -> Table:
    """The question's :class:`Table` (``tables`` gives a top-% range its order)."""
    if any("%" in s.text for s in q.seats):
        return _table(q.seats, q.board, q.dead, strength_loader(lambda: _need(tables)))
    return _cached_table(q.seats, q.board, q.dead)


@functools.lru_cache(maxsize=PARSE_CACHE)
def _cached_table(seats: tuple[Seat, ...], board: tuple[int, ...], dead: tuple[int, ...]) -> Table:
    """Tables of questions without top-% ranges, made once per process (read-only ranges)."""
    return _table(seats, board, dead, None)


def _need(tables: Tables | None) -> Tables:
    if tables is None:
        raise InputError("a top-% range needs the preflop table: no tables were given")
    return tables


def _table(seats: tuple[Seat, ...], board: tuple[int, ...], dead: tuple[int, ...],
           strength: StrengthOrder | None) -> Table:
    ranges = [_range(s, strength) for s in seats]
    known = 0
    for c in (*board, *dead, *(c for s in seats for c in s.hand)):
        known |= 1 << c
    why = "the board, dead cards and named hands"
    out = tuple(r if r.is_single else _without(r, known, why, i) for i, r in enumerate(ranges))
    table = Table(out, tuple(s.random for s in seats), board, dead)
    if ranges_fit(table.ranged) is False:
        raise InputError("the ranges cannot all be dealt at once: every assignment of hands "
                         "shares a card", field="vs")
    return table


def _range(seat: Seat, strength: StrengthOrder | None) -> Range:
    """A seat's range: parsed from its text (cached), or the one hand given as cards."""
    if not seat.text:
        return _hand_range(seat.hand)
    if "%" in seat.text:
        return parse_range(seat.text, strength)
    return parsed_range(seat.text)


def _without(r: Range, known: int, why: str, i: int) -> Range:
    try:
        return r.without(known, why)
    except InputError as exc:
        exc.field = exc.field or ("hero" if i == 0 else "vs")
        raise


@functools.lru_cache(maxsize=PARSE_CACHE)
def _hand_range(hand: tuple[int, ...]) -> Range:
    """The range of one hand given as card ids (no text to read)."""
    hands = np.array([hole_index(*hand)], np.int64)
    weights = np.ones(1)
    hands.flags.writeable = False
    weights.flags.writeable = False
    return Range("".join(card_text(c) for c in hand), hands, weights, hand)


def strength_loader(opener: Callable[[], Tables]) -> StrengthOrder:
    """The ``N%`` ordering against ``opponents`` random hands (one by default), read from
    preflop.h5 through ``opener`` only when a token needs it."""
    def get(opponents: int = 1) -> np.ndarray:
        from pipeline.equity.tables.preflop import hand_strength
        from pipeline.errors import ArtifactError

        try:
            return hand_strength(opener(), opponents)
        except ArtifactError as exc:
            raise InputError(f"a top-% range needs the preflop table: {exc}") from None
    return get


def seats_arrays(seats: Sequence[Range]) -> Seats:
    """The kernels' view of the seats (a fresh copy: Monte Carlo rescales its weights)."""
    off = np.zeros(len(seats) + 1, np.int64)
    off[1:] = np.cumsum([s.combos for s in seats])
    hands = np.concatenate([s.hands for s in seats]) if seats else np.zeros(0, np.int64)
    w = np.concatenate([s.weights for s in seats]) if seats else np.zeros(0)
    return Seats(off, np.ascontiguousarray(HOLE_CARDS[hands, 0]),
                 np.ascontiguousarray(HOLE_CARDS[hands, 1]), np.ascontiguousarray(w),
                 np.ascontiguousarray(HOLE_MASKS[hands]), 0)


def parse_table(tables: Tables | None, hero: str, vs: Sequence[str], opponents: int | None,
                board: str, dead: str) -> Table:
    """The :class:`Table` of a question given as text (:meth:`Question.parse`)."""
    return seat_table(Question.parse(hero, vs, opponents, board, dead), tables)


__all__ = ["Table", "parse_table", "seat_table", "seats_arrays", "strength_loader"]
