"""The hands a video-poker pay line may name, strongest first: the poker categories of
:class:`pipeline.core.category.Category` (names from there) and the hands machines pay apart
within them or beyond them with wild cards.

A :class:`PayHand` says which category it is or refines: ``royal flush`` is an ace-high
straight flush without a wild card, ``wild royal flush`` one made with a wild card, ``four
deuces`` the four wild deuces; ``five of a kind`` exists only with wild cards and is no
standard category. A hand's code (its index here) is what a pay line stores and the
classifier kernel branches on.

>>> HAND_NAMES[4:]
('straight flush', 'four of a kind', 'full house', 'flush', 'straight', 'three of a kind', 'two pair', 'pair')
>>> PAY_HANDS[ROYAL].category
<Category.STRAIGHT_FLUSH: 8>
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.core.category import Category


@dataclass(frozen=True)
class PayHand:
    """A hand a pay line may name: the category it is or refines and how it is singled out."""

    name: str
    category: Category | None   # None: five of a kind (wild cards only; no standard category)
    refinement: str = ""        # what singles it out within its category ("" = all of it)


#: The pay hands, strongest first; the categories below the refinements are every category but
#: high card (a hand no line matches pays nothing), strongest first.
PAY_HANDS: tuple[PayHand, ...] = (
    PayHand("royal flush", Category.STRAIGHT_FLUSH, "ace high, no wild card"),
    PayHand("wild royal flush", Category.STRAIGHT_FLUSH, "ace high, with a wild card"),
    PayHand("five of a kind", None, "five of one rank, with wild cards"),
    PayHand("four deuces", Category.FOUR_OF_A_KIND, "the four wild deuces"),
    *(PayHand(c.label, c) for c in reversed(Category) if c is not Category.HIGH_CARD),
)
#: Hand names a line may use, in the usual order of a machine's table (codes are indexes).
HAND_NAMES = tuple(h.name for h in PAY_HANDS)
HAND_CODE = {name: i for i, name in enumerate(HAND_NAMES)}
(ROYAL, WILD_ROYAL, FIVE_KIND, FOUR_DEUCES, STRAIGHT_FLUSH, FOUR_KIND, FULL_HOUSE, FLUSH,
 STRAIGHT, THREE_KIND, TWO_PAIR, PAIR) = range(len(HAND_NAMES))

__all__ = ["PayHand", "PAY_HANDS", "HAND_NAMES", "HAND_CODE", "ROYAL", "WILD_ROYAL", "FIVE_KIND",
           "FOUR_DEUCES", "STRAIGHT_FLUSH", "FOUR_KIND", "FULL_HOUSE", "FLUSH", "STRAIGHT",
           "THREE_KIND", "TWO_PAIR", "PAIR"]
