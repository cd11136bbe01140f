"""The one ranking of poker hand categories: :class:`Category`, weakest first.

Its value is the ``category`` uint8 code of every table (DESIGN.md: 0 high card .. 8 straight
flush) and its :attr:`~Category.label` the name every output prints (``eval``, ``hits``, the
video-poker pay lines, the class table and Parquet columns). Finer names refine a category
(``hits``' "set" and "trips" are three of a kind; video poker's "royal flush" is a straight
flush) and say which one they refine; no module defines the categories' names or order again.

>>> Category.FOUR_OF_A_KIND.label
'four of a kind'
>>> Category.from_label("Full House") > Category.FLUSH
True
>>> CATEGORY_NAMES[0], len(CATEGORY_NAMES)
('high card', 9)
"""

from __future__ import annotations

from enum import IntEnum


class Category(IntEnum):
    """A standard poker hand category; a larger value is a stronger category."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """The printed name: ``"four of a kind"``."""
        return self.name.lower().replace("_", " ")

    @property
    def ranked_by_top_card(self) -> bool:
        """Straights and straight flushes compare by their top card only (a wheel's is the five)."""
        return self in (Category.STRAIGHT, Category.STRAIGHT_FLUSH)

    @classmethod
    def from_label(cls, text: str) -> Category:
        """The category printed as ``text`` (any case and spacing); ``ValueError`` if none."""
        want = " ".join(text.lower().split())
        for c in cls:
            if c.label == want:
                return c
        raise ValueError(f"unknown hand category {text!r} (categories: {', '.join(CATEGORY_NAMES)})")


#: Every category's name by code, weakest first (the ``names`` attribute the tables carry).
CATEGORY_NAMES: tuple[str, ...] = tuple(c.label for c in Category)

__all__ = ["Category", "CATEGORY_NAMES"]
